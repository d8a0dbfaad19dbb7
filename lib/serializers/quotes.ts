import { breakdownOf } from "@/lib/domain/tax";
import { sameInBothForms, type WireContext } from "@/lib/http/forms";
import { INVOICE_DATA_KEYS, INVOICE_TEXT_KEYS } from "@/lib/schemas/invoices";
import {
  deletedQuote,
  type OwnerQuoteBody,
  ownerQuote,
  type PublicQuoteBody,
  publicQuote,
  quotePage,
} from "@/lib/schemas/quotes";
import type { FormB } from "@/lib/schemas/wire";
import type { AcceptedQuote } from "@/lib/services/quotes/accept";
import { quotePageUrl } from "@/lib/services/quotes/quote-email";
import type { QuotePage } from "@/lib/services/quotes/quotes";
import type { OwnerQuote, QuoteRow } from "@/lib/services/quotes/store";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What the client and the owner both see (lib/schemas/quotes.ts, quoteCommon). */
function common(q: QuoteRow, { appUrl }: WireContext): PublicQuoteBody {
  const body = q.body as Record<string, unknown>;
  const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
  return {
    id: q.id,
    number: q.number,
    status: q.status,
    validUntil: q.validUntil,
    title: q.title,
    description: text("description"),
    freelancerName: text("freelancerName"),
    freelancerCompany: text("freelancerCompany"),
    clientName: q.clientName,
    clientCompany: text("clientCompany"),
    language: q.language,
    currency: q.currency,
    priceCurrency: q.priceCurrency,
    networkPassphrase: q.networkPassphrase,
    subtotal: q.subtotal,
    taxRate: q.taxRate,
    taxAmount: q.taxAmount,
    discount: q.discount,
    total: q.total,
    taxBreakdown: breakdownOf(q),
    lineItems: q.lineItems,
    onAccept: q.onAccept,
    sentAt: iso(q.sentAt),
    acceptedAt: iso(q.acceptedAt),
    declinedAt: iso(q.declinedAt),
    expiredAt: iso(q.expiredAt),
    invoiceId: q.invoiceId,
    quoteUrl: quotePageUrl(appUrl, q.id),
    pdfUrl: `/api/quotes/${q.id}/pdf`,
    createdAt: q.createdAt.toISOString(),
  };
}

function owner(q: OwnerQuote, context: WireContext): OwnerQuoteBody {
  const body = q.body as Record<string, unknown>;
  // The invoice's stored fields as the quote's body has them (null when left out).
  const stored = Object.fromEntries(
    [...INVOICE_TEXT_KEYS, ...INVOICE_DATA_KEYS].map((k) => [k, body[k] ?? null]),
  ) as Pick<
    OwnerQuoteBody,
    (typeof INVOICE_TEXT_KEYS)[number] | (typeof INVOICE_DATA_KEYS)[number]
  >;
  return {
    ...common(q, context),
    ...stored,
    clientName: q.clientName,
    clientEmail: q.clientEmail,
    title: q.title,
    language: q.language,
    emailClient: body.emailClient !== false,
    acceptedName: q.acceptedName,
    acceptedIp: q.acceptedIp,
    declineReason: q.declineReason,
    updatedAt: q.updatedAt.toISOString(),
    auditLogs: q.auditLogs.map((a) => ({
      id: a.id,
      action: a.action,
      actorWallet: a.actorWallet,
      changes: a.changes,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

/** The owner's quote (create, update, send, owner view): the same in both forms. */
export const ownerQuoteSerializer = sameInBothForms(ownerQuote, owner);

/** The client's view: no emails, addresses, notes, IP or audit trail. */
export const publicQuoteSerializer = sameInBothForms(publicQuote, common);

/** An accept's answer: the client's view, its invoiceId naming the invoice made. */
export const acceptedQuoteSerializer = sameInBothForms(publicQuote, (a: AcceptedQuote, c) =>
  common(a.quote, c),
);

export const quotePageSerializer = sameInBothForms(
  quotePage,
  (p: QuotePage): FormB<typeof quotePage> => ({
    quotes: p.quotes.map((q) => ({
      id: q.id,
      number: q.number,
      status: q.status,
      title: q.title,
      clientName: q.clientName,
      clientEmail: q.clientEmail,
      total: q.total,
      currency: q.currency,
      priceCurrency: q.priceCurrency,
      networkPassphrase: q.networkPassphrase,
      validUntil: q.validUntil,
      invoiceId: q.invoiceId,
      createdAt: q.createdAt.toISOString(),
    })),
    total: p.total,
    totalExact: p.totalExact,
    limit: p.limit,
    offset: p.offset,
    hasMore: p.hasMore,
  }),
);

export const deletedQuoteSerializer = sameInBothForms(deletedQuote, () => ({
  success: true as const,
}));
