import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices, recurringSchedules } from "@/db/schema";
import { startOfUtcDay } from "@/lib/domain/due-date";
import {
  ConflictError,
  ForbiddenError,
  isDomainError,
  NotFoundError,
  ValidationError,
} from "@/lib/domain/errors";
import { firstPeriodFrom, nextRunAt, type Schedule } from "@/lib/domain/schedule";
import { isId, newId } from "@/lib/ids";
import type {
  CreateRecurringInput,
  RecurringTemplate,
  UpdateRecurringInput,
} from "@/lib/schemas/recurring";
import { assertKeyNetwork, defaultPassphrase, keySees } from "../auth/key-network";
import { savedClientDetails } from "../clients/saved-client";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { priceInvoice, WALLET_MISMATCH } from "../invoices/create-invoice";
import { resolveNetwork } from "../invoices/network";
import type { InvoiceRow } from "../invoices/store";

// Recurring invoices (docs/decisions.md, Recurring invoices): the owner's side. The job that
// creates each period's invoice is lib/services/recurring/run-schedules.ts.

export type RecurringRow = typeof recurringSchedules.$inferSelect;
export type RecurringView = RecurringRow & { invoicesCreated: number };
export type RecurringDetail = RecurringView & { invoices: InvoiceRow[] };

export const RECURRING_NOT_FOUND = "Recurring invoice not found";
export const START_IN_PAST = "Start date cannot be in the past";
export const END_BEFORE_START = "End date cannot be before the start date";
/** Live (not deleted) recurring invoices per wallet, paused ones included (docs/decisions.md, Limits). */
export const MAX_RECURRING_PER_WALLET = 50;
export const RECURRING_LIMIT_REACHED = `Recurring invoice limit reached (at most ${MAX_RECURRING_PER_WALLET} per wallet)`;
export const ANCHOR_FIXED =
  "This recurring invoice has made invoices: its interval and start date can no longer change (create a new one instead)";

/** The schedule rule's view of a row (lib/domain/schedule.ts). */
export const scheduleOf = (row: Pick<RecurringRow, keyof Schedule>): Schedule => ({
  interval: row.interval,
  intervalCount: row.intervalCount,
  startDate: row.startDate,
  endDate: row.endDate,
  count: row.count,
});

/**
 * A create-invoice rule's 400 about a template field, named as the request has it
 * (`lineItems.1.rate` -> `template.lineItems.1.rate`), like the schema's own 400s.
 */
function inTemplate<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!isDomainError(err) || err.kind !== "validation" || !err.details) throw err;
    const details = Object.fromEntries(
      Object.entries(err.details).map(([k, v]) => [
        k.startsWith("template.") ? k : `template.${k}`,
        v,
      ]),
    );
    throw new ValidationError(err.message, details);
  }
}

/**
 * The template's checks that need more than its schema: wallet, amounts, network (those the
 * create-invoice service makes: each period's invoice is made by it).
 */
function checkTemplate(
  ctx: AuthedContext,
  template: RecurringTemplate,
  fallbackPassphrase: string,
): string {
  if (template.freelancerWallet && template.freelancerWallet !== ctx.wallet) {
    throw new ForbiddenError(WALLET_MISMATCH);
  }
  inTemplate(() => priceInvoice(template));
  const passphrase =
    resolveNetwork(template.network, template.networkPassphrase) ?? fallbackPassphrase;
  assertKeyNetwork(ctx, passphrase);
  return passphrase;
}

/**
 * A template's saved client must be the owner's now (400 `template.clientId`); each period
 * reads its details again (lib/services/invoices/create-invoice.ts).
 */
async function checkClient(ctx: AuthedContext, template: RecurringTemplate | undefined) {
  if (template?.clientId) {
    await savedClientDetails(ctx.db, ctx.wallet, template.clientId, "template.clientId");
  }
}

function checkDates(schedule: Schedule, now: Date, startChanged: boolean): void {
  if (startChanged && schedule.startDate.getTime() < startOfUtcDay(now).getTime()) {
    throw new ValidationError("Invalid request", { startDate: START_IN_PAST });
  }
  if (schedule.endDate && schedule.endDate.getTime() < schedule.startDate.getTime()) {
    throw new ValidationError("Invalid request", { endDate: END_BEFORE_START });
  }
}

