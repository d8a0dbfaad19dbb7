import { describe, expect, it } from "vitest";
import {
  appliedAmount,
  type ClassifyInput,
  classifyPayment,
  invoiceKeys,
  muxedKeys,
  type PaymentOperation,
  type PaymentTransaction,
  partOwner,
  recordable,
} from "./payment-match";

const FREELANCER = `G${"F".repeat(55)}`;
const PAYER = `G${"P".repeat(55)}`;
const OTHER = `G${"O".repeat(55)}`;
const USDC_TESTNET = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";
const USDC_MAINNET = "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
const HASH = "a".repeat(64);
const INVOICE_CREATED = new Date("2026-03-01T12:00:00.000Z");

const xlmPayment = (overrides: Partial<PaymentOperation> = {}): PaymentOperation => ({
  type: "payment",
  from: PAYER,
  to: FREELANCER,
  assetCode: "XLM",
  assetIssuer: null,
  amount: "100.0000000",
  ...overrides,
});

const transaction = (overrides: Partial<PaymentTransaction> = {}): PaymentTransaction => ({
  hash: HASH,
  successful: true,
  memoType: "text",
  memo: "INV-0001",
  createdAt: new Date("2026-03-01T12:05:00.000Z"),
  ledger: 123456,
  sourceAccount: PAYER,
  operations: [xlmPayment()],
  ...overrides,
});

function input(overrides: {
  invoice?: Partial<ClassifyInput["invoice"]>;
  transaction?: Partial<PaymentTransaction>;
  expectedIssuer?: string | null;
  recordedFor?: string | null;
}): ClassifyInput {
  return {
    invoiceId: "inv_1",
    invoice: {
      invoiceNumber: "INV-0001",
      freelancerWallet: FREELANCER,
      currency: "XLM",
      total: "100.0000000",
      createdAt: INVOICE_CREATED,
      allowCreateAccount: false,
      status: "PENDING",
      deleted: false,
      ...overrides.invoice,
    },
    expectedIssuer: overrides.expectedIssuer === undefined ? null : overrides.expectedIssuer,
    transaction: transaction(overrides.transaction),
    recordedFor: overrides.recordedFor ?? null,
  };
}

const mismatch = {
  ok: false,
  reason: "mismatch",
  message: "Transaction does not match invoice",
};

const opsOf = (input: ClassifyInput) => {
  const result = classifyPayment(input);
  if (!result.ok) throw new Error(result.message);
  return result.operations;
};

