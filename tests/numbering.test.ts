import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { newId } from "@/lib/ids";
import { watcherTick } from "@/lib/jobs/watcher";
import { logger } from "@/lib/logger";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import { createLinkSchema } from "@/lib/schemas/links";
import type { AuthedContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { createLink } from "@/lib/services/links/links";
import { invoiceBody } from "./helpers/api";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";
import {
  Asset,
  type Chain,
  chainEnv,
  funded,
  Keypair,
  MAINNET,
  Memo,
  pay,
  send,
  startChain,
  TESTNET,
} from "./helpers/stellar";

/**
 * Invoice numbers belong to their freelancer (docs/decisions.md, Invoice numbers): each
 * wallet counts INV-0001, INV-0002, ... on its own, without gaps, whatever other wallets
 * supply; payments are matched by memo and recipient wallet.
 */
let handle: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let testnet: Chain;
let mainnet: Chain;
const run = promisify(execFile);

const ctx = (wallet: string, on: Pick<DatabaseHandle, "db"> = handle): AuthedContext => ({
  ...testContext(on, db.url, () => new Date(), chainEnv(testnet, mainnet)),
  wallet,
});
const wallet = () => Keypair.random().publicKey();
const create = (
  w: string,
  overrides: Record<string, unknown> = {},
  on: Pick<DatabaseHandle, "db"> = handle,
) => createInvoice(ctx(w, on), createInvoiceSchema.parse(invoiceBody(overrides)));
const link = (w: string) =>
  createLink(ctx(w), createLinkSchema.parse({ amount: "5", asset: "XLM" }));
const series = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `INV-${String(from + i).padStart(4, "0")}`);
const numbersOf = (rows: { invoiceNumber: string }[]) => rows.map((r) => r.invoiceNumber).sort();

beforeAll(async () => {
  testnet = await startChain(TESTNET);
  mainnet = await startChain(MAINNET);
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await handle?.close();
  await db?.drop();
  await testnet?.ledger.stop();
  await mainnet?.ledger.stop();
});