export async function createRecurring(
  ctx: AuthedContext,
  input: CreateRecurringInput,
): Promise<RecurringView> {
  const networkPassphrase = checkTemplate(ctx, input.template, defaultPassphrase(ctx));
  await checkClient(ctx, input.template);
  const now = ctx.now();
  const schedule: Schedule = {
    interval: input.interval,
    intervalCount: input.intervalCount ?? 1,
    startDate: input.startDate,
    endDate: input.endDate ?? null,
    count: input.count ?? null,
  };
  checkDates(schedule, now, true);
  return withTransaction(ctx.db, async (tx) => {
    // Serialises creations per wallet so two concurrent requests cannot both pass the cap.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`recurring:${ctx.wallet}`}, 0))`,
    );
    const [{ n }] = await tx
      .select({ n: count() })
      .from(recurringSchedules)
      .where(and(eq(recurringSchedules.wallet, ctx.wallet), isNull(recurringSchedules.deletedAt)));
    if (n >= MAX_RECURRING_PER_WALLET) throw new ConflictError(RECURRING_LIMIT_REACHED);
    return insertSchedule(tx, ctx.wallet, networkPassphrase, input, schedule, now);
  });
}

async function insertSchedule(
  db: DbOrTx,
  wallet: string,
  networkPassphrase: string,
  input: CreateRecurringInput,
  schedule: Schedule,
  now: Date,
): Promise<RecurringView> {
  const [row] = await db
    .insert(recurringSchedules)
    .values({
      id: newId(),
      wallet,
      networkPassphrase,
      template: input.template as Record<string, unknown>,
      ...schedule,
      dueInDays: input.dueInDays ?? 14,
      autoSend: input.autoSend ?? true,
      nextPeriod: 0,
      nextRunAt: nextRunAt(schedule, 0),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { ...row, invoicesCreated: 0 };
}

/** The caller's recurring invoices, newest first (a key sees its network's only). */
export async function listRecurring(ctx: AuthedContext): Promise<RecurringView[]> {
  const rows = await ctx.db
    .select()
    .from(recurringSchedules)
    .where(and(eq(recurringSchedules.wallet, ctx.wallet), isNull(recurringSchedules.deletedAt)))
    .orderBy(desc(recurringSchedules.createdAt), desc(recurringSchedules.id));
  const counts = await ctx.db
    .select({ id: invoices.recurringId, n: count() })
    .from(invoices)
    .where(and(eq(invoices.freelancerWallet, ctx.wallet), isNull(invoices.deletedAt)))
    .groupBy(invoices.recurringId);
  const made = new Map(counts.map((c) => [c.id, c.n]));
  return rows
    .filter((row) => keySees(ctx, row))
    .map((row) => ({ ...row, invoicesCreated: made.get(row.id) ?? 0 }));
}

/** 404 when missing, deleted or on another network than the caller's key; 403 when not theirs. */
async function findForOwner(
  db: DbOrTx,
  ctx: AuthedContext,
  id: string,
  lock: boolean,
): Promise<RecurringRow> {
  if (!isId(id)) throw new NotFoundError(RECURRING_NOT_FOUND);
  const query = db
    .select()
    .from(recurringSchedules)
    .where(and(eq(recurringSchedules.id, id), isNull(recurringSchedules.deletedAt)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError(RECURRING_NOT_FOUND);
  if (row.wallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!keySees(ctx, row)) throw new NotFoundError(RECURRING_NOT_FOUND);
  return row;
}

/** The invoices a schedule made (deleted drafts left out), newest period first. */
async function invoicesOf(db: DbOrTx, id: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.recurringId, id), isNull(invoices.deletedAt)))
    .orderBy(desc(invoices.recurringPeriod));
}

export async function getRecurring(ctx: AuthedContext, id: string): Promise<RecurringDetail> {
  const row = await findForOwner(ctx.db, ctx, id, false);
  const made = await invoicesOf(ctx.db, id);
  return { ...row, invoicesCreated: made.length, invoices: made };
}

/** Locks the caller's schedule, applies `change` to it and answers its view. */
async function change(
  ctx: AuthedContext,
  id: string,
  fn: (
    row: RecurringRow,
    now: Date,
    tx: DbOrTx,
  ) => Partial<RecurringRow> | null | Promise<Partial<RecurringRow> | null>,
): Promise<RecurringView> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const row = await findForOwner(tx, ctx, id, true);
    const set = await fn(row, now, tx);
    const [updated] = set
      ? await tx
          .update(recurringSchedules)
          .set({ ...set, updatedAt: now })
          .where(eq(recurringSchedules.id, id))
          .returning()
      : [row];
    const [{ n }] = await tx
      .select({ n: count() })
      .from(invoices)
      .where(and(eq(invoices.recurringId, id), isNull(invoices.deletedAt)));
    return { ...updated, invoicesCreated: n };
  });
}