describe("classifyPayment", () => {
  it("carries the operation's ledger id (TOID) when the ledger gave one", () => {
    const tx = input({}).transaction;
    const withId = {
      ...tx,
      operations: tx.operations.map((op) => ({ ...op, id: "530242863189606401" })),
    };
    const result = classifyPayment({ ...input({}), transaction: withId });
    expect(result.ok && result.operations[0].operationId).toBe("530242863189606401");
  });

  it("lists an exact XLM payment as applied", () => {
    expect(classifyPayment(input({}))).toEqual({
      ok: true,
      hash: HASH,
      ledger: 123456,
      createdAt: new Date("2026-03-01T12:05:00.000Z"),
      operations: [
        {
          operationIndex: 0,
          operationId: null,
          from: PAYER,
          to: FREELANCER,
          amount: "100.0000000",
          assetCode: "XLM",
          assetIssuer: null,
          applied: true,
          unappliedReason: null,
          selfPayment: false,
        },
      ],
    });
  });

  it("rejects a failed transaction before anything else", () => {
    const result = classifyPayment(input({ transaction: { successful: false, memo: "INV-9999" } }));
    expect(result).toEqual({
      ok: false,
      reason: "not_successful",
      message: "Transaction was not successful",
    });
  });

  it("rejects a wrong memo", () => {
    expect(classifyPayment(input({ transaction: { memo: "INV-0002" } }))).toEqual(mismatch);
    expect(classifyPayment(input({ transaction: { memo: "inv-0001" } }))).toEqual(mismatch);
    expect(classifyPayment(input({ transaction: { memo: "INV-0001 " } }))).toEqual(mismatch);
  });

  it("rejects id, hash, return and missing memos even with the same text", () => {
    for (const memoType of ["id", "hash", "return", "none"] as const) {
      expect(classifyPayment(input({ transaction: { memoType } })), memoType).toEqual(mismatch);
    }
  });

  it("rejects a payment to another destination, and operations that cannot pay", () => {
    expect(
      classifyPayment(input({ transaction: { operations: [xlmPayment({ to: OTHER })] } })),
    ).toEqual(mismatch);
    expect(
      classifyPayment(
        input({ transaction: { operations: [xlmPayment({ type: "manage_sell_offer" })] } }),
      ),
    ).toEqual(mismatch);
  });

  it("accepts path payments", () => {
    for (const type of ["path_payment_strict_receive", "path_payment_strict_send"]) {
      expect(opsOf(input({ transaction: { operations: [xlmPayment({ type })] } }))[0].applied).toBe(
        true,
      );
    }
  });

  it("accepts create_account only when the invoice allows it, and only for XLM", () => {
    const createAccount = xlmPayment({ type: "create_account" });
    const tx = { operations: [createAccount] };
    expect(classifyPayment(input({ transaction: tx }))).toEqual(mismatch);
    expect(
      classifyPayment(input({ transaction: tx, invoice: { allowCreateAccount: true } })).ok,
    ).toBe(true);
    const usdc = classifyPayment(
      input({
        transaction: { operations: [{ ...createAccount, assetCode: "USDC", assetIssuer: null }] },
        invoice: { allowCreateAccount: true, currency: "USDC" },
        expectedIssuer: USDC_TESTNET,
      }),
    );
    expect(usdc).toEqual(mismatch);
  });

  it("lists USDC from another issuer as unapplied wrong_asset, with the issuer", () => {
    const from = (issuer: string | null) =>
      opsOf(
        input({
          invoice: { currency: "USDC" },
          expectedIssuer: USDC_TESTNET,
          transaction: { operations: [xlmPayment({ assetCode: "USDC", assetIssuer: issuer })] },
        }),
      )[0];
    expect(from(USDC_TESTNET)).toMatchObject({ applied: true, unappliedReason: null });
    for (const issuer of [USDC_MAINNET, OTHER, null]) {
      expect(from(issuer)).toMatchObject({
        applied: false,
        unappliedReason: "wrong_asset",
        assetCode: "USDC",
        assetIssuer: issuer,
      });
    }
  });

  it("lists another asset, or a credit asset coded XLM, as wrong_asset", () => {
    const usdcOnXlm = opsOf(
      input({
        transaction: { operations: [xlmPayment({ assetCode: "USDC", assetIssuer: USDC_TESTNET })] },
      }),
    );
    expect(usdcOnXlm[0].unappliedReason).toBe("wrong_asset");
    const fakeXlm = opsOf(
      input({ transaction: { operations: [xlmPayment({ assetIssuer: OTHER })] } }),
    );
    expect(fakeXlm[0].unappliedReason).toBe("wrong_asset");
    // No issuer configured for a non-native currency: fails closed.
    const eurc = opsOf(
      input({
        invoice: { currency: "EURC" },
        expectedIssuer: null,
        transaction: { operations: [xlmPayment({ assetCode: "EURC", assetIssuer: null })] },
      }),
    );
    expect(eurc[0].applied).toBe(false);
  });

  it("decides applied from the invoice's state before the transaction", () => {
    const reasonIn = (status: ClassifyInput["invoice"]["status"], deleted = false) =>
      opsOf(input({ invoice: { status, deleted } }))[0].unappliedReason;
    expect(reasonIn("PENDING")).toBeNull();
    expect(reasonIn("PROCESSING")).toBeNull();
    expect(reasonIn("FAILED")).toBeNull();
    expect(reasonIn("EXPIRED")).toBeNull();
    expect(reasonIn("PAID")).toBe("already_paid");
    expect(reasonIn("CANCELLED")).toBe("invoice_cancelled");
    expect(reasonIn("DRAFT")).toBe("invoice_not_sent");
    expect(reasonIn("PENDING", true)).toBe("invoice_not_sent");
  });

  it("never applies a payment to a link paid through checkouts, nor past a full link", () => {
    const reason = (invoice: Partial<ClassifyInput["invoice"]>) =>
      opsOf(input({ invoice }))[0].unappliedReason;
    // The link itself, whatever its state (even a PAID one of before): link_parent.
    expect(reason({ linkParent: true })).toBe("link_parent");
    expect(reason({ linkParent: true, status: "PAID" })).toBe("link_parent");
    expect(reason({ linkParent: true, status: "EXPIRED" })).toBe("link_parent");
    // A checkout whose link has no place left, while payable: link_full.
    expect(reason({ linkFull: true })).toBe("link_full");
    expect(reason({ linkFull: true, status: "EXPIRED" })).toBe("link_full");
    expect(reason({ linkFull: true, status: "PAID" })).toBe("already_paid");
    expect(reason({ linkFull: false })).toBeNull();
  });

  it("lists every operation to the wallet in order, with its index in the transaction", () => {
    const ops = opsOf(
      input({
        transaction: {
          operations: [
            xlmPayment({ to: OTHER, amount: "1000" }),
            xlmPayment({ amount: "10" }),
            xlmPayment({ type: "manage_data", index: 5 }),
            xlmPayment({ amount: "40.5", from: OTHER, index: 7 }),
          ],
        },
      }),
    );
    expect(ops.map((o) => [o.operationIndex, o.amount, o.from])).toEqual([
      [1, "10.0000000", PAYER],
      [7, "40.5000000", OTHER],
    ]);
    expect(appliedAmount(ops)).toBe("50.5000000");
  });

  it("flags self-payments (operation source, or the transaction's when it has none)", () => {
    const ops = opsOf(
      input({
        transaction: {
          sourceAccount: FREELANCER,
          operations: [
            xlmPayment({ from: undefined, amount: "1" }),
            xlmPayment({ from: FREELANCER, amount: "2" }),
            xlmPayment({ from: PAYER, amount: "3" }),
          ],
        },
      }),
    );
    expect(ops.map((o) => o.selfPayment)).toEqual([true, true, false]);
    expect(recordable(ops).map((o) => o.amount)).toEqual(["3.0000000"]);
    expect(appliedAmount(ops)).toBe("3.0000000");
  });

  it("falls back to the transaction source when an operation has none", () => {
    const ops = opsOf(
      input({
        transaction: { sourceAccount: OTHER, operations: [xlmPayment({ from: undefined })] },
      }),
    );
    expect(ops[0].from).toBe(OTHER);
  });

  it("rejects a transaction older than the invoice, allowing 60 s of skew", () => {
    const at = (iso: string) =>
      classifyPayment(input({ transaction: { createdAt: new Date(iso) } }));
    expect(at("2026-03-01T11:59:00.000Z").ok).toBe(true);
    expect(at("2026-03-01T11:59:30.000Z").ok).toBe(true);
    expect(at("2026-03-01T11:58:59.999Z")).toEqual(mismatch);
    expect(at("2026-02-28T12:00:00.000Z")).toEqual(mismatch);
  });

  it("rejects operations to this wallet already recorded for another invoice", () => {
    expect(classifyPayment(input({ recordedFor: "inv_2" }))).toEqual(mismatch);
    // The same invoice again is the caller's "already recorded" case, not a replay.
    expect(classifyPayment(input({ recordedFor: "inv_1" })).ok).toBe(true);
  });
});

