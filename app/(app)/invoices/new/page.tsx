import type { Metadata } from "next";
import { NewInvoice } from "@/components/invoices/invoice-editor";

export const metadata: Metadata = { title: "New invoice · Stellar Invoicing" };

export default function NewInvoicePage() {
  return <NewInvoice />;
}
