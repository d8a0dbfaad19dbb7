import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { events, webhookDeliveries, webhookSubscriptions } from "@/db/schema";
import { housekeeping } from "@/lib/jobs/housekeeping";
import type { ServiceContext } from "@/lib/services/context";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

// Retention of the webhook delivery log and the events behind it (30 days).
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let handle: DatabaseHandle;
const NOW = new Date("2026-06-30T12:00:00Z");
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
});

afterAll(async () => {
  await handle?.close();
  await db?.drop();
});

const ctx = (): ServiceContext => testContext(handle, db.url, () => NOW);

let seq = 0;
async function event(id: string, createdDaysAgo: number, fannedOut = true) {
  await handle.db.insert(events).values({
    id,
    type: "invoice.paid",
    wallet: "GWALLET",
    invoiceId: "inv",
    data: { n: seq++ },
    createdAt: ago(createdDaysAgo),
    fannedOutAt: fannedOut ? ago(createdDaysAgo) : null,
  });
}

async function delivery(
  id: string,
  eventId: string,
  status: "pending" | "delivered" | "failed",
  createdDaysAgo: number,
) {
  await handle.db.insert(webhookDeliveries).values({
    id,
    subscriptionId: "sub",
    eventId,
    eventSeq: BigInt(seq++),
    invoiceId: "inv",
    status,
    nextAttemptAt: ago(createdDaysAgo),
    createdAt: ago(createdDaysAgo),
  });
}

const ids = async (table: typeof events | typeof webhookDeliveries) =>
  (await handle.db.select({ id: table.id }).from(table)).map((r) => r.id).sort();

describe("webhook log retention", () => {
  it("drops finished deliveries and unreferenced events older than 30 days, nothing else", async () => {
    await handle.db.insert(webhookSubscriptions).values({
      id: "sub",
      wallet: "GWALLET",
      url: "https://example.com/hook",
      events: ["*"],
      secret: "s",
      createdAt: ago(100),
    });
    await event("e-old-done", 40); // its only delivery is old and delivered: both go
    await delivery("d-old-delivered", "e-old-done", "delivered", 40);
    await event("e-old-failed", 35);
    await delivery("d-old-failed", "e-old-failed", "failed", 35);
    await event("e-old-pending", 45); // a pending delivery keeps itself and its event
    await delivery("d-old-pending", "e-old-pending", "pending", 45);
    await event("e-old-retried", 60); // redelivered 2 days ago: its clock restarted
    await delivery("d-retried", "e-old-retried", "delivered", 2);
    await event("e-recent", 29);
    await delivery("d-recent", "e-recent", "delivered", 29);
    await event("e-old-no-subscribers", 31); // fanned out to nobody: goes
    await event("e-old-not-fanned-out", 90, false); // not fanned out yet: stays

    await housekeeping(ctx());

    expect(await ids(webhookDeliveries)).toEqual(["d-old-pending", "d-recent", "d-retried"]);
    expect(await ids(events)).toEqual([
      "e-old-not-fanned-out",
      "e-old-pending",
      "e-old-retried",
      "e-recent",
    ]);

    // Once the pending delivery finishes and ages out, its event goes with it.
    await handle.db
      .update(webhookDeliveries)
      .set({ status: "delivered" })
      .where(eq(webhookDeliveries.id, "d-old-pending"));
    await housekeeping(ctx());
    expect(await ids(webhookDeliveries)).toEqual(["d-recent", "d-retried"]);
    expect(await ids(events)).toEqual(["e-old-not-fanned-out", "e-old-retried", "e-recent"]);
  });

  it("works through more rows than one batch", async () => {
    const n = 2500;
    await handle.db.insert(events).values(
      Array.from({ length: n }, (_, i) => ({
        id: `bulk-${i}`,
        type: "invoice.paid",
        wallet: "GWALLET",
        data: {},
        createdAt: ago(50),
        fannedOutAt: ago(50),
      })),
    );
    await handle.db.insert(webhookDeliveries).values(
      Array.from({ length: n }, (_, i) => ({
        id: `bulk-d-${i}`,
        subscriptionId: "sub",
        eventId: `bulk-${i}`,
        eventSeq: BigInt(i),
        status: "delivered" as const,
        nextAttemptAt: ago(50),
        createdAt: ago(50),
      })),
    );
    await housekeeping(ctx());
    expect((await ids(events)).filter((id) => id.startsWith("bulk"))).toEqual([]);
    expect((await ids(webhookDeliveries)).filter((id) => id.startsWith("bulk"))).toEqual([]);
  });
});

describe("webhook log retention on the embedded database", () => {
  it("runs on PGlite too", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "retention-pglite-"));
    const embedded = await openDatabase({ dataDir: dir });
    try {
      await embedded.db.insert(events).values([
        { id: "old", type: "t", wallet: "G", data: {}, createdAt: ago(40), fannedOutAt: ago(40) },
        { id: "new", type: "t", wallet: "G", data: {}, createdAt: ago(1), fannedOutAt: ago(1) },
      ]);
      const { deleteOldWebhookRecords } = await import("@/lib/webhooks/retention");
      expect(await deleteOldWebhookRecords(embedded.db, NOW)).toEqual({ deliveries: 0, events: 1 });
      const left = await embedded.db.select({ id: events.id }).from(events);
      expect(left.map((r) => r.id)).toEqual(["new"]);
    } finally {
      await embedded.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
