import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type HorizonTransaction, transactionFromRecord } from "./read";

// A real Horizon body of a fee-bump transaction (ledger/fixtures/transaction-fee-bump.json):
// the same transaction must have one identity whichever of its hashes it was read by.
const feeBump: HorizonTransaction & {
  fee_bump_transaction: { hash: string };
  inner_transaction: { hash: string };
} = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, "../../ledger/fixtures/transaction-fee-bump.json"),
    "utf8",
  ),
);

describe("transactionFromRecord", () => {
  it("keys a fee-bump transaction on its outer hash, whichever hash Horizon answered with", () => {
    const outer = feeBump.fee_bump_transaction.hash;
    const inner = feeBump.inner_transaction.hash;
    const byOuter = transactionFromRecord(feeBump, []);
    // Horizon answers a lookup by the inner hash with the inner hash as `hash`.
    const byInner = transactionFromRecord({ ...feeBump, hash: inner }, []);
    expect(byOuter).toMatchObject({ hash: outer, innerHash: inner });
    expect(byInner).toMatchObject({ hash: outer, innerHash: inner });
  });

  it("keeps a plain transaction's hash, with no inner hash", () => {
    const { fee_bump_transaction: _f, inner_transaction: _i, ...plain } = feeBump;
    expect(transactionFromRecord(plain, [])).toMatchObject({ hash: plain.hash, innerHash: null });
  });
});
