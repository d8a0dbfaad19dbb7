import type { Metadata } from "next";
import { EditRecurring } from "@/components/recurring/recurring-editor";

export const metadata: Metadata = { title: "Edit recurring invoice · Stellar Invoicing" };

export default async function EditRecurringPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EditRecurring id={id} />;
}
