/**
 * GET /paths/strict-receive and /paths/strict-send (ledger/paths.ts): Horizon's response shape
 * (ledger/fixtures/paths-strict-receive.json, from Horizon's documentation), amounts from the
 * ledger's XLM rates (USDC 0.1, EURC 0.09 per XLM by default), and path payments built from
 * the answer applying exactly, through the SDK as the app does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Asset, Keypair, Operation } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, buildTx, type Ctx, codes, funded, getJson, setup, submit } from "./helpers";

type Json = Record<string, unknown>;
const sample = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "fixtures", "paths-strict-receive.json"), "utf8"),
) as { _embedded: { records: Json[] } };

/** Keys and JSON types of a record (path entries included). */
function shape(r: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r)) {
    out[k] = Array.isArray(v) ? "array" : typeof v;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) {
        for (const [kk, vv] of Object.entries(item as Json)) out[`${k}[${i}].${kk}`] = typeof vv;
      }
    }
  }
  return out;
}

let ctx: Ctx;
beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx.ledger.stop();
});

const usdcQuery = (c: Ctx) =>
  `destination_asset_type=credit_alphanum4&destination_asset_code=USDC&destination_asset_issuer=${c.usdc.getIssuer()}`;

/** An account holding XLM (friendbot) and 50 EURC, trusting USDC without holding any. */
async function payer(): Promise<Keypair> {
  const kp = await funded(ctx);
  await submit(
    ctx,
    await buildTx(ctx, kp, [
      Operation.changeTrust({ asset: ctx.usdc }),
      Operation.changeTrust({ asset: ctx.eurc }),
    ]),
  );
  await ctx.ledger.fund(kp.publicKey(), "50", "EURC");
  return kp;
}

