import { clientAuditLogs } from "@/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import { invoiceLanguage } from "@/lib/domain/invoice-defaults";
import { translator } from "@/lib/i18n";
import { formatDay } from "@/lib/i18n/format";
import { newId } from "@/lib/ids";
import type { StatementQuery } from "@/lib/schemas/statements";
import { getClientForOwner } from "@/lib/services/clients/manage-clients";
import { enqueueEmail, isSingleAddress, oneLine } from "@/lib/services/email/outbox";
import { getProfile } from "@/lib/services/profile/profile";
import { type AuthedContext, actorOf } from "../context";
import { withTransaction } from "../db";
import { activePortalSessions, portalEmail, revokePortalSessions } from "./session";

// The freelancer's side of the client portal (docs/decisions.md, Client portal): a client's
// portal sessions, revoking them, and sending the client a statement.

/** GET /api/clients/:id/portal-sessions: the client's live portal sessions. */
export async function clientPortalSessions(ctx: AuthedContext, clientId: string) {
  const client = await getClientForOwner(ctx, clientId);
  return activePortalSessions(ctx, ctx.wallet, portalEmail(client.email));
}

/** DELETE /api/clients/:id/portal-sessions: every session ends; the next portal request is a 401. */
export async function revokeClientPortalSessions(ctx: AuthedContext, clientId: string) {
  const client = await getClientForOwner(ctx, clientId);
  return withTransaction(ctx.db, async (tx) => {
    const revoked = await revokePortalSessions(
      { ...ctx, db: tx },
      ctx.wallet,
      portalEmail(client.email),
    );
    await tx.insert(clientAuditLogs).values({
      id: newId(),
      wallet: ctx.wallet,
      clientId: client.id,
      action: "portal_sessions_revoked",
      actorWallet: actorOf(ctx),
      details: { revoked },
      createdAt: ctx.now(),
    });
    return { revoked };
  });
}

/** What the statement email's template reads (lib/services/email/templates/portal.tsx). */
export type StatementEmailPayload = {
  clientId: string;
  from: string;
  to: string;
  /** The statement is drawn as of this instant, whenever the email is delivered. */
  issuedAt: string;
};

export const NO_CLIENT_ADDRESS = "This client's email is not one address";

/**
 * POST /api/clients/:id/statement/send: the client's statement for [from, to] by email, the PDF
 * attached (drawn at delivery, as of the request) with the portal's sign-in hint, audited.
 */
export async function sendClientStatement(
  ctx: AuthedContext,
  clientId: string,
  query: Pick<StatementQuery, "from" | "to">,
): Promise<{ emailId: string; to: string }> {
  const client = await getClientForOwner(ctx, clientId);
  if (!isSingleAddress(client.email))
    throw new ValidationError(NO_CLIENT_ADDRESS, { email: "must be one email address" });
  const profile = await getProfile(ctx.db, ctx.wallet);
  const lang = invoiceLanguage(null, client, profile);
  const tr = translator(lang);
  const day = (iso: string) => formatDay(new Date(`${iso}T00:00:00Z`), lang);
  const sender = profile?.displayName ?? profile?.company ?? ctx.config.serviceName;
  const now = ctx.now();
  const emailId = newId();
  const payload: StatementEmailPayload = {
    clientId: client.id,
    from: query.from,
    to: query.to,
    issuedAt: now.toISOString(),
  };
  await withTransaction(ctx.db, async (tx) => {
    await enqueueEmail(
      tx,
      {
        wallet: ctx.wallet,
        invoiceId: null,
        kind: "statement",
        dedupeKey: `statement:${client.id}:${emailId}`,
        to: client.email,
        subject: oneLine(
          tr("statement.emailSubject", { sender, from: day(query.from), to: day(query.to) }),
        ).slice(0, 250),
        payload,
      },
      now,
    );
    await tx.insert(clientAuditLogs).values({
      id: newId(),
      wallet: ctx.wallet,
      clientId: client.id,
      action: "statement_sent",
      actorWallet: actorOf(ctx),
      details: { from: query.from, to: query.to, to_email: client.email },
      createdAt: now,
    });
  });
  return { emailId, to: client.email };
}
