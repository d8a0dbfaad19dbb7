import { partyLines } from "@/lib/domain/address";
import { breakdownOf } from "@/lib/domain/tax";
import { formatPriced, isZero } from "@/lib/format";
import { schemeLabels, translator } from "@/lib/i18n";
import { formatDay, localizeAmount, localizeNumber } from "@/lib/i18n/format";
import type { QuoteInvoiceBody } from "@/lib/schemas/quotes";
import type { ServiceContext } from "@/lib/services/context";
import {
  breakdownRows,
  drawHeader,
  drawItems,
  drawParties,
  drawTotals,
  INK,
  MUTED,
  openPdf,
  type TotalRow,
  taxedItemRows,
} from "@/lib/services/documents/pdf-frame";
import { getProfile, pdfProfileOf } from "@/lib/services/profile/profile";
import { getPublicQuote } from "./quotes";
import type { QuoteRow } from "./store";

/**
 * A quote as a PDF (A4, the invoice PDF's fonts and colours; docs/decisions.md, Quotes), in the
 * quote's language: title and number, issue date and validity, seller and buyer, the lines with
 * their tax, the tax breakdown and the total. The client's copy: no notes, no emails.
 */
export function renderQuotePdf(
  quote: QuoteRow,
  options: { sellerLines?: string[]; compress?: boolean } = {},
): Promise<Buffer> {
  const lang = quote.language;
  const tr = translator(lang);
  const body = quote.body as QuoteInvoiceBody;
  const day = (d: Date) => formatDay(d, lang);
  const num = (v: string) => localizeNumber(v, lang);
  const amt = (text: string) => localizeAmount(text, lang);
  const money = (v: string) => amt(formatPriced(v, quote));
  const unit = quote.priceCurrency ?? quote.currency;
  const frame = openPdf({
    compress: options.compress,
    info: {
      Title: tr("quote.heading", { number: quote.number }),
      Author: body.freelancerName ?? body.freelancerCompany ?? quote.wallet,
    },
  });
  const { doc, done, left, width } = frame;

  drawHeader(frame, {
    title: tr("quote.title"),
    number: quote.number,
    lines: [
      { text: tr("quote.issued", { date: day(quote.sentAt ?? quote.createdAt) }) },
      { text: tr("quote.validUntil", { date: day(new Date(`${quote.validUntil}T00:00:00Z`)) }) },
    ],
  });
  // The client's copy: the seller without email or wallet.
  let y =
    drawParties(
      frame,
      120,
      {
        label: tr("quote.from"),
        lines: [body.freelancerName, body.freelancerCompany, ...(options.sellerLines ?? [])],
      },
      {
        label: tr("quote.to"),
        lines: [
          quote.clientName,
          body.clientCompany,
          ...partyLines(
            {
              address: body.clientAddress ?? null,
              postalAddress: (body.clientPostalAddress ?? null) as never,
              taxId: body.clientTaxId ?? null,
              taxScheme: body.clientTaxScheme ?? null,
            },
            schemeLabels(lang),
          ),
        ],
      },
    ) + 16;
  doc.font("Bold").fontSize(12).fillColor(INK).text(quote.title, left, y, { width });
  if (body.description) {
    doc
      .font("Body")
      .fontSize(10)
      .text(body.description, left, doc.y + 4, { width });
  }
  y = doc.y + 16;

  y = drawItems(
    frame,
    y,
    {
      description: tr("quote.description"),
      tax: tr("quote.tax"),
      quantity: tr("quote.quantity"),
      rate: tr("quote.rate", { unit }),
      amount: tr("quote.amount", { unit }),
    },
    taxedItemRows(quote.lineItems, quote.taxRate, { num, amt }),
  );

  const rows: TotalRow[] = [[tr("quote.subtotal"), money(quote.subtotal), false]];
  if (!isZero(quote.discount))
    rows.push([tr("quote.discount"), `-${money(quote.discount)}`, false]);
  // A zero standard-rate row says nothing on a quote: left out.
  const taxed = breakdownOf(quote).filter((r) => !(isZero(r.taxAmount) && r.category === "S"));
  rows.push(...breakdownRows(taxed, tr, money, { num }));
  rows.push([tr("quote.total"), money(quote.total), true]);
  y = drawTotals(frame, y, rows, { reserve: 60, wide: true });
  doc
    .font("Body")
    .fontSize(9)
    .fillColor(MUTED)
    .text(tr("quote.paidIn", { asset: quote.currency }), left, y + 8, { width });
  doc.end();
  return done;
}

/** GET /api/quotes/:id/pdf: the quote's PDF, for the client's page and the owner alike. */
export async function quotePdf(
  ctx: ServiceContext,
  id: string,
): Promise<{ pdf: Buffer; number: string }> {
  const quote = await getPublicQuote(ctx, id);
  const profile = await getProfile(ctx.db, quote.wallet);
  const lines = pdfProfileOf(profile, quote.language)?.lines ?? [];
  const pdf = await renderQuotePdf(quote, {
    sellerLines: lines.filter((l): l is string => Boolean(l)),
  });
  return { pdf, number: quote.number };
}
