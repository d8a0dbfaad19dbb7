import type { Logger } from "@/lib/logger";
import type { InvoiceChanges } from "./invoice-changes";

/** Sent between messages so proxies and browsers keep an idle stream open. */
export const KEEPALIVE_MS = 15_000;
/** What the browser waits before reconnecting a dropped stream (`retry:`). */
export const RETRY_MS = 5_000;

export const TOO_MANY_STREAMS = "Too many open status streams";

/** One open stream: renders a value as its `data:` line (its form, its wire context). */
type Client = {
  ip: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
  render: (value: unknown) => { data: string; id: string };
  last: string | undefined;
  closed: boolean;
};

/** A refresh under way for an invoice; `again`: a change came while it loaded. */
type Refresh = { again: boolean };

const encoder = new TextEncoder();
const frame = (id: string, data: string) => encoder.encode(`id: ${id}\ndata: ${data}\n\n`);
const KEEPALIVE = encoder.encode(": keepalive\n\n");

/**
 * The open payment-status streams of this instance (GET /api/payments/{id}/events), grouped
 * by invoice: a change notified for an invoice (lib/realtime/invoice-changes.ts) loads its
 * status once for all of its streams, and each stream gets a message if what it would show
 * changed. One timer sends every stream's keepalive. Streams are bounded per client address
 * and per instance (docs/decisions.md, "Pushed status").
 */
export class StatusStreams<T> {
  private readonly byInvoice = new Map<string, Set<Client>>();
  private readonly perIp = new Map<string, number>();
  private readonly refreshing = new Map<string, Refresh>();
  private open = 0;
  private keepalive: NodeJS.Timeout | undefined;

  constructor(
    private readonly changes: InvoiceChanges,
    private readonly load: (invoiceId: string) => Promise<T | null>,
    private readonly limits: { perIp: number; max: number },
    private readonly logger: Logger,
  ) {
    changes.subscribe((id) => {
      const ids = id === null ? [...this.byInvoice.keys()] : this.byInvoice.has(id) ? [id] : [];
      for (const invoiceId of ids) void this.refresh(invoiceId);
    });
  }

  /** False when another stream from `ip`, or on this instance, would pass the bounds. */
  admits(ip: string): boolean {
    return this.open < this.limits.max && (this.perIp.get(ip) ?? 0) < this.limits.perIp;
  }

  /** The epoch to pass to `stream` for an initial value read from now on. */
  begin(): number {
    return this.changes.epoch();
  }

  /**
   * A stream for `invoiceId` that starts with `initial`, follows its changes until the client
   * goes (`signal`) and counts against `ip`. The caller checked `admits(ip)` just before.
   * `epoch` is `begin()`'s before `initial` was read: a change notified since then (while it
   * was read, before this stream could hear it) is loaded again for the stream at once.
   */
  stream(
    invoiceId: string,
    ip: string,
    initial: T,
    render: (value: T) => { data: string; id: string },
    signal: AbortSignal,
    epoch: number,
  ): ReadableStream<Uint8Array> {
    let client: Client | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        const first = render(initial);
        client = {
          ip,
          controller,
          render: render as Client["render"],
          last: first.data,
          closed: false,
        };
        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n\n`));
        controller.enqueue(frame(first.id, first.data));
        this.add(invoiceId, client);
        if (this.changes.epoch() !== epoch) void this.refresh(invoiceId);
        const end = () => this.remove(invoiceId, client as Client, true);
        if (signal.aborted) end();
        else signal.addEventListener("abort", end, { once: true });
      },
      cancel: () => {
        if (client) this.remove(invoiceId, client, false);
      },
    });
  }

  get size(): number {
    return this.open;
  }

  private add(invoiceId: string, client: Client) {
    let group = this.byInvoice.get(invoiceId);
    if (!group) {
      group = new Set();
      this.byInvoice.set(invoiceId, group);
    }
    group.add(client);
    this.open++;
    this.perIp.set(client.ip, (this.perIp.get(client.ip) ?? 0) + 1);
    this.keepalive ??= setInterval(() => this.ping(), KEEPALIVE_MS);
    this.keepalive.unref?.();
  }

  private remove(invoiceId: string, client: Client, close: boolean) {
    if (client.closed) return;
    client.closed = true;
    if (close) {
      try {
        client.controller.close();
      } catch {
        // Already closed by the other side.
      }
    }
    const group = this.byInvoice.get(invoiceId);
    group?.delete(client);
    if (group?.size === 0) this.byInvoice.delete(invoiceId);
    this.open--;
    const left = (this.perIp.get(client.ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(client.ip, left);
    else this.perIp.delete(client.ip);
    if (this.open === 0 && this.keepalive) {
      clearInterval(this.keepalive);
      this.keepalive = undefined;
    }
  }

  private send(invoiceId: string, client: Client, chunk: Uint8Array) {
    try {
      client.controller.enqueue(chunk);
    } catch {
      this.remove(invoiceId, client, false);
    }
  }

  private ping() {
    for (const [invoiceId, group] of this.byInvoice) {
      for (const client of group) this.send(invoiceId, client, KEEPALIVE);
    }
  }

  /** Loads the invoice once and pushes it to its streams; changes during a load run it again. */
  private async refresh(invoiceId: string): Promise<void> {
    const state = this.refreshing.get(invoiceId);
    if (state) {
      state.again = true;
      return;
    }
    const mine: Refresh = { again: true };
    this.refreshing.set(invoiceId, mine);
    try {
      while (mine.again) {
        mine.again = false;
        const value = await this.load(invoiceId).catch((err) => {
          this.logger.warn("status stream refresh failed", { invoiceId, error: String(err) });
          return undefined;
        });
        const group = this.byInvoice.get(invoiceId);
        if (value === undefined || !group) continue;
        for (const client of [...group]) {
          // Gone (deleted): the stream ends; the browser's reconnection then gets the 404.
          if (value === null) {
            this.remove(invoiceId, client, true);
            continue;
          }
          const next = client.render(value);
          if (next.data === client.last) continue;
          client.last = next.data;
          this.send(invoiceId, client, frame(next.id, next.data));
        }
      }
    } finally {
      this.refreshing.delete(invoiceId);
    }
  }
}