describe("GET /paths/strict-receive", () => {
  it("answers Horizon's shape: one record per asset the sender holds and can afford", async () => {
    const kp = await payer();
    const { status, body } = await getJson(
      `${ctx.ledger.url}/paths/strict-receive?source_account=${kp.publicKey()}&${usdcQuery(ctx)}&destination_amount=10`,
    );
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(Object.keys(sample));
    const records = body._embedded.records as Json[];
    // USDC is trusted but the balance (0) cannot pay 10 USDC: no same-asset record
    expect(records).toHaveLength(2);
    const [xlm, eurc] = [
      records.find((r) => r.source_asset_type === "native"),
      records.find((r) => r.source_asset_code === "EURC"),
    ];
    const [credit, native] = sample._embedded.records;
    expect(shape(xlm as Json)).toEqual(shape(native));
    // 10 USDC at 0.1 USDC per XLM
    expect(xlm).toMatchObject({
      source_amount: "100.0000000",
      destination_amount: "10.0000000",
      destination_asset_code: "USDC",
      path: [],
    });
    // EURC -> XLM -> USDC: 100 XLM at 0.09 EURC per XLM
    expect(eurc).toMatchObject({
      source_amount: "9.0000000",
      source_asset_issuer: ctx.eurc.getIssuer(),
      path: [{ asset_type: "native" }],
    });
    const creditShape = shape(credit);
    for (const key of Object.keys(creditShape).filter((k) => k.startsWith("path[1]"))) {
      delete creditShape[key];
    }
    for (const key of ["path[0].asset_code", "path[0].asset_issuer"]) delete creditShape[key];
    expect(shape(eurc as Json)).toEqual(creditShape);
    // cheapest first, by amount (the sample's order does not say more)
    const paid = records.map((r) => Number(r.source_amount));
    expect(paid).toEqual([...paid].sort((a, b) => a - b));
  });

  it("with source_assets: the listed assets only, whatever anyone holds", async () => {
    const { body } = await getJson(
      `${ctx.ledger.url}/paths/strict-receive?source_assets=native,USDC:${ctx.usdc.getIssuer()}&${usdcQuery(ctx)}&destination_amount=0.0000001`,
    );
    const records = body._embedded.records as Json[];
    expect(records.map((r) => [r.source_asset_type, r.source_amount])).toEqual([
      ["credit_alphanum4", "0.0000001"],
      ["native", "0.0000010"],
    ]);
  });

  it("no record for an asset the ledger cannot convert, and 400 for bad parameters", async () => {
    const stranger = Keypair.random().publicKey();
    const { body } = await getJson(
      `${ctx.ledger.url}/paths/strict-receive?source_assets=native&destination_asset_type=credit_alphanum4&destination_asset_code=ABC&destination_asset_issuer=${stranger}&destination_amount=1`,
    );
    expect(body._embedded.records).toEqual([]);
    const bad = await getJson(
      `${ctx.ledger.url}/paths/strict-receive?source_assets=native&${usdcQuery(ctx)}&destination_amount=-1`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.extras.invalid_field).toBe("destination_amount");
    const neither = await getJson(
      `${ctx.ledger.url}/paths/strict-receive?${usdcQuery(ctx)}&destination_amount=1`,
    );
    expect(neither.status).toBe(400);
  });

  it("a path payment built from the answer delivers exactly the amount; a lower sendMax fails", async () => {
    const kp = await payer();
    const freelancer = await funded(ctx);
    await submit(ctx, await buildTx(ctx, freelancer, [Operation.changeTrust({ asset: ctx.usdc })]));
    const { body } = await getJson(
      `${ctx.ledger.url}/paths/strict-receive?source_assets=native&${usdcQuery(ctx)}&destination_amount=12.3456789`,
    );
    const best = body._embedded.records[0];
    const pay = (sendMax: string) =>
      buildTx(ctx, kp, [
        Operation.pathPaymentStrictReceive({
          sendAsset: Asset.native(),
          sendMax,
          destination: freelancer.publicKey(),
          destAsset: ctx.usdc,
          destAmount: "12.3456789",
          path: [],
        }),
      ]);
    const below = (BigInt(best.source_amount.replace(".", "")) - 1n).toString().padStart(8, "0");
    expect(await codes(submit(ctx, await pay(`${below.slice(0, -7)}.${below.slice(-7)}`)))).toEqual(
      {
        transaction: "tx_failed",
        operations: ["op_over_source_max"],
      },
    );
    const before = balanceOf(await ctx.server.loadAccount(kp.publicKey()), Asset.native());
    await submit(ctx, await pay(best.source_amount));
    const after = await ctx.server.loadAccount(kp.publicKey());
    expect(balanceOf(await ctx.server.loadAccount(freelancer.publicKey()), ctx.usdc)).toBe(
      "12.3456789",
    );
    // 123.456789 XLM (rounded up to the stroop) plus 100 stroops of fee, twice (failed + paid)
    const spent =
      BigInt(String(before).replace(".", "")) -
      BigInt(String(balanceOf(after, Asset.native())).replace(".", ""));
    expect(spent).toBe(BigInt(best.source_amount.replace(".", "")) + 100n);
  });

  it("a path payment through an asset the ledger cannot convert fails with op_too_few_offers", async () => {
    const kp = await payer();
    const freelancer = await funded(ctx);
    await submit(ctx, await buildTx(ctx, freelancer, [Operation.changeTrust({ asset: ctx.usdc })]));
    const other = new Asset("ABC", Keypair.random().publicKey());
    const op = Operation.pathPaymentStrictReceive({
      sendAsset: Asset.native(),
      sendMax: "1000",
      destination: freelancer.publicKey(),
      destAsset: ctx.usdc,
      destAmount: "1",
      path: [other],
    });
    expect(await codes(submit(ctx, await buildTx(ctx, kp, [op])))).toEqual({
      transaction: "tx_failed",
      operations: ["op_too_few_offers"],
    });
  });
});

describe("GET /paths/strict-send", () => {
  it("what a source amount delivers in each asset the recipient holds", async () => {
    const freelancer = await payer();
    const { status, body } = await getJson(
      `${ctx.ledger.url}/paths/strict-send?source_asset_type=native&source_amount=100&destination_account=${freelancer.publicKey()}`,
    );
    expect(status).toBe(200);
    const records = body._embedded.records as Json[];
    expect(records.map((r) => [r.destination_asset_code ?? "XLM", r.destination_amount])).toEqual([
      ["XLM", "100.0000000"],
      ["USDC", "10.0000000"],
      ["EURC", "9.0000000"],
    ]);
    const [, native] = sample._embedded.records;
    expect(Object.keys(records[1]).sort()).toEqual(
      Object.keys(native)
        .concat(["destination_asset_code", "destination_asset_issuer"])
        .filter((k, i, all) => all.indexOf(k) === i)
        .sort(),
    );
  });
});
