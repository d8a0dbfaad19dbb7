import { AUDIT_ACTIONS, INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { CURRENCIES } from "@/lib/domain/money";
import { z } from "@/lib/zod";
import { idParamSchema, SEARCH_RANK_LIMIT } from "./common";

/**
 * Building blocks of the response schemas (lib/schemas/<area>.ts): the two wire forms, the
 * field types responses share, the error bodies and the path parameters. Each response is
 * written once, as a zod schema; lib/serializers return its inferred type, the OpenAPI
 * document (lib/openapi/document.ts) is generated from it and the browser imports its type.
 */

export const EXAMPLE_ID = "clx8f2k9p0000abcd1234efgh";
export const EXAMPLE_WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
export const EXAMPLE_HASH = "3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889";
/** A Stellar account id (ed25519 public key, strkey `G...`). */
export const STELLAR_ACCOUNT = /^G[A-Z2-7]{55}$/;
/**
 * Who may pay: an account (`G...`) or a contract account (`C...`, a smart wallet paying through
 * the asset contract; docs/decisions.md, Smart-wallet payers).
 */
export const PAYER_ACCOUNT = /^[GC][A-Z2-7]{55}$/;

// ---- the two forms ------------------------------------------------------------------------

/**
 * One endpoint's success body: Form B (default), the Form A payload and the Form A envelope
 * `{success: true, data}` (`?envelope=true`; docs/decisions.md, response forms).
 */
export type WireShape<B extends z.ZodType = z.ZodType, A extends z.ZodType = z.ZodType> = {
  name: string;
  b: B;
  a: A;
  envelope: z.ZodType;
  /** True when the payload is identical in both forms (Form A only adds the envelope). */
  same: boolean;
};

/** Form B body of a shape, as the browser reads it. */
export type FormB<W extends WireShape> = z.output<W["b"]>;
/** Form A payload of a shape (what `data` holds in the envelope). */
export type FormA<W extends WireShape> = z.output<W["a"]>;

/**
 * Names a response (the OpenAPI component `name`, `<name>FormA`, `<name>FormAEnvelope`).
 * Without `a`, Form A carries the Form B payload unchanged.
 */
export function wire<B extends z.ZodType, A extends z.ZodType = B>(
  name: string,
  b: B,
  options: { a?: A; description?: string } = {},
): WireShape<B, A> {
  const { description } = options;
  const bm = b.meta({ id: name, ...(description ? { description } : {}) });
  const am = options.a
    ? options.a.meta({ id: `${name}FormA`, description: `Form A payload of ${name}` })
    : bm;
  const envelope = z
    .object({ success: z.literal(true), data: am })
    .meta({ id: `${name}FormAEnvelope`, description: `Form A (\`?envelope=true\`): ${name}` });
  return { name, b: bm, a: am as unknown as A, envelope, same: !options.a };
}

// ---- fields responses share ---------------------------------------------------------------

export const id = z.string().meta({ description: "Opaque CUID-style id", example: EXAMPLE_ID });
export const timestamp = z.iso
  .datetime()
  .meta({ description: "ISO 8601, UTC, milliseconds", example: "2026-01-15T10:30:00.000Z" });
export const wallet = z
  .string()
  .regex(STELLAR_ACCOUNT)
  .meta({ description: "Stellar account id", example: EXAMPLE_WALLET });
/** A payer's address: a G account, or a smart wallet's C contract address. */
export const payerAccount = z.string().regex(PAYER_ACCOUNT).meta({
  description: "Stellar account id (G...), or a smart wallet's contract address (C...)",
  example: EXAMPLE_WALLET,
});
/** A muxed account (SEP-23): `M...`, a G account plus a 64-bit id, 69 characters. */
export const MUXED_ACCOUNT = /^M[A-Z2-7]{68}$/;
export const muxedAccount = z.string().regex(MUXED_ACCOUNT).meta({
  description:
    "The invoice's muxed address (`M...`: the freelancer's wallet plus the invoice's 64-bit id); a payment to it pays this invoice with or without a memo (docs/decisions.md, Muxed addresses)",
  example: "MBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OQAAAAAAAAAAACQWK",
});
/**
 * Where a refund goes: the payer's own address as it sent from, a G account, the M muxed
 * account it sent from, or a smart wallet's C contract (docs/decisions.md, Muxed addresses).
 */
export const payerAddress = z
  .union([wallet, z.string().regex(MUXED_ACCOUNT), z.string().regex(/^C[A-Z2-7]{55}$/)])
  .meta({
    description:
      "The payment's sender as it sent: a G account, the M... muxed account it sent from, or a C... contract account",
    example: EXAMPLE_WALLET,
  });
export const txHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: "Transaction hash, 64 lowercase hex characters", example: EXAMPLE_HASH });
/** Form B amounts: exact decimal strings as stored (numeric(18,7), quantities (10,2)). */
export const decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({ description: "Exact decimal string (Form B)", example: "1050.0000000" });
/** Form A amounts: JSON numbers, converted only at the edge (lib/domain/money.ts). */
export const number = z
  .number()
  .meta({ description: "Amount as a JSON number (Form A)", example: 1050 });
