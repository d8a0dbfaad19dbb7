/**
 * Field-by-field shape comparison with real Horizon bodies (copied from
 * /work/shared/horizon-samples into ledger/fixtures). Keys and JSON types must match; the few
 * fields the local ledger deliberately leaves out are listed (see ledger/README.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Asset, Keypair, Memo, Operation, TransactionBuilder } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTx, type Ctx, failure, funded, getJson, setup, submit } from "./helpers";

type Json = Record<string, unknown>;

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", name), "utf8"));

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/**
 * Differences between the keys/types of `sample` and `actual`, recursively (arrays are
 * compared by their first element). Paths in `skip` are not compared.
 */
function shapeDiff(sample: unknown, actual: unknown, skip: string[] = [], path = ""): string[] {
  if (skip.includes(path)) return [];
  if (kind(sample) !== kind(actual)) {
    return [`${path || "<root>"}: ${kind(sample)} in Horizon, ${kind(actual)} here`];
  }
  if (Array.isArray(sample) && Array.isArray(actual)) {
    if (sample.length === 0 || actual.length === 0) return [];
    return shapeDiff(sample[0], actual[0], skip, `${path}[]`);
  }
  if (kind(sample) !== "object") return [];
  const s = sample as Json;
  const a = actual as Json;
  const diffs: string[] = [];
  for (const key of new Set([...Object.keys(s), ...Object.keys(a)])) {
    const p = path ? `${path}.${key}` : key;
    if (skip.includes(p)) continue;
    if (!(key in a)) diffs.push(`${p}: missing here`);
    else if (!(key in s)) diffs.push(`${p}: not in Horizon's sample`);
    else diffs.push(...shapeDiff(s[key], a[key], skip, p));
  }
  return diffs;
}

let ctx: Ctx;
beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx.ledger.stop();
});

