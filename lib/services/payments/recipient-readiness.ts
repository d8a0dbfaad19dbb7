import { payableTotal } from "@/lib/domain/credit-note";
import { BusinessRuleError, LedgerError, type ValidationError } from "@/lib/domain/errors";
import { amountDue, type Currency, fromStroops, toStroops, trimAmount } from "@/lib/domain/money";
import { NETWORK_LABELS } from "@/lib/format";
import { type LedgerAccount, LedgerSourceError, ledgerSourceFor } from "@/lib/ledger-sources";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";
import { type AssetRef, assetFor } from "@/lib/stellar/assets";
import { ledgerError } from "@/lib/stellar/errors";
import { balanceOf } from "@/lib/stellar/read";
import { assertKeyNetwork, defaultPassphrase } from "../auth/key-network";
import type { AuthedContext, ServiceContext } from "../context";
import { networkName, resolveNetwork } from "../invoices/network";
import type { InvoiceRow } from "../invoices/store";

/**
 * Whether a wallet can receive an invoice's asset on its network (docs/decisions.md,
 * Recipient readiness): the account exists and, for USDC/EURC, holds an authorized trustline
 * to the trusted issuer (lib/stellar/assets.ts) with room for the amount.
 */
export const READINESS_PROBLEMS = [
  "no_account",
  "no_trustline",
  "not_authorized",
  "no_room",
] as const;
export type ReadinessProblem = (typeof READINESS_PROBLEMS)[number];

export type RecipientReadiness = {
  /** `unknown`: Horizon could not be reached (send goes ahead, see docs/decisions.md). */
  status: "ready" | "not_ready" | "unknown";
  problem: ReadinessProblem | null;
  wallet: string;
  network: NetworkName;
  asset: AssetRef;
  /** The send's 400 message when not ready. */
  message: string | null;
  /** What the freelancer does about it. */
  fix: string | null;
  /** The one-click trustline (POST /api/wallet/trustline) fixes it. */
  canAddTrustline: boolean;
};

/** Pay-intent's answer when the recipient has no usable trustline (issue 16, item 3). */
export const RECIPIENT_CANNOT_RECEIVE =
  "The recipient wallet cannot receive this asset yet. Ask the sender of this invoice to add a trustline.";

/**
 * The pure rule: what keeps `account` from receiving `amount` of `asset` (null: nothing).
 * Room is limit - balance - buying liabilities, in stroops; `amount` null skips it.
 */
export function problemOf(
  account: LedgerAccount | null,
  asset: AssetRef,
  amount: string | null,
): { problem: ReadinessProblem; room?: string } | null {
  if (!account) return { problem: "no_account" };
  if (asset.issuer === null) return null;
  const line = balanceOf(account, asset);
  if (!line) return { problem: "no_trustline" };
  if (line.is_authorized === false) return { problem: "not_authorized" };
  if (amount === null || line.limit === undefined) return null;
  const room =
    toStroops(line.limit) - toStroops(line.balance) - toStroops(line.buying_liabilities ?? "0");
  if (room < toStroops(amount))
    return { problem: "no_room", room: fromStroops(room > 0n ? room : 0n) };
  return null;
}

/** The send's message and fix for a problem, in the freelancer's words. */
export function describeProblem(
  found: { problem: ReadinessProblem; room?: string },
  wallet: string,
  network: NetworkName,
  asset: AssetRef,
  amount: string | null,
): { message: string; fix: string } {
  const code = asset.code;
  const reason = {
    no_account: "the account is not activated on this network",
    no_trustline: `it has no trustline to ${code} issued by ${asset.issuer}`,
    not_authorized: `its ${code} trustline is not authorized by the issuer`,
    no_room: `its ${code} trustline has room for ${trimAmount(found.room ?? "0")} ${code}, less than ${amount === null ? "the total" : `${trimAmount(amount)} ${code}`}`,
  }[found.problem];
  const fix = {
    no_account: `Activate the account: send at least 1 XLM (the minimum balance) to ${wallet} from another wallet or an exchange${asset.issuer ? `, then add a trustline to ${code}` : ""}.`,
    no_trustline: `Add a trustline to ${code} issued by ${asset.issuer} ("Add trustline" on the invoice page signs it with your wallet).`,
    not_authorized: `Ask the issuer ${asset.issuer} to authorize your ${code} trustline, or use a wallet it has authorized.`,
    no_room: `Raise the ${code} trustline's limit ("Add trustline" on the invoice page sets it to the maximum).`,
  }[found.problem];
  return {
    message: `Your wallet cannot receive ${code} on ${NETWORK_LABELS[network]} yet: ${reason}`,
    fix,
  };
}

/**
 * Reads the wallet's account on `network` and tells whether it can receive. A Horizon that
 * cannot be reached (timeout, 5xx, 429, no answer) is `unknown`, never an error.
 */
