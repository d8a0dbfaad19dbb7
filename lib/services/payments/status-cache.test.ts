import { describe, expect, it } from "vitest";
import type { ChangeListener, InvoiceChanges } from "@/lib/realtime/invoice-changes";
import type { QuoteRow } from "./quotes";
import type { PaymentStatus } from "./status";
import { STATUS_CACHE_TTL, StatusCache } from "./status-cache";

/** A change feed the test drives: `notify(id)` as a NOTIFY would, `listening` as the link is. */
function feed() {
  const listeners = new Set<ChangeListener>();
  let epoch = 0;
  const state = { listening: true };
  const changes: InvoiceChanges = {
    listening: () => state.listening,
    epoch: () => epoch,
    subscribe: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close: async () => {},
  };
  const notify = (id: string | null) => {
    epoch++;
    for (const fn of listeners) fn(id);
  };
  return { changes, notify, state };
}

const T0 = new Date("2026-11-23T10:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

function status(id: string, over: Partial<PaymentStatus> = {}): PaymentStatus {
  return {
    id,
    status: "PENDING",
    transactionHash: null,
    ledgerNumber: null,
    paidAt: null,
    payerWallet: null,
    total: "25.0000000",
    amountPaid: "0.0000000",
    updatedAt: T0,
    priceCurrency: null,
    payments: [],
    quote: null,
    ...over,
  } as PaymentStatus;
}

function cached(cache: StatusCache, value: PaymentStatus, now = T0) {
  cache.set(value.id, value, cache.begin(), now);
}

describe("StatusCache", () => {
  it("answers until the invoice is notified, then reads again", () => {
    const { changes, notify } = feed();
    const cache = new StatusCache(changes);
    cached(cache, status("a"));
    cached(cache, status("b"));
    expect(cache.get("a", T0)?.status).toBe("PENDING");
    notify("a");
    expect(cache.get("a", T0)).toBeUndefined();
    expect(cache.get("b", T0)?.status).toBe("PENDING");
    // The listener reconnected: anything may have changed.
    notify(null);
    expect(cache.get("b", T0)).toBeUndefined();
  });

  it("never keeps a read that a change raced", () => {
    const { changes, notify } = feed();
    const cache = new StatusCache(changes);
    const epoch = cache.begin();
    notify("a"); // committed while the read ran: the read may predate it
    cache.set("a", status("a"), epoch, T0);
    expect(cache.get("a", T0)).toBeUndefined();
  });

  it("answers nothing and keeps nothing while it is not listening", () => {
    const { changes, state } = feed();
    const cache = new StatusCache(changes);
    cached(cache, status("a"));
    state.listening = false;
    expect(cache.get("a", T0)).toBeUndefined();
    cached(cache, status("b"));
    state.listening = true;
    expect(cache.get("b", T0)).toBeUndefined();
  });

  it("keeps settled invoices for minutes and open ones for a moment, never past their quote", () => {
    const { changes } = feed();
    const cache = new StatusCache(changes);
    cached(cache, status("paid", { status: "PAID" }));
    cached(cache, status("open"));
    cached(
      cache,
      status("quoted", { quote: { expiresAt: at(500) } as QuoteRow, priceCurrency: "USD" }),
    );
    expect(cache.get("open", at(STATUS_CACHE_TTL.openMs - 1))).toBeDefined();
    expect(cache.get("open", at(STATUS_CACHE_TTL.openMs))).toBeUndefined();
    expect(cache.get("quoted", at(499))).toBeDefined();
    expect(cache.get("quoted", at(500))).toBeUndefined();
    expect(cache.get("paid", at(STATUS_CACHE_TTL.finalMs - 1))?.status).toBe("PAID");
    expect(cache.get("paid", at(STATUS_CACHE_TTL.finalMs))).toBeUndefined();
  });

  it("holds at most its size, dropping the oldest", () => {
    const { changes } = feed();
    const cache = new StatusCache(changes, 2);
    cached(cache, status("a"));
    cached(cache, status("b"));
    cached(cache, status("c"));
    expect(cache.size).toBe(2);
    expect(cache.get("a", T0)).toBeUndefined();
    expect(cache.get("c", T0)).toBeDefined();
  });
});
