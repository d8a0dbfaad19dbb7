import { describe, expect, it } from "vitest";
import {
  type MatchPaymentInput,
  matchPayment,
  type PaymentOperation,
  type PaymentTransaction,
} from "./payment-match";

const FREELANCER = `G${"F".repeat(55)}`;
const PAYER = `G${"P".repeat(55)}`;
const OTHER = `G${"O".repeat(55)}`;
const USDC_TESTNET = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";
const USDC_MAINNET = "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
const TESTNET = "Test SDF Network ; September 2015";
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
  invoice?: Partial<MatchPaymentInput["invoice"]>;
  transaction?: Partial<PaymentTransaction>;
  expectedIssuer?: string | null;
  hashAlreadyUsedFor?: string | null;
}): MatchPaymentInput {
  return {
    invoiceId: "inv_1",
    invoice: {
      invoiceNumber: "INV-0001",
      freelancerWallet: FREELANCER,
      currency: "XLM",
      total: "100.0000000",
      createdAt: INVOICE_CREATED,
      networkPassphrase: TESTNET,
      allowCreateAccount: false,
      ...overrides.invoice,
    },
    expectedIssuer: overrides.expectedIssuer === undefined ? null : overrides.expectedIssuer,
    transaction: transaction(overrides.transaction),
    hashAlreadyUsedFor: overrides.hashAlreadyUsedFor ?? null,
  };
}

const mismatch = {
  ok: false,
  reason: "mismatch",
  message: "Transaction does not match invoice",
};