describe("invoice numbers per freelancer", () => {
  it("three wallets creating at once each get INV-0001..INV-0010, no gaps, no 409", async () => {
    const wallets = [wallet(), wallet(), wallet()];
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) => create(wallets[i % 3]).then((inv) => inv)),
    );
    for (const w of wallets) {
      expect(numbersOf(created.filter((inv) => inv.freelancerWallet === w))).toEqual(series(1, 10));
    }
  });

  it("a wallet supplying another wallet's next numbers blocks nothing", async () => {
    const alice = wallet();
    const mallory = wallet();
    await create(alice);
    for (const n of series(2, 6)) {
      expect((await create(mallory, { invoiceNumber: n })).invoiceNumber).toBe(n);
    }
    expect((await create(alice)).invoiceNumber).toBe("INV-0002");
    expect((await link(alice)).invoiceNumber).toBe("INV-0003");
    // The same number twice for one wallet is still refused.
    await expect(create(mallory, { invoiceNumber: "INV-0002" })).rejects.toThrow(
      "Invoice number already exists",
    );
  });

  it("a wallet's own supplied numbers are skipped by its generated ones", async () => {
    const w = wallet();
    await create(w, { invoiceNumber: "INV-0001" });
    await create(w, { invoiceNumber: "INV-0002" });
    await create(w, { invoiceNumber: "INV-0004" });
    await create(w, { invoiceNumber: "INV-7" });
    expect((await create(w)).invoiceNumber).toBe("INV-0003");
    expect((await link(w)).invoiceNumber).toBe("INV-0005");
    expect((await create(w)).invoiceNumber).toBe("INV-0006");
  });

  it("50 concurrent creates of one wallet are INV-0001..INV-0050", async () => {
    const w = wallet();
    const created = await Promise.all(Array.from({ length: 50 }, () => create(w)));
    expect(numbersOf(created)).toEqual(series(1, 50));
  });

  it("a create that fails or rolls back leaves no gap", async () => {
    const w = wallet();
    expect((await create(w)).invoiceNumber).toBe("INV-0001");
    await expect(
      withTransaction(handle.db, async (tx) => {
        await create(w, {}, { db: tx });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await expect(create(w, { invoiceNumber: "INV-0001" })).rejects.toThrow(
      "Invoice number already exists",
    );
    await expect(create(w, { dueDate: "2000-01-01" })).rejects.toThrow();
    expect((await create(w)).invoiceNumber).toBe("INV-0002");
  });

  it("payment links draw from the same sequence", async () => {
    const w = wallet();
    expect((await create(w)).invoiceNumber).toBe("INV-0001");
    expect((await link(w)).invoiceNumber).toBe("INV-0002");
    expect((await create(w)).invoiceNumber).toBe("INV-0003");
    const [links, invoices] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => link(w))),
      Promise.all(Array.from({ length: 5 }, () => create(w))),
    ]);
    expect(numbersOf([...links, ...invoices])).toEqual(series(4, 13));
  });

  it("migrating keeps existing numbers; each wallet continues after its highest", async () => {
    // A database at the migration before per-wallet numbers, with rows numbered globally.
    const old = await createTestDatabase();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "numbering-migrations-"));
    try {
      fs.cpSync(path.resolve("db/migrations"), folder, { recursive: true });
      const journalFile = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(fs.readFileSync(journalFile, "utf8"));
      journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < "0010");
      fs.writeFileSync(journalFile, JSON.stringify(journal));
      const conn = postgres(old.url, { max: 1, onnotice: () => {} });
      await migrate(drizzle(conn), { migrationsFolder: folder });
      const [a, b, c] = [wallet(), wallet(), wallet()];
      const rows = [
        [a, "INV-0003"],
        [a, "INV-0040"],
        [a, "INV-CUSTOM"],
        [b, "INV-0041"],
        [c, "INV-X"],
      ];
      for (const [w, n] of rows) {
        await conn`insert into invoices (id, invoice_number, freelancer_wallet, client_name,
          client_email, title, subtotal, total, network_passphrase, created_at, updated_at)
          values (${newId()}, ${n}, ${w}, 'C', 'c@example.com', 'T', '1', '1', ${TESTNET},
            now(), now())`;
      }
      await conn.end();

      const migrated = await openDatabase({ databaseUrl: old.url, dataDir: "/nonexistent" });
      try {
        const check = postgres(old.url, { max: 1, onnotice: () => {} });
        const kept = await check`select freelancer_wallet as w, invoice_number as n from invoices`;
        await check.end();
        expect(kept.map((r) => [r.w, r.n]).sort()).toEqual(rows.sort());
        const next = async (w: string) =>
          (
            await createInvoice(
              { ...testContext(migrated, old.url, () => new Date()), wallet: w },
              createInvoiceSchema.parse(invoiceBody()),
            )
          ).invoiceNumber;
        expect([await next(a), await next(b), await next(c), await next(a)]).toEqual([
          "INV-0041",
          "INV-0042",
          "INV-0001",
          "INV-0042",
        ]);
      } finally {
        await migrated.close();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await old.drop();
    }
  });

  it("the embedded database continues at the next number after a restart", async () => {
    // Each create in its own process that exits without closing the database, as the server
    // stops: a sequence would resume 32 further on after recovery, the counter row does not.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "numbering-pglite-"));
    const w = wallet();
    try {
      const numbers = [];
      for (let restart = 0; restart < 3; restart++) {
        const { stdout } = await run(
          path.resolve("node_modules/.bin/tsx"),
          [path.resolve("tests/helpers/embedded-create.ts"), dataDir, w],
          { env: { ...process.env, DATABASE_URL: "" }, timeout: 60_000 },
        );
        numbers.push(stdout.trim().split("\n").at(-1));
      }
      expect(numbers).toEqual(series(1, 3));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("two freelancers' INV-0001 paid separately each get their own payment", async () => {
    const [a, b] = [await funded(testnet), await funded(testnet)];
    const invA = await create(a.publicKey(), {
      lineItems: [{ description: "x", quantity: "1", rate: "3" }],
    });
    const invB = await create(b.publicKey(), {
      lineItems: [{ description: "x", quantity: "1", rate: "3" }],
    });
    expect([invA.invoiceNumber, invB.invoiceNumber]).toEqual(["INV-0001", "INV-0001"]);
    await sendInvoice(ctx(a.publicKey()), invA.id);
    await sendInvoice(ctx(b.publicKey()), invB.id);
    const tick = () => watcherTick({ ...ctx(a.publicKey()), logger }, "testnet");
    await tick(); // sets the cursor
    const payer = await funded(testnet);
    const tally = async () =>
      sql`select i.freelancer_wallet as wallet, i.status, p.to_wallet, p.transaction_hash
          from invoices i left join payments p on p.invoice_id = i.id
          where i.id in (${invA.id}, ${invB.id}) order by i.freelancer_wallet = ${b.publicKey()}`;

    const hashA = await send(
      testnet,
      await pay(testnet, payer, a.publicKey(), Asset.native(), "3", Memo.text("INV-0001")),
    );
    expect((await tick()).matched).toBe(1);
    expect(await tally()).toEqual([
      { wallet: a.publicKey(), status: "PAID", to_wallet: a.publicKey(), transaction_hash: hashA },
      { wallet: b.publicKey(), status: "PENDING", to_wallet: null, transaction_hash: null },
    ]);

    const hashB = await send(
      testnet,
      await pay(testnet, payer, b.publicKey(), Asset.native(), "3", Memo.text("INV-0001")),
    );
    expect((await tick()).matched).toBe(1);
    expect(await tally()).toEqual([
      { wallet: a.publicKey(), status: "PAID", to_wallet: a.publicKey(), transaction_hash: hashA },
      { wallet: b.publicKey(), status: "PAID", to_wallet: b.publicKey(), transaction_hash: hashB },
    ]);
  });
});
