import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import type { Config } from "@/lib/config";
import { formatPriced } from "@/lib/format";
import { translator } from "@/lib/i18n";
import { NOT_CONFIGURED } from "@/lib/services/email/deliver";
import { enqueueEmail, isSingleAddress, oneLine } from "@/lib/services/email/outbox";
import { getProfile } from "@/lib/services/profile/profile";
import type { QuoteRow } from "./store";

/** What the quote email's template reads (lib/services/email/templates/quote.tsx). */
export type QuoteEmailPayload = { quoteId: string };

/** The client's page of a quote. */
export const quotePageUrl = (appUrl: string, id: string) => `${appUrl}/quote/${id}`;

/**
 * The client's email about a sent quote, queued in the send's transaction (docs/decisions.md,
 * Quotes), in the quote's language, with the link to /quote/<id>. Once per quote: the key is
 * `quote:<id>:sent`. A quote whose body says `emailClient: false`, or whose address is not one
 * address, is sent without an email.
 */
export async function queueQuoteEmail(
  tx: DbOrTx,
  config: Config,
  quote: QuoteRow,
  now: Date,
): Promise<void> {
  if (quote.body.emailClient === false || !isSingleAddress(quote.clientEmail)) return;
  const profile = await getProfile(tx, quote.wallet);
  const body = quote.body as { freelancerName?: string | null; freelancerCompany?: string | null };
  const sender =
    profile?.displayName ??
    profile?.company ??
    body.freelancerName ??
    body.freelancerCompany ??
    config.serviceName;
  const tr = translator(quote.language);
  const dedupeKey = `quote:${quote.id}:sent`;
  const payload: QuoteEmailPayload = { quoteId: quote.id };
  await enqueueEmail(
    tx,
    {
      wallet: quote.wallet,
      invoiceId: null,
      kind: "quote",
      dedupeKey,
      to: quote.clientEmail,
      subject: oneLine(
        tr("quote.emailSubject", {
          number: quote.number,
          sender,
          total: formatPriced(quote.total, quote),
        }),
      ).slice(0, 250),
      payload,
    },
    now,
  );
  // Without SMTP the row is closed at once, as the invoice email's (invoice-email.ts).
  if (!config.email.smtpUrl) {
    await tx
      .update(emailMessages)
      .set({ status: "skipped", lastError: NOT_CONFIGURED })
      .where(and(eq(emailMessages.dedupeKey, dedupeKey), eq(emailMessages.status, "pending")));
  }
}
