import type { Metadata } from "next";
import { EditInvoice } from "@/components/invoices/invoice-editor";

export const metadata: Metadata = { title: "Edit invoice · Stellar Invoicing" };

export default async function EditInvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EditInvoice id={id} />;
}
