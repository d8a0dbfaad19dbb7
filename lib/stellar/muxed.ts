import { Account, MuxedAccount, StrKey } from "@stellar/stellar-base";
import type { PaymentOperation } from "@/lib/domain/payment-match";

// Muxed addresses (`M...`: a G account plus a 64-bit id, SEP-23; docs/decisions.md, Muxed
// addresses), encoded and taken apart with the SDK's own MuxedAccount.

/** The `M...` address of `account` (a G address) with the muxed id `id` (decimal string). */
export function muxedAddress(account: string, id: string): string {
  return new MuxedAccount(new Account(account, "0"), id).accountId();
}

/** A G or M address as its base G account and muxed id (null for a G); null when neither. */
export function splitAddress(address: string): { account: string; muxedId: string | null } | null {
  if (StrKey.isValidEd25519PublicKey(address)) return { account: address, muxedId: null };
  if (StrKey.isValidMed25519PublicKey(address)) {
    const muxed = MuxedAccount.fromAddress(address, "0");
    return { account: muxed.baseAccount().accountId(), muxedId: muxed.id() };
  }
  return null;
}

/** Where an operation sent its money, in full: `M...` when its destination was muxed. */
export function destinationOf(op: Pick<PaymentOperation, "to" | "toMuxedId">): string {
  return op.toMuxedId && StrKey.isValidEd25519PublicKey(op.to)
    ? muxedAddress(op.to, op.toMuxedId)
    : op.to;
}
