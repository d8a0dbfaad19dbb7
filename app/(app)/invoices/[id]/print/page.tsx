import type { Metadata } from "next";
import { InvoicePrint } from "@/components/invoices/invoice-print";

export const metadata: Metadata = { title: "Print invoice · Stellar Invoicing" };

export default async function PrintInvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <InvoicePrint id={id} />;
}
