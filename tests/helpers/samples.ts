import type { emailMessages } from "@/db/schema";
import { buildStatement, type StatementEntry } from "@/lib/domain/statement";
import type { AnySerializer, Serializer, WireContext } from "@/lib/http/forms";
import type { TickResult } from "@/lib/jobs/watcher";
import { EXAMPLE_APP_URL } from "@/lib/openapi/document";
import { PORTAL_LINK_SENT } from "@/lib/schemas/portal";
import { EXAMPLE_HASH, EXAMPLE_ID, EXAMPLE_WALLET } from "@/lib/schemas/wire";
import {
  apiKeyListSerializer,
  createdApiKeySerializer,
  revokedApiKeySerializer,
} from "@/lib/serializers/api-keys";
import {
  clientDeletedSerializer,
  clientListSerializer,
  clientSerializer,
} from "@/lib/serializers/clients";
import { creditNotePageSerializer, creditNoteSerializer } from "@/lib/serializers/credit-notes";
import {
  cronEmailsSerializer,
  invoiceEmailsSerializer,
  queuedEmailSerializer,
} from "@/lib/serializers/email";
import { eventPageSerializer } from "@/lib/serializers/events";
import {
  cancelledInvoiceSerializer,
  deletedInvoiceSerializer,
  invoicePageSerializer,
  ownerInvoiceSerializer,
  publicInvoiceSerializer,
  sentInvoiceSerializer,
  statsSerializer,
} from "@/lib/serializers/invoices";
import {
  linkListSerializer,
  linkPaymentsSerializer,
  linkSerializer,
  linkStatusSerializer,
} from "@/lib/serializers/links";
import {
  confirmSerializer,
  paymentIntentSerializer,
  paymentStatusSerializer,
  payOptionsSerializer,
  submitPendingSerializer,
  submitResultSerializer,
  verifiedTransactionSerializer,
} from "@/lib/serializers/payments";
import {
  portalLinkSerializer,
  portalOverviewSerializer,
  portalRevokedSerializer,
  portalSessionsSerializer,
  portalWalletSerializer,
  statementSentSerializer,
} from "@/lib/serializers/portal";
import { pricesSerializer } from "@/lib/serializers/prices";
import { profileSerializer } from "@/lib/serializers/profile";
import {
  deletedQuoteSerializer,
  ownerQuoteSerializer,
  publicQuoteSerializer,
  quotePageSerializer,
} from "@/lib/serializers/quotes";
import {
  readinessSerializer,
  trustlineResultSerializer,
  trustlineTransactionSerializer,
} from "@/lib/serializers/readiness";
import {
  cronRecurringSerializer,
  recurringDeletedSerializer,
  recurringDetailSerializer,
  recurringListSerializer,
  recurringSerializer,
} from "@/lib/serializers/recurring";
import { refundIntentSerializer, refundSerializer } from "@/lib/serializers/refunds";
import { statementSerializer } from "@/lib/serializers/statements";
import {
  cronExpireSerializer,
  cronWatcherSerializer,
  cronWebhooksSerializer,
  nonceSerializer,
  priceSerializer,
  sessionSerializer,
  whoAmISerializer,
} from "@/lib/serializers/system";
import {
  booksListSerializer,
  booksSessionSerializer,
  teamListSerializer,
  teamMemberSerializer,
} from "@/lib/serializers/team";
import {
  createdWebhookSerializer,
  deliveryPageSerializer,
  deliverySerializer,
  rotatedSecretSerializer,
  webhookDeletedSerializer,
  webhookListSerializer,
} from "@/lib/serializers/webhooks";
import type { ApiKeyRow } from "@/lib/services/auth/api-keys";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import type { InvoiceStats } from "@/lib/services/invoices/invoice-stats";
import type { InvoicePage } from "@/lib/services/invoices/list-invoices";
import type {
  AuditRow,
  CreditNoteRow,
  InvoiceRow,
  LineItemRow,
  OwnerInvoice,
  PaymentRow,
} from "@/lib/services/invoices/store";
import type { LinkPaymentRecord } from "@/lib/services/links/checkout";
import type { LinkView } from "@/lib/services/links/links";
import type { PaymentIntent } from "@/lib/services/payments/pay-intent";
import type { QuoteRow } from "@/lib/services/payments/quotes";
import { describeProblem } from "@/lib/services/payments/recipient-readiness";
import type { RecordOutcome } from "@/lib/services/payments/record-payment";
import type { VerifiedTransaction } from "@/lib/services/payments/verify-tx";
import type { PortalOverview } from "@/lib/services/portal/view";
import type { ProfileView } from "@/lib/services/profile/profile";
import type { OwnerQuote } from "@/lib/services/quotes/store";
import type { RecurringView } from "@/lib/services/recurring/schedules";
import type { RefundIntent } from "@/lib/services/refunds/create-refund";
import type { RefundRow } from "@/lib/services/refunds/store";
import type { TeamMemberView } from "@/lib/services/team/team";
import { buildTrustlineTransaction } from "@/lib/stellar/trustline";
import type { DeliveryView } from "@/lib/webhooks/deliveries";
import type { CreatedSubscription } from "@/lib/webhooks/subscriptions";

/**
 * Sample service results for tests/openapi.test.ts: the real serializers turn them into the
 * document's examples (lib/openapi/examples.json) and are checked against the schemas.
 */

const TESTNET = "Test SDF Network ; September 2015";

export const T0 = new Date("2026-01-15T10:30:00.000Z");
export const T1 = new Date("2026-01-15T10:42:10.000Z");
const FREELANCER = EXAMPLE_WALLET;
export const PAYER = "GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB";
const USDC_TESTNET = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";
const SAMPLE_TRUSTED_USDC = { code: "USDC" as const, issuer: USDC_TESTNET };

