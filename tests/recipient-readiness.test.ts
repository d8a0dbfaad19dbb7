import http from "node:http";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_NO_TRUST, payerWords } from "@/components/checkout/recipient-message";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { toErrorPayload } from "@/lib/http/errors";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import type { AuthedContext } from "@/lib/services/context";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { createPaymentIntent } from "@/lib/services/payments/pay-intent";
import { walletReadiness } from "@/lib/services/payments/recipient-readiness";
import { buildTrustline, submitTrustline } from "@/lib/services/payments/trustline";
import { LEDGER_MESSAGES } from "@/lib/stellar/errors";
import { invoiceBody } from "./helpers/api";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";
import {
  Asset,
  build,
  type Chain,
  funded,
  Keypair,
  Operation,
  startChain,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

// Recipient readiness (docs/decisions.md, Recipient readiness), in-process against a real
// database and the local ledger: send's check and its exact messages, pay-intent's, and the
// one-click trustline built, signed by the wallet and relayed to the ledger.

let handle: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let chain: Chain;
let frozenProxy: http.Server;
let proxyUrl: string;
/** Accounts whose trustlines the proxy shows as not authorized (an issuer's freeze). */
const frozen = new Set<string>();

/**
 * Horizon as the service sees it: the local ledger behind a proxy that can show a trustline
 * as not authorized, which the local ledger (whose issuers never revoke) cannot.
 */
function startFreezingProxy(target: string): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const body = await new Promise<Buffer>((resolve) => {
      const parts: Buffer[] = [];
      req.on("data", (c) => parts.push(c));
      req.on("end", () => resolve(Buffer.concat(parts)));
    });
    const upstream = await fetch(target + (req.url ?? "/"), {
      method: req.method,
      headers: { "content-type": req.headers["content-type"] ?? "application/json" },
      body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(body),
    });
    let text = await upstream.text();
    const id = /^\/accounts\/(G[A-Z2-7]{55})$/.exec(req.url ?? "")?.[1];
    if (upstream.ok && id && frozen.has(id)) {
      const account = JSON.parse(text);
      for (const b of account.balances) if (b.asset_type !== "native") b.is_authorized = false;
      text = JSON.stringify(account);
    }
    res.writeHead(upstream.status, {
      "content-type": upstream.headers.get("content-type") ?? "application/json",
    });
    res.end(text);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const clock = () => new Date();

function ledgerEnv(horizon: string, reachable = true): Record<string, string> {
  return {
    HORIZON_TESTNET_URL: horizon,
    // LEDGER_SOURCE=rpc submits through the ledger's Stellar RPC (reads stay on Horizon).
    RPC_TESTNET_URL: reachable ? `${chain.ledger.url}/rpc` : "http://127.0.0.1:9",
    USDC_ISSUER_TESTNET: chain.ledger.issuers.USDC.issuer,
    EURC_ISSUER_TESTNET: chain.ledger.issuers.EURC.issuer,
  };
}

/** The wallet's context against the ledger (through the proxy), or with Horizon unreachable. */
const ctx = (kp: Keypair, horizon: "ledger" | "unreachable" = "ledger"): AuthedContext => ({
  ...testContext(
    handle,
    db.url,
    clock,
    ledgerEnv(horizon === "ledger" ? proxyUrl : "http://127.0.0.1:9", horizon === "ledger"),
  ),
  wallet: kp.publicKey(),
});

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  chain = await startChain(TESTNET);
  frozenProxy = await startFreezingProxy(chain.ledger.url);
  const addr = frozenProxy.address() as { port: number };
  proxyUrl = `http://127.0.0.1:${addr.port}`;
});

afterAll(async () => {
  await new Promise((r) => frozenProxy?.close(r));
  await chain?.ledger.stop();
  await sql?.end();
  await handle?.close();
  await db?.drop();
});

/** A draft of 1001 in `currency` (invoiceBody's two lines) by the wallet. */
const draft = (kp: Keypair, over: Record<string, unknown> = {}) =>
  createInvoice(ctx(kp), createInvoiceSchema.parse(invoiceBody(over)));

/** What the API answers for a call that fails: status, code, message and details. */
async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e,
  );
  const payload = toErrorPayload(err);
  if (!payload) throw err;
  return payload;
}

