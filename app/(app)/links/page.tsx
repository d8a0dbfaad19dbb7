import type { Metadata } from "next";
import { LinksView } from "@/components/links/links-view";

export const metadata: Metadata = { title: "Payment links · Stellar Invoicing" };

export default function LinksPage() {
  return <LinksView />;
}
