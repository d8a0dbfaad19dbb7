import type { DbOrTx } from "@/db/client";
import { events, invoiceAuditLogs } from "@/db/schema";
import type { AuditAction, EventType } from "@/lib/domain/invoice-state";
import { newEventId, newId } from "@/lib/ids";

/** Wallet recorded as the actor of changes made by the service itself (expiry, watcher). */
export const SYSTEM_ACTOR = "SYSTEM";

/** Writes one audit entry; call inside the transaction of the change it records. */
export async function writeAudit(
  tx: DbOrTx,
  entry: {
    invoiceId: string;
    action: AuditAction;
    actorWallet: string;
    changes?: Record<string, unknown> | null;
    at: Date;
  },
): Promise<void> {
  await tx.insert(invoiceAuditLogs).values({
    id: newId(),
    invoiceId: entry.invoiceId,
    action: entry.action,
    actorWallet: entry.actorWallet,
    changes: entry.changes ?? null,
    createdAt: entry.at,
  });
}

/** Writes one outbox event (spec 2.9 envelope fields); delivered later by the webhook worker. */
export async function emitEvent(
  tx: DbOrTx,
  event: {
    type: EventType;
    wallet: string;
    invoiceId?: string | null;
    data: Record<string, unknown>;
    at: Date;
  },
): Promise<string> {
  const id = newEventId();
  await tx.insert(events).values({
    id,
    type: event.type,
    wallet: event.wallet,
    invoiceId: event.invoiceId ?? null,
    data: event.data,
    createdAt: event.at,
  });
  return id;
}