const statusOf = async (id: string) =>
  (await sql`select status from invoices where id = ${id}`)[0].status;

const usdc = () => chain.usdc;

describe("send checks that the freelancer's wallet can receive", () => {
  it("no account: 400 with the fix (activate), for USDC and for XLM; nothing changes", async () => {
    const ghost = Keypair.random();
    for (const currency of ["USDC", "XLM"] as const) {
      const inv = await draft(ghost, { currency });
      const r = await refusal(sendInvoice(ctx(ghost), inv.id));
      expect(r).toMatchObject({
        status: 400,
        code: "VALIDATION_ERROR",
        message: `Your wallet cannot receive ${currency} on Testnet yet: the account is not activated on this network`,
      });
      expect(r.details?.reason).toBe("no_account");
      expect(r.details?.fix).toContain(
        `Activate the account: send at least 1 XLM (the minimum balance) to ${ghost.publicKey()}`,
      );
      expect(await statusOf(inv.id)).toBe("DRAFT");
    }
  });

  it("no trustline: 400 naming the trusted issuer, with the fix (add a trustline)", async () => {
    const kp = await funded(chain);
    const inv = await draft(kp, { currency: "USDC" });
    const r = await refusal(sendInvoice(ctx(kp), inv.id));
    const issuer = chain.ledger.issuers.USDC.issuer;
    expect(r.status).toBe(400);
    expect(r.message).toBe(
      `Your wallet cannot receive USDC on Testnet yet: it has no trustline to USDC issued by ${issuer}`,
    );
    expect(r.details).toEqual({
      reason: "no_trustline",
      fix: `Add a trustline to USDC issued by ${issuer} ("Add trustline" on the invoice page signs it with your wallet).`,
    });
    // A trustline to another issuer's USDC is not one.
    const other = await funded(chain);
    await trust(chain, kp, new Asset("USDC", other.publicKey()));
    expect((await refusal(sendInvoice(ctx(kp), inv.id))).details?.reason).toBe("no_trustline");
    expect(await statusOf(inv.id)).toBe("DRAFT");
  });

  it("not authorized by the issuer: 400", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, chain.eurc);
    frozen.add(kp.publicKey());
    const inv = await draft(kp, { currency: "EURC" });
    const r = await refusal(sendInvoice(ctx(kp), inv.id));
    expect(r.message).toBe(
      "Your wallet cannot receive EURC on Testnet yet: its EURC trustline is not authorized by the issuer",
    );
    expect(r.details?.reason).toBe("not_authorized");
    frozen.delete(kp.publicKey());
  });

  it("no room for the total: 400 with the room left; a fiat-priced invoice is not room-checked", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, usdc(), "1000.5");
    const inv = await draft(kp, { currency: "USDC" }); // total 1001
    const r = await refusal(sendInvoice(ctx(kp), inv.id));
    expect(r.message).toBe(
      "Your wallet cannot receive USDC on Testnet yet: its USDC trustline has room for 1000.5 USDC, less than 1001 USDC",
    );
    expect(r.details?.reason).toBe("no_room");
    // The balance counts against the limit: room for exactly the total is enough.
    await chain.ledger.fund(kp.publicKey(), "0.5", "USDC");
    await trust(chain, kp, usdc(), "1001.5");
    expect((await sendInvoice(ctx(kp), inv.id)).status).toBe("PENDING");
    // Priced in USD: the asset amount is only known at pay-intent, so send does not compare.
    const fiat = await draft(kp, { currency: "USDC", priceCurrency: "USD" });
    expect((await sendInvoice(ctx(kp), fiat.id)).status).toBe("PENDING");
  });

  it("ready: sent (USDC with a trustline, XLM with an account)", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, usdc());
    expect((await sendInvoice(ctx(kp), (await draft(kp, { currency: "USDC" })).id)).status).toBe(
      "PENDING",
    );
    expect((await sendInvoice(ctx(kp), (await draft(kp)).id)).status).toBe("PENDING");
  });

  it("Horizon unreachable or failing: readiness unknown, the invoice is sent", async () => {
    const ghost = Keypair.random();
    const inv = await draft(ghost, { currency: "USDC" });
    expect((await sendInvoice(ctx(ghost, "unreachable"), inv.id)).status).toBe("PENDING");
    // The ledger answering 503 is the same.
    await fetch(`${chain.ledger.url}/local/failure`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: 503, count: 1 }),
    });
    const other = await draft(ghost);
    expect((await sendInvoice(ctx(ghost), other.id)).status).toBe("PENDING");
    expect(await walletReadiness(ctx(ghost, "unreachable"), { currency: "USDC" })).toMatchObject({
      status: "unknown",
      problem: null,
      message: null,
    });
  });

  it("other statuses answer as before, without reading the ledger", async () => {
    const ghost = Keypair.random();
    const inv = await draft(ghost);
    await sendInvoice(ctx(ghost, "unreachable"), inv.id);
    expect((await refusal(sendInvoice(ctx(ghost), inv.id))).message).toBe(
      "Invoice cannot be sent. Current status: PENDING",
    );
  });
});

