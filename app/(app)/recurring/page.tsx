import type { Metadata } from "next";
import { RecurringView } from "@/components/recurring/recurring-view";

export const metadata: Metadata = { title: "Recurring invoices · Stellar Invoicing" };

/** `?created=<id>` or `?saved=<id>`: the form just made or changed that schedule. */
export default async function RecurringPage({
  searchParams,
}: {
  searchParams: Promise<{ created?: string; saved?: string }>;
}) {
  const { created, saved } = await searchParams;
  return <RecurringView just={created ? { created } : saved ? { saved } : undefined} />;
}
