import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, type Chain, funded, Memo, pay, send } from "./helpers/stellar";

// A client who pays twice while nothing else is open on the network: the watcher must still
// read the payment (an idle skip only skips what provably matches no invoice at all) and
// record it unapplied `already_paid`, refundable (docs/decisions.md, Watcher). This suite
// has its own database so that no other invoice is open.

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

const tick = async () => {
  const res = await fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  });
  const body = await res.json();
  return body.results.find((r: { network: string }) => r.network === "testnet");
};

describe("a payment to an invoice that is already paid", () => {
  let f: { kp: Keypair; api: Api };
  let payer: Keypair;
  beforeAll(async () => {
    f = { kp: await funded(testnet), api: client(app.url) };
    f.api = client(app.url, (await signIn(app.url, f.kp)).token);
    payer = await funded(testnet);
  });

  it("is recorded unapplied (already_paid) and refundable when nothing else is payable", async () => {
    const created = await f.api.post(
      "/api/invoices",
      invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: "10" }] }),
    );
    expect(created.status).toBe(201);
    const inv = created.body as { id: string; invoiceNumber: string };
    expect((await f.api.post(`/api/invoices/${inv.id}/send`)).status).toBe(200);
    // The watcher starts reading while the invoice is open.
    await tick();
    const memo = Memo.text(inv.invoiceNumber);
    await send(testnet, await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "10", memo));
    await tick();
    expect((await anon.get(`/api/payments/${inv.id}/status`)).body.status).toBe("PAID");
    const [{ open }] =
      await sql`select count(*)::int as open from invoices where status not in ('PAID', 'CANCELLED', 'DRAFT')`;
    expect(open).toBe(0);

    // The client pays again: nothing is payable anywhere on the network now.
    const again = await send(
      testnet,
      await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "5", memo),
    );
    const result = await tick();
    expect(result.skipped).toBeUndefined();

    const owner = (await f.api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(owner.status).toBe("PAID");
    expect(owner.amountPaid).toBe("10.0000000");
    const late = owner.payments.find(
      (p: { transactionHash: string }) => p.transactionHash === again,
    );
    expect(late).toMatchObject({
      amount: "5.0000000",
      applied: false,
      unappliedReason: "already_paid",
    });
    const refund = await f.api.post(`/api/invoices/${inv.id}/payments/${late.id}/refund`);
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(refund.body).toMatchObject({ amount: "5", destination: payer.publicKey() });
  });

  it("a network with no invoice at all is still skipped", async () => {
    const result = await fetch(`${app.url}/api/cron/watcher`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    }).then((r) => r.json());
    const mn = result.results.find((r: { network: string }) => r.network === "mainnet");
    expect(mn.skipped).toBe("idle");
  });
});
