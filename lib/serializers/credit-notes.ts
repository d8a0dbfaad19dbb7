import { sameInBothForms } from "@/lib/http/forms";
import { creditNotePage, creditNoteView } from "@/lib/schemas/credit-notes";
import type { FormB } from "@/lib/schemas/wire";
import type { CreditNotePage, CreditNoteRow } from "@/lib/services/credit-notes/credit-notes";

type Body = FormB<typeof creditNoteView>;

/** A credit note with the number of the invoice it corrects. */
export type CreditNoteOut = CreditNoteRow & { invoiceNumber: string };

const body = (n: CreditNoteOut): Body => ({
  id: n.id,
  number: n.number,
  invoiceId: n.invoiceId,
  invoiceNumber: n.invoiceNumber,
  kind: n.kind,
  reason: n.reason,
  lines: n.lines,
  subtotal: n.subtotal,
  discount: n.discount,
  taxBreakdown: n.taxBreakdown,
  taxAmount: n.taxAmount,
  total: n.total,
  unit: n.unit,
  taxInCurrency:
    n.taxCurrency && n.taxExchangeRate && n.taxAmountInTaxCurrency
      ? {
          currency: n.taxCurrency,
          rate: n.taxExchangeRate,
          taxAmount: n.taxAmountInTaxCurrency,
          breakdown: n.taxBreakdownInTaxCurrency ?? [],
        }
      : null,
  refundId: n.refundId,
  pdfUrl: `/api/credit-notes/${n.id}/pdf`,
  createdAt: n.createdAt.toISOString(),
});

/** A credit note (POST 201, GET): the same in both forms. */
export const creditNoteSerializer = sameInBothForms(creditNoteView, body);

export const creditNotePageSerializer = sameInBothForms(
  creditNotePage,
  (p: CreditNotePage): FormB<typeof creditNotePage> => ({
    creditNotes: p.creditNotes.map(body),
    total: p.total,
    totalExact: p.totalExact,
    limit: p.limit,
    offset: p.offset,
    hasMore: p.hasMore,
  }),
);