describe("responses have Horizon's shapes", () => {
  it("GET / like root.json", async () => {
    const { body } = await getJson(`${ctx.ledger.url}/`);
    const sample = fixture("root.json");
    // the local ledger links only what it can serve (plus friendbot, as testnet Horizon does)
    expect(shapeDiff(sample, body, ["_links"])).toEqual([]);
    for (const key of Object.keys(body._links)) {
      if (key !== "friendbot") expect(Object.keys(sample._links as Json)).toContain(key);
    }
  });

  it("GET /accounts/:id like account.json", async () => {
    const kp = await funded(ctx);
    await submit(ctx, await buildTx(ctx, kp, [Operation.changeTrust({ asset: ctx.usdc })]));
    const { body } = await getJson(`${ctx.ledger.url}/accounts/${kp.publicKey()}`);
    const sample = fixture("account.json");
    const skip = [
      "balances", // compared line by line below
      "inflation_destination", // optional, never set here
      "home_domain", // optional, never set here
      "data", // keys are the account's data entries
    ];
    expect(shapeDiff(sample, body, skip)).toEqual([]);
    const sampleLines = sample.balances as Json[];
    const lines = body.balances as Json[];
    expect(shapeDiff(sampleLines[1], lines[0])).toEqual([]); // a credit_alphanum4 line
    expect(shapeDiff(sampleLines[sampleLines.length - 1], lines[1])).toEqual([]); // native
  });

  it("account 404 like account-not-found-current.json", async () => {
    const res = await getJson(`${ctx.ledger.url}/accounts/${ctx.ledger.issuers.USDC.issuer}x`);
    expect(res.status).toBe(400);
    const missing = await getJson(
      `${ctx.ledger.url}/accounts/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7`,
    );
    expect(missing.body).toEqual(fixture("account-not-found-current.json"));
  });

  it("transactions like transaction.json and transaction-fee-bump.json", async () => {
    const kp = await funded(ctx);
    const sponsor = await funded(ctx);
    const tx = await buildTx(
      ctx,
      kp,
      [Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" })],
      (b) => b.addMemo(Memo.text("0,075% Daily for Holders")).setTimeout(60),
    );
    const submitted = await submit(ctx, tx);
    const { body } = await getJson(`${ctx.ledger.url}/transactions/${submitted.hash}`);
    // result_meta_xdr / fee_meta_xdr are not produced (SDF's Horizon omits the meta too)
    const notProduced = ["result_meta_xdr", "fee_meta_xdr"];
    expect(shapeDiff(fixture("transaction.json"), body, notProduced)).toEqual([]);
    expect(Object.keys(body).slice(0, 3)).toEqual(["memo", "memo_bytes", "_links"]);
    expect(body.memo_bytes).toBe("MCwwNzUlIERhaWx5IGZvciBIb2xkZXJz");
    // the 200 body of POST /transactions is the same resource
    // (offerResults is added by the SDK itself)
    expect(shapeDiff(body, submitted as unknown as Json, ["offerResults"])).toEqual([]);

    const inner = await buildTx(ctx, kp, [
      Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" }),
    ]);
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "1000", inner, ctx.passphrase);
    bump.sign(sponsor);
    await submit(ctx, bump);
    const fb = await getJson(`${ctx.ledger.url}/transactions/${bump.hash().toString("hex")}`);
    expect(
      shapeDiff(fixture("transaction-fee-bump.json"), fb.body, [
        ...notProduced,
        "valid_before", // the sample has no upper time bound; this transaction has one
        "preconditions.timebounds.max_time",
      ]),
    ).toEqual([]);
  });

  it("failed submissions like submit-failed.json", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(ctx, kp, [
      Operation.payment({
        destination: Keypair.random().publicKey(),
        asset: Asset.native(),
        amount: "10",
      }),
    ]);
    const f = await failure(submit(ctx, tx));
    const sample = fixture("submit-failed.json");
    expect(shapeDiff(sample, f.data, ["instance"])).toEqual([]);
    expect(f.data.extras?.result_codes).toEqual(
      (sample.extras as { result_codes: unknown }).result_codes,
    );
    expect(f.data.extras?.result_xdr).toBe((sample.extras as { result_xdr: string }).result_xdr);
  });

  it("payment records like payments-page.json and the path payment samples", async () => {
    const payer = await funded(ctx);
    const merchant = await funded(ctx);
    await submit(ctx, await buildTx(ctx, merchant, [Operation.changeTrust({ asset: ctx.usdc })]));
    await submit(ctx, await buildTx(ctx, payer, [Operation.changeTrust({ asset: ctx.usdc })]));
    await ctx.ledger.fund(payer.publicKey(), "10", "USDC");
    await submit(
      ctx,
      await buildTx(
        ctx,
        payer,
        [
          Operation.payment({
            destination: merchant.publicKey(),
            asset: Asset.native(),
            amount: "1",
          }),
          Operation.payment({ destination: merchant.publicKey(), asset: ctx.usdc, amount: "1" }),
          Operation.pathPaymentStrictSend({
            sendAsset: Asset.native(),
            sendAmount: "10",
            destination: merchant.publicKey(),
            destAsset: ctx.usdc,
            destMin: "0.5",
            path: [],
          }),
          Operation.pathPaymentStrictReceive({
            sendAsset: Asset.native(),
            sendMax: "20",
            destination: merchant.publicKey(),
            destAsset: ctx.usdc,
            destAmount: "1",
            path: [],
          }),
        ],
        undefined,
        { fee: "400" },
      ),
    );
    const { body } = await getJson(
      `${ctx.ledger.url}/accounts/${merchant.publicKey()}/payments?limit=10`,
    );
    const page = fixture("payments-page.json");
    expect(shapeDiff(page, body, ["_embedded.records"])).toEqual([]);
    const samples = (page._embedded as { records: Json[] }).records;
    const [created, native, credit, strictSend, strictReceive] = (
      body._embedded as { records: Json[] }
    ).records;
    expect(shapeDiff(samples[0], created)).toEqual([]);
    expect(shapeDiff(samples[2], native)).toEqual([]);
    expect(shapeDiff(samples[4], credit)).toEqual([]);
    expect(shapeDiff(fixture("path-payment-strict-send.json"), strictSend)).toEqual([]);
    expect(shapeDiff(fixture("path-payment-strict-receive.json"), strictReceive)).toEqual([]);
  });

  it("fee stats, ledgers and friendbot like their samples", async () => {
    const fee = await getJson(`${ctx.ledger.url}/fee_stats`);
    expect(shapeDiff(fixture("fee-stats.json"), fee.body)).toEqual([]);
    const ledgers = await getJson(`${ctx.ledger.url}/ledgers?order=desc&limit=1`);
    const [latest] = (ledgers.body._embedded as { records: Json[] }).records;
    // header_xdr (the XDR LedgerHeader) is not produced
    expect(shapeDiff(fixture("ledger.json"), latest, ["header_xdr"])).toEqual([]);
    const fb = await getJson(`${ctx.ledger.url}/friendbot?addr=${Keypair.random().publicKey()}`);
    expect(shapeDiff(fixture("friendbot.json"), fb.body)).toEqual([]);
  });
});