/** An outbox row (email_messages): the invoice email, accepted by the SMTP server. */
export const SAMPLE_EMAIL: typeof emailMessages.$inferSelect = {
  id: "clx8f2k9p0000email0000001",
  wallet: FREELANCER,
  invoiceId: "clx8f2k9p0000abcd1234efgh",
  kind: "invoice",
  dedupeKey: "invoice:clx8f2k9p0000abcd1234efgh:sent",
  to: "ada@example.com",
  subject: "Invoice INV-0001 from Sam Freelancer: 1,001.00 XLM",
  payload: {},
  status: "sent",
  attempts: 1,
  nextAttemptAt: new Date(T0.getTime() + 120_000),
  lastAttemptAt: T0,
  lastError: null,
  messageId: "<0f3c2a1b-5d6e-4f70-8a9b-0c1d2e3f4a5b@invoices.example.com>",
  sentAt: T0,
  createdAt: T0,
};
const SAMPLE_EMAIL_FAILED = {
  id: "clx8f2k9p0000email0000002",
  kind: "reminder",
  dedupeKey: "reminder:clx8f2k9p0000abcd1234efgh:0",
  subject: "Reminder: invoice INV-0001 is due today",
  status: "failed",
  lastError: "Can't send mail - all recipients were rejected: 550 No such user here",
  messageId: null,
  sentAt: null,
} as const;

export const SAMPLE_INVOICE: InvoiceRow = {
  id: EXAMPLE_ID,
  kind: "INVOICE",
  invoiceNumber: "INV-0001",
  status: "PENDING",
  freelancerWallet: FREELANCER,
  freelancerName: "Grace Freelancer",
  freelancerEmail: "grace@example.com",
  freelancerCompany: null,
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  clientCompany: "Analytical Engines Ltd",
  clientAddress: null,
  clientWallet: null,
  clientTaxId: null,
  clientTaxScheme: null,
  clientPostalAddress: null,
  clientIsBusiness: null,
  taxBreakdown: null,
  title: "Website",
  description: "Landing page and blog",
  notes: null,
  paymentTerms: null,
  language: "en",
  buyerReference: null,
  supplyDate: null,
  periodStart: null,
  periodEnd: null,
  taxCurrency: null,
  taxExchangeRate: null,
  taxRateSource: null,
  taxRateAt: null,
  subtotal: "1000.0000000",
  taxRate: "10.00",
  taxAmount: "100.0000000",
  discount: "50.0000000",
  total: "1050.0000000",
  amountPaid: "0",
  amountCredited: "0",
  paymentTolerance: "0.00",
  currency: "USDC",
  priceCurrency: null,
  quoteTtlMinutes: 15,
  networkPassphrase: TESTNET,
  muxedId: "4611686018427387904",
  dueDate: new Date("2026-12-31T00:00:00.000Z"),
  sentAt: T0,
  paidAt: null,
  cancelledAt: null,
  expiredAt: null,
  transactionHash: null,
  ledgerNumber: null,
  payerWallet: null,
  linkReference: null,
  linkExpiresAt: null,
  activateNewAccounts: false,
  linkReusable: false,
  linkMaxPayments: null,
  linkOpenAmount: false,
  linkMinAmount: null,
  parentLinkId: null,
  linkHeldUntil: null,
  linkDeactivatedAt: null,
  emailClient: true,
  reminders: null,
  remindersStoppedAt: null,
  recurringId: null,
  recurringPeriod: null,
  quoteId: null,
  searchText: null,
  createdAt: T0,
  updatedAt: T0,
  deletedAt: null,
};

export const SAMPLE_PAID_INVOICE: InvoiceRow = {
  ...SAMPLE_INVOICE,
  status: "PAID",
  paidAt: T1,
  transactionHash: EXAMPLE_HASH,
  ledgerNumber: 1234567,
  payerWallet: PAYER,
  clientWallet: PAYER,
  amountPaid: "1050.0000000",
  amountCredited: "0",
  updatedAt: T1,
};

/** Paid in part: 400 of 1050 received, 650 due. */
export const SAMPLE_PARTLY_PAID_INVOICE: InvoiceRow = {
  ...SAMPLE_INVOICE,
  status: "PROCESSING",
  amountPaid: "400.0000000",
  amountCredited: "0",
  updatedAt: T1,
};

export const SAMPLE_LINE_ITEM: LineItemRow = {
  id: "clx8f2k9p0001abcd1234efgh",
  invoiceId: EXAMPLE_ID,
  position: 0,
  description: "Build",
  quantity: "1.00",
  rate: "1000.0000000",
  amount: "1000.0000000",
  taxRate: null,
  taxCategory: null,
  exemptionReason: null,
  exemptionReasonCode: null,
};

export const SAMPLE_PAYMENT: PaymentRow = {
  id: "clx8f2k9p0002abcd1234efgh",
  invoiceId: EXAMPLE_ID,
  transactionHash: EXAMPLE_HASH,
  innerTransactionHash: null,
  operationId: "5302428631896065",
  ledgerNumber: 1234567,
  fromWallet: PAYER,
  fromAddress: null,
  toWallet: FREELANCER,
  amount: "1050.0000000",
  operationIndex: 0,
  asset: "USDC",
  assetIssuer: USDC_TESTNET,
  applied: true,
  unappliedReason: null,
  amountRefunded: "0",
  status: "CONFIRMED",
  confirmedAt: T1,
  fiatCurrency: "USD",
  fiatValue: "1050.00",
  rate: "1",
  rateSource: "fixed",
  rateAt: T1,
  priceValue: null,
  priceRate: null,
  quoteId: null,
  paidLate: false,
  method: "stellar",
  reference: null,
  recordedBy: null,
  recordedAt: null,
  voidedAt: null,
  voidedBy: null,
};

