import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type HorizonPathRecord,
  type HorizonPaymentRecord,
  type HorizonTransaction,
  pageFromRecords,
  pathFromRecord,
} from "./transform";

// Real Horizon bodies (ledger/fixtures): a page of /payments, a transaction, a page of paths.
const fixture = <T>(name: string): T =>
  JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../../../ledger/fixtures", name), "utf8"),
  ) as T;
const records = fixture<{ _embedded: { records: HorizonPaymentRecord[] } }>("payments-page.json")
  ._embedded.records;
const transaction = fixture<HorizonTransaction>("transaction.json");
const paths = fixture<{ _embedded: { records: HorizonPathRecord[] } }>("paths-strict-receive.json")
  ._embedded.records;

/** The page as `join=transactions` answers it: each record with its transaction. */
const joined = records.map((r) => ({
  ...r,
  transaction: { ...transaction, hash: r.transaction_hash },
}));

describe("pageFromRecords (Horizon /payments -> the domain's transactions)", () => {
  it("groups the payment operations by transaction, in the page's order, with the memo", () => {
    const page = pageFromRecords(joined, "1", 200);
    expect(page.read).toBe(10);
    expect(page.full).toBe(false);
    expect(page.cursor).toBe(records.at(-1)?.paging_token);
    // The first transaction has a create_account and an account_merge: the merge pays nothing.
    expect(page.transactions.map((t) => t.transaction.hash)).toEqual([
      ...new Set(records.map((r) => r.transaction_hash)),
    ]);
    const [created, paid] = page.transactions;
    expect(created.transaction.operations).toEqual([
      {
        type: "create_account",
        index: 0,
        id: "110694007436259329",
        from: "GB44UMO65PK5NWMRP4S2OSZA5BD4ACOW5KQ6TWLLO2MP7S7N5MJ2MJVI",
        to: "GCNL55IJTH2HX26HLNIGYD2JIQLTBAQL3SVPNZA6PXK7NAVHU423WOTE",
        assetCode: "XLM",
        assetIssuer: null,
        amount: "1.0000000",
      },
    ]);
    expect(paid.transaction).toMatchObject({
      hash: records[2].transaction_hash,
      memoType: "text",
      memo: "0,075% Daily for Holders",
      successful: true,
      ledger: 52429011,
      createdAt: new Date("2024-07-05T05:51:31Z"),
      sourceAccount: "GANGI6CEX7L52QPPH5MK2SDZE5WDESSO24HIMVHO5FCIGKQWKLAF5E7O",
      operations: [
        {
          type: "payment",
          index: 0,
          from: "GDV4KECLSZLKRVH4ZTWVAS4I3W2LPAPV66ADFFUZKGIVOTK6GMKGJT53",
          to: "GCNL55IJTH2HX26HLNIGYD2JIQLTBAQL3SVPNZA6PXK7NAVHU423WOTE",
          assetCode: "XLM",
          assetIssuer: null,
          amount: "688.4065454",
        },
      ],
    });
    expect(page.transactions.every((t) => !t.maybeCut)).toBe(true);
  });

  it("a full page: only its last transaction may go on past it", () => {
    const page = pageFromRecords(joined, "1", joined.length);
    expect(page.full).toBe(true);
    expect(page.transactions.filter((t) => t.maybeCut).map((t) => t.transaction.hash)).toEqual([
      records.at(-1)?.transaction_hash,
    ]);
  });

  it("records without their joined transaction are read but carry no transaction", () => {
    const page = pageFromRecords(records, "1", 200);
    expect(page).toMatchObject({ read: 10, transactions: [] });
    expect(page.cursor).toBe(records.at(-1)?.paging_token);
  });

  it("an empty page keeps the cursor", () => {
    expect(pageFromRecords([], "12345", 200)).toEqual({
      transactions: [],
      read: 0,
      cursor: "12345",
      full: false,
    });
  });
});

describe("pathFromRecord (Horizon /paths/strict-receive -> PaymentPath)", () => {
  it("reads the source asset, the amounts to 7 decimals and the hops", () => {
    expect(pathFromRecord(paths[0])).toEqual({
      sendAsset: {
        code: "USD",
        issuer: "GDUKMGUGDZQK6YHYA5Z6AY2G4XDSZPSZ3SW5UN3ARVMO6QSRDWP5YLEX",
      },
      sourceAmount: "4.1900246",
      destAmount: "5.0000000",
      path: [
        { code: "NGNT", issuer: "GAWODAROMJ33V5YDFY3NPYTHVYQG7MJXVJ2ND3AOGIHYRWINES6ACCPD" },
        { code: "XLM", issuer: null },
      ],
    });
  });
});
