import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { invoices, payments } from "@/db/schema";
import { NotFoundError, UnauthorizedError } from "@/lib/domain/errors";
import { consumeSignedNonce } from "@/lib/services/auth/nonce";
import { getProfile } from "@/lib/services/profile/profile";
import type { ServiceContext } from "../context";
import { createPortalSession, portalEmail } from "./session";
import { businessName } from "./view";

export const NO_PAID_INVOICE = "This wallet has not paid an invoice here";
export const INVALID_PICK = "Sign in with the wallet again";

/** How long the answer's `pickToken` lets the client choose after signing. */
const PICK_TTL_MS = 5 * 60_000;

export type WalletChoice = { ownerWallet: string; clientEmail: string; business: string };
export type WalletSignIn =
  | { status: "signed_in"; setCookie: string; business: string; clientEmail: string }
  | { status: "choose"; choices: WalletChoice[]; pickToken: string };

/**
 * The freelancers whose sent invoices `wallet` paid (a payment on the ledger from it, applied
 * or not) and the email each invoice was addressed to.
 */
async function choicesOf(ctx: ServiceContext, wallet: string): Promise<WalletChoice[]> {
  const rows = await ctx.db
    .selectDistinct({
      ownerWallet: invoices.freelancerWallet,
      clientEmail: sql<string>`lower(trim(${invoices.clientEmail}))`,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(
      and(
        eq(payments.fromWallet, wallet),
        eq(payments.method, "stellar"),
        inArray(payments.status, ["CONFIRMED", "REFUNDED"]),
        eq(invoices.kind, "INVOICE"),
        isNull(invoices.deletedAt),
      ),
    );
  const sorted = rows.sort((a, b) =>
    `${a.ownerWallet} ${a.clientEmail}`.localeCompare(`${b.ownerWallet} ${b.clientEmail}`),
  );
  return Promise.all(
    sorted.map(async (r) => ({
      ...r,
      business: businessName(await getProfile(ctx.db, r.ownerWallet)),
    })),
  );
}

const pickMac = (secret: string, wallet: string, until: number) =>
  createHmac("sha256", secret).update(`portal-pick:v1:${wallet}:${until}`).digest("base64url");

function pickToken(ctx: ServiceContext, wallet: string): string {
  const until = ctx.now().getTime() + PICK_TTL_MS;
  return `${wallet}.${until}.${pickMac(ctx.config.jwtSecret, wallet, until)}`;
}

function walletOfPick(ctx: ServiceContext, token: string): string {
  const [wallet, untilText, mac] = token.split(".");
  const until = Number(untilText);
  if (!wallet || !mac || !Number.isSafeInteger(until)) throw new UnauthorizedError(INVALID_PICK);
  const expected = Buffer.from(pickMac(ctx.config.jwtSecret, wallet, until));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new UnauthorizedError(INVALID_PICK);
  if (until <= ctx.now().getTime()) throw new UnauthorizedError(INVALID_PICK);
  return wallet;
}

export type WalletSessionInput =
  | { walletAddress: string; nonce: string; signature: string }
  | { pickToken: string; ownerWallet: string; clientEmail: string };

/**
 * POST /api/portal/wallet-session (docs/decisions.md, Client portal): a signed sign-in nonce
 * (lib/services/auth/nonce.ts) proves the wallet; it opens the portal of the freelancer whose
 * invoice it paid, for that invoice's client email. With several, the answer lists them and a
 * second call (the answer's `pickToken`, valid 5 minutes, and the choice) opens one.
 */
export async function walletPortalSession(
  ctx: ServiceContext,
  input: WalletSessionInput,
): Promise<WalletSignIn> {
  const wallet =
    "pickToken" in input
      ? walletOfPick(ctx, input.pickToken)
      : await consumeSignedNonce(ctx, input);
  const choices = await choicesOf(ctx, wallet);
  if (choices.length === 0) throw new NotFoundError(NO_PAID_INVOICE);
  let choice: WalletChoice | undefined;
  if ("pickToken" in input) {
    const email = portalEmail(input.clientEmail);
    choice = choices.find((c) => c.ownerWallet === input.ownerWallet && c.clientEmail === email);
    if (!choice) throw new NotFoundError(NO_PAID_INVOICE);
  } else if (choices.length === 1) {
    choice = choices[0];
  } else {
    return { status: "choose", choices, pickToken: pickToken(ctx, wallet) };
  }
  const { setCookie } = await createPortalSession(ctx, {
    ownerWallet: choice.ownerWallet,
    clientEmail: choice.clientEmail,
    via: "wallet",
  });
  return {
    status: "signed_in",
    setCookie,
    business: choice.business,
    clientEmail: choice.clientEmail,
  };
}