/** A look-alike USDC from another issuer: recorded, never applied. */
export const SAMPLE_UNAPPLIED_PAYMENT: PaymentRow = {
  ...SAMPLE_PAYMENT,
  id: "clx8f2k9p0010abcd1234efgh",
  transactionHash: "7a1c0e5b9d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c",
  ledgerNumber: 1234570,
  amount: "25.0000000",
  assetIssuer: "GCNY5OXYSY4FKHOPT2SPOQZAOEIGXB5LBYW3HVU3OWSTQITS65M5RCNY",
  applied: false,
  unappliedReason: "wrong_asset",
};

/** The 50 overpaid on SAMPLE_PAYMENT (1050 on a 1000 total), sent back to the payer. */
export const SAMPLE_REFUND: RefundRow = {
  id: "clx8f2k9p0020abcd1234efg",
  paymentId: SAMPLE_PAYMENT.id,
  invoiceId: EXAMPLE_ID,
  wallet: FREELANCER,
  amount: "50.0000000",
  asset: "USDC",
  assetIssuer: USDC_TESTNET,
  destination: PAYER,
  memo: "RF-clx8f2k9p0020abcd1234efg",
  status: "CONFIRMED",
  transactionXdr: "AAAAAgAAAACKc4j...",
  transactionHash: "5b2d8e1f3a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b",
  ledgerNumber: 1234590,
  createdAt: T1,
  expiresAt: new Date(T1.getTime() + 300_000),
  confirmedAt: new Date(T1.getTime() + 6_000),
};

export const SAMPLE_REFUND_INTENT: RefundIntent = {
  refund: {
    ...SAMPLE_REFUND,
    status: "PENDING",
    transactionHash: null,
    ledgerNumber: null,
    confirmedAt: null,
  },
  sep7Uri: `web+stellar:pay?destination=${PAYER}&amount=50&asset_code=USDC&asset_issuer=${USDC_TESTNET}&memo=RF-clx8f2k9p0020abcd1234efg&memo_type=MEMO_TEXT&network_passphrase=Test%20SDF%20Network%20%3B%20September%202015`,
  asset: { code: "USDC", issuer: USDC_TESTNET },
  networkPassphrase: "Test SDF Network ; September 2015",
};

export const SAMPLE_AUDIT: AuditRow[] = [
  {
    id: "clx8f2k9p0003abcd1234efgh",
    invoiceId: EXAMPLE_ID,
    action: "CREATED",
    actorWallet: FREELANCER,
    changes: { status: { from: null, to: "DRAFT" } },
    createdAt: T0,
    freelancerWallet: FREELANCER,
  },
  {
    id: "clx8f2k9p0004abcd1234efgh",
    invoiceId: EXAMPLE_ID,
    action: "SENT",
    actorWallet: FREELANCER,
    changes: { status: { from: "DRAFT", to: "PENDING" } },
    createdAt: T0,
    freelancerWallet: FREELANCER,
  },
];

export const SAMPLE_LINK: LinkView = {
  ...SAMPLE_INVOICE,
  id: "clx8f2k9p0005abcd1234efgh",
  kind: "LINK",
  invoiceNumber: "INV-0042",
  clientName: "Payment link",
  clientEmail: "",
  clientCompany: null,
  title: "Coffee beans",
  description: null,
  subtotal: "25.5000000",
  taxRate: "0.00",
  taxAmount: "0.0000000",
  discount: "0.0000000",
  total: "25.5000000",
  dueDate: null,
  linkReference: "order-42",
  linkExpiresAt: new Date("2099-01-16T10:30:00.000Z"),
  paymentsCount: 0,
  amountReceived: "0.0000000",
};

/** A paid checkout of a reusable open-amount link (GET /api/links/{id}/payments). */
export const SAMPLE_LINK_PAYMENT: LinkPaymentRecord = {
  ...SAMPLE_LINK,
  id: "clx8f2k9p0006abcd1234efgh",
  invoiceNumber: "INV-0042-1",
  parentLinkId: "clx8f2k9p0005abcd1234efgh",
  status: "PAID",
  subtotal: "40.0000000",
  total: "40.0000000",
  amountPaid: "40.0000000",
  amountCredited: "0",
  payerWallet: PAYER,
  transactionHash: EXAMPLE_HASH,
  ledgerNumber: 123456,
  paidAt: T1,
  createdAt: T0,
  received: [
    {
      ...SAMPLE_PAYMENT,
      id: "clx8f2k9p0011abcd1234efgh",
      invoiceId: "clx8f2k9p0006abcd1234efgh",
      amount: "40.0000000",
      asset: "XLM",
      assetIssuer: null,
    },
  ],
};

export const SAMPLE_CLIENT: ClientRow = {
  id: "clx8f2k9p0006abcd1234efgh",
  freelancerWallet: FREELANCER,
  name: "Ada Client",
  email: "ada@example.com",
  company: "Analytical Engines Ltd",
  address: null,
  taxId: null,
  taxScheme: null,
  postalAddress: null,
  isBusiness: null,
  language: null,
  buyerReference: null,
  isFavorite: true,
  createdAt: T0,
  updatedAt: T0,
};

export const SAMPLE_PROFILE: ProfileView = {
  wallet: FREELANCER,
  displayName: "Ada Lovelace",
  company: "Analytical Engines Ltd",
  email: "ada@example.com",
  phone: null,
  address: "12 St James's Square, London",
  taxId: "GB123456789",
  taxScheme: null,
  taxCountry: null,
  postalAddress: null,
  logoType: "image/png",
  logoUpdatedAt: T0,
  reportingCurrency: "EUR",
  paymentTermsDays: 14,
  defaultReminders: [-3, 0, 7],
  defaultPaymentTolerance: "0.50",
  emailFooter: "Thank you for your business.",
  defaultLanguage: null,
  updatedAt: T0,
};

