import type { InvoiceChanges } from "@/lib/realtime/invoice-changes";
import type { PaymentStatus } from "./status";

/** How long an entry may answer (docs/decisions.md, "Pushed status"). */
export const STATUS_CACHE_TTL = {
  /** PAID and CANCELLED: only a committed change (notified) alters them. */
  finalMs: 10 * 60_000,
  /** The rest: briefly, as a guard; a change is notified anyway. */
  openMs: 2_000,
} as const;
/** Entries kept per instance; the oldest go first. */
export const STATUS_CACHE_MAX_ENTRIES = 10_000;

const FINAL = new Set(["PAID", "CANCELLED"]);

type Entry = { value: PaymentStatus; until: number };

/**
 * The payment status per invoice, per instance, so a poll for an unchanged invoice costs no
 * database trip. Entries are dropped when their invoice changes (a NOTIFY from whichever
 * instance or worker committed the change: lib/realtime/invoice-changes.ts), all of them when
 * the listener reconnects, and nothing answers from the cache while it is not listening.
 * A quote's end bounds its entry: after it the status shows no live quote.
 */
export class StatusCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly changes: InvoiceChanges,
    private readonly maxEntries = STATUS_CACHE_MAX_ENTRIES,
  ) {
    changes.subscribe((id) => (id === null ? this.entries.clear() : this.entries.delete(id)));
  }

  get(invoiceId: string, now: Date): PaymentStatus | undefined {
    const entry = this.entries.get(invoiceId);
    if (!entry) return undefined;
    if (entry.until <= now.getTime() || !this.changes.listening()) {
      this.entries.delete(invoiceId);
      return undefined;
    }
    return entry.value;
  }

  /** The epoch to pass to `set` for a read that starts now. */
  begin(): number {
    return this.changes.epoch();
  }

  /** Keeps a value read since `begin()` returned `epoch`, unless a change came meanwhile. */
  set(invoiceId: string, value: PaymentStatus, epoch: number, now: Date): void {
    if (epoch !== this.changes.epoch() || !this.changes.listening()) return;
    const ttl = FINAL.has(value.status) ? STATUS_CACHE_TTL.finalMs : STATUS_CACHE_TTL.openMs;
    let until = now.getTime() + ttl;
    if (value.quote) until = Math.min(until, value.quote.expiresAt.getTime());
    this.entries.delete(invoiceId);
    this.entries.set(invoiceId, { value, until });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
