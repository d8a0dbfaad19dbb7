import { and, desc, eq, inArray, isNotNull, isNull, ne } from "drizzle-orm";
import { clients, creditNotes, invoices, payments, salesQuotes } from "@/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import { amountUnit, invoiceAmountDue } from "@/lib/domain/fiat";
import { toStroops } from "@/lib/domain/money";
import { eInvoiceProblems } from "@/lib/einvoice";
import type { Language } from "@/lib/i18n";
import { costlyPolicy } from "@/lib/ratelimit/policies";
import type { EInvoiceFormat } from "@/lib/schemas/einvoice";
import type { StatementQuery } from "@/lib/schemas/statements";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import { creditNotePdf } from "@/lib/services/credit-notes/credit-note-pdf-file";
import {
  EINVOICE_FORMATS,
  type EInvoiceInvoice,
  invoiceEInvoice,
  invoiceEInvoiceInput,
  PROFILE_OF,
} from "@/lib/services/invoices/einvoice";
import { documentPaths } from "@/lib/services/invoices/public-documents";
import { type LineItemRow, loadLineItemsOf } from "@/lib/services/invoices/store";
import { getProfile, type ProfileRow } from "@/lib/services/profile/profile";
import { type Statement, statementFile, statementOf } from "@/lib/services/statements/statement";
import type { AuthedContext, ServiceContext } from "../context";
import { type PortalSession, sameEmail } from "./session";

// What a signed-in client sees (docs/decisions.md, Client portal): one freelancer's documents
// addressed to one email, nothing else. Every read here is scoped by the session's owner and
// email; a document outside that scope is 404, as an unknown one.

export const PORTAL_NOT_FOUND = "Not found";

/** The owner's context for reusing the owner's services on the session's freelancer. */
const asOwner = (ctx: ServiceContext, session: PortalSession): AuthedContext => ({
  ...ctx,
  apiKey: undefined,
  session: undefined,
  wallet: session.ownerWallet,
});

/** The business name a client knows the freelancer by. */
export const businessName = (profile: ProfileRow | null, fallback?: string | null) =>
  profile?.company ?? profile?.displayName ?? fallback ?? "Your freelancer";

/** The session's invoices: sent (not drafts), not deleted, not payment links, to its email. */
const clientInvoices = (session: PortalSession) =>
  and(
    eq(invoices.freelancerWallet, session.ownerWallet),
    eq(invoices.kind, "INVOICE"),
    isNull(invoices.deletedAt),
    ne(invoices.status, "DRAFT"),
    isNotNull(invoices.sentAt),
    sameEmail(invoices.clientEmail, session.clientEmail),
  );

export type PortalOverview = Awaited<ReturnType<typeof portalOverview>>;

/** GET /api/portal: the freelancer, the client, and the client's documents. */
export async function portalOverview(ctx: ServiceContext, session: PortalSession) {
  const owner = asOwner(ctx, session);
  const [profile, rows, quoteRows] = await Promise.all([
    getProfile(ctx.db, session.ownerWallet),
    ctx.db
      .select()
      .from(invoices)
      .where(clientInvoices(session))
      .orderBy(desc(invoices.sentAt), desc(invoices.id)),
    ctx.db
      .select()
      .from(salesQuotes)
      .where(
        and(
          eq(salesQuotes.wallet, session.ownerWallet),
          isNull(salesQuotes.deletedAt),
          ne(salesQuotes.status, "DRAFT"),
          sameEmail(salesQuotes.clientEmail, session.clientEmail),
        ),
      )
      .orderBy(desc(salesQuotes.createdAt), desc(salesQuotes.id)),
  ]);
  const client = await portalClient(owner, session);
  const ids = rows.map((r) => r.id);
  const [paid, notes, lines] = ids.length
    ? await Promise.all([
        ctx.db
          .select()
          .from(payments)
          .where(and(inArray(payments.invoiceId, ids), eq(payments.applied, true)))
          .orderBy(desc(payments.confirmedAt)),
        ctx.db
          .select()
          .from(creditNotes)
          .where(inArray(creditNotes.invoiceId, ids))
          .orderBy(desc(creditNotes.createdAt)),
        loadLineItemsOf(ctx.db, ids),
      ])
    : [[], [], new Map<string, LineItemRow[]>()];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const invoiceList = rows.map((r) => {
    const docs = documentPaths(ctx.config, r.id);
    return {
      id: r.id,
      number: r.invoiceNumber,
      status: r.status,
      total: r.total,
      amountPaid: r.amountPaid,
      amountDue: invoiceAmountDue(r),
      currency: amountUnit(r),
      asset: r.currency,
      issuedAt: r.sentAt as Date,
      dueDate: r.dueDate,
      payUrl: `/pay/${r.id}`,
      pdfUrl: docs.invoicePdf,
      receiptUrl: toStroops(r.amountPaid) > 0n ? docs.receipt : null,
      eInvoiceUrls: eInvoiceUrls(ctx.config, profile, { ...r, lineItems: lines.get(r.id) ?? [] }),
    };
  });
  return {
    business: businessName(profile, rows[0]?.freelancerCompany ?? rows[0]?.freelancerName),
    client: { name: client.name, email: client.email, company: client.company },
    language: (client.language ?? rows[0]?.language ?? "en") as Language,
    invoices: invoiceList,
    quotes: quoteRows.map((q) => ({
      id: q.id,
      number: q.number,
      title: q.title,
      status: q.status,
      total: q.total,
      currency: q.priceCurrency ?? q.currency,
      validUntil: q.validUntil,
      pageUrl: `/quote/${q.id}`,
      pdfUrl: `/api/quotes/${q.id}/pdf`,
      invoiceId: q.invoiceId,
    })),
    creditNotes: notes.map((n) => {
      const inv = byId.get(n.invoiceId);
      return {
        id: n.id,
        number: n.number,
        invoiceNumber: inv?.invoiceNumber ?? "",
        total: n.total,
        currency: inv ? amountUnit(inv) : "",
        createdAt: n.createdAt,
        pdfUrl: `/api/portal/credit-notes/${n.id}/pdf`,
      };
    }),
    payments: paid.map((p) => {
      const inv = byId.get(p.invoiceId);
      return {
        id: p.id,
        invoiceId: p.invoiceId,
        invoiceNumber: inv?.invoiceNumber ?? "",
        amount: p.amount,
        asset: p.asset,
        method: p.method,
        status: p.status,
        transactionHash: p.transactionHash,
        confirmedAt: p.confirmedAt,
        receiptUrl: documentPaths(ctx.config, p.invoiceId).receipt,
      };
    }),
  };
}

