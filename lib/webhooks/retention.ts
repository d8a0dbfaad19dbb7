import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rowsOf } from "@/lib/services/db";

/**
 * How long the delivery log and the events behind it are kept (as Stripe keeps events for 30
 * days). A manual redelivery restarts a delivery's clock; the invoice's audit trail is kept
 * for good and is not affected.
 */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
const BATCH = 1000;
/** Per run; the rest waits for the next run, so one run never holds locks for long. */
const MAX_BATCHES = 20;

/**
 * Deletes finished deliveries (delivered or failed) older than the retention period, then
 * events older than it that are fanned out and no delivery still refers to. A pending
 * delivery keeps its event whatever its age. The conditions are repeated on the outer
 * DELETE so that a row changed meanwhile (a redelivery makes it pending again) is rechecked
 * and kept.
 */
export async function deleteOldWebhookRecords(
  db: Database,
  now: Date,
): Promise<{ deliveries: number; events: number }> {
  // An ISO string: postgres.js cannot bind a Date inside raw sql``.
  const cutoff = new Date(now.getTime() - WEBHOOK_LOG_RETENTION_DAYS * 86_400_000).toISOString();
  let deliveries = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const rows = await db.execute<{ id: string }>(sql`
      delete from webhook_deliveries
      where status <> 'pending' and created_at < ${cutoff}::timestamptz
        and id in (select id from webhook_deliveries
                   where status <> 'pending' and created_at < ${cutoff}::timestamptz limit ${BATCH})
      returning id`);
    const n = rowsOf(rows).length;
    deliveries += n;
    if (n < BATCH) break;
  }
  let events = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const rows = await db.execute<{ id: string }>(sql`
      delete from events
      where created_at < ${cutoff}::timestamptz and fanned_out_at is not null
        and not exists (select 1 from webhook_deliveries d where d.event_id = events.id)
        and id in (select e.id from events e
                   where e.created_at < ${cutoff}::timestamptz and e.fanned_out_at is not null
                     and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
                   limit ${BATCH})
      returning id`);
    const n = rowsOf(rows).length;
    events += n;
    if (n < BATCH) break;
  }
  return { deliveries, events };
}
