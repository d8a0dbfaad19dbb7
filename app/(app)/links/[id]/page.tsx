import type { Metadata } from "next";
import { LinkDetail } from "@/components/links/link-detail";

export const metadata: Metadata = { title: "Payment link · Stellar Invoicing" };

export default async function LinkPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <LinkDetail id={id} />;
}