export const ZERO_BY_ASSET = { XLM: "0.0000000", USDC: "0.0000000", EURC: "0.0000000" };
export const SAMPLE_STATS: InvoiceStats = {
  totalInvoices: 3,
  paidInvoices: 1,
  pendingInvoices: 1,
  totalRevenue: { ...ZERO_BY_ASSET, USDC: "1050.0000000" },
  revenueThisMonth: { ...ZERO_BY_ASSET, USDC: "1050.0000000" },
  avgInvoiceValue: { ...ZERO_BY_ASSET, USDC: "1050.0000000" },
  pendingAmount: { ...ZERO_BY_ASSET, XLM: "250.0000000" },
  byPriceCurrency: {
    USD: {
      totalRevenue: "0.00",
      revenueThisMonth: "0.00",
      avgInvoiceValue: "0.00",
      pendingAmount: "0.00",
    },
    EUR: {
      totalRevenue: "200.00",
      revenueThisMonth: "200.00",
      avgInvoiceValue: "200.00",
      pendingAmount: "0.00",
    },
  },
  statusBreakdown: {
    DRAFT: 1,
    PENDING: 1,
    PROCESSING: 0,
    PAID: 1,
    FAILED: 0,
    EXPIRED: 0,
    CANCELLED: 0,
  },
  recentActivity: [
    {
      invoiceId: EXAMPLE_ID,
      invoiceNumber: "INV-0001",
      action: "PAID",
      amount: "1050.0000000",
      currency: "USDC",
      priceCurrency: null,
      timestamp: T1,
    },
  ],
  revenueByMonth: [{ month: "2026-01", revenue: { ...ZERO_BY_ASSET, USDC: "1050.0000000" } }],
  revenue: { currency: "USD", amount: "1050.00", unpriced: 0 },
  linkRevenue: {
    payments: 2,
    totalRevenue: { ...ZERO_BY_ASSET, XLM: "35.0000000", USDC: "21.6000000" },
    revenueThisMonth: { ...ZERO_BY_ASSET, XLM: "35.0000000" },
    byPriceCurrency: {
      USD: { totalRevenue: "0.00", revenueThisMonth: "0.00" },
      EUR: { totalRevenue: "20.00", revenueThisMonth: "0.00" },
    },
  },
};

export const SAMPLE_INTENT: PaymentIntent = {
  invoiceId: EXAMPLE_ID,
  transactionXdr: "AAAAAgAAAACKc4j...",
  sep7Uri: `web+stellar:pay?destination=${FREELANCER}&amount=1050&asset_code=USDC&asset_issuer=${USDC_TESTNET}&memo=INV-0001&memo_type=MEMO_TEXT&network_passphrase=${encodeURIComponent(TESTNET)}`,
  amount: "1050",
  asset: { code: "USDC", issuer: USDC_TESTNET },
  memo: "INV-0001",
  networkPassphrase: TESTNET,
  timeout: 300,
  destination: FREELANCER,
  muxedAddress: "MBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OQAAAAAAAAAAACQWK",
  status: "PROCESSING",
  quote: null,
  // Paid with XLM (sendAsset "XLM"): 1050 USDC at 0.1 USDC per XLM, plus 1 % (PATH_SLIPPAGE_BPS).
  pathPayment: {
    sendAsset: { code: "XLM", issuer: null },
    sourceAmount: "10500.0000000",
    sendMax: "10605.0000000",
    path: [],
  },
  contractPayment: null,
};

/** A EUR invoice's quote: 100.00 EUR due, paid in XLM at 0.1157 EUR. */
export const SAMPLE_QUOTE: QuoteRow = {
  id: "clx8f2k9p0006abcd1234qrst",
  invoiceId: EXAMPLE_ID,
  priceCurrency: "EUR",
  asset: "XLM",
  rate: "0.115700000000",
  assetAmount: "864.3042351",
  fiatAmount: "100.00",
  source: "api.coingecko.com",
  rateAt: T0,
  createdAt: T0,
  expiresAt: new Date(T0.getTime() + 15 * 60_000),
};

export const SAMPLE_VERIFIED: VerifiedTransaction = {
  hash: EXAMPLE_HASH,
  successful: true,
  memoType: "text",
  memo: "INV-0001",
  createdAt: T1,
  ledger: 1234567,
  sourceAccount: PAYER,
  operations: [
    {
      type: "payment",
      from: PAYER,
      to: FREELANCER,
      assetCode: "USDC",
      assetIssuer: USDC_TESTNET,
      amount: "1050.0000000",
    },
  ],
  network: "testnet",
  networkPassphrase: TESTNET,
};

export const SAMPLE_WEBHOOK: CreatedSubscription = {
  id: "clx8f2k9p0007abcd1234efgh",
  wallet: FREELANCER,
  url: "https://example.com/hooks/stellar",
  events: ["invoice.paid", "invoice.expired"],
  network: null,
  secret: "whsec_5b0f9c1e2d3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e",
  previousSecret: null,
  previousSecretExpiresAt: null,
  createdAt: T0,
  disabledAt: null,
  failingSince: null,
  deletedAt: null,
};

export const SAMPLE_DELIVERY: DeliveryView = {
  id: "clx8f2k9p0008abcd1234efgh",
  subscriptionId: SAMPLE_WEBHOOK.id,
  eventId: "evt_clx8f2k9p0009abcd1234efgh",
  eventSeq: 42n,
  invoiceId: EXAMPLE_ID,
  status: "delivered",
  attempts: 1,
  nextAttemptAt: T1,
  lastAttemptAt: T1,
  lastStatusCode: 200,
  lastError: null,
  deliveredAt: T1,
  createdAt: T1,
  eventType: "invoice.paid",
};

