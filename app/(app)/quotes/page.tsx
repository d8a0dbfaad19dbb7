import type { Metadata } from "next";
import { QuoteList } from "@/components/quotes/quote-list";

export const metadata: Metadata = { title: "Quotes · Stellar Invoicing" };

export default function QuotesPage() {
  return <QuoteList />;
}