describe("invoiceKeys", () => {
  it("names each wallet a paying operation reaches once, with the memo, in operation order", () => {
    const tx = transaction({
      operations: [
        xlmPayment({ to: OTHER, amount: "40" }),
        xlmPayment({ amount: "25" }),
        xlmPayment({ type: "manage_data", to: PAYER }),
        xlmPayment({ type: "create_account", to: PAYER }),
        xlmPayment({ to: OTHER, amount: "1" }),
      ],
    });
    expect(invoiceKeys(tx)).toEqual([
      { invoiceNumber: "INV-0001", wallet: OTHER },
      { invoiceNumber: "INV-0001", wallet: FREELANCER },
      { invoiceNumber: "INV-0001", wallet: PAYER },
    ]);
  });

  it("names nothing for a failed transaction or one without a text memo", () => {
    expect(invoiceKeys(transaction({ successful: false }))).toEqual([]);
    expect(invoiceKeys(transaction({ memoType: "id", memo: "1" }))).toEqual([]);
    expect(invoiceKeys(transaction({ memoType: "none", memo: null }))).toEqual([]);
  });

  it("each wallet's invoice gets only the operations to that wallet", () => {
    const tx = {
      operations: [xlmPayment({ to: OTHER, amount: "40" }), xlmPayment({ amount: "25" })],
    };
    const mine = opsOf(input({ transaction: tx }));
    const theirs = opsOf(
      input({ transaction: tx, invoice: { freelancerWallet: OTHER, total: "40" } }),
    );
    expect(mine.map((o) => [o.operationIndex, o.to, o.amount])).toEqual([
      [1, FREELANCER, "25.0000000"],
    ]);
    expect(theirs.map((o) => [o.operationIndex, o.to, o.amount])).toEqual([
      [0, OTHER, "40.0000000"],
    ]);
  });
});

