import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "@/lib/domain/invoice-state";
import { buildWebhooks } from "@/lib/openapi/events";
import {
  DELIVERED_EVENT_TYPES,
  EVENT_DATA,
  EVENT_ENVELOPES,
  type EventPayload,
} from "@/lib/schemas/events";
import { EventPayloadError, eventData, type OutboxEvent, writeEvent } from "./outbox";

const wallet = `G${"A".repeat(55)}`;
const at = new Date("2026-03-16T00:00:05.000Z");

// A database that fails the test if it is touched: a refused event must write nothing.
const untouchable = new Proxy({} as never, {
  get: () => {
    throw new Error("the database was used");
  },
});

const paid = {
  id: "inv1aaaaaaaaaaaaaaaaaaaa",
  invoiceNumber: "INV-0007",
  status: "PAID",
  previousStatus: "PENDING",
  total: "100.0000000",
  currency: "XLM",
  priceCurrency: null,
  transactionHash: "f".repeat(64),
  ledgerNumber: 42,
  payerWallet: wallet,
  paidAt: at.toISOString(),
} as const;

const outboxEvent = (payload: EventPayload): OutboxEvent => ({
  ...payload,
  wallet,
  invoiceId: paid.id,
  at,
});

describe("writeEvent", () => {
  it("refuses a payload missing a required field before writing anything", async () => {
    const { transactionHash: _, ...withoutHash } = paid;
    const event = outboxEvent({ type: "invoice.paid", data: withoutHash } as EventPayload);
    const refused = writeEvent(untouchable, event);
    await expect(refused).rejects.toBeInstanceOf(EventPayloadError);
    await expect(refused).rejects.toThrow(/invoice\.paid data[\s\S]*transactionHash/);
  });

  it("refuses an amount that is not a decimal string, and a field of the wrong type", async () => {
    for (const data of [
      { ...paid, total: 100 },
      { ...paid, total: "1e2" },
      { ...paid, ledgerNumber: "42" },
      { ...paid, payerWallet: "key:sk_test_Q3x9Lm2a" },
      { ...paid, status: "SETTLED" },
    ]) {
      const event = outboxEvent({ type: "invoice.paid", data } as unknown as EventPayload);
      await expect(writeEvent(untouchable, event)).rejects.toBeInstanceOf(EventPayloadError);
    }
  });

  it("refuses an event type that has no schema", async () => {
    const event = outboxEvent({ type: "invoice.settled", data: paid } as unknown as EventPayload);
    await expect(writeEvent(untouchable, event)).rejects.toThrow(
      "Unknown event type: invoice.settled",
    );
    // Not even through the prototype of the map.
    const proto = outboxEvent({ type: "toString", data: {} } as unknown as EventPayload);
    await expect(writeEvent(untouchable, proto)).rejects.toBeInstanceOf(EventPayloadError);
  });

  it("stores what the schema documents: an undocumented key is not sent", () => {
    const data = eventData({ type: "invoice.paid", data: { ...paid, secret: "x" } as never });
    expect(data).toStrictEqual(paid);
  });
});

describe("one definition per event", () => {
  it("the OpenAPI webhooks section shows the very schemas the outbox parses with", () => {
    const webhooks = buildWebhooks() as Record<
      string,
      { post: { requestBody: { content: { "application/json": { schema: unknown } } } } }
    >;
    // Every subscribable type and the test event `ping` (POST /api/webhooks/{id}/test).
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES, "ping"].sort());
    for (const type of DELIVERED_EVENT_TYPES) {
      const documented = webhooks[type].post.requestBody.content["application/json"].schema;
      expect(documented).toBe(EVENT_ENVELOPES[type]);
      expect(EVENT_ENVELOPES[type].shape.data).toBe(EVENT_DATA[type]);
      expect(Object.keys(EVENT_ENVELOPES[type].shape)).toEqual(["id", "type", "created", "data"]);
    }
  });
});
