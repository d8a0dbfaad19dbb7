import type { Metadata } from "next";
import { NewQuote } from "@/components/quotes/quote-form";

export const metadata: Metadata = { title: "New quote · Stellar Invoicing" };

export default function NewQuotePage() {
  return <NewQuote />;
}