/**
 * Template and schedule changes apply to the invoices still to come; the ones made stay as
 * they are. Once a period's invoice exists the anchor (interval, intervalCount, startDate) is
 * fixed: period numbers are the key of "one invoice per period" (409 otherwise). A schedule
 * that had ended and is extended (count, endDate) starts again at its first period from today.
 */
export function updateRecurring(
  ctx: AuthedContext,
  id: string,
  input: UpdateRecurringInput,
): Promise<RecurringView> {
  return change(ctx, id, async (row, now, tx) => {
    await checkClient({ ...ctx, db: tx }, input.template);
    const networkPassphrase = input.template
      ? checkTemplate(ctx, input.template, row.networkPassphrase)
      : row.networkPassphrase;
    const anchorChanged =
      (input.interval !== undefined && input.interval !== row.interval) ||
      (input.intervalCount !== undefined && input.intervalCount !== row.intervalCount) ||
      (input.startDate !== undefined && input.startDate.getTime() !== row.startDate.getTime());
    if (anchorChanged && row.nextPeriod > 0) throw new ConflictError(ANCHOR_FIXED);
    const limitsSent = input.endDate !== undefined || input.count !== undefined;
    const schedule: Schedule = {
      interval: input.interval ?? row.interval,
      intervalCount: input.intervalCount ?? row.intervalCount,
      startDate: input.startDate ?? row.startDate,
      // A new limit replaces the old one (either endDate or count).
      endDate: limitsSent ? (input.endDate ?? null) : row.endDate,
      count: limitsSent ? (input.count ?? null) : row.count,
    };
    checkDates(schedule, now, anchorChanged);
    const next =
      row.nextRunAt === null
        ? firstPeriodFrom(schedule, startOfUtcDay(now), row.nextPeriod)
        : row.nextPeriod;
    return {
      ...schedule,
      networkPassphrase,
      ...(input.template ? { template: input.template as Record<string, unknown> } : {}),
      ...(input.dueInDays !== undefined ? { dueInDays: input.dueInDays } : {}),
      ...(input.autoSend !== undefined ? { autoSend: input.autoSend } : {}),
      nextPeriod: next,
      nextRunAt: nextRunAt(schedule, next),
    };
  });
}

/** No invoices are created while paused; pausing twice changes nothing. */
export function pauseRecurring(ctx: AuthedContext, id: string): Promise<RecurringView> {
  return change(ctx, id, (row, now) => (row.pausedAt ? null : { pausedAt: now }));
}

/**
 * Continues from the first period dated today or later: the periods that fell while paused
 * are skipped, never invoiced late (docs/decisions.md, Recurring invoices).
 */
export function resumeRecurring(ctx: AuthedContext, id: string): Promise<RecurringView> {
  return change(ctx, id, (row, now) => {
    if (!row.pausedAt) return null;
    const schedule = scheduleOf(row);
    const next = firstPeriodFrom(schedule, startOfUtcDay(now), row.nextPeriod);
    return { pausedAt: null, nextPeriod: next, nextRunAt: nextRunAt(schedule, next) };
  });
}

/** Stops it for good (soft delete); the invoices it made stay. */
export async function deleteRecurring(ctx: AuthedContext, id: string): Promise<void> {
  await change(ctx, id, (_row, now) => ({ deletedAt: now, nextRunAt: null }));
}
