import { render } from "@react-email/render";
import { eq } from "drizzle-orm";
import type { ReactElement } from "react";
import type { DbOrTx } from "@/db/client";
import { type emailMessages, invoices } from "@/db/schema";
import type { EmailLayoutProps } from "@/emails/layout";
import type { Config } from "@/lib/config";
import { taxIdLine } from "@/lib/domain/address";
import { schemeLabels } from "@/lib/i18n";
import type { InvoiceWithItems } from "@/lib/services/invoices/store";
import { loadLineItems } from "@/lib/services/invoices/store";
import { getProfile, type ProfileRow, profileLogoUrl } from "@/lib/services/profile/profile";
import { type EmailKind, SERVICE_KINDS, TO_FREELANCER_KINDS } from "./outbox";
import { creditNoteTemplate } from "./templates/credit-note";
import { invoiceTemplate } from "./templates/invoice";
import { paymentNoticeTemplate, receiptTemplate, reminderTemplate } from "./templates/payments";
import { portalLinkTemplate, statementTemplate } from "./templates/portal";
import { quoteTemplate } from "./templates/quote";
import { refundTemplate } from "./templates/refund";
import { unsubscribeUrl } from "./unsubscribe";

export type EmailMessageRow = typeof emailMessages.$inferSelect;
/** What a template reads of an outbox row. */
export type EmailToRender = Pick<
  EmailMessageRow,
  "id" | "wallet" | "invoiceId" | "kind" | "to" | "subject" | "payload" | "dedupeKey"
>;
export type RenderContext = { db: DbOrTx; config: Config };

export type EmailAttachment = { filename: string; content: Buffer; contentType: string };
/** An address object: nodemailer encodes the name, so it never becomes header text. */
export type EmailAddress = { name: string; address: string };

export type RenderedEmail = {
  html: string;
  text: string;
  attachments: EmailAttachment[];
  /** The freelancer's address (profile email, else the invoice's freelancerEmail). */
  replyTo: EmailAddress | null;
  /** payload.unsubscribeUrl: the footer link and the List-Unsubscribe header. */
  unsubscribeUrl: string | null;
};

/** What every template gets: the row, its invoice and the freelancer's profile, loaded once. */
export type TemplateInput = {
  message: EmailToRender;
  ctx: RenderContext;
  invoice: InvoiceWithItems | null;
  profile: ProfileRow | null;
  /** The layout's frame (sender, footer, logo, unsubscribe link): spread into EmailLayout. */
  frame: Omit<EmailLayoutProps, "children" | "preview">;
};

export type TemplateOutput = { element: ReactElement; attachments?: EmailAttachment[] };
export type EmailTemplate = (input: TemplateInput) => Promise<TemplateOutput>;

/**
 * One template per kind (docs/decisions.md, Email). A kind without an entry cannot be rendered:
 * its messages fail at once with "No template".
 */
const TEMPLATES: { [K in EmailKind]?: EmailTemplate } = {
  invoice: invoiceTemplate,
  receipt: receiptTemplate,
  payment_notice: paymentNoticeTemplate,
  reminder: reminderTemplate,
  refund: refundTemplate,
  credit_note: creditNoteTemplate,
  quote: quoteTemplate,
  portal_link: portalLinkTemplate,
  statement: statementTemplate,
};

export class TemplateMissingError extends Error {}
/** The message's invoice no longer exists: the email cannot be rendered (final). */
export class EmailGoneError extends Error {}

/**
 * Renders an outbox row at delivery time: the template's React element to HTML and plain text
 * (@react-email/render; React escapes every value), plus its attachments and Reply-To.
 */
export async function renderEmail(
  message: EmailToRender,
  ctx: RenderContext,
): Promise<RenderedEmail> {
  const template = TEMPLATES[message.kind];
  if (!template) throw new TemplateMissingError(`No template for ${message.kind} emails`);
  const invoice = message.invoiceId ? await loadInvoice(ctx.db, message.invoiceId) : null;
  if (message.invoiceId && !invoice) throw new EmailGoneError("Invoice no longer exists");
  const profile = await getProfile(ctx.db, message.wallet);
  // A notification to the freelancer is the service's, not the client's letter: no profile
  // footer, no Reply-To to themselves, and no link that would stop the client's reminders.
  const toFreelancer = TO_FREELANCER_KINDS.has(message.kind);
  // The portal's sign-in email is the service's own letter (it may name several freelancers):
  // sent as the service, in the payload's language, without any freelancer's footer or Reply-To.
  const fromService = SERVICE_KINDS.has(message.kind);
  // Every message to the client about an invoice can stop its reminders (docs/decisions.md, Email).
  const unsubscribe =
    toFreelancer || fromService
      ? null
      : (stringOf(message.payload.unsubscribeUrl) ??
        (message.invoiceId ? unsubscribeUrl(ctx.config, message.invoiceId) : null));
  const frame: TemplateInput["frame"] = fromService
    ? { sender: ctx.config.serviceName, serviceName: ctx.config.serviceName }
    : {
        sender: senderName(profile, invoice),
        company: profile?.company ?? invoice?.freelancerCompany ?? null,
        // The seller's tax id on the client's letters (docs/decisions.md, Tax identities).
        taxId: toFreelancer
          ? null
          : taxIdLine(profile?.taxId, profile?.taxScheme, schemeLabels(invoice?.language ?? "en")),
        serviceName: ctx.config.serviceName,
        footer: toFreelancer ? null : (profile?.emailFooter ?? null),
        logoUrl: profileLogoUrl(ctx.config.appUrl, profile),
        unsubscribeUrl: unsubscribe,
        // The client's letters in the invoice's language; the freelancer's in English.
        lang: toFreelancer ? "en" : (invoice?.language ?? "en"),
      };
  const out = await template({ message, ctx, invoice, profile, frame });
  const [html, text] = await Promise.all([
    render(out.element),
    render(out.element, { plainText: true }),
  ]);
  const replyAddress =
    toFreelancer || fromService ? null : (profile?.email ?? invoice?.freelancerEmail ?? null);
  return {
    html,
    text,
    attachments: out.attachments ?? [],
    replyTo: replyAddress ? { name: frame.sender, address: replyAddress } : null,
    unsubscribeUrl: unsubscribe,
  };
}

/** Who the email is from: the profile's name or company, else the invoice's, else the service. */
function senderName(profile: ProfileRow | null, invoice: InvoiceWithItems | null): string {
  return (
    profile?.displayName ??
    profile?.company ??
    invoice?.freelancerName ??
    invoice?.freelancerCompany ??
    "Your freelancer"
  );
}

async function loadInvoice(db: DbOrTx, id: string): Promise<InvoiceWithItems | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  if (!row) return null;
  return { ...row, lineItems: await loadLineItems(db, id) };
}

const stringOf = (v: unknown) => (typeof v === "string" && v ? v : null);