/** A quote the client accepted, made into an invoice (docs/decisions.md, Quotes). */
export const SAMPLE_SALES_QUOTE: OwnerQuote = {
  id: "ckquote00000000000000001",
  wallet: FREELANCER,
  number: "QT-0001",
  status: "CONVERTED",
  body: {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    title: "Website redesign",
    notes: "Thanks!",
    currency: "USDC",
    networkPassphrase: "Test SDF Network ; September 2015",
    language: "en",
    freelancerName: "Sam Freelancer",
    lineItems: [{ description: "Design", quantity: "3", rate: "400", taxRate: "19" }],
  },
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  title: "Website redesign",
  language: "en",
  currency: "USDC",
  priceCurrency: null,
  networkPassphrase: "Test SDF Network ; September 2015",
  lineItems: [
    {
      id: "ckquoteline0000000000001",
      description: "Design",
      quantity: "3.00",
      rate: "400.0000000",
      amount: "1200.0000000",
      taxRate: "19.00",
      taxCategory: null,
      exemptionReason: null,
      exemptionReasonCode: null,
    },
  ],
  subtotal: "1200.0000000",
  taxRate: "0.00",
  taxAmount: "228.0000000",
  discount: "0.0000000",
  total: "1428.0000000",
  taxBreakdown: [
    {
      category: "S",
      rate: "19.00",
      taxableAmount: "1200.0000000",
      taxAmount: "228.0000000",
      exemptionReason: null,
      exemptionReasonCode: null,
    },
  ],
  validUntil: "2026-02-14",
  onAccept: "draft",
  sentAt: T0,
  acceptedAt: T1,
  acceptedName: "Ada Client",
  acceptedIp: "203.0.113.7",
  declinedAt: null,
  declineReason: null,
  expiredAt: null,
  invoiceId: EXAMPLE_ID,
  searchText: null,
  createdAt: T0,
  updatedAt: T1,
  deletedAt: null,
  auditLogs: [
    {
      id: "ckquoteaudit000000000001",
      seq: 4n,
      quoteId: "ckquote00000000000000001",
      action: "ACCEPTED",
      actorWallet: "CLIENT",
      changes: { status: { from: "SENT", to: "ACCEPTED" }, acceptedName: "Ada Client" },
      createdAt: T1,
    },
  ],
};

/** A credit note of one line of the partly paid invoice (docs/decisions.md, Credit notes). */
export const SAMPLE_CREDIT_NOTE: CreditNoteRow & { invoiceNumber: string } = {
  id: "ckcredit0000000000000001",
  wallet: SAMPLE_PARTLY_PAID_INVOICE.freelancerWallet,
  number: "CN-0001",
  invoiceId: SAMPLE_PARTLY_PAID_INVOICE.id,
  invoiceNumber: SAMPLE_PARTLY_PAID_INVOICE.invoiceNumber,
  kind: "LINES",
  reason: "One day not worked",
  lines: [
    {
      lineItemId: SAMPLE_LINE_ITEM.id,
      description: SAMPLE_LINE_ITEM.description,
      quantity: "1.00",
      rate: "100.0000000",
      amount: "100.0000000",
      taxRate: null,
      taxCategory: null,
    },
  ],
  subtotal: "100.0000000",
  discount: "0.0000000",
  taxBreakdown: [
    {
      category: "S",
      rate: "10.00",
      taxableAmount: "100.0000000",
      taxAmount: "10.0000000",
      exemptionReason: null,
      exemptionReasonCode: null,
    },
  ],
  taxAmount: "10.0000000",
  total: "110.0000000",
  unit: SAMPLE_PARTLY_PAID_INVOICE.currency,
  taxCurrency: null,
  taxExchangeRate: null,
  taxAmountInTaxCurrency: null,
  taxBreakdownInTaxCurrency: null,
  refundId: null,
  searchText: null,
  createdAt: new Date("2026-01-20T09:00:00.000Z"),
};

export const SAMPLE_OWNER_INVOICE: OwnerInvoice = {
  ...SAMPLE_PARTLY_PAID_INVOICE,
  lineItems: [SAMPLE_LINE_ITEM],
  payments: [{ ...SAMPLE_PAYMENT, amount: "400.0000000" }, SAMPLE_UNAPPLIED_PAYMENT],
  auditLogs: SAMPLE_AUDIT,
  creditNotes: [],
};
export const SAMPLE_PAGE: InvoicePage = {
  invoices: [SAMPLE_INVOICE, SAMPLE_PARTLY_PAID_INVOICE],
  total: 2,
  totalExact: true,
  limit: 50,
  offset: 0,
  hasMore: false,
};
export const SAMPLE_RECORDED: RecordOutcome = {
  kind: "recorded",
  invoice: SAMPLE_PAID_INVOICE,
  payment: SAMPLE_PAYMENT,
};
export const SAMPLE_TICK: TickResult = {
  network: "testnet",
  horizonRequests: 1,
  records: 2,
  matched: 1,
  more: false,
  cursor: "5234567890123456-1",
};

/** The clock and URL the examples are serialized with (link status depends on the clock). */
export const SAMPLE_TEAM_MEMBER: TeamMemberView = {
  id: EXAMPLE_ID,
  ownerWallet: FREELANCER,
  memberWallet: PAYER,
  role: "accountant",
  state: "active",
  invitedAt: T1,
  expiresAt: new Date(T1.getTime() + 7 * 86_400_000),
  acceptedAt: T1,
  revokedAt: null,
  invitedBy: FREELANCER,
};

export const SAMPLE_API_KEY: ApiKeyRow = {
  id: "clx8f2k9p0005abcd1234mnop",
  walletAddress: FREELANCER,
  name: "Accounting sync",
  prefix: "sk_test_Q3x9Lm2a",
  secretHash: "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
  scopes: ["invoices:read"],
  network: "testnet",
  createdAt: T0,
  lastUsedAt: T1,
  revokedAt: null,
};

