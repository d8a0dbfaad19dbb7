import type { DatabaseHandle } from "@/db/client";
import type { Logger } from "@/lib/logger";

/** The channel migration 0018 notifies on, with the changed invoice's id as payload. */
export const INVOICE_CHANGES_CHANNEL = "invoice_changes";

/** `null`: anything may have changed (the listener was down for a while). */
export type ChangeListener = (invoiceId: string | null) => void;

/**
 * This instance's view of invoice changes committed by any instance or worker: one LISTEN
 * connection per process, whatever the number of caches and streams that follow it
 * (docs/decisions.md, "Pushed status"). Started on first use.
 */
export type InvoiceChanges = {
  /** True while notifications arrive: a cache may answer only then. */
  listening(): boolean;
  /**
   * Bumped by every notification and every (re)connection. A value read from the database
   * may be cached only if the epoch did not move while it was read: a change notified in the
   * meantime may not be in it.
   */
  epoch(): number;
  /** Calls `fn` after each change; returns the function that stops it. */
  subscribe(fn: ChangeListener): () => void;
  close(): Promise<void>;
};

export function createInvoiceChanges(database: DatabaseHandle, logger: Logger): InvoiceChanges {
  const listeners = new Set<ChangeListener>();
  let listening = false;
  let epoch = 0;
  let started: { close: () => Promise<void> } | undefined;
  const emit = (id: string | null) => {
    epoch++;
    for (const fn of listeners) {
      try {
        fn(id);
      } catch (err) {
        logger.error("invoice change listener failed", { error: String(err) });
      }
    }
  };
  const start = () => {
    started ??= database.listen(
      INVOICE_CHANGES_CHANNEL,
      (id) => emit(id),
      (now) => {
        listening = now;
        logger.info(now ? "listening for invoice changes" : "invoice change listener lost");
        // Up again: whatever happened while it was down was not heard.
        emit(null);
      },
    );
  };
  return {
    listening: () => {
      start();
      return listening;
    },
    epoch: () => epoch,
    subscribe: (fn) => {
      start();
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close: async () => {
      listeners.clear();
      listening = false;
      await started?.close();
    },
  };
}
