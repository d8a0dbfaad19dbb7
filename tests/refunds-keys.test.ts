import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import type { AuthedContext } from "@/lib/services/context";
import { submitRefund } from "@/lib/services/refunds/submit-refund";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

/**
 * A key's refunds are its network's (re-review finding): a testnet key that learns a mainnet
 * refund's id (its memo `RF-<id>` is public on the ledger) cannot read or submit it.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let handle: DatabaseHandle;
let sql: postgres.Sql;
const wallet = Keypair.random().publicKey();
const payer = Keypair.random().publicKey();
const now = new Date("2026-05-01T12:00:00Z");

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await handle?.close();
  await db?.drop();
});

/** A PAID invoice on `network` with one payment and a refund built for it; the refund id. */
async function refundOn(network: "testnet" | "mainnet", n: number): Promise<string> {
  const invoiceId = `inv${network}${n}aaaaaaaaaaaa`.slice(0, 24);
  const paymentId = `pay${network}${n}aaaaaaaaaaaa`.slice(0, 24);
  const refundId = `ref${network}${n}aaaaaaaaaaaa`.slice(0, 24);
  await sql`insert into invoices (id, invoice_number, status, freelancer_wallet, client_name,
      client_email, title, subtotal, total, amount_paid, network_passphrase, created_at, updated_at)
    values (${invoiceId}, ${`INV-${network}-${n}`}, 'PAID', ${wallet}, 'Client', 'c@example.com',
      'Work', 10, 10, 12, ${NETWORK_PASSPHRASES[network]}, ${now}, ${now})`;
  await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet,
      to_wallet, amount, asset, confirmed_at)
    values (${paymentId}, ${invoiceId}, ${"a".repeat(63) + n}, 10, ${payer}, ${wallet}, 12, 'XLM', ${now})`;
  await sql`insert into refunds (id, payment_id, invoice_id, wallet, amount, asset, destination,
      memo, transaction_xdr, created_at, expires_at)
    values (${refundId}, ${paymentId}, ${invoiceId}, ${wallet}, 2, 'XLM', ${payer},
      ${`RF-${refundId}`}, 'AAAA', ${now}, ${new Date(now.getTime() + 300_000)})`;
  return refundId;
}

const asKey = (network: "testnet" | "mainnet"): AuthedContext => ({
  ...testContext(handle, db.url, () => now),
  wallet,
  apiKey: {
    id: "key1aaaaaaaaaaaaaaaaaaaa",
    wallet,
    prefix: network === "testnet" ? "sk_test_abcdefgh" : "sk_live_abcdefgh",
    scopes: ["invoices:write"],
    network,
  },
});

describe("refund submit through an API key", () => {
  it("a testnet key gets 404 Refund not found for a mainnet refund, and nothing changes", async () => {
    const id = await refundOn("mainnet", 1);
    await expect(
      submitRefund(asKey("testnet"), { refundId: id, envelopeXdr: "not-xdr" }),
    ).rejects.toMatchObject({ message: "Refund not found" });
    const [row] = await sql`select status from refunds where id = ${id}`;
    expect(row.status).toBe("PENDING");
  });

  it("its own network's refund goes on to the envelope checks", async () => {
    const id = await refundOn("mainnet", 2);
    await expect(
      submitRefund(asKey("mainnet"), { refundId: id, envelopeXdr: "not-xdr" }),
    ).rejects.toMatchObject({ message: "Invalid signed transaction" });
  });
});