describe("pay-intent checks the recipient before building anything", () => {
  const payIntent = (kp: Keypair, id: string) =>
    createPaymentIntent(ctx(kp), id, { networkPassphrase: TESTNET });

  it("no account: 400 `Recipient wallet is not activated ...`, status unchanged", async () => {
    const ghost = Keypair.random();
    const inv = await draft(ghost, { currency: "USDC" });
    await sendInvoice(ctx(ghost, "unreachable"), inv.id); // sent while the ledger was down
    const r = await refusal(payIntent(ghost, inv.id));
    expect(r).toMatchObject({
      status: 400,
      code: "LEDGER_ERROR",
      message: "Recipient wallet is not activated on this network. It must be funded first.",
    });
    expect(await statusOf(inv.id)).toBe("PENDING");
  });

  it("no trustline (removed after send) and not authorized: 400 `The recipient wallet cannot receive this asset yet. ...`", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, usdc());
    const inv = await draft(kp, { currency: "USDC" });
    await sendInvoice(ctx(kp), inv.id);
    await trust(chain, kp, usdc(), "0"); // removed
    const message =
      "The recipient wallet cannot receive this asset yet. Ask the sender of this invoice to add a trustline.";
    expect(await refusal(payIntent(kp, inv.id))).toMatchObject({
      status: 400,
      code: "LEDGER_ERROR",
      message,
    });
    await trust(chain, kp, usdc());
    frozen.add(kp.publicKey());
    expect((await refusal(payIntent(kp, inv.id))).message).toBe(message);
    frozen.delete(kp.publicKey());
    expect(await statusOf(inv.id)).toBe("PENDING");
  });

  it("no room for the amount due: 400 `... (limit reached)`", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, usdc());
    const inv = await draft(kp, { currency: "USDC" });
    await sendInvoice(ctx(kp), inv.id);
    await trust(chain, kp, usdc(), "10");
    expect((await refusal(payIntent(kp, inv.id))).message).toBe(
      "The recipient wallet cannot receive more of this asset (limit reached).",
    );
  });

  it("ready: the intent is built", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, usdc());
    const inv = await draft(kp, { currency: "USDC" });
    await sendInvoice(ctx(kp), inv.id);
    const intent = await payIntent(kp, inv.id);
    expect(intent).toMatchObject({ amount: "1001", status: "PROCESSING" });
  });
});

