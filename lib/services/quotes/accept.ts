import { ConflictError } from "@/lib/domain/errors";
import { QUOTE_EXPIRED, quoteHasExpired, quoteTransition } from "@/lib/domain/quote-state";
import type { CreateInvoiceInput } from "@/lib/schemas/invoices";
import type { AuthedContext, ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { expireIfDue } from "./expire";
import { applyQuoteTransition, CLIENT_ACTOR } from "./lifecycle";
import { getLiveQuote, type QuoteRow } from "./store";

// The client's answer on the quote page (docs/decisions.md, Quotes). Both are public and rate
// limited per address. Each locks the quote row first: of any number of racing accepts one moves
// it, the others find it CONVERTED and answer 409, and the invoice exists once (the unique
// `invoices.quote_id` is the database's own guard).

export type AcceptedQuote = {
  quote: QuoteRow;
  invoice: { id: string; invoiceNumber: string; status: string };
};

/** Refuses an expired quote in words; a SENT one whose day ended is expired on the way. */
async function assertNotExpired(ctx: ServiceContext, row: QuoteRow): Promise<void> {
  const seen = await expireIfDue(ctx, row);
  if (seen.status === "EXPIRED") throw new ConflictError(QUOTE_EXPIRED);
}

/**
 * POST /api/quotes/:id/accept: SENT -> ACCEPTED -> CONVERTED in one transaction, with the
 * invoice made from the quote's body (a draft, or sent at once with `onAccept: "send"`), linked
 * both ways, the audit entries, quote.accepted (and invoice.created, invoice.sent) and the
 * invoice's email when sent: all commit together or not at all.
 */
export async function acceptQuote(
  ctx: ServiceContext,
  id: string,
  input: { name: string; ip: string },
): Promise<AcceptedQuote> {
  await assertNotExpired(ctx, await getLiveQuote(ctx.db, id));
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const current = await getLiveQuote(tx, id, true);
    quoteTransition(current.status, "accept"); // 409 once answered
    // Its day ended between the check above and the lock: refused, nothing written.
    if (quoteHasExpired(current.validUntil, now)) throw new ConflictError(QUOTE_EXPIRED);
    // The owner acts through the quote they sent: their wallet, no key, no session.
    const owner: AuthedContext = {
      ...ctx,
      db: tx,
      wallet: current.wallet,
      apiKey: undefined,
      session: undefined,
    };
    const made = await createInvoice(owner, current.body as CreateInvoiceInput, {
      quoteId: current.id,
    });
    let invoice: { id: string; invoiceNumber: string; status: "DRAFT" | "PENDING" } = {
      id: made.id,
      invoiceNumber: made.invoiceNumber,
      status: "DRAFT",
    };
    if (current.onAccept === "send") {
      // A savepoint: a refused send (the wallet cannot receive the asset yet) leaves the invoice
      // a draft for the freelancer, and the acceptance stands (as a recurring invoice's).
      try {
        const sent = await tx.transaction((sp) => sendInvoice({ ...owner, db: sp }, made.id));
        invoice = { ...invoice, status: sent.status === "PENDING" ? "PENDING" : "DRAFT" };
      } catch (err) {
        ctx.logger.warn("invoice from an accepted quote kept as a draft: send refused", {
          quoteId: current.id,
          invoiceId: made.id,
          reason: err instanceof Error ? err.message : String(err),
        });
      }
    }
    const accepted = await applyQuoteTransition(tx, current, "accept", {
      actor: CLIENT_ACTOR,
      at: now,
      set: { acceptedAt: now, acceptedName: input.name, acceptedIp: input.ip, invoiceId: made.id },
      changes: { acceptedName: input.name, acceptedIp: input.ip },
      invoice,
    });
    const converted = await applyQuoteTransition(tx, accepted, "convert", {
      actor: CLIENT_ACTOR,
      at: now,
      changes: {
        invoiceId: made.id,
        invoiceNumber: made.invoiceNumber,
        invoiceStatus: invoice.status,
      },
    });
    return { quote: converted, invoice };
  });
}

/** POST /api/quotes/:id/decline: SENT -> DECLINED with the client's reason and quote.declined. */
export async function declineQuote(
  ctx: ServiceContext,
  id: string,
  input: { reason?: string | null },
): Promise<QuoteRow> {
  await assertNotExpired(ctx, await getLiveQuote(ctx.db, id));
  const now = ctx.now();
  const reason = input.reason?.trim() || null;
  return withTransaction(ctx.db, async (tx) => {
    const current = await getLiveQuote(tx, id, true);
    quoteTransition(current.status, "decline");
    if (quoteHasExpired(current.validUntil, now)) throw new ConflictError(QUOTE_EXPIRED);
    return applyQuoteTransition(tx, current, "decline", {
      actor: CLIENT_ACTOR,
      at: now,
      set: { declinedAt: now, declineReason: reason },
      changes: { reason },
    });
  });
}
