import { describe, expect, it } from "vitest";
import { logger } from "@/lib/logger";
import type { ChangeListener, InvoiceChanges } from "./invoice-changes";
import { StatusStreams } from "./status-streams";

function feed() {
  const listeners = new Set<ChangeListener>();
  let epoch = 0;
  const changes: InvoiceChanges = {
    listening: () => true,
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
  return { changes, notify };
}

const render = (v: { status: string }) => ({ data: JSON.stringify(v), id: v.status });
const settle = () => new Promise((r) => setTimeout(r, 10));

/** Everything a stream has sent so far, as text. */
function reader(stream: ReadableStream<Uint8Array>) {
  let text = "";
  const r = stream.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await r.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })();
  return { text: () => text, cancel: () => r.cancel() };
}

describe("StatusStreams", () => {
  it("loads a changed invoice once for all its streams, and sends only what changed", async () => {
    const { changes, notify } = feed();
    let loads = 0;
    const state = { a: { status: "PENDING" } };
    const streams = new StatusStreams(
      changes,
      async (id: string) => {
        loads++;
        return id === "a" ? state.a : null;
      },
      { perIp: 10, max: 10 },
      logger,
    );
    const ctrl = new AbortController();
    const one = reader(streams.stream("a", "ip1", state.a, render, ctrl.signal, streams.begin()));
    const two = reader(streams.stream("a", "ip2", state.a, render, ctrl.signal, streams.begin()));
    await settle();
    expect(one.text()).toBe('retry: 5000\n\nid: PENDING\ndata: {"status":"PENDING"}\n\n');

    notify("a"); // nothing visible changed
    await settle();
    expect(loads).toBe(1);
    expect(one.text().match(/data:/g)).toHaveLength(1);

    state.a = { status: "PAID" };
    notify("a");
    notify("other"); // an invoice nobody follows costs nothing
    await settle();
    expect(loads).toBe(2);
    for (const r of [one, two]) expect(r.text()).toContain('id: PAID\ndata: {"status":"PAID"}\n\n');
    ctrl.abort();
  });

  it("a change notified while the initial status was read reaches the stream", async () => {
    const { changes, notify } = feed();
    const state = { a: { status: "DRAFT" } };
    const streams = new StatusStreams(changes, async () => state.a, { perIp: 10, max: 10 }, logger);
    // The route reads the status (DRAFT); the invoice is sent and its change notified before
    // the stream is registered to hear it.
    const epoch = streams.begin();
    const initial = state.a;
    state.a = { status: "PENDING" };
    notify("a");
    const ctrl = new AbortController();
    const one = reader(streams.stream("a", "ip1", initial, render, ctrl.signal, epoch));
    await settle();
    expect(one.text()).toContain('id: DRAFT\ndata: {"status":"DRAFT"}\n\n');
    expect(one.text()).toContain('id: PENDING\ndata: {"status":"PENDING"}\n\n');
    ctrl.abort();
  });

  it("bounds streams per address and per instance, and frees a place when a client goes", async () => {
    const { changes } = feed();
    const streams = new StatusStreams(
      changes,
      async () => ({ status: "PENDING" }),
      { perIp: 2, max: 3 },
      logger,
    );
    const first = new AbortController();
    streams.stream("a", "ip1", { status: "PENDING" }, render, first.signal, streams.begin());
    const second = reader(
      streams.stream(
        "a",
        "ip1",
        { status: "PENDING" },
        render,
        new AbortController().signal,
        streams.begin(),
      ),
    );
    expect(streams.admits("ip1")).toBe(false);
    expect(streams.admits("ip2")).toBe(true);
    streams.stream(
      "b",
      "ip2",
      { status: "PENDING" },
      render,
      new AbortController().signal,
      streams.begin(),
    );
    expect(streams.admits("ip3")).toBe(false); // the instance is full
    first.abort(); // the request ended
    expect(streams.admits("ip1")).toBe(true);
    await second.cancel(); // the reader went
    await settle();
    expect(streams.size).toBe(1);
  });

  it("ends the streams of an invoice that is gone, and refreshes all after a reconnection", async () => {
    const { changes, notify } = feed();
    const present = new Set(["a", "b"]);
    const streams = new StatusStreams(
      changes,
      async (id: string) => (present.has(id) ? { status: "CANCELLED" } : null),
      { perIp: 10, max: 10 },
      logger,
    );
    const a = reader(
      streams.stream(
        "a",
        "ip",
        { status: "PENDING" },
        render,
        new AbortController().signal,
        streams.begin(),
      ),
    );
    reader(
      streams.stream(
        "b",
        "ip",
        { status: "PENDING" },
        render,
        new AbortController().signal,
        streams.begin(),
      ),
    );
    notify(null);
    await settle();
    expect(a.text()).toContain("CANCELLED");
    present.delete("b");
    notify("b");
    await settle();
    expect(streams.size).toBe(1);
  });
});