/** The e-invoice downloads an invoice can give (none when its seller or buyer lack a field). */
function eInvoiceUrls(
  config: ServiceContext["config"],
  profile: ProfileRow | null,
  invoice: EInvoiceInvoice & { status: string },
): { format: EInvoiceFormat; url: string }[] {
  if (invoice.status === "CANCELLED") return [];
  const input = invoiceEInvoiceInput(config, invoice, profile);
  return EINVOICE_FORMATS.filter((f) => eInvoiceProblems(input, PROFILE_OF[f]).length === 0).map(
    (format) => ({ format, url: `/api/portal/invoices/${invoice.id}/einvoice?format=${format}` }),
  );
}

/**
 * The client a statement is for: the freelancer's saved client with the session's email, else
 * one made from the client fields of the latest invoice to that email (never stored).
 */
export async function portalClient(
  owner: AuthedContext,
  session: PortalSession,
): Promise<ClientRow> {
  const [saved] = await owner.db
    .select()
    .from(clients)
    .where(
      and(
        eq(clients.freelancerWallet, session.ownerWallet),
        sameEmail(clients.email, session.clientEmail),
      ),
    )
    .limit(1);
  if (saved) return saved;
  const [latest] = await owner.db
    .select()
    .from(invoices)
    .where(clientInvoices(session))
    .orderBy(desc(invoices.sentAt), desc(invoices.id))
    .limit(1);
  const at = latest?.sentAt ?? owner.now();
  return {
    id: latest?.id ?? session.sessionId,
    freelancerWallet: session.ownerWallet,
    name: latest?.clientName ?? session.clientEmail,
    email: session.clientEmail,
    company: latest?.clientCompany ?? null,
    address: latest?.clientAddress ?? null,
    taxId: null,
    taxScheme: null,
    postalAddress: null,
    isBusiness: null,
    language: latest?.language ?? null,
    buyerReference: null,
    isFavorite: false,
    createdAt: at,
    updatedAt: at,
  };
}

/** GET /api/portal/statement: the freelancer's statement of this client, as JSON. */
export async function portalStatement(
  ctx: ServiceContext,
  session: PortalSession,
  query: Pick<StatementQuery, "from" | "to">,
): Promise<Statement> {
  const owner = asOwner(ctx, session);
  return statementOf(owner, await portalClient(owner, session), query);
}

/** The same as CSV or PDF (a costly request, as the freelancer's). */
export async function portalStatementFile(
  ctx: ServiceContext,
  session: PortalSession,
  query: Pick<StatementQuery, "from" | "to" | "format">,
) {
  await ctx.limitCaller?.(costlyPolicy(ctx.config));
  const owner = asOwner(ctx, session);
  return statementFile(owner, await portalStatement(ctx, session, query), query.format);
}

/** The session's invoice, or 404. */
async function assertClientInvoice(ctx: ServiceContext, session: PortalSession, id: string) {
  const [row] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.id, id), clientInvoices(session)))
    .limit(1);
  if (!row) throw new NotFoundError(PORTAL_NOT_FOUND);
}

/** GET /api/portal/invoices/:id/einvoice: the owner's e-invoice of the session's invoice. */
export async function portalEInvoice(
  ctx: ServiceContext,
  session: PortalSession,
  id: string,
  format: EInvoiceFormat,
) {
  await ctx.limitCaller?.(costlyPolicy(ctx.config));
  await assertClientInvoice(ctx, session, id);
  return invoiceEInvoice(asOwner(ctx, session), id, format);
}

/** GET /api/portal/credit-notes/:id/pdf: a credit note of one of the session's invoices. */
export async function portalCreditNotePdf(ctx: ServiceContext, session: PortalSession, id: string) {
  await ctx.limitCaller?.(costlyPolicy(ctx.config));
  const [note] = await ctx.db
    .select({ invoiceId: creditNotes.invoiceId })
    .from(creditNotes)
    .where(eq(creditNotes.id, id))
    .limit(1);
  if (!note) throw new NotFoundError(PORTAL_NOT_FOUND);
  await assertClientInvoice(ctx, session, note.invoiceId);
  return creditNotePdf(asOwner(ctx, session), id);
}
