import { Account, Keypair, MuxedAccount, Networks, StrKey, type xdr } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import type { PathAsset } from "./paths";
import {
  assetContractId,
  buildAssetTransfer,
  buildRefundTransfer,
  contractTransferOf,
  isContractAddress,
} from "./soroban";
import { decodeSignedTransaction } from "./transactions";

const passphrase = Networks.TESTNET;
const issuer = Keypair.random().publicKey();
const usdc: PathAsset = { code: "USDC", issuer };
const xlm: PathAsset = { code: "XLM", issuer: null };
const feePayer = Keypair.random();
const freelancer = Keypair.random().publicKey();
const wallet = StrKey.encodeContract(Buffer.alloc(32, 7));
const validUntil = new Date(Date.now() + 300_000);

const transfer = (to: string, asset = usdc, amount = "12.5") =>
  buildAssetTransfer({
    source: { id: feePayer.publicKey(), sequence: "41" },
    from: wallet,
    to,
    asset,
    amount,
    networkPassphrase: passphrase,
    baseFee: 100,
    validUntil,
  });

describe("Stellar Asset Contract transfers (smart-wallet payers)", () => {
  it("tells contract addresses apart from accounts", () => {
    expect(isContractAddress(wallet)).toBe(true);
    expect(isContractAddress(freelancer)).toBe(false);
    expect(isContractAddress(`${wallet.slice(0, -1)}A`)).toBe(false); // checksum
  });

  it("builds transfer(from = C, to, amount in stroops) on the asset's contract, no memo, from the fee payer", () => {
    const tx = transfer(freelancer);
    expect(tx.source).toBe(feePayer.publicKey());
    expect(tx.memo.type).toBe("none");
    expect(tx.sequence).toBe("42");
    expect(Number(tx.timeBounds?.maxTime)).toBe(Math.floor(validUntil.getTime() / 1000));
    const [op] = tx.operations;
    expect(op.type).toBe("invokeHostFunction");
    const call = (op as { func: xdr.HostFunction }).func.invokeContract();
    expect(call.functionName().toString()).toBe("transfer");
    expect(StrKey.encodeContract(call.contractAddress().contractId() as unknown as Buffer)).toBe(
      assetContractId(usdc, passphrase),
    );
  });

  it("reads it back as a contract_transfer: from the C, to the base G with a muxed id", () => {
    const muxed = new MuxedAccount(new Account(freelancer, "0"), "9007199254740993").accountId();
    const [op] = transfer(muxed).operations;
    expect(contractTransferOf(op, [xlm, usdc], passphrase)).toEqual({
      type: "contract_transfer",
      from: wallet,
      to: freelancer,
      toMuxedId: "9007199254740993",
      assetCode: "USDC",
      assetIssuer: issuer,
      amount: "12.5000000",
    });
    const [plain] = transfer(freelancer, xlm, "0.0000001").operations;
    expect(contractTransferOf(plain, [xlm, usdc], passphrase)).toMatchObject({
      to: freelancer,
      toMuxedId: null,
      assetCode: "XLM",
      assetIssuer: null,
      amount: "0.0000001",
    });
  });

  it("an asset contract we do not know, or on another network, is no payment", () => {
    const [op] = transfer(freelancer).operations;
    const otherIssuer = { code: "USDC", issuer: Keypair.random().publicKey() };
    expect(contractTransferOf(op, [xlm, otherIssuer], passphrase)).toBeNull();
    expect(contractTransferOf(op, [usdc], Networks.PUBLIC)).toBeNull();
  });

  it("submit's decoder lists it among the payments (sending the asset), with the envelope signed by the fee payer", async () => {
    const tx = transfer(freelancer);
    tx.sign(feePayer);
    const decoded = decodeSignedTransaction(tx.toXDR(), passphrase, [xlm, usdc]);
    expect(decoded?.signedFor).toBe("expected");
    expect(decoded?.memoType).toBe("none");
    expect(decoded?.sourceAccount).toBe(feePayer.publicKey());
    expect(decoded?.sends).toEqual(["USDC"]);
    expect(decoded?.operations).toEqual([
      expect.objectContaining({
        type: "contract_transfer",
        index: 0,
        from: wallet,
        to: freelancer,
      }),
    ]);
    // Without the assets it names (the default), the invocation pays nothing.
    expect(decodeSignedTransaction(tx.toXDR(), passphrase)?.operations).toEqual([]);
  });

  it("a refund from the freelancer's G to the C: the G authorizes as the transaction's source", () => {
    const tx = buildRefundTransfer({
      source: { id: freelancer, sequence: "7" },
      to: wallet,
      asset: usdc,
      amount: "3",
      networkPassphrase: passphrase,
      baseFee: 100,
      validUntil,
    });
    expect(tx.source).toBe(freelancer);
    expect(contractTransferOf(tx.operations[0], [usdc], passphrase)).toMatchObject({
      from: freelancer,
      to: wallet,
      amount: "3.0000000",
    });
  });
});
