import type { Metadata } from "next";
import { ClientDetail } from "@/components/clients/client-detail";

export const metadata: Metadata = { title: "Client · Stellar Invoicing" };

export default async function ClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ClientDetail id={id} />;
}
