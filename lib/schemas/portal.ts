import { PORTAL_SESSION_VIA } from "@/db/schema/portal";
import { PAYMENT_METHODS } from "@/lib/domain/manual-payment";
import { QUOTE_STATUSES } from "@/lib/domain/quote-state";
import { z } from "@/lib/zod";
import { EINVOICE_FORMATS } from "./einvoice";
import { STATEMENT_DATE, STATEMENT_REVERSED } from "./statements";
import { decimal, id, invoiceStatus, timestamp, wallet, wire } from "./wire";

// The client portal (docs/decisions.md, Client portal).

export const PORTAL_EMAIL = "Enter one email address";

/** POST /api/portal/link: one address (400 for anything that is not one). */
export const portalLinkRequestSchema = z
  .object({
    email: z
      .string({ error: PORTAL_EMAIL })
      .trim()
      .max(254, PORTAL_EMAIL)
      .pipe(z.email({ error: PORTAL_EMAIL })),
  })
  .strict();

/** The one answer of POST /api/portal/link, whatever the address. */
export const PORTAL_LINK_SENT =
  "If this address has invoices here, a sign-in link is on its way. It works once, within 30 minutes.";
export const portalLinkResponse = wire(
  "PortalLinkSent",
  z.object({ message: z.literal(PORTAL_LINK_SENT) }),
);

/** Not strict: a mail client's added parameters (utm_...) do not spoil the link. */
export const portalSignInQuerySchema = z.object({
  token: z.string().max(300).optional().describe("The emailed link's token"),
});

const signedNonce = z
  .object({
    walletAddress: z.string().max(100),
    nonce: z.string().max(100),
    signature: z.string().max(300),
  })
  .strict();
const pick = z
  .object({
    pickToken: z.string().max(300).describe("From the first call's `choose` answer"),
    ownerWallet: wallet,
    clientEmail: z.string().trim().max(254),
  })
  .strict();
/** POST /api/portal/wallet-session: a signed sign-in nonce, or the pick after a `choose`. */
export const portalWalletRequestSchema = z.union([signedNonce, pick]);

export const portalWalletResponse = wire(
  "PortalWalletSession",
  z.discriminatedUnion("status", [
    z.object({ status: z.literal("signed_in"), business: z.string(), clientEmail: z.string() }),
    z.object({
      status: z.literal("choose"),
      pickToken: z.string(),
      choices: z.array(
        z.object({ ownerWallet: wallet, clientEmail: z.string(), business: z.string() }),
      ),
    }),
  ]),
);

export const portalStatementQuerySchema = z
  .object({
    from: z.iso.date({ error: STATEMENT_DATE }).describe("first day, inclusive: `2026-01-01`"),
    to: z.iso.date({ error: STATEMENT_DATE }).describe("last day, inclusive: `2026-01-31`"),
    format: z.enum(["json", "csv", "pdf"]).default("json"),
  })
  .strict()
  .refine((q) => q.to >= q.from, { path: ["to"], error: STATEMENT_REVERSED });

export const portalEInvoiceQuerySchema = z.object({ format: z.enum(EINVOICE_FORMATS) }).strict();

const portalInvoice = z.object({
  id,
  number: z.string(),
  status: invoiceStatus,
  total: decimal,
  amountPaid: decimal,
  amountDue: decimal,
  currency: z.string().describe("The amounts' unit: the price currency, else the asset"),
  asset: z.string(),
  issuedAt: timestamp,
  dueDate: timestamp.nullable(),
  payUrl: z.string().describe("The checkout, /pay/<id>"),
  pdfUrl: z.string(),
  receiptUrl: z.string().nullable(),
  eInvoiceUrls: z.array(z.object({ format: z.enum(EINVOICE_FORMATS), url: z.string() })),
});

export const portalOverviewResponse = wire(
  "PortalOverview",
  z.object({
    business: z.string(),
    client: z.object({ name: z.string(), email: z.string(), company: z.string().nullable() }),
    language: z.string(),
    invoices: z.array(portalInvoice),
    quotes: z.array(
      z.object({
        id,
        number: z.string(),
        title: z.string(),
        status: z.enum(QUOTE_STATUSES),
        total: decimal,
        currency: z.string(),
        validUntil: z.iso.date(),
        pageUrl: z.string(),
        pdfUrl: z.string(),
        invoiceId: id.nullable(),
      }),
    ),
    creditNotes: z.array(
      z.object({
        id,
        number: z.string(),
        invoiceNumber: z.string(),
        total: decimal,
        currency: z.string(),
        createdAt: timestamp,
        pdfUrl: z.string(),
      }),
    ),
    payments: z.array(
      z.object({
        id,
        invoiceId: id,
        invoiceNumber: z.string(),
        amount: decimal,
        asset: z.string(),
        method: z.enum(PAYMENT_METHODS),
        status: z.string(),
        transactionHash: z.string().nullable(),
        confirmedAt: timestamp,
        receiptUrl: z.string(),
      }),
    ),
  }),
);

export const portalSessionsResponse = wire(
  "PortalSessions",
  z.object({
    sessions: z.array(
      z.object({
        id,
        via: z.enum(PORTAL_SESSION_VIA),
        createdAt: timestamp,
        lastSeenAt: timestamp.nullable(),
        expiresAt: timestamp,
      }),
    ),
  }),
);

export const portalRevokedResponse = wire(
  "PortalSessionsRevoked",
  z.object({ revoked: z.number().int().describe("Sessions ended") }),
);

export const statementSendRequestSchema = z
  .object({
    from: z.iso.date({ error: STATEMENT_DATE }),
    to: z.iso.date({ error: STATEMENT_DATE }),
  })
  .strict()
  .refine((q) => q.to >= q.from, { path: ["to"], error: STATEMENT_REVERSED });

export const statementSentResponse = wire(
  "StatementSent",
  z.object({ emailId: id, to: z.string().describe("The client's address") }),
);
