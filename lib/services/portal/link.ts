import { and, countDistinct, desc, eq, gt, gte, isNotNull, isNull, ne } from "drizzle-orm";
import { clients, emailMessages, invoices, portalLinks } from "@/db/schema";
import type { Language } from "@/lib/i18n";
import { translator } from "@/lib/i18n";
import { newId } from "@/lib/ids";
import { NOT_CONFIGURED } from "@/lib/services/email/deliver";
import { enqueueEmail, isSingleAddress } from "@/lib/services/email/outbox";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { createPortalSession, portalEmail, sameEmail } from "./session";
import { LINK_TTL_MS, linkIdOf, linkToken, tokenHash } from "./tokens";

/** At most this many sign-in emails per address an hour; past it, the request is answered the same and nothing is sent. */
export const LINKS_PER_EMAIL_PER_HOUR = 5;

/** What the portal-link email's template reads (lib/services/email/templates/portal.tsx). */
export type PortalLinkPayload = { linkIds: string[]; lang: Language };

/** The sign-in page of a link (the email's button). */
export const portalSignInUrl = (appUrl: string, token: string) =>
  `${appUrl}/api/portal/sign-in?token=${encodeURIComponent(token)}`;

/**
 * POST /api/portal/link (docs/decisions.md, Client portal): for each freelancer with a saved
 * client or a sent invoice to `email`, a single-use sign-in link valid 30 minutes, bound to that
 * freelancer and that email; all of them in one email through the outbox. Answers nothing: the
 * caller learns the same whatever the address, and the reads are the same for an unknown one.
 */
export async function requestPortalLink(ctx: ServiceContext, input: { email: string }) {
  const email = portalEmail(input.email);
  const now = ctx.now();
  await withTransaction(ctx.db, async (tx) => {
    const hourAgo = new Date(now.getTime() - 3_600_000);
    const [recent, saved, invoiced] = await Promise.all([
      tx
        // One sign-in email is the links of one request, written at one instant.
        .select({ n: countDistinct(portalLinks.createdAt) })
        .from(portalLinks)
        .where(and(eq(portalLinks.clientEmail, email), gte(portalLinks.createdAt, hourAgo))),
      tx
        .select({ wallet: clients.freelancerWallet, language: clients.language })
        .from(clients)
        .where(sameEmail(clients.email, email)),
      tx
        .selectDistinctOn([invoices.freelancerWallet], {
          wallet: invoices.freelancerWallet,
          language: invoices.language,
        })
        .from(invoices)
        .where(
          and(
            eq(invoices.kind, "INVOICE"),
            isNull(invoices.deletedAt),
            ne(invoices.status, "DRAFT"),
            isNotNull(invoices.sentAt),
            sameEmail(invoices.clientEmail, email),
          ),
        )
        .orderBy(invoices.freelancerWallet, desc(invoices.sentAt)),
    ]);
    // Past the address's hourly budget nothing more is sent (mail-bombing an address through us
    // is refused quietly: a 429 here would tell a known address from an unknown one).
    if ((recent[0]?.n ?? 0) >= LINKS_PER_EMAIL_PER_HOUR) return;
    const owners = new Map<string, Language | null>();
    for (const r of [...invoiced, ...saved]) {
      if (!owners.has(r.wallet) || !owners.get(r.wallet)) owners.set(r.wallet, r.language ?? null);
    }
    if (owners.size === 0 || !isSingleAddress(email)) return;
    const linkIds: string[] = [];
    for (const wallet of [...owners.keys()].sort()) {
      const id = newId();
      linkIds.push(id);
      await tx.insert(portalLinks).values({
        id,
        tokenHash: tokenHash(linkToken(ctx.config.jwtSecret, id)),
        ownerWallet: wallet,
        clientEmail: email,
        createdAt: now,
        expiresAt: new Date(now.getTime() + LINK_TTL_MS),
      });
    }
    const lang = [...owners.values()].find((l) => l) ?? "en";
    const payload: PortalLinkPayload = { linkIds, lang };
    const dedupeKey = `portal-link:${linkIds[0]}`;
    await enqueueEmail(
      tx,
      {
        wallet: [...owners.keys()].sort()[0],
        invoiceId: null,
        kind: "portal_link",
        dedupeKey,
        to: email,
        subject: translator(lang)("portal.emailSubject", { service: ctx.config.serviceName }),
        payload,
      },
      now,
    );
    if (!ctx.config.email.smtpUrl) {
      await tx
        .update(emailMessages)
        .set({ status: "skipped", lastError: NOT_CONFIGURED })
        .where(and(eq(emailMessages.dedupeKey, dedupeKey), eq(emailMessages.status, "pending")));
    }
  });
}

/**
 * GET /api/portal/sign-in?token=: the link's one exchange for a session of its freelancer and
 * client email. Null when the token is unknown, altered, used or past its 30 minutes.
 */
export async function signInWithLink(
  ctx: ServiceContext,
  token: string | undefined,
): Promise<{ setCookie: string } | null> {
  const id = token ? linkIdOf(ctx.config.jwtSecret, token) : null;
  if (!token || !id) return null;
  return withTransaction(ctx.db, async (tx) => {
    const now = ctx.now();
    const [link] = await tx
      .update(portalLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(portalLinks.id, id),
          eq(portalLinks.tokenHash, tokenHash(token)),
          isNull(portalLinks.usedAt),
          gt(portalLinks.expiresAt, now),
        ),
      )
      .returning();
    if (!link) return null;
    const { setCookie } = await createPortalSession(
      { ...ctx, db: tx },
      { ownerWallet: link.ownerWallet, clientEmail: link.clientEmail, via: "email" },
    );
    return { setCookie };
  });
}
