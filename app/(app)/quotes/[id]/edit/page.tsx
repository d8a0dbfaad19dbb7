import type { Metadata } from "next";
import { EditQuote } from "@/components/quotes/quote-form";

export const metadata: Metadata = { title: "Edit quote · Stellar Invoicing" };

export default async function EditQuotePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EditQuote id={id} />;
}
