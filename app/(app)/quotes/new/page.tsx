import type { Metadata } from "next";
import { NewQuote } from "@/components/quotes/new-quote";

export const metadata: Metadata = { title: "New quote · Stellar Invoicing" };

export default function NewQuotePage() {
  return <NewQuote />;
}