describe("Add trustline: built for the wallet, signed by it, relayed to the ledger", () => {
  const sign = (xdr: string, kp: Keypair) => {
    const tx = TransactionBuilder.fromXDR(xdr, TESTNET);
    tx.sign(kp);
    return tx.toXDR();
  };

  it("fixes a missing trustline: readiness turns ready and the invoice sends", async () => {
    const kp = await funded(chain);
    const inv = await draft(kp, { currency: "USDC" });
    const before = await walletReadiness(ctx(kp), { currency: "USDC", amount: "1001" });
    expect(before).toMatchObject({
      status: "not_ready",
      problem: "no_trustline",
      canAddTrustline: true,
    });

    const built = await buildTrustline(ctx(kp), { networkPassphrase: TESTNET, currency: "USDC" });
    expect(built).toMatchObject({
      networkPassphrase: TESTNET,
      asset: { code: "USDC", issuer: chain.ledger.issuers.USDC.issuer },
      wallet: kp.publicKey(),
    });
    const done = await submitTrustline(ctx(kp), {
      networkPassphrase: TESTNET,
      signedTransactionXdr: sign(built.transactionXdr, kp),
    });
    expect(done).toMatchObject({
      transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      ledger: expect.any(Number),
      assets: [{ code: "USDC", issuer: chain.ledger.issuers.USDC.issuer }],
    });
    const account = await chain.server.loadAccount(kp.publicKey());
    expect(account.balances).toContainEqual(
      expect.objectContaining({ asset_code: "USDC", limit: "922337203685.4775807" }),
    );
    expect(await walletReadiness(ctx(kp), { currency: "USDC", amount: "1001" })).toMatchObject({
      status: "ready",
      problem: null,
    });
    expect((await sendInvoice(ctx(kp), inv.id)).status).toBe("PENDING");
  });

  it("raises a full trustline to the maximum", async () => {
    const kp = await funded(chain);
    await trust(chain, kp, usdc(), "5");
    const r = await walletReadiness(ctx(kp), { currency: "USDC", amount: "1001" });
    expect(r).toMatchObject({ problem: "no_room", canAddTrustline: true });
    const built = await buildTrustline(ctx(kp), { currency: "USDC" });
    await submitTrustline(ctx(kp), { signedTransactionXdr: sign(built.transactionXdr, kp) });
    expect(await walletReadiness(ctx(kp), { currency: "USDC", amount: "1001" })).toMatchObject({
      status: "ready",
    });
  });

  it("refuses what is not the wallet's trustline to a trusted issuer, and an unactivated wallet", async () => {
    const kp = await funded(chain);
    const other = await funded(chain);
    const refused = async (ops: ReturnType<typeof Operation.payment>[], signer = kp) =>
      refusal(
        submitTrustline(ctx(kp), {
          signedTransactionXdr: (await build(chain, signer, ops)).toXDR(),
        }),
      );
    const notATrustline =
      "Transaction is not a trustline of your wallet to an asset this service accepts";
    // A payment, a trustline to another issuer, another wallet's trustline.
    expect(
      (
        await refused([
          Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: "1" }),
        ])
      ).message,
    ).toBe(notATrustline);
    expect(
      (await refused([Operation.changeTrust({ asset: new Asset("USDC", other.publicKey()) })]))
        .message,
    ).toBe(notATrustline);
    expect((await refused([Operation.changeTrust({ asset: usdc() })], other)).message).toBe(
      notATrustline,
    );
    expect(
      (await refusal(submitTrustline(ctx(kp), { signedTransactionXdr: "not xdr" }))).message,
    ).toBe("Invalid signed transaction");
    // Nothing reached the ledger.
    const account = await chain.server.loadAccount(kp.publicKey());
    expect(account.balances.filter((b) => b.asset_type !== "native")).toEqual([]);

    expect(
      (await refusal(buildTrustline(ctx(Keypair.random()), { currency: "USDC" }))).message,
    ).toBe("Your wallet is not activated on this network. It must be funded first.");
    expect((await refusal(buildTrustline(ctx(kp), { currency: "XLM" }))).message).toBe(
      "XLM needs no trustline",
    );
  });

  it("a ledger refusal answers the ledger's message", async () => {
    const kp = await funded(chain);
    const built = await buildTrustline(ctx(kp), { currency: "EURC" });
    // Signed by another key: the ledger refuses the signature (tx_bad_auth).
    const signed = sign(built.transactionXdr, Keypair.random());
    expect(await refusal(submitTrustline(ctx(kp), { signedTransactionXdr: signed }))).toMatchObject(
      {
        status: 400,
        code: "LEDGER_ERROR",
        message: "Transaction authorization failed. Please reconnect your wallet and sign again.",
      },
    );
  });
});

describe("the checkout's words for op_no_trust", () => {
  it("are the recipient's problem; the API message stays the ledger's", () => {
    expect(LEDGER_NO_TRUST).toBe(LEDGER_MESSAGES.op_no_trust);
    expect(payerWords(LEDGER_MESSAGES.op_no_trust)).toMatch(
      /^The recipient's wallet cannot receive this asset/,
    );
    expect(payerWords(LEDGER_MESSAGES.op_underfunded)).toBe(LEDGER_MESSAGES.op_underfunded);
  });
});