describe("muxed addresses (docs/decisions.md, Muxed addresses)", () => {
  const MUXED = "7253016405216342391";
  const OTHER_MUXED = "1189998819991197253";
  const toMuxed = (id: string, over: Partial<PaymentOperation> = {}) =>
    xlmPayment({ toMuxedId: id, ...over });
  const muxedInput = (
    over: Parameters<typeof input>[0] & { otherInvoices?: ClassifyInput["otherInvoices"] } = {},
  ): ClassifyInput => ({
    ...input({ ...over, invoice: { muxedId: MUXED, ...over.invoice } }),
    ...(over.otherInvoices && { otherInvoices: over.otherInvoices }),
  });

  it("a payment to the invoice's muxed address pays it without any memo", () => {
    for (const memo of [
      { memoType: "none" as const, memo: null },
      { memoType: "id" as const, memo: "42" },
      { memoType: "text" as const, memo: "thanks" },
    ]) {
      const ops = opsOf(muxedInput({ transaction: { ...memo, operations: [toMuxed(MUXED)] } }));
      expect(ops).toHaveLength(1);
      expect(ops[0]).toMatchObject({ applied: true, unappliedReason: null, toMuxedId: MUXED });
    }
  });

  it("a payment to another muxed address of the wallet does not pay the invoice without its memo", () => {
    const tx = { memoType: "none" as const, memo: null, operations: [toMuxed(OTHER_MUXED)] };
    expect(classifyPayment(muxedInput({ transaction: tx }))).toEqual(mismatch);
  });

  it("memo and muxed address naming different invoices: recorded unapplied where the money was sent", () => {
    // Sent to this invoice's address (INV-0001), memo INV-0002: another invoice of the wallet.
    const tx = { memo: "INV-0002", operations: [toMuxed(MUXED)] };
    const others = { muxedIds: [OTHER_MUXED], numbers: ["INV-0002"] };
    const ops = opsOf(muxedInput({ transaction: tx, otherInvoices: others }));
    expect(ops[0]).toMatchObject({ applied: false, unappliedReason: "memo_mismatch" });
    // The invoice the memo names is not paid by it: its part is the address's invoice's.
    const named = {
      ...input({ transaction: tx, invoice: { invoiceNumber: "INV-0002", muxedId: OTHER_MUXED } }),
      otherInvoices: { muxedIds: [MUXED], numbers: ["INV-0001"] },
    };
    expect(classifyPayment(named)).toEqual(mismatch);
  });

  it("a memo that names no other invoice of the wallet is no mismatch", () => {
    const tx = { memo: "INV-0002", operations: [toMuxed(MUXED)] };
    expect(opsOf(muxedInput({ transaction: tx }))[0].applied).toBe(true);
  });

  it("the memo alone still pays an invoice that has a muxed address", () => {
    const ops = opsOf(muxedInput({}));
    expect(ops[0]).toMatchObject({ applied: true, unappliedReason: null });
    expect(ops[0].toMuxedId).toBeUndefined();
  });

  it("memo-matched, an operation to a muxed address of the wallet that names no invoice counts", () => {
    const tx = {
      operations: [xlmPayment({ amount: "60" }), toMuxed(OTHER_MUXED, { amount: "40" })],
    };
    const ops = opsOf(muxedInput({ transaction: tx }));
    expect(ops.map((o) => [o.applied, o.unappliedReason])).toEqual([
      [true, null],
      [true, null],
    ]);
  });

  it("after the invoice's own address, an operation to another invoice's address is not counted", () => {
    const tx = {
      memoType: "none" as const,
      memo: null,
      operations: [toMuxed(MUXED, { amount: "60" }), toMuxed(OTHER_MUXED, { amount: "40" })],
    };
    const others = { muxedIds: [OTHER_MUXED], numbers: ["INV-0002"] };
    const ops = opsOf(muxedInput({ transaction: tx, otherInvoices: others }));
    expect(ops.map((o) => [o.applied, o.unappliedReason])).toEqual([
      [true, null],
      [false, "memo_mismatch"],
    ]);
  });

  it("the memo does not take a part that another invoice's muxed address names", () => {
    const tx = { operations: [toMuxed(OTHER_MUXED)] };
    const others = { muxedIds: [OTHER_MUXED], numbers: [] };
    expect(classifyPayment(muxedInput({ transaction: tx, otherInvoices: others }))).toEqual(
      mismatch,
    );
  });

  it("the freelancer paying their own invoice's muxed address stays a self-payment", () => {
    const tx = {
      memoType: "none" as const,
      memo: null,
      operations: [toMuxed(MUXED, { from: FREELANCER })],
    };
    const ops = opsOf(muxedInput({ transaction: tx }));
    expect(ops[0].selfPayment).toBe(true);
    expect(recordable(ops)).toEqual([]);
  });

  it("keeps the payer's muxed address", () => {
    const payerM = "MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJU7777777777777ZRG";
    const ops = opsOf(
      muxedInput({ transaction: { operations: [xlmPayment({ fromMuxed: payerM })] } }),
    );
    expect(ops[0].fromMuxed).toBe(payerM);
  });

  it("a wrong asset to the muxed address is wrong_asset; a failed transaction is refused", () => {
    const usdc = toMuxed(MUXED, { assetCode: "USDC", assetIssuer: USDC_MAINNET });
    const tx = { memoType: "none" as const, memo: null, operations: [usdc] };
    expect(opsOf(muxedInput({ transaction: tx }))[0].unappliedReason).toBe("wrong_asset");
    expect(classifyPayment(muxedInput({ transaction: { ...tx, successful: false } })).ok).toBe(
      false,
    );
  });
});