export const int = z.number().int();
export const currency = z.enum(CURRENCIES).meta({ id: "Currency" });
export const invoiceStatus = z.enum(INVOICE_STATUSES).meta({ id: "InvoiceStatus" });
export const auditAction = z.enum(AUDIT_ACTIONS).meta({
  id: "AuditAction",
  description:
    "CREATED; UPDATED (an edit, or a pay-intent moving the invoice to PROCESSING); SENT; PAID (the applied payments reached the total less the tolerance); EXPIRED; CANCELLED; DELETED; FAILED (the ledger rejected a submitted payment); PAYMENT_RECEIVED (a payment recorded that did not settle the invoice: a partial payment, or an unapplied one with its reason); REFUNDED (a refund reached the ledger; the status does not change); CREDITED (a credit note was issued: `changes.creditNote` names it; the status does not change)",
});
export const networkPassphrase = z.string().meta({
  description: "Network passphrase of the invoice",
  examples: ["Test SDF Network ; September 2015", "Public Global Stellar Network ; September 2015"],
});
export const paymentLink = z.url().meta({
  description: "`{APP_URL}/pay/<id>`",
  example: `https://invoices.example.com/pay/${EXAMPLE_ID}`,
});
export const byAsset = <T extends z.ZodType>(value: T) =>
  z.object({ XLM: value, USDC: value, EURC: value });
/** `limit`/`offset` pages (invoices, webhook deliveries). */
export const pageFields = {
  total: int.meta({ description: "Matching rows in all pages" }),
  limit: int,
  offset: int,
  hasMore: z.boolean(),
};
/** Pages of the lists a search (`q`) reads: invoices, quotes, credit notes. */
export const searchPageFields = {
  ...pageFields,
  totalExact: z.boolean().meta({
    description: `False when a search (\`q\`) matches more than ${SEARCH_RANK_LIMIT} documents: \`total\` is then ${SEARCH_RANK_LIMIT} and means "more than ${SEARCH_RANK_LIMIT}", such a broad search is not ranked (its matches come in the list's order, \`sort\` or newest first) and \`hasMore\` says whether a next page exists. True otherwise: \`total\` is the exact count.`,
  }),
};
/** The Form B answer of a delete: `{success: true}`. */
export const acknowledged = z.object({ success: z.literal(true) });

/** A delete's answer: `{success: true}` in Form B, `{id, deleted: true}` in Form A. */
export const deletedShape = (name: string) =>
  wire(name, acknowledged, { a: z.object({ id, deleted: z.literal(true) }) });

// ---- errors -------------------------------------------------------------------------------

/** Every `code` an error body can carry; lib/http/errors.ts maps errors onto them. */
export const ERROR_CODES = [
  "VALIDATION_ERROR",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "RATE_LIMIT_EXCEEDED",
  "LEDGER_ERROR",
  "UNAVAILABLE",
  "INTERNAL_ERROR",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const errorCode = z.enum(ERROR_CODES).meta({ id: "ErrorCode" });
const details = z.record(z.string(), z.string()).meta({
  description: "Field name (or dotted path) to a message",
  example: { clientEmail: "Invalid email" },
});
const retryAfter = int.meta({ description: "Seconds to wait (429 only)", example: 42 });

/** Form B error: `{error, code, details?, retryAfter?}`. */
export const errorB = z
  .object({
    error: z.string().meta({ description: "The documented message, word for word" }),
    code: errorCode,
    details: details.optional(),
    retryAfter: retryAfter.optional(),
  })
  .meta({ id: "Error", description: "Form B error body" });

/** Form A error: `{success: false, error: {code, message, details?, retryAfter?}}`. */
export const errorA = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: errorCode,
      message: z.string(),
      details: details.optional(),
      retryAfter: retryAfter.optional(),
    }),
  })
  .meta({ id: "ErrorFormAEnvelope", description: "Form A (`?envelope=true`) error body" });

export type ErrorBodyB = z.output<typeof errorB>;
export type ErrorBodyA = z.output<typeof errorA>;

// ---- path parameters (documentation: an unknown id is the service's 404) -------------------

export const idPath = z.object({
  id: idParamSchema.meta({ description: "Resource id (an unknown id is a 404)" }),
});
export const invoiceIdPath = z.object({
  invoiceId: idParamSchema.meta({ description: "Invoice (or payment link) id" }),
});
