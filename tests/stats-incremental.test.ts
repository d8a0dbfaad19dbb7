import { type Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  Asset,
  type Chain,
  funded,
  holder,
  Memo,
  pay,
  send,
  TESTNET,
  trust,
} from "./helpers/stellar";

// The statistics are kept by the database as invoices and payments change (docs/decisions.md,
// Statistics at scale). A seeded random walk of what a freelancer and their clients do (create,
// send, pay part on the ledger, pay outside Stellar and void it, refund, credit, cancel, delete,
// expire) over invoices in XLM and USDC; after every step GET /api/invoices/stats must answer,
// to the stroop, what a recomputation from the rows answers: the database's own
// (rebuild_invoice_stats) for the whole answer, and SQL written here from the definitions
// (docs/decisions.md, Lifecycle: statistics) for the figures a user checks. STATS_SEED=<n>
// replays a walk; a failure names its seed and step.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon } = await startLedgerApp());
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db }));

/** mulberry32: a small seeded generator, so a walk can be replayed from its seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    /** An amount in (0, max] with up to 7 decimals, as a decimal string. */
    amountUpTo: (max: bigint): string => {
      const stroops = 1n + BigInt(Math.floor(next() * Number(max)));
      return toAmount(stroops > max ? max : stroops);
    },
  };
}

const toStroops = (s: string): bigint => {
  const [int, frac = ""] = s.split(".");
  const neg = int.startsWith("-");
  const v = BigInt(int.replace("-", "")) * 10_000_000n + BigInt(frac.padEnd(7, "0").slice(0, 7));
  return neg ? -v : v;
};
const toAmount = (stroops: bigint): string => {
  const neg = stroops < 0n;
  const v = neg ? -stroops : stroops;
  return `${neg ? "-" : ""}${v / 10_000_000n}.${String(v % 10_000_000n).padStart(7, "0")}`;
};

/**
 * The figures a user checks, recomputed here from the rows by their definitions: live
 * invoices (links apart) per status; per asset, revenue = applied payments in the asset less
 * what was refunded of them, less what credit notes took back beyond what was still due; and
 * pending = what is still due on invoices awaiting payment.
 */
async function recomputed(wallet: string) {
  const statuses = await sql`select status, count(*)::int as n from invoices
    where freelancer_wallet = ${wallet} and deleted_at is null and kind = 'INVOICE' group by status`;
  const money = await sql`select c.currency,
      (coalesce((select sum(p.amount - p.amount_refunded) from payments p join invoices i on i.id = p.invoice_id
          where i.freelancer_wallet = ${wallet} and i.deleted_at is null and i.kind = 'INVOICE'
            and p.applied and p.asset = i.currency and i.currency = c.currency), 0)
       - coalesce((select sum(greatest(i.amount_credited - greatest(i.total - i.amount_paid, 0), 0)) from invoices i
          where i.freelancer_wallet = ${wallet} and i.deleted_at is null and i.kind = 'INVOICE'
            and i.price_currency is null and i.currency = c.currency), 0))::numeric(30,7)::text as revenue,
      coalesce((select sum(greatest(i.total - i.amount_credited - i.amount_paid, 0)) from invoices i
          where i.freelancer_wallet = ${wallet} and i.deleted_at is null and i.kind = 'INVOICE'
            and i.price_currency is null and i.currency = c.currency
            and i.status in ('PENDING', 'PROCESSING', 'FAILED', 'EXPIRED')), 0)::numeric(30,7)::text as pending
    from (values ('XLM'), ('USDC'), ('EURC')) as c(currency)`;
  return {
    statusBreakdown: Object.fromEntries(statuses.map((r) => [r.status, r.n])),
    totalRevenue: Object.fromEntries(money.map((r) => [r.currency, r.revenue])),
    pendingAmount: Object.fromEntries(money.map((r) => [r.currency, r.pending])),
  };
}

type Freelancer = { kp: Keypair; api: Api; wallet: string };
type Inv = { id: string; invoiceNumber: string; currency: "XLM" | "USDC" };