describe("muxedKeys and partOwner", () => {
  const invoices = [
    { id: "a", invoiceNumber: "INV-0001", muxedId: "11" },
    { id: "b", invoiceNumber: "INV-0002", muxedId: "22" },
  ];
  it("the muxed address decides before the memo; the memo when no address names an invoice", () => {
    const toB = transaction({ operations: [xlmPayment({ toMuxedId: "22" })] });
    expect(muxedKeys(toB)).toEqual([{ wallet: FREELANCER, muxedId: "22" }]);
    expect(partOwner(toB, FREELANCER, invoices)?.id).toBe("b");
    const unknown = transaction({ operations: [xlmPayment({ toMuxedId: "99" })] });
    expect(partOwner(unknown, FREELANCER, invoices)?.id).toBe("a");
    const none = transaction({ memoType: "none", memo: null, operations: [xlmPayment()] });
    expect(partOwner(none, FREELANCER, invoices)).toBeNull();
    expect(
      muxedKeys(transaction({ successful: false, operations: [xlmPayment({ toMuxedId: "22" })] })),
    ).toEqual([]);
  });

  it("looks up no muxed id that cannot be an invoice's (a memo a source gave as to_muxed_id)", () => {
    const odd = transaction({
      operations: [
        xlmPayment({ toMuxedId: "INV-0001" }),
        xlmPayment({ toMuxedId: "18446744073709551615" }),
      ],
    });
    expect(muxedKeys(odd)).toEqual([]);
  });

  it("a memo id equal to an invoice's muxed id names it as its M address would (G + memo id)", () => {
    const byMemoId = transaction({ memoType: "id", memo: "22", operations: [xlmPayment()] });
    expect(muxedKeys(byMemoId)).toEqual([{ wallet: FREELANCER, muxedId: "22" }]);
    expect(partOwner(byMemoId, FREELANCER, invoices)?.id).toBe("b");
    const terms = { invoice: { invoiceNumber: "INV-0002", muxedId: "22" } };
    const ops = opsOf(input({ ...terms, transaction: { memoType: "id", memo: "22" } }));
    expect(ops[0]).toMatchObject({ applied: true, toMuxedId: "22" });
    // Another memo id does not pay it.
    const other = input({ ...terms, transaction: { memoType: "id", memo: "23" } });
    expect(classifyPayment(other)).toEqual(mismatch);
  });

  it("a to_muxed_id that is a text memo (CAP-67 events carry one there) is read as no address", () => {
    const tx = { operations: [xlmPayment({ toMuxedId: "INV-0001" })] };
    expect(opsOf(input({ transaction: tx }))[0]).toMatchObject({ applied: true });
  });
});