describe("matchPayment", () => {
  it("accepts an exact XLM payment and describes it", () => {
    expect(matchPayment(input({}))).toEqual({
      ok: true,
      payment: {
        from: PAYER,
        to: FREELANCER,
        amount: "100.0000000",
        assetCode: "XLM",
        assetIssuer: null,
        ledger: 123456,
        hash: HASH,
        createdAt: new Date("2026-03-01T12:05:00.000Z"),
      },
    });
  });

  it("1. rejects a failed transaction before anything else", () => {
    const result = matchPayment(input({ transaction: { successful: false, memo: "INV-9999" } }));
    expect(result).toEqual({
      ok: false,
      reason: "not_successful",
      message: "Transaction was not successful",
    });
  });

  it("2. rejects a wrong memo", () => {
    expect(matchPayment(input({ transaction: { memo: "INV-0002" } }))).toEqual(mismatch);
    expect(matchPayment(input({ transaction: { memo: "inv-0001" } }))).toEqual(mismatch);
    expect(matchPayment(input({ transaction: { memo: "INV-0001 " } }))).toEqual(mismatch);
  });

  it("2. rejects id, hash, return and missing memos even with the same text", () => {
    for (const memoType of ["id", "hash", "return", "none"] as const) {
      expect(matchPayment(input({ transaction: { memoType } })), memoType).toEqual(mismatch);
    }
    expect(matchPayment(input({ transaction: { memoType: "none", memo: null } }))).toEqual(
      mismatch,
    );
  });

  it("3. rejects a payment to another destination", () => {
    const result = matchPayment(
      input({ transaction: { operations: [xlmPayment({ to: OTHER })] } }),
    );
    expect(result).toEqual(mismatch);
  });

  it("3. ignores operations that cannot pay", () => {
    const result = matchPayment(
      input({
        transaction: { operations: [xlmPayment({ type: "manage_sell_offer" })] },
      }),
    );
    expect(result).toEqual(mismatch);
  });

  it("3. accepts path payments", () => {
    for (const type of ["path_payment_strict_receive", "path_payment_strict_send"]) {
      const result = matchPayment(input({ transaction: { operations: [xlmPayment({ type })] } }));
      expect(result.ok, type).toBe(true);
    }
  });

  it("3. accepts create_account only when the invoice allows it, and only for XLM", () => {
    const createAccount = xlmPayment({ type: "create_account" });
    const tx = { operations: [createAccount] };
    expect(matchPayment(input({ transaction: tx }))).toEqual(mismatch);
    expect(matchPayment(input({ transaction: tx, invoice: { allowCreateAccount: true } })).ok).toBe(
      true,
    );
    const usdc = matchPayment(
      input({
        transaction: {
          operations: [{ ...createAccount, assetCode: "USDC", assetIssuer: USDC_TESTNET }],
        },
        invoice: { allowCreateAccount: true, currency: "USDC" },
        expectedIssuer: USDC_TESTNET,
      }),
    );
    expect(usdc).toEqual(mismatch);
  });

  it("4. rejects USDC from the wrong issuer", () => {
    const usdcInvoice = { currency: "USDC" as const };
    const from = (issuer: string | null) =>
      matchPayment(
        input({
          invoice: usdcInvoice,
          expectedIssuer: USDC_TESTNET,
          transaction: {
            operations: [xlmPayment({ assetCode: "USDC", assetIssuer: issuer })],
          },
        }),
      );
    expect(from(USDC_TESTNET).ok).toBe(true);
    expect(from(USDC_MAINNET)).toEqual(mismatch);
    expect(from(OTHER)).toEqual(mismatch);
    expect(from(null)).toEqual(mismatch);
  });

  it("4. rejects the wrong asset, including a credit asset coded XLM", () => {
    expect(
      matchPayment(
        input({
          transaction: {
            operations: [xlmPayment({ assetCode: "USDC", assetIssuer: USDC_TESTNET })],
          },
        }),
      ),
    ).toEqual(mismatch);
    expect(
      matchPayment(input({ transaction: { operations: [xlmPayment({ assetIssuer: OTHER })] } })),
    ).toEqual(mismatch);
  });

  it("4. fails closed when no issuer is configured for a non-native currency", () => {
    const result = matchPayment(
      input({
        invoice: { currency: "EURC" },
        expectedIssuer: null,
        transaction: { operations: [xlmPayment({ assetCode: "EURC", assetIssuer: null })] },
      }),
    );
    expect(result).toEqual(mismatch);
  });

  it("5. reports an underpayment with trimmed amounts", () => {
    const result = matchPayment(
      input({ transaction: { operations: [xlmPayment({ amount: "99.5000000" })] } }),
    );
    expect(result).toEqual({
      ok: false,
      reason: "underpayment",
      message: "Underpayment: paid 99.5, expected 100",
    });
  });

  it("5. is short by a single stroop", () => {
    const result = matchPayment(
      input({ transaction: { operations: [xlmPayment({ amount: "99.9999999" })] } }),
    );
    expect(result).toMatchObject({
      reason: "underpayment",
      message: "Underpayment: paid 99.9999999, expected 100",
    });
  });

  it("5. accepts an overpayment and records what was received", () => {
    const result = matchPayment(
      input({ transaction: { operations: [xlmPayment({ amount: "150.25" })] } }),
    );
    expect(result).toMatchObject({ ok: true, payment: { amount: "150.2500000" } });
  });

  it("5. uses the largest matching operation; smaller ones are not summed", () => {
    const split = matchPayment(
      input({
        transaction: {
          operations: [xlmPayment({ amount: "60" }), xlmPayment({ amount: "40" })],
        },
      }),
    );
    expect(split).toMatchObject({
      reason: "underpayment",
      message: "Underpayment: paid 60, expected 100",
    });

    const withOthers = matchPayment(
      input({
        transaction: {
          operations: [
            xlmPayment({ to: OTHER, amount: "1000" }),
            xlmPayment({ amount: "10" }),
            xlmPayment({ amount: "100", from: OTHER }),
          ],
        },
      }),
    );
    expect(withOthers).toMatchObject({ ok: true, payment: { amount: "100.0000000", from: OTHER } });
  });

  it("6. rejects a transaction older than the invoice, allowing 60 s of skew", () => {
    const at = (iso: string) => matchPayment(input({ transaction: { createdAt: new Date(iso) } }));
    expect(at("2026-03-01T11:59:00.000Z").ok).toBe(true);
    expect(at("2026-03-01T11:59:30.000Z").ok).toBe(true);
    expect(at("2026-03-01T11:58:59.999Z")).toEqual(mismatch);
    expect(at("2026-02-28T12:00:00.000Z")).toEqual(mismatch);
  });

  it("6. rejects a hash that already paid another invoice", () => {
    expect(matchPayment(input({ hashAlreadyUsedFor: "inv_2" }))).toEqual(mismatch);
    // The same invoice again is the caller's "already paid" case, not a replay.
    expect(matchPayment(input({ hashAlreadyUsedFor: "inv_1" })).ok).toBe(true);
  });

  it("falls back to the transaction source when an operation has none", () => {
    const result = matchPayment(
      input({
        transaction: { sourceAccount: OTHER, operations: [xlmPayment({ from: undefined })] },
      }),
    );
    expect(result).toMatchObject({ ok: true, payment: { from: OTHER } });
  });

  it("checks in the documented order: memo before destination before amount", () => {
    const everythingWrong = input({
      transaction: {
        memo: "INV-0002",
        operations: [xlmPayment({ to: OTHER, amount: "1" })],
      },
    });
    expect(matchPayment(everythingWrong)).toEqual(mismatch);
    // Underpaid and replayed: the underpayment is reported (check 5 before 6).
    const underpaidReplay = input({
      hashAlreadyUsedFor: "inv_2",
      transaction: { operations: [xlmPayment({ amount: "1" })] },
    });
    expect(matchPayment(underpaidReplay)).toMatchObject({ reason: "underpayment" });
  });
});
