"use client";

import { useState } from "react";
import { InvoiceForm } from "@/components/invoices/invoice-form";
import { Card } from "@/components/ui/card";
import { Field, OptionsSelect } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { defaultValidUntil } from "@/lib/domain/quote-state";

const ON_ACCEPT: [string, string][] = [
  ["draft", "Make a draft invoice I send myself"],
  ["send", "Send the invoice to the client at once"],
];

/**
 * A new quote: the invoice form itself (its client, lines, tax, pricing and language sections),
 * as a template, with the quote's validity and what acceptance does.
 */
export function NewQuote() {
  const [validUntil, setValidUntil] = useState(() => defaultValidUntil(new Date()));
  const [onAccept, setOnAccept] = useState("draft");
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
    <>
      <PageHeader
        title="New quote"
        description="Saved as a draft. Send it and your client accepts or declines it online."
      />
      <InvoiceForm quote={{ terms, extra: () => ({ validUntil, onAccept }) }} />
    </>
  );
}
