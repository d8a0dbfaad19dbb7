import type { Metadata } from "next";
import { NewRecurring } from "@/components/recurring/recurring-editor";

export const metadata: Metadata = { title: "New recurring invoice · Stellar Invoicing" };

export default function NewRecurringPage() {
  return <NewRecurring />;
}
