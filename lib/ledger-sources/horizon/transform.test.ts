import { readFileSync } from "node:fs";
import path from "node:path";
import { Address, MuxedAccount, scValToNative, xdr } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import {
  type HorizonPathRecord,
  type HorizonPaymentRecord,
  type HorizonTransaction,
  operationFromRecord,
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

// The invoke_host_function record of the stellar-docs guide "Send and receive with C accounts"
// (a USDC asset contract `transfer` from a C address to a muxed G, as Horizon answers it).
const invoke = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "fixtures/invoke-host-function.json"), "utf8"),
) as HorizonPaymentRecord & { parameters: { value: string }[] };

describe("operationFromRecord: invoke_host_function (a smart wallet's contract transfer)", () => {
  it("reads the asset contract transfer as a contract_transfer from the C address to the base G", () => {
    expect(operationFromRecord(invoke)).toEqual({
      type: "contract_transfer",
      // TOID 258816945460609125: its low 12 bits are 0x65 = operation 101, index 100.
      index: Number(BigInt(invoke.id) & 0xfffn) - 1,
      id: "258816945460609125",
      from: "CA6ZW2UWYV4Z4XARCQ66S2DCWEXPDZTMFNOK63FH2SAWXAIS56EGHGH5",
      to: "GB5FM5GICRYGBFMEGPMYEFDZQHGUYF75Z7WNB2JL5A3A57HIB4CP3TCL",
      toMuxedId: "123",
      assetCode: "USDC",
      assetIssuer: "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN",
      amount: "0.0100000",
    });
  });

  // (The guide's body was edited by hand: its `to` argument's base account is not the balance
  // change's `to`; the rest agrees.)
  it("agrees with the invocation's own arguments: transfer(from, to = M...:123, amount)", () => {
    const [, fn, from, to, amount] = invoke.parameters.map((p) =>
      xdr.ScVal.fromXDR(p.value, "base64"),
    );
    expect(scValToNative(fn)).toBe("transfer");
    expect(Address.fromScVal(from).toString()).toBe(invoke.asset_balance_changes?.[0].from);
    expect(MuxedAccount.fromAddress(Address.fromScVal(to).toString(), "0").id()).toBe("123");
    expect(scValToNative(amount)).toBe(100_000n); // 0.01 USDC in stroops
  });

  it("pays nothing without a transfer: no balance change, or a mint, burn or clawback", () => {
    expect(operationFromRecord({ ...invoke, asset_balance_changes: [] })).toBeNull();
    expect(operationFromRecord({ ...invoke, asset_balance_changes: undefined })).toBeNull();
    const [change] = invoke.asset_balance_changes ?? [];
    for (const type of ["mint", "burn", "clawback"]) {
      const { from: _, ...noFrom } = change;
      const c = type === "mint" ? noFrom : { ...change, type };
      expect(
        operationFromRecord({ ...invoke, asset_balance_changes: [{ ...c, type }] }),
      ).toBeNull();
    }
  });

  it("a native transfer without a muxed destination; several to one recipient are added up", () => {
    const xlm = {
      asset_type: "native",
      type: "transfer",
      from: "CA6ZW2UWYV4Z4XARCQ66S2DCWEXPDZTMFNOK63FH2SAWXAIS56EGHGH5",
      to: "GB5FM5GICRYGBFMEGPMYEFDZQHGUYF75Z7WNB2JL5A3A57HIB4CP3TCL",
      amount: "1.2500000",
    };
    const other = { ...xlm, to: "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN" };
    expect(
      operationFromRecord({
        ...invoke,
        asset_balance_changes: [xlm, other, { ...xlm, amount: "0.0000001" }],
      }),
    ).toMatchObject({
      type: "contract_transfer",
      from: xlm.from,
      to: xlm.to,
      toMuxedId: null,
      assetCode: "XLM",
      assetIssuer: null,
      amount: "1.2500001",
    });
  });

  it("a page of /payments with it groups it like any payment, the transaction's source paying the fee", () => {
    const page = pageFromRecords(
      [
        {
          ...invoke,
          transaction: { ...transaction, hash: invoke.transaction_hash, memo_type: "none" },
        },
      ],
      "1",
      200,
    );
    expect(page.transactions).toHaveLength(1);
    const [{ transaction: tx }] = page.transactions;
    expect(tx.memoType).toBe("none");
    expect(tx.operations).toEqual([operationFromRecord(invoke)]);
  });
});
