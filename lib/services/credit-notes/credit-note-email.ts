import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import type { Config } from "@/lib/config";
import { formatPriced } from "@/lib/format";
import { translator } from "@/lib/i18n";
import { NOT_CONFIGURED } from "@/lib/services/email/deliver";
import { enqueueEmail, isSingleAddress, oneLine } from "@/lib/services/email/outbox";
import type { InvoiceRow } from "@/lib/services/invoices/store";
import { getProfile } from "@/lib/services/profile/profile";
import type { CreditNoteRow } from "./credit-notes";
import { creditNoteLanguage } from "./language";

/** What the credit note email's template reads (lib/services/email/templates/credit-note.tsx). */
export type CreditNoteEmailPayload = { creditNoteId: string };

/**
 * The client's email about a credit note, queued in its transaction (docs/decisions.md, Credit
 * notes) when the invoice emails its client and has one address; the PDF is attached at
 * delivery. Once per credit note: the key is `credit_note:<id>`. In the invoice's language.
 */
export async function queueCreditNoteEmail(
  tx: DbOrTx,
  config: Config,
  invoice: InvoiceRow,
  note: CreditNoteRow,
  now: Date,
): Promise<void> {
  if (!invoice.emailClient || !isSingleAddress(invoice.clientEmail)) return;
  const profile = await getProfile(tx, invoice.freelancerWallet);
  const sender =
    profile?.displayName ??
    profile?.company ??
    invoice.freelancerName ??
    invoice.freelancerCompany ??
    config.serviceName;
  const tr = translator(creditNoteLanguage(invoice));
  const dedupeKey = `credit_note:${note.id}`;
  const payload: CreditNoteEmailPayload = { creditNoteId: note.id };
  await enqueueEmail(
    tx,
    {
      wallet: invoice.freelancerWallet,
      invoiceId: invoice.id,
      kind: "credit_note",
      dedupeKey,
      to: invoice.clientEmail,
      subject: oneLine(
        tr("creditNote.emailSubject", {
          number: note.number,
          invoiceNumber: invoice.invoiceNumber,
          sender,
          total: formatPriced(note.total, invoice),
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