/** A monthly retainer from Jan 31 2026 that has made its first invoice. */
export const SAMPLE_RECURRING: RecurringView = {
  id: "clx8f2k9p0040abcd1234efgh",
  wallet: FREELANCER,
  networkPassphrase: "Test SDF Network ; September 2015",
  template: {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    title: "Monthly retainer",
    currency: "USDC",
    lineItems: [{ description: "Retainer", quantity: "1", rate: "1500" }],
  },
  interval: "month",
  intervalCount: 1,
  startDate: new Date("2026-01-31T00:00:00.000Z"),
  endDate: null,
  count: 12,
  dueInDays: 14,
  autoSend: true,
  nextPeriod: 1,
  nextRunAt: new Date("2026-02-28T00:00:00.000Z"),
  pausedAt: null,
  refusalReason: null,
  refusedPeriod: null,
  refusedAt: null,
  createdAt: T0,
  updatedAt: T1,
  deletedAt: null,
  invoicesCreated: 1,
};

export const EXAMPLE_CONTEXT: WireContext = { appUrl: EXAMPLE_APP_URL, now: T1 };

type Example = { serializer: AnySerializer; value: unknown };
const sample = <T>(serializer: Serializer<T>, value: T): Example => ({ serializer, value });

/** One sample value per response shape, for the document's examples. */
export const SAMPLES: Example[] = [
  sample(nonceSerializer, {
    nonce: "9f86d081884c7d659a2feaa0c55ad015",
    message: `Stellar Invoicing Authentication\nWallet: ${FREELANCER}\nNonce: 9f86d081884c7d659a2feaa0c55ad015\nTimestamp: 2026-01-15T10:30:00.000Z\nURI: ${EXAMPLE_APP_URL}`,
    expiresIn: 300,
  }),
  sample(sessionSerializer, {
    token: "eyJhbGciOiJIUzI1NiJ9.eyJ3YWxsZXRBZGRyZXNzIjoiR0JSUC4uLiJ9.c2lnbmF0dXJl",
    expiresAt: "2026-01-15T11:30:00.000Z",
    walletAddress: FREELANCER,
  }),
  sample(whoAmISerializer, { walletAddress: FREELANCER }),
  sample(createdApiKeySerializer, {
    key: SAMPLE_API_KEY,
    secret: "sk_test_Q3x9Lm2aR7vT0pWc5nYb8dKf1hJs4gUe6iOq2zXaBcD",
  }),
  sample(apiKeyListSerializer, [SAMPLE_API_KEY]),
  sample(revokedApiKeySerializer, { ...SAMPLE_API_KEY, revokedAt: T1 }),
  sample(teamMemberSerializer, SAMPLE_TEAM_MEMBER),
  sample(teamListSerializer, [SAMPLE_TEAM_MEMBER]),
  sample(booksListSerializer, [
    {
      owner: FREELANCER,
      businessName: "Ada Studio",
      role: "accountant",
      state: "active",
      expiresAt: SAMPLE_TEAM_MEMBER.expiresAt,
    },
  ]),
  sample(booksSessionSerializer, {
    token:
      "eyJhbGciOiJIUzI1NiJ9.eyJ3YWxsZXRBZGRyZXNzIjoiR0NGWC4uLiIsImJvb2tzIjoiR0JSUC4uLiJ9.c2lnbmF0dXJl",
    expiresAt: "2026-01-15T11:30:00.000Z",
    walletAddress: PAYER,
    books: FREELANCER,
    role: "accountant",
  }),
  sample(ownerInvoiceSerializer, SAMPLE_OWNER_INVOICE),
  sample(publicInvoiceSerializer, {
    ...SAMPLE_PARTLY_PAID_INVOICE,
    lineItems: [SAMPLE_LINE_ITEM],
    payments: [{ ...SAMPLE_PAYMENT, amount: "400.0000000" }, SAMPLE_UNAPPLIED_PAYMENT],
  }),
  sample(invoicePageSerializer, SAMPLE_PAGE),
  sample(sentInvoiceSerializer, SAMPLE_INVOICE),
  sample(cancelledInvoiceSerializer, {
    ...SAMPLE_INVOICE,
    status: "CANCELLED",
    cancelledAt: T1,
    updatedAt: T1,
  }),
  sample(deletedInvoiceSerializer, { id: EXAMPLE_ID }),
  sample(statsSerializer, SAMPLE_STATS),
  sample(clientSerializer, SAMPLE_CLIENT),
  sample(clientListSerializer, [SAMPLE_CLIENT]),
  sample(clientDeletedSerializer, { id: SAMPLE_CLIENT.id }),
  sample(statementSerializer, SAMPLE_STATEMENT()),
  sample(portalOverviewSerializer, SAMPLE_PORTAL()),
  sample(portalSessionsSerializer, [
    {
      id: EXAMPLE_ID,
      via: "email",
      createdAt: T0,
      lastSeenAt: T1,
      expiresAt: new Date(T0.getTime() + 7 * 86_400_000),
    },
  ]),
  sample(portalRevokedSerializer, { revoked: 1 }),
  sample(portalLinkSerializer, { message: PORTAL_LINK_SENT }),
  sample(portalWalletSerializer, {
    status: "choose",
    pickToken: `${EXAMPLE_WALLET}.1768473600000.mac`,
    choices: [
      { ownerWallet: EXAMPLE_WALLET, clientEmail: SAMPLE_CLIENT.email, business: "Ada Studio" },
    ],
  }),
  sample(statementSentSerializer, { emailId: EXAMPLE_ID, to: SAMPLE_CLIENT.email }),
  sample(profileSerializer, SAMPLE_PROFILE),
  sample(linkSerializer, SAMPLE_LINK),
  sample(linkListSerializer, [SAMPLE_LINK]),
  sample(linkStatusSerializer, SAMPLE_LINK),
  sample(linkPaymentsSerializer, {
    linkId: SAMPLE_LINK.id,
    link: SAMPLE_LINK,
    payments: [SAMPLE_LINK_PAYMENT],
  }),
  sample(paymentIntentSerializer, SAMPLE_INTENT),
  sample(payOptionsSerializer, {
    invoiceId: EXAMPLE_ID,
    amount: SAMPLE_INTENT.amount,
    asset: SAMPLE_INTENT.asset,
    options: [
      {
        sendAsset: SAMPLE_INTENT.asset,
        sourceAmount: "1050.0000000",
        sendMax: "1050.0000000",
        path: [],
      },
      ...(SAMPLE_INTENT.pathPayment ? [SAMPLE_INTENT.pathPayment] : []),
    ],
  }),
  sample(submitResultSerializer, SAMPLE_RECORDED),
  sample(submitPendingSerializer, { hash: EXAMPLE_HASH }),
  sample(confirmSerializer, SAMPLE_RECORDED),
  sample(paymentStatusSerializer, {
    ...SAMPLE_PAID_INVOICE,
    payments: [SAMPLE_PAYMENT, SAMPLE_UNAPPLIED_PAYMENT],
    quote: null,
  }),
  sample(verifiedTransactionSerializer, SAMPLE_VERIFIED),
  sample(refundIntentSerializer, SAMPLE_REFUND_INTENT),
  sample(refundSerializer, SAMPLE_REFUND),
  sample(creditNoteSerializer, SAMPLE_CREDIT_NOTE),
  sample(ownerQuoteSerializer, SAMPLE_SALES_QUOTE),
  sample(publicQuoteSerializer, SAMPLE_SALES_QUOTE),
  sample(quotePageSerializer, {
    quotes: [SAMPLE_SALES_QUOTE],
    total: 1,
    totalExact: true,
    limit: 50,
    offset: 0,
    hasMore: false,
  }),
  sample(deletedQuoteSerializer, { id: SAMPLE_SALES_QUOTE.id }),
  sample(creditNotePageSerializer, {
    creditNotes: [SAMPLE_CREDIT_NOTE],
    total: 1,
    totalExact: true,
    limit: 50,
    offset: 0,
    hasMore: false,
  }),
  sample(readinessSerializer, {
    status: "not_ready",
    problem: "no_trustline",
    wallet: FREELANCER,
    network: "testnet",
    asset: SAMPLE_TRUSTED_USDC,
    ...describeProblem(
      { problem: "no_trustline" },
      FREELANCER,
      "testnet",
      SAMPLE_TRUSTED_USDC,
      "1050",
    ),
    canAddTrustline: true,
  }),
  sample(trustlineTransactionSerializer, {
    transactionXdr: buildTrustlineTransaction({
      source: { id: FREELANCER, sequence: "4294967296" },
      asset: SAMPLE_TRUSTED_USDC,
      networkPassphrase: TESTNET,
      baseFee: 100,
      now: T0,
    }).xdr,
    networkPassphrase: TESTNET,
    asset: SAMPLE_TRUSTED_USDC,
    wallet: FREELANCER,
  }),
  sample(trustlineResultSerializer, {
    transactionHash: EXAMPLE_HASH,
    ledger: 1234567,
    networkPassphrase: TESTNET,
    assets: [SAMPLE_TRUSTED_USDC],
  }),
  sample(createdWebhookSerializer, SAMPLE_WEBHOOK),
  sample(webhookListSerializer, [SAMPLE_WEBHOOK]),
  sample(webhookDeletedSerializer, { id: SAMPLE_WEBHOOK.id }),
  sample(rotatedSecretSerializer, {
    id: SAMPLE_WEBHOOK.id,
    secret: "whsec_9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877665544",
    previousSecretExpiresAt: new Date(T0.getTime() + 24 * 3600_000),
  }),
  sample(deliverySerializer, { ...SAMPLE_DELIVERY, status: "pending", deliveredAt: null }),
  sample(deliveryPageSerializer, {
    deliveries: [SAMPLE_DELIVERY],
    total: 1,
    limit: 50,
    offset: 0,
    hasMore: false,
  }),
  sample(cronWebhooksSerializer, {
    fannedOut: 2,
    attempted: 2,
    delivered: 2,
    retrying: 0,
    failed: 0,
    more: false,
  }),
  sample(priceSerializer, { usd: "0.1234", cached: true, stale: false }),
  sample(pricesSerializer, [
    {
      base: "XLM",
      quote: "USD",
      rate: "0.1234",
      source: "api.coingecko.com",
      at: T0,
      cached: true,
      stale: false,
    },
    {
      base: "EURC",
      quote: "USD",
      rate: "1.0812",
      source: "api.coingecko.com",
      at: T0,
      cached: true,
      stale: false,
    },
    { base: "USDC", quote: "USD", rate: "1", source: "fixed", at: T0, cached: false, stale: false },
  ]),
  sample(cronExpireSerializer, { expired: 2 }),
  sample(cronRecurringSerializer, {
    created: 2,
    sent: 2,
    unsent: 0,
    failed: 0,
    deferred: 0,
    more: false,
  }),
  sample(recurringSerializer, SAMPLE_RECURRING),
  sample(recurringListSerializer, [SAMPLE_RECURRING]),
  sample(recurringDetailSerializer, {
    ...SAMPLE_RECURRING,
    invoices: [
      {
        ...SAMPLE_INVOICE,
        recurringId: SAMPLE_RECURRING.id,
        recurringPeriod: 0,
        dueDate: new Date("2026-02-14T00:00:00.000Z"),
      },
    ],
  }),
  sample(recurringDeletedSerializer, { id: SAMPLE_RECURRING.id }),
  sample(cronEmailsSerializer, {
    attempted: 3,
    sent: 2,
    retrying: 1,
    failed: 0,
    skipped: 0,
    more: false,
  }),
  sample(invoiceEmailsSerializer, {
    configured: true,
    emails: [SAMPLE_EMAIL, { ...SAMPLE_EMAIL, ...SAMPLE_EMAIL_FAILED }],
  }),
  sample(queuedEmailSerializer, {
    configured: true,
    email: {
      ...SAMPLE_EMAIL,
      status: "pending",
      attempts: 0,
      sentAt: null,
      messageId: null,
      lastAttemptAt: null,
    },
  }),
  sample(cronWatcherSerializer, {
    results: [
      SAMPLE_TICK,
      {
        ...SAMPLE_TICK,
        network: "mainnet",
        skipped: "idle",
        horizonRequests: 0,
        records: 0,
        matched: 0,
        cursor: null,
      },
    ],
  }),
  sample(eventPageSerializer, {
    events: [
      {
        id: "evt_clx8f2k9p0009abcd1234efgh",
        type: "invoice.paid",
        invoiceId: EXAMPLE_ID,
        data: {
          id: EXAMPLE_ID,
          invoiceNumber: SAMPLE_PAID_INVOICE.invoiceNumber,
          status: "PAID",
          previousStatus: "PENDING",
          total: SAMPLE_PAID_INVOICE.total,
          currency: SAMPLE_PAID_INVOICE.currency,
          transactionHash: EXAMPLE_HASH,
          ledgerNumber: 1234567,
          payerWallet: PAYER,
          paidAt: T1.toISOString(),
        },
        createdAt: T1,
      },
      {
        id: "evt_clx8f2k9p0008abcd1234efgh",
        type: "invoice.sent",
        invoiceId: EXAMPLE_ID,
        data: {
          id: EXAMPLE_ID,
          invoiceNumber: SAMPLE_PAID_INVOICE.invoiceNumber,
          status: "PENDING",
          previousStatus: "DRAFT",
          sentAt: T0.toISOString(),
        },
        createdAt: T0,
      },
    ],
    limit: 2,
    hasMore: true,
  }),
];

