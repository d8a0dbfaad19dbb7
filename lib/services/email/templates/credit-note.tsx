import { eq } from "drizzle-orm";
import { creditNotes } from "@/db/schema";
import { CreditNoteEmail } from "@/emails/credit-note";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { formatPriced } from "@/lib/format";
import { translator } from "@/lib/i18n";
import type { CreditNoteEmailPayload } from "@/lib/services/credit-notes/credit-note-email";
import { creditNoteDocument } from "@/lib/services/credit-notes/credit-note-pdf-file";
import { creditNoteLanguage } from "@/lib/services/credit-notes/language";
import type { EmailTemplate } from "../render";

/** The credit note email, in the invoice's language, with the credit note's PDF attached. */
export const creditNoteTemplate: EmailTemplate = async ({ message, ctx, invoice, frame }) => {
  if (!invoice) throw new Error("A credit note email needs its invoice");
  const { creditNoteId } = message.payload as CreditNoteEmailPayload;
  const [note] = await ctx.db.select().from(creditNotes).where(eq(creditNotes.id, creditNoteId));
  if (!note) throw new Error("The credit note no longer exists");
  const tr = translator(creditNoteLanguage(invoice));
  // The same document as GET /api/credit-notes/:id/pdf (Factur-X when it can be).
  const pdf = await creditNoteDocument(ctx.db, ctx.config, note, invoice);
  const values = {
    number: note.number,
    invoiceNumber: invoice.invoiceNumber,
    sender: frame.sender,
  };
  return {
    element: (
      <CreditNoteEmail
        {...frame}
        preview={`${tr("creditNote.title")} ${note.number}`}
        greeting={
          invoice.clientName
            ? tr("creditNote.emailGreeting", { name: invoice.clientName })
            : tr("creditNote.emailGreetingNoName")
        }
        body={tr("creditNote.emailBody", values)}
        facts={[
          {
            label: tr("creditNote.emailCredited"),
            value: formatPriced(note.total, invoice),
            big: true,
          },
          {
            label: tr("creditNote.emailInvoice"),
            value: `${invoice.invoiceNumber}: ${invoice.title}`,
          },
          {
            label: tr("creditNote.emailAmountDue"),
            value: formatPriced(invoiceAmountDue(invoice), invoice),
          },
        ]}
        reason={`${tr("creditNote.reason")}: ${note.reason}`}
      />
    ),
    attachments: [{ filename: `${note.number}.pdf`, content: pdf, contentType: "application/pdf" }],
  };
};
