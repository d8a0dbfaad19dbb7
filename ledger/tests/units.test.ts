import {
  Account,
  Asset,
  Keypair,
  Networks,
  Operation,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { formatStroops, mulDivCeil, mulDivFloor, toStroops } from "../amount";
import { runDemo } from "../demo";
import { parseEnvelope } from "../envelope";
import { opResult, resultCodes, resultXdr } from "../results";
import { LedgerState, parseSnapshot, serializeSnapshot, toid } from "../state";
import { setup } from "./helpers";

describe("amounts", () => {
  it("parses and formats 7-decimal amounts exactly with BigInt", () => {
    expect(toStroops("10000")).toBe(100_000_000_000n);
    expect(toStroops("0.0000001")).toBe(1n);
    expect(toStroops("922337203685.4775807")).toBe(9_223_372_036_854_775_807n);
    expect(formatStroops(9_223_372_036_854_775_807n)).toBe("922337203685.4775807");
    expect(formatStroops(1n)).toBe("0.0000001");
    expect(formatStroops(0n)).toBe("0.0000000");
    expect(formatStroops(-15n)).toBe("-0.0000015");
    expect(() => toStroops("1.00000001")).toThrow();
    expect(() => toStroops("1e5")).toThrow();
  });

  it("rounds conversions in the ledger's favour", () => {
    expect(mulDivFloor(7n, 1n, 2n)).toBe(3n);
    expect(mulDivCeil(7n, 1n, 2n)).toBe(4n);
  });
});

describe("ids", () => {
  it("computes TOIDs like Horizon", () => {
    // 110694007436259329 is ledger 25772957, tx 11, op 1 (payments-page.json)
    expect(toid(25772957, 11, 1)).toBe(110694007436259329n);
    // 225180887607500800 is ledger 52429011's transaction paging token (transaction.json)
    expect(toid(52429011, 1, 0) >> 32n).toBe(52429011n);
  });
});

describe("envelopes and results", () => {
  it("hashes like the SDK for the ledger's passphrase", () => {
    const kp = Keypair.random();
    const tx = new TransactionBuilder(new Account(kp.publicKey(), "1"), {
      fee: "100",
      networkPassphrase: Networks.TESTNET,
    })
      .addOperation(
        Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" }),
      )
      .setTimeout(0)
      .build();
    expect(parseEnvelope(tx.toXDR(), Networks.TESTNET).hash).toBe(tx.hash().toString("hex"));
    expect(parseEnvelope(tx.toXDR(), Networks.PUBLIC).hash).not.toBe(tx.hash().toString("hex"));
  });

  it("builds result XDR that matches Horizon's sample for op_no_destination", () => {
    const outcome = {
      code: "tx_failed",
      feeCharged: 100n,
      ops: [opResult("payment", "op_no_destination")],
    };
    // extras.result_xdr of submit-failed.json
    expect(resultXdr(outcome)).toBe("AAAAAAAAAGT/////AAAAAQAAAAAAAAAB////+wAAAAA=");
    expect(resultCodes(outcome)).toEqual({
      transaction: "tx_failed",
      operations: ["op_no_destination"],
    });
    // a tx-level failure has no operations list
    expect(resultCodes({ code: "tx_bad_seq", feeCharged: 100n })).toEqual({
      transaction: "tx_bad_seq",
    });
    expect(resultXdr({ code: "tx_bad_seq", feeCharged: 100n })).toBe("AAAAAAAAAGT////7AAAAAA==");
  });

  it("round-trips snapshots with BigInt fields", () => {
    const state = new LedgerState(Networks.TESTNET);
    state.putAccount({
      id: "GA",
      balance: 5n,
      seqNum: 1n << 40n,
      seqLedger: 0,
      seqTime: 0,
      subentries: 1,
      lastModifiedLedger: 1,
      lastModifiedTime: 1,
      trustlines: {
        "USDC:GB": { code: "USDC", issuer: "GB", balance: 2n, limit: 9n, lastModifiedLedger: 1 },
      },
    });
    const back = parseSnapshot(serializeSnapshot(state.toSnapshot()));
    expect(back.accounts[0].seqNum).toBe(1n << 40n);
    expect(back.accounts[0].trustlines["USDC:GB"].limit).toBe(9n);
  });
});

describe("the done-when script", () => {
  it("funds, pays, path-pays and reads payments back with memos using only the SDK and a URL", async () => {
    const ctx = await setup();
    try {
      const result = await runDemo(ctx.ledger.url, ctx.ledger.issuers.USDC.issuer);
      expect(result.received).toEqual([
        ["payment", "25.0000000", "XLM", "INV-1001"],
        ["path_payment_strict_receive", "5.0000000", "USDC", "INV-1002"],
      ]);
    } finally {
      await ctx.ledger.stop();
    }
  });
});