/**
 * The examples of lib/openapi/examples.json: each shape's Form B payload, and its Form A
 * payload when that differs.
 */
/** A client's statement for January 2026: an invoice before it, a payment, an overpayment refunded. */
function SAMPLE_STATEMENT() {
  const entry = (kind: StatementEntry["kind"], at: string, amount: string, reference: string) => ({
    kind,
    at: new Date(at),
    currency: "USDC",
    amount,
    reference,
    invoiceId: EXAMPLE_ID,
    invoiceNumber: "INV-0001",
  });
  const entries: StatementEntry[] = [
    entry("invoice", "2025-12-20T10:00:00.000Z", "1050.0000000", "INV-0001"),
    entry("payment", "2026-01-05T10:00:00.000Z", "1000.0000000", "clpay0000000000000000001"),
    entry("payment", "2026-01-12T10:00:00.000Z", "100.0000000", "clpay0000000000000000002"),
    entry("refund", "2026-01-13T10:00:00.000Z", "50.0000000", "clref0000000000000000001"),
  ];
  return {
    client: SAMPLE_CLIENT,
    from: "2026-01-01",
    to: "2026-01-31",
    currencies: buildStatement(
      entries,
      new Date("2026-01-01T00:00:00Z"),
      new Date("2026-02-01T00:00:00Z"),
    ),
  };
}

