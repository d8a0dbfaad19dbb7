import { and, asc, eq, inArray, lt, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import type { EmailMessageRow, renderEmail } from "./render";

export type EmailDeliveryOptions = {
  /** Messages claimed per round (default 10). */
  batchSize?: number;
  /** Rounds per call (default 10). */
  maxRounds?: number;
  /** No new round starts after this long (default 20 s, inside a cron function's limit). */
  timeBudgetMs?: number;
  /** A claim moves next_attempt_at this far ahead (default 2 minutes > the SMTP timeouts). */
  leaseMs?: number;
  /** First retry delay; attempt n waits min(base x 2^(n-1), 1 h) (default 1 minute). */
  retryBaseMs?: number;
  /** A message still failing this long after it was queued is failed (default 24 h). */
  maxAgeMs?: number;
};

export type EmailDeliveryCounts = {
  attempted: number;
  sent: number;
  retrying: number;
  failed: number;
  /** Not sent because SMTP_URL is not set. */
  skipped: number;
  /** Work was left for another pass. */
  more: boolean;
};

export type EmailContext = Pick<ServiceContext, "db" | "config" | "now" | "logger">;

export const NOT_CONFIGURED = "Not sent: email is not configured on this server (SMTP_URL)";
const HOUR = 3_600_000;

/**
 * One pass of email delivery (docs/decisions.md, Email), the worker's and /api/cron/emails'.
 *
 * Claim: a short transaction takes due pending rows with FOR UPDATE SKIP LOCKED, counts the
 * attempt and moves next_attempt_at `leaseMs` ahead (the lease): another process skips the row
 * while it is locked and, after the commit, because it is not due. The message is then sent
 * outside any transaction and the result recorded only if the attempt count still matches.
 * So a message is sent twice only if this process dies (or the lease ends) between SMTP's
 * acceptance and the recording of "sent": the one duplicate window.
 *
 * Order: rows are claimed oldest first, and a row waits while an older message to the same
 * recipient about the same invoice is still pending. When the server cannot be reached, the
 * pass stops and the rest of the batch waits for the same retry time without an attempt
 * counted, so once the server is back everything goes out once, in order.
 *
 * Outcomes: accepted -> sent (with the Message-ID); a 5xx answer -> failed at once (final,
 * the answer kept as lastError); a 4xx answer or a connection error -> retried with backoff
 * until 24 h after queueing, then failed. Without SMTP_URL due messages become `skipped`.
 */
export async function deliverDueEmails(
  ctx: EmailContext,
  opts: EmailDeliveryOptions = {},
  startedAt = Date.now(),
): Promise<EmailDeliveryCounts> {
  const counts: EmailDeliveryCounts = {
    attempted: 0,
    sent: 0,
    retrying: 0,
    failed: 0,
    skipped: 0,
    more: false,
  };
  const smtpUrl = ctx.config.email.smtpUrl;
  if (!smtpUrl) {
    counts.skipped = await skipDue(ctx);
    return counts;
  }
  const maxRounds = opts.maxRounds ?? 10;
  const dueBy = ctx.now();
  for (let round = 0; round < maxRounds; round++) {
    if (Date.now() - startedAt > (opts.timeBudgetMs ?? 20_000)) {
      counts.more = true;
      break;
    }
    const claimed = await claimDue(ctx.db, {
      dueBy,
      now: ctx.now(),
      leaseMs: opts.leaseMs ?? 120_000,
      limit: opts.batchSize ?? 10,
    });
    if (claimed.length === 0) break;
    let down = false;
    for (const [i, message] of claimed.entries()) {
      const outcome = await attempt(ctx, smtpUrl, message, opts);
      counts.attempted++;
      counts[outcome.status === "pending" ? "retrying" : outcome.status]++;
      if (outcome.unreachable) {
        await postpone(ctx.db, claimed.slice(i + 1), outcome.nextAttemptAt);
        down = true;
        break;
      }
    }
    if (down) break;
    if (round === maxRounds - 1) counts.more = true;
  }
  return counts;
}

/** Claims up to `limit` due messages, oldest first, leased (see deliverDueEmails). */
async function claimDue(
  db: DbOrTx,
  opts: { dueBy: Date; now: Date; leaseMs: number; limit: number },
): Promise<EmailMessageRow[]> {
  const m = emailMessages;
  const older = alias(emailMessages, "older");
  return withTransaction(db, async (tx) => {
    const olderPending = tx
      .select({ one: sql`1` })
      .from(older)
      .where(
        and(
          eq(older.status, "pending"),
          eq(older.invoiceId, m.invoiceId),
          eq(older.to, m.to),
          or(
            lt(older.createdAt, m.createdAt),
            and(eq(older.createdAt, m.createdAt), lt(older.id, m.id)),
          ),
        ),
      );
    const due = await tx
      .select({ id: m.id })
      .from(m)
      .where(
        and(eq(m.status, "pending"), lte(m.nextAttemptAt, opts.dueBy), notExists(olderPending)),
      )
      .orderBy(asc(m.createdAt), asc(m.id))
      .limit(opts.limit)
      .for("update", { of: m, skipLocked: true });
    if (due.length === 0) return [];
    const rows = await tx
      .update(m)
      .set({
        attempts: sql`${m.attempts} + 1`,
        lastAttemptAt: opts.now,
        nextAttemptAt: new Date(opts.now.getTime() + opts.leaseMs),
      })
      .where(
        inArray(
          m.id,
          due.map((r) => r.id),
        ),
      )
      .returning();
    return rows.sort((a, b) => +a.createdAt - +b.createdAt || (a.id < b.id ? -1 : 1));
  });
}

type Outcome = {
  status: "sent" | "pending" | "failed";
  nextAttemptAt: Date;
  /** The SMTP server could not be reached: the rest of the batch waits (see deliverDueEmails). */
  unreachable?: boolean;
};

/** Renders, sends, records one claimed message; every attempt is logged. */
async function attempt(
  ctx: EmailContext,
  smtpUrl: string,
  message: EmailMessageRow,
  opts: EmailDeliveryOptions,
): Promise<Outcome> {
  const log = { emailId: message.id, kind: message.kind, invoiceId: message.invoiceId };
  // Loaded on the first delivery, not by every route that queues an email: the templates
  // (React Email, the PDF) and nodemailer (ARCHITECTURE.md, Memory).
  const [{ renderEmail }, { smtpResponseCode, smtpTransport }] = await Promise.all([
    import("./render"),
    import("./transport"),
  ]);
  let rendered: Awaited<ReturnType<typeof renderEmail>>;
  try {
    rendered = await renderEmail(message, ctx);
  } catch (err) {
    ctx.logger.error("email not renderable", { ...log, error: String(err) });
    return record(ctx, message, { status: "failed", error: `Not rendered: ${errorText(err)}` });
  }
  try {
    const info = await smtpTransport(smtpUrl).sendMail({
      from: ctx.config.email.from,
      to: { name: displayName(message.payload.toName), address: message.to },
      replyTo: rendered.replyTo ?? undefined,
      subject: message.subject,
      html: rendered.html,
      text: rendered.text,
      attachments: rendered.attachments,
      headers: rendered.unsubscribeUrl
        ? {
            "List-Unsubscribe": `<${rendered.unsubscribeUrl}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          }
        : undefined,
    });
    ctx.logger.info("email sent", {
      ...log,
      attempts: message.attempts,
      messageId: info.messageId,
    });
    return record(ctx, message, { status: "sent", messageId: info.messageId });
  } catch (err) {
    const code = smtpResponseCode(err);
    const error = errorText(err);
    if (code !== undefined && code >= 500) {
      ctx.logger.warn("email rejected", { ...log, attempts: message.attempts, code, error });
      return record(ctx, message, { status: "failed", error });
    }
    const outcome = await record(ctx, message, { status: "retry", error }, opts);
    ctx.logger.warn("email attempt failed", {
      ...log,
      attempts: message.attempts,
      code,
      error,
      next: outcome.status === "pending" ? outcome.nextAttemptAt.toISOString() : "failed",
    });
    return { ...outcome, unreachable: code === undefined };
  }
}

type Result =
  | { status: "sent"; messageId: string }
  | { status: "failed"; error: string }
  | { status: "retry"; error: string };

async function record(
  ctx: EmailContext,
  message: EmailMessageRow,
  result: Result,
  opts: EmailDeliveryOptions = {},
): Promise<Outcome> {
  const now = ctx.now();
  const m = emailMessages;
  // Only the attempt this process claimed: a lease taken over since then is not overwritten.
  const mine = and(eq(m.id, message.id), eq(m.status, "pending"), eq(m.attempts, message.attempts));
  if (result.status === "sent") {
    await ctx.db
      .update(m)
      .set({ status: "sent", sentAt: now, messageId: result.messageId, lastError: null })
      .where(mine);
    return { status: "sent", nextAttemptAt: now };
  }
  const error = result.error.slice(0, 500);
  const next = result.status === "retry" ? retryAt(message, now, opts) : null;
  await ctx.db
    .update(m)
    .set(next ? { lastError: error, nextAttemptAt: next } : { status: "failed", lastError: error })
    .where(mine);
  return next
    ? { status: "pending", nextAttemptAt: next }
    : { status: "failed", nextAttemptAt: now };
}

/** The next attempt's time, or null once the message is 24 h old (docs/decisions.md, Email). */
export function retryAt(
  message: Pick<EmailMessageRow, "attempts" | "createdAt">,
  now: Date,
  opts: Pick<EmailDeliveryOptions, "retryBaseMs" | "maxAgeMs"> = {},
): Date | null {
  const deadline = message.createdAt.getTime() + (opts.maxAgeMs ?? 24 * HOUR);
  if (now.getTime() >= deadline) return null;
  const wait = Math.min(
    (opts.retryBaseMs ?? 60_000) * 2 ** Math.max(message.attempts - 1, 0),
    HOUR,
  );
  return new Date(Math.min(now.getTime() + wait, deadline));
}

/** The rest of a batch when the server is unreachable: same retry time, attempt not counted. */
async function postpone(db: DbOrTx, rows: EmailMessageRow[], at: Date): Promise<void> {
  const m = emailMessages;
  for (const row of rows) {
    await db
      .update(m)
      .set({ attempts: row.attempts - 1, nextAttemptAt: at })
      .where(and(eq(m.id, row.id), eq(m.status, "pending"), eq(m.attempts, row.attempts)));
  }
}

/** Without SMTP_URL: due messages are closed as skipped, with the reason shown. */
async function skipDue(ctx: EmailContext): Promise<number> {
  const m = emailMessages;
  const rows = await ctx.db
    .update(m)
    .set({ status: "skipped", lastError: NOT_CONFIGURED })
    .where(and(eq(m.status, "pending"), lte(m.nextAttemptAt, ctx.now())))
    .returning({ id: m.id });
  if (rows.length) ctx.logger.info("emails skipped: SMTP_URL not set", { count: rows.length });
  return rows.length;
}

const errorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").trim();

/** The recipient's display name from the payload, one line (nodemailer encodes it). */
const displayName = (v: unknown) => (typeof v === "string" ? v.replace(/\s+/g, " ").trim() : "");
