"use client";

import Link from "next/link";
import { useState } from "react";
import { InvoiceForm } from "@/components/invoices/invoice-form";
import { textLinkClass } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, OptionsSelect } from "@/components/ui/field";
import { Loading, PageHeader } from "@/components/ui/page";
import type { DraftInvoice } from "@/lib/client/invoice-form";
import { useResource } from "@/lib/client/use-resource";
import { DEFAULT_QUOTE_TTL_MINUTES } from "@/lib/domain/fiat";
import { defaultValidUntil, quoteAllows } from "@/lib/domain/quote-state";
import type { OwnerQuoteBody } from "@/lib/schemas/quotes";

const ON_ACCEPT: [string, string][] = [
  ["draft", "Make a draft invoice I send myself"],
  ["send", "Send the invoice to the client at once"],
];

/**
 * A quote's form: the invoice form itself (its client, lines, tax, pricing and language
 * sections), as a template, with the quote's validity and what acceptance does.
 */
function QuoteForm({ quote }: { quote?: OwnerQuoteBody }) {
  const [validUntil, setValidUntil] = useState(
    () => quote?.validUntil ?? defaultValidUntil(new Date()),
  );
  const [onAccept, setOnAccept] = useState<string>(quote?.onAccept ?? "draft");
  const terms = (
    <Card title="Quote">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          label="Valid until"
          type="date"
          name="validUntil"
          value={validUntil}
          onChange={(e) => setValidUntil(e.target.value)}
        />
        <OptionsSelect
          label="When the client accepts"
          options={ON_ACCEPT}
          name="onAccept"
          value={onAccept}
          onChange={(e) => setOnAccept(e.target.value)}
        />
      </div>
    </Card>
  );
  return (
    <InvoiceForm
      invoice={quote && asDraft(quote)}
      quote={{ terms, extra: () => ({ validUntil, onAccept }) }}
    />
  );
}

/** A draft quote as the invoice form edits a draft: what an invoice has and a quote has not is blank. */
function asDraft(q: OwnerQuoteBody): DraftInvoice & { id: string } {
  return {
    ...q,
    invoiceNumber: "",
    dueDate: null,
    quoteTtlMinutes: DEFAULT_QUOTE_TTL_MINUTES,
    paymentTolerance: "0",
    reminders: null,
    lineItems: q.lineItems.map((l) => ({ ...l, invoiceId: q.id })),
  };
}

export function NewQuote() {
  return (
    <>
      <PageHeader
        title="New quote"
        description="Saved as a draft. Send it and your client accepts or declines it online."
      />
      <QuoteForm />
    </>
  );
}

/** Loads the owner view; only drafts may be edited. */
export function EditQuote({ id }: { id: string }) {
  const { data, error, loading } = useResource<OwnerQuoteBody>(`/api/quotes/${id}/owner`);
  if (error) return <Alert>{error}</Alert>;
  if (!data || loading) return <Loading what="quote" />;
  return (
    <>
      <PageHeader title={`Edit ${data.number}`} description={data.title} />
      {quoteAllows(data.status, "update") ? (
        <QuoteForm quote={data} />
      ) : (
        <Alert kind="info">
          Only draft quotes can be edited.{" "}
          <Link href={`/quotes/${id}`} className={textLinkClass}>
            Back to the quote
          </Link>
        </Alert>
      )}
    </>
  );
}