describe("statistics kept incrementally", () => {
  it("equal a recomputation from the rows after every step of a random walk", async () => {
    const seed = Number(process.env.STATS_SEED ?? Date.now() % 2_147_483_647);
    const rnd = generator(seed);
    const kp = await funded(testnet);
    await trust(testnet, kp, testnet.usdc);
    const { token } = await signIn(app.url, kp);
    const f: Freelancer = { kp, api: client(app.url, token), wallet: kp.publicKey() };
    const payer = await holder(testnet, testnet.usdc, "100000");
    const invoices: Inv[] = [];
    const done: string[] = [];

    const row = async (id: string) =>
      (
        await sql`select status, amount_paid::text, amount_credited::text, total::text
          from invoices where id = ${id}`
      )[0] as { status: string; amount_paid: string; amount_credited: string; total: string };
    const due = (r: { total: string; amount_paid: string; amount_credited: string }) =>
      toStroops(r.total) - toStroops(r.amount_credited) - toStroops(r.amount_paid);
    const withStatus = async (statuses: string[]) => {
      const rows = await sql`select id from invoices where freelancer_wallet = ${f.wallet}
        and deleted_at is null and status in ${sql(statuses)} order by created_at, id`;
      return invoices.filter((i) => rows.some((r) => r.id === i.id));
    };
    /** No 5xx, ever; a refusal (4xx) of a move that does not apply changes nothing. */
    const ok = (res: { status: number; body: unknown }, what: string) => {
      expect(res.status, `seed ${seed}: ${what}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      return res.status < 300;
    };

    const operations: Record<string, () => Promise<string | null>> = {
      create: async () => {
        const currency = rnd.pick(["XLM", "USDC"] as const);
        const rate = toAmount(BigInt(rnd.int(5, 60)) * 10_000_000n + BigInt(rnd.int(0, 9_999_999)));
        const res = await f.api.post(
          "/api/invoices",
          invoiceBody({ currency, lineItems: [{ description: "Work", quantity: "1", rate }] }),
        );
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        invoices.push({ id: res.body.id, invoiceNumber: res.body.invoiceNumber, currency });
        return `create ${currency} ${rate}`;
      },
      send: async () => {
        const drafts = await withStatus(["DRAFT"]);
        if (!drafts.length) return null;
        const inv = rnd.pick(drafts);
        ok(await f.api.post(`/api/invoices/${inv.id}/send`), "send");
        return `send ${inv.invoiceNumber}`;
      },
      pay: async () => {
        const open = await withStatus(["PENDING", "PROCESSING"]);
        if (!open.length) return null;
        const inv = rnd.pick(open);
        const left = due(await row(inv.id));
        if (left <= 0n) return null;
        // Mostly part of what is due, sometimes all of it, now and then more.
        const kind = rnd.int(0, 5);
        const amount =
          kind === 0
            ? toAmount(left)
            : kind === 1
              ? toAmount(left + BigInt(rnd.int(1, 50_000_000)))
              : rnd.amountUpTo(left);
        const asset = inv.currency === "XLM" ? Asset.native() : testnet.usdc;
        const hash = await send(
          testnet,
          await pay(testnet, payer, f.wallet, asset, amount, Memo.text(inv.invoiceNumber)),
        );
        // An underpayment answers 400 and is recorded all the same.
        ok(
          await anon.post("/api/payments/confirm", { invoiceId: inv.id, transactionHash: hash }),
          "confirm",
        );
        return `pay ${inv.invoiceNumber} ${amount} ${inv.currency}`;
      },
      payOutside: async () => {
        const open = await withStatus(["PENDING", "PROCESSING"]);
        if (!open.length) return null;
        const inv = rnd.pick(open);
        const left = due(await row(inv.id));
        if (left <= 0n) return null;
        const amount = rnd.amountUpTo(left);
        const receivedOn = new Date().toISOString().slice(0, 10);
        ok(
          await f.api.post(`/api/invoices/${inv.id}/payments`, {
            amount,
            receivedOn,
            method: "cash",
          }),
          "manual payment",
        );
        return `pay outside ${inv.invoiceNumber} ${amount}`;
      },
      voidOutside: async () => {
        const manual =
          await sql`select p.id, p.invoice_id from payments p join invoices i on i.id = p.invoice_id
          where i.freelancer_wallet = ${f.wallet} and p.method <> 'stellar' and p.status <> 'VOIDED' order by p.id`;
        if (!manual.length) return null;
        const p = rnd.pick(manual);
        ok(await f.api.delete(`/api/invoices/${p.invoice_id}/payments/${p.id}`), "void");
        return `void ${p.id}`;
      },
      refund: async () => {
        const paid =
          await sql`select p.id, p.invoice_id, (p.amount - p.amount_refunded)::text as kept
          from payments p join invoices i on i.id = p.invoice_id
          where i.freelancer_wallet = ${f.wallet} and p.method = 'stellar' and p.status = 'CONFIRMED'
            and p.amount > p.amount_refunded order by p.id`;
        if (!paid.length) return null;
        const p = rnd.pick(paid);
        const amount = rnd.int(0, 2) === 0 ? p.kept : rnd.amountUpTo(toStroops(p.kept));
        const built = await f.api.post(`/api/invoices/${p.invoice_id}/payments/${p.id}/refund`, {
          amount,
        });
        if (!ok(built, "refund")) return `refund refused ${p.id}`;
        const tx = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
        tx.sign(f.kp);
        const submitted = await f.api.post("/api/refunds/submit", {
          refundId: built.body.refundId,
          signedTransactionXdr: tx.toXDR(),
        });
        ok(submitted, "refund submit");
        return `refund ${p.id} ${amount}`;
      },
      credit: async () => {
        const sent = await withStatus(["PENDING", "PROCESSING", "PAID", "EXPIRED"]);
        if (!sent.length) return null;
        const inv = rnd.pick(sent);
        const r = await row(inv.id);
        const left = toStroops(r.total) - toStroops(r.amount_credited);
        if (left <= 0n) return null;
        const body =
          rnd.int(0, 3) === 0
            ? { reason: "All of it" }
            : { reason: "Part of it", amount: rnd.amountUpTo(left) };
        ok(await f.api.post(`/api/invoices/${inv.id}/credit-notes`, body), "credit");
        return `credit ${inv.invoiceNumber} ${JSON.stringify(body)}`;
      },
      cancel: async () => {
        const open = await withStatus(["DRAFT", "PENDING", "PROCESSING", "EXPIRED"]);
        if (!open.length) return null;
        const inv = rnd.pick(open);
        ok(
          await f.api.post(`/api/invoices/${inv.id}/cancel`, { reason: "No longer needed" }),
          "cancel",
        );
        return `cancel ${inv.invoiceNumber}`;
      },
      delete: async () => {
        const drafts = await withStatus(["DRAFT"]);
        if (!drafts.length) return null;
        const inv = rnd.pick(drafts);
        ok(await f.api.delete(`/api/invoices/${inv.id}`), "delete");
        return `delete ${inv.invoiceNumber}`;
      },
      expire: async () => {
        const open = await withStatus(["PENDING", "PROCESSING"]);
        if (!open.length) return null;
        const inv = rnd.pick(open);
        // Its due date passed (as time would), then the expiry job.
        await sql`update invoices set due_date = now() - interval '3 days' where id = ${inv.id}`;
        const cron = await fetch(`${app.url}/api/cron/expire`, {
          headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
        });
        expect(cron.status).toBe(200);
        return `expire ${inv.invoiceNumber}`;
      },
    };
    // Weighted: money moves most.
    const weighted = [
      ...Array(4).fill("create"),
      ...Array(3).fill("send"),
      ...Array(5).fill("pay"),
      ...Array(2).fill("payOutside"),
      "voidOutside",
      ...Array(2).fill("refund"),
      ...Array(2).fill("credit"),
      "cancel",
      "delete",
      "expire",
    ];

    const steps = Number(process.env.STATS_STEPS ?? 80);
    for (let step = 1; step <= steps; step++) {
      // A start that moves money both ways, then chance.
      const start = ["create", "create", "create", "create", "send", "send", "pay", "pay"];
      const name =
        start[step - 1] ?? (step <= 10 ? ["refund", "credit"][step - 9] : rnd.pick(weighted));
      const what = await operations[name]();
      if (what === null) continue;
      done.push(what);
      const where = `seed ${seed}, step ${step} (${what}); walk so far:\n${done.join("\n")}`;
      // Now and then the wallet's rows are folded first (compact_invoice_stats) as a busy
      // wallet's read does: the figures must not move.
      if (step % 7 === 0) await sql`select compact_invoice_stats(${f.wallet})`;
      const kept = await f.api.get("/api/invoices/stats");
      expect(kept.status, where).toBe(200);
      await sql`select rebuild_invoice_stats(${f.wallet})`;
      const rebuilt = await f.api.get("/api/invoices/stats");
      expect(kept.body, where).toEqual(rebuilt.body);
      const mine = await recomputed(f.wallet);
      expect(
        {
          statusBreakdown: Object.fromEntries(
            Object.entries(kept.body.statusBreakdown as Record<string, number>).filter(
              ([, n]) => n > 0,
            ),
          ),
          totalRevenue: kept.body.totalRevenue,
          pendingAmount: kept.body.pendingAmount,
        },
        where,
      ).toEqual(mine);
      // The list's total is the same count.
      const list = await f.api.get("/api/invoices?limit=1");
      expect(list.body.total, where).toBe(kept.body.totalInvoices);
    }
    // The walk did move money both ways.
    const moves = done.join("\n");
    expect(moves, `seed ${seed}`).toMatch(/^pay /m);
    expect(moves, `seed ${seed}`).toMatch(/^(refund|credit) /m);
  }, 600_000);
});