export async function recipientReadiness(
  ctx: ServiceContext,
  input: { wallet: string; network: NetworkName; currency: Currency; amount: string | null },
): Promise<RecipientReadiness> {
  const asset = assetFor(ctx.config, input.network, input.currency);
  const base = { wallet: input.wallet, network: input.network, asset };
  let account: LedgerAccount | null;
  try {
    account = await ledgerSourceFor(ctx.config, input.network).account(input.wallet);
  } catch (err) {
    if (!(err instanceof LedgerSourceError)) throw err;
    ctx.logger.warn("recipient readiness unknown: Horizon unreachable", {
      error: err.message,
      wallet: input.wallet,
      network: input.network,
    });
    return {
      ...base,
      status: "unknown",
      problem: null,
      message: null,
      fix: null,
      canAddTrustline: false,
    };
  }
  const found = problemOf(account, asset, input.amount);
  if (!found) {
    return {
      ...base,
      status: "ready",
      problem: null,
      message: null,
      fix: null,
      canAddTrustline: false,
    };
  }
  return {
    ...base,
    status: "not_ready",
    problem: found.problem,
    ...describeProblem(found, input.wallet, input.network, asset, input.amount),
    canAddTrustline: found.problem === "no_trustline" || found.problem === "no_room",
  };
}

/**
 * What a room check compares with for an invoice: the amount due in its asset, or null for a
 * fiat-priced invoice, whose asset amount is only known once a quote is locked at pay-intent
 * (docs/decisions.md, Recipient readiness).
 */
export const readinessAmount = (
  invoice: Pick<InvoiceRow, "priceCurrency" | "total" | "amountPaid" | "amountCredited">,
): string | null =>
  invoice.priceCurrency ? null : amountDue(payableTotal(invoice), invoice.amountPaid);

/** Send's check: 400 `Your wallet cannot receive ...` with `details.fix`; unknown goes ahead. */
export async function assertCanReceive(
  ctx: ServiceContext,
  invoice: InvoiceRow,
  network: NetworkName,
): Promise<void> {
  const r = await recipientReadiness(ctx, {
    wallet: invoice.freelancerWallet,
    network,
    currency: invoice.currency,
    amount: readinessAmount(invoice),
  });
  if (r.status === "not_ready" && r.message && r.fix && r.problem) {
    throw new BusinessRuleError(r.message, { reason: r.problem, fix: r.fix });
  }
}

/**
 * Pay-intent's check of an already fetched recipient (the payer's words): not activated,
 * cannot receive this asset yet, or no room left (the ledger's op_line_full message).
 */
export function payerSideError(
  account: LedgerAccount | null,
  asset: AssetRef,
  amount: string | null,
): LedgerError | ValidationError | null {
  const found = problemOf(account, asset, amount);
  switch (found?.problem) {
    case undefined:
      return null;
    case "no_account":
      return ledgerError("op_no_destination");
    case "no_trustline":
    case "not_authorized":
      return new LedgerError("op_no_trust", RECIPIENT_CANNOT_RECEIVE);
    case "no_room":
      return ledgerError("op_line_full");
  }
}

/**
 * Whether a payment of `due` can reach the invoice's recipient, in the payer's words
 * (pay-intent and pay-options, docs/decisions.md, Path payments): an account that does not
 * exist is 400 `op_no_destination` unless the payment creates it (a link with
 * `activateNewAccounts`, in XLM: `createAccount`, and then only as a plain payment, never
 * through a path); otherwise `payerSideError`. Returns whether the payment creates the account.
 */
export function assertRecipientReceives(
  recipient: LedgerAccount | null,
  invoice: Pick<InvoiceRow, "kind" | "activateNewAccounts">,
  asset: AssetRef,
  due: string,
): { createAccount: boolean } {
  const createAccount =
    !recipient && invoice.kind === "LINK" && invoice.activateNewAccounts && asset.issuer === null;
  if (!recipient && !createAccount) throw ledgerError("op_no_destination");
  const cannotReceive = createAccount ? null : payerSideError(recipient, asset, due);
  if (cannotReceive) throw cannotReceive;
  return { createAccount };
}

/** The network a wallet request names (`network` or `networkPassphrase`), else the default. */
export function requestedPassphrase(
  ctx: AuthedContext,
  input: { network?: NetworkName; networkPassphrase?: NetworkPassphrase },
): string {
  const passphrase =
    resolveNetwork(input.network, input.networkPassphrase) ?? defaultPassphrase(ctx);
  assertKeyNetwork(ctx, passphrase);
  return passphrase;
}

/** GET /api/wallet/readiness: the signed-in wallet as the recipient (the drafting warning). */
export function walletReadiness(
  ctx: AuthedContext,
  input: {
    network?: NetworkName;
    networkPassphrase?: NetworkPassphrase;
    currency: Currency;
    amount?: string | number;
  },
): Promise<RecipientReadiness> {
  return recipientReadiness(ctx, {
    wallet: ctx.wallet,
    network: networkName(requestedPassphrase(ctx, input)),
    currency: input.currency,
    amount: input.amount === undefined ? null : String(input.amount),
  });
}
