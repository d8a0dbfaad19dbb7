import type { Metadata } from "next";
import { WebhooksView } from "@/components/webhooks/webhooks-view";

export const metadata: Metadata = { title: "Webhooks · Stellar Invoicing" };

export default function WebhooksPage() {
  return <WebhooksView />;
}