/** What a signed-in client's portal answers: one invoice, partly paid, with its documents. */
function SAMPLE_PORTAL(): PortalOverview {
  const docs = `/api/documents/${EXAMPLE_ID}.sig`;
  return {
    business: "Ada Studio",
    client: {
      name: SAMPLE_CLIENT.name,
      email: SAMPLE_CLIENT.email,
      company: SAMPLE_CLIENT.company,
    },
    language: "en",
    invoices: [
      {
        id: EXAMPLE_ID,
        number: SAMPLE_INVOICE.invoiceNumber,
        status: "PENDING",
        total: "1050.0000000",
        amountPaid: "50.0000000",
        amountDue: "1000.0000000",
        currency: "USDC",
        asset: "USDC",
        issuedAt: T0,
        dueDate: T1,
        payUrl: `/pay/${EXAMPLE_ID}`,
        pdfUrl: `${docs}/invoice`,
        receiptUrl: `${docs}/receipt`,
        eInvoiceUrls: [
          { format: "cii", url: `/api/portal/invoices/${EXAMPLE_ID}/einvoice?format=cii` },
        ],
      },
    ],
    quotes: [],
    creditNotes: [],
    payments: [
      {
        id: EXAMPLE_ID,
        invoiceId: EXAMPLE_ID,
        invoiceNumber: SAMPLE_INVOICE.invoiceNumber,
        amount: "50.0000000",
        asset: "USDC",
        method: "stellar",
        status: "CONFIRMED",
        transactionHash: EXAMPLE_HASH,
        confirmedAt: T1,
        receiptUrl: `${docs}/receipt`,
      },
    ],
  };
}

export function exampleBodies(): Record<string, { b: unknown; a?: unknown }> {
  return Object.fromEntries(
    SAMPLES.map(({ serializer, value }) => {
      const b = serializer.b(value, EXAMPLE_CONTEXT);
      const a = serializer.a(value, EXAMPLE_CONTEXT);
      return [serializer.shape.name, JSON.stringify(a) === JSON.stringify(b) ? { b } : { b, a }];
    }),
  );
}
