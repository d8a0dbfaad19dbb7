import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { type PostalAddress, TAX_SCHEMES } from "../../lib/domain/address";
import { DEFAULT_QUOTE_TTL_MINUTES } from "../../lib/domain/fiat";
import { AUDIT_ACTIONS, INVOICE_STATUSES } from "../../lib/domain/invoice-state";
import { CURRENCIES, PRICE_CURRENCIES } from "../../lib/domain/money";
import { TAX_CATEGORIES, type TaxBreakdownRow } from "../../lib/domain/tax-categories";
import { LANGUAGES } from "../../lib/i18n/languages";
import { amount, bigintText, idColumn, searchKeys, ts } from "./columns";

/**
 * Each wallet's last generated invoice number (INV-0001, ... per wallet; docs/decisions.md,
 * Invoice numbers). Taken with `insert ... on conflict do update ... returning` in the
 * create's own transaction: a create that rolls back gives its number back, concurrent
 * creates of one wallet queue on the row, and a row (unlike a sequence) never skips values
 * when the embedded database restarts.
 */
export const invoiceNumberCounters = pgTable("invoice_number_counters", {
  wallet: text("wallet").primaryKey(),
  last: bigint("last", { mode: "bigint" }).notNull(),
});

/**
 * Invoices and payment links (kind LINK: an invoice created PENDING; a reusable or
 * open-amount link makes one child link per checkout; docs/decisions.md, Payment links). Amounts are numeric(18,7), quantities (10,2), tax
 * rates (5,2): exact, never floats.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: idColumn(),
    kind: text("kind", { enum: ["INVOICE", "LINK"] })
      .notNull()
      .default("INVOICE"),
    invoiceNumber: text("invoice_number").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("DRAFT"),
    freelancerWallet: text("freelancer_wallet").notNull(),
    freelancerName: text("freelancer_name"),
    freelancerEmail: text("freelancer_email"),
    freelancerCompany: text("freelancer_company"),
    clientName: text("client_name").notNull(),
    clientEmail: text("client_email").notNull(),
    clientCompany: text("client_company"),
    clientAddress: text("client_address"),
    clientWallet: text("client_wallet"),
    /** The buyer's tax identity and address (docs/decisions.md, Tax identities). */
    clientTaxId: text("client_tax_id"),
    clientTaxScheme: text("client_tax_scheme", { enum: TAX_SCHEMES }),
    clientPostalAddress: jsonb("client_postal_address").$type<PostalAddress>(),
    clientIsBusiness: boolean("client_is_business"),
    title: text("title").notNull(),
    description: text("description"),
    notes: text("notes"),
    /** Payment terms in words, printed on the PDF ("Net 30, 2 % discount within 10 days"). */
    paymentTerms: text("payment_terms"),
    /** The client's language: every document of the invoice is written in it (docs/decisions.md, Languages). */
    language: text("language", { enum: LANGUAGES }).notNull().default("en"),
    /** The buyer's reference (EN 16931 BT-10, the Leitweg-ID of a German public buyer). */
    buyerReference: text("buyer_reference"),
    /** The date of supply, or a service period (docs/decisions.md, Tax identities). */
    supplyDate: date("supply_date", { mode: "string" }),
    periodStart: date("period_start", { mode: "string" }),
    periodEnd: date("period_end", { mode: "string" }),
    /**
     * VAT in the national currency (docs/decisions.md, Tax currency): the currency, and the rate
     * from the invoice's unit fixed when it is sent, with its source and time; never changed after.
     */
    taxCurrency: text("tax_currency", { enum: PRICE_CURRENCIES }),
    taxExchangeRate: numeric("tax_exchange_rate", { precision: 30, scale: 12 }),
    taxRateSource: text("tax_rate_source"),
    taxRateAt: ts("tax_rate_at"),
    subtotal: amount("subtotal").notNull(),
    taxRate: numeric("tax_rate", { precision: 5, scale: 2 }).notNull().default("0"),
    taxAmount: amount("tax_amount").notNull().default("0"),
    discount: amount("discount").notNull().default("0"),
    total: amount("total").notNull(),
    /**
     * One row per tax category and rate, computed with the totals (lib/domain/tax.ts); null on
     * invoices from before tax per line, whose one row follows from taxRate and the subtotal.
     */
    taxBreakdown: jsonb("tax_breakdown").$type<TaxBreakdownRow[]>(),
    /** Sum of applied payments less refunds of applied money (docs/decisions.md, Payments). */
    amountPaid: amount("amount_paid").notNull().default("0"),
    /** The sum of its credit notes' totals (docs/decisions.md, Credit notes): lowers amountDue. */
    amountCredited: amount("amount_credited").notNull().default("0"),
    /** Percent of the total a payer may fall short by and still pay in full (0 to 5). */
    paymentTolerance: numeric("payment_tolerance", { precision: 5, scale: 2 })
      .notNull()
      .default("0"),
    currency: text("currency", { enum: CURRENCIES }).notNull().default("XLM"),
    /**
     * USD or EUR: the amounts (line items, subtotal, tax, discount, total, amountPaid) are then
     * fiat with 2 decimals and `currency` is the asset the payer settles in at a locked quote
     * (docs/decisions.md, Fiat pricing). Null: priced in the asset itself.
     */
    priceCurrency: text("price_currency", { enum: PRICE_CURRENCIES }),
    /** How long a quote of a fiat-priced invoice holds (1 to 120 minutes). */
    quoteTtlMinutes: integer("quote_ttl_minutes").notNull().default(DEFAULT_QUOTE_TTL_MINUTES),
    networkPassphrase: text("network_passphrase").notNull(),
    /**
     * The 64-bit id of the invoice's muxed address (`M...` = the freelancer's wallet + this id;
     * docs/decisions.md, Muxed addresses): random in 1..2^63-1, drawn by the database at the
     * insert (every way an invoice or checkout is made gets one; the migration gave existing
     * rows theirs), unique per network. Random rather than a sequence so that a memo id or
     * another service's muxed id a payer uses does not name an invoice by accident.
     */
    muxedId: bigintText("muxed_id")
      .notNull()
      .default(
        sql`greatest(1, floor(random() * 2147483648)::bigint * 4294967296 + floor(random() * 4294967296)::bigint)`,
      ),
    dueDate: ts("due_date"),
    sentAt: ts("sent_at"),
    paidAt: ts("paid_at"),
    cancelledAt: ts("cancelled_at"),
    expiredAt: ts("expired_at"),
    transactionHash: text("transaction_hash"),
    ledgerNumber: integer("ledger_number"),
    payerWallet: text("payer_wallet"),
    /** Payment links only. */
    linkReference: text("link_reference"),
    linkExpiresAt: ts("link_expires_at"),
    /**
     * A reusable or open-amount link is never paid itself: each payer's checkout makes a
     * child LINK row (`parentLinkId`) that is paid like any link (docs/decisions.md, Payment
     * links). `linkMaxPayments` null on a reusable link: unlimited.
     */
    linkReusable: boolean("link_reusable").notNull().default(false),
    linkMaxPayments: integer("link_max_payments"),
    linkOpenAmount: boolean("link_open_amount").notNull().default(false),
    linkMinAmount: amount("link_min_amount"),
    parentLinkId: text("parent_link_id"),
    /**
     * A checkout whose payer committed (pay-intent with a sender) holds one of its link's
     * places until this time; a checkout that received money holds one for good
     * (docs/decisions.md, Payment links, Places).
     */
    linkHeldUntil: ts("link_held_until"),
    /**
     * Set while the owner has deactivated the link: it starts no new payment (no checkout, no
     * pay-intent) until reactivated; checkouts already made and transactions already signed
     * are still recorded (docs/decisions.md, Payment links, Managing a link).
     */
    linkDeactivatedAt: ts("link_deactivated_at"),
    activateNewAccounts: boolean("activate_new_accounts").notNull().default(false),
    /** Email the invoice to the client when it is sent (docs/decisions.md, Email). */
    emailClient: boolean("email_client").notNull().default(true),
    /**
     * Reminder offsets in days relative to the due date (e.g. [-3, 0, 7]); null: the profile's
     * default. `remindersStoppedAt`: the client unsubscribed from this invoice's reminders.
     */
    reminders: jsonb("reminders").$type<number[]>(),
    remindersStoppedAt: ts("reminders_stopped_at"),
    /** Made by a recurring schedule, for its period `recurringPeriod` (0-based). */
    recurringId: text("recurring_id"),
    recurringPeriod: integer("recurring_period"),
    /** The quote it was made from on acceptance (docs/decisions.md, Quotes); at most one invoice per quote. */
    quoteId: text("quote_id"),
    /**
     * What `q` searches (docs/decisions.md, Search): number, client, email, title and line
     * descriptions, folded (unaccented, lower case, punctuation to spaces) into fields split by
     * `|`. Written by the database's triggers (migration 0036) on every write of those fields or
     * of the lines, never by the services; `search_document` in that migration is its one recipe.
     */
    searchText: text("search_text"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    // Numbers belong to their freelancer: unique per wallet, soft-deleted rows included (it
    // also serves the owner list sorted by number).
    uniqueIndex("invoices_wallet_number_key").on(t.freelancerWallet, t.invoiceNumber),
    // A muxed id names one invoice of its network (docs/decisions.md, Muxed addresses).
    uniqueIndex("invoices_network_muxed_id_key").on(t.networkPassphrase, t.muxedId),
    // Not unique: one transaction may pay several freelancers' invoices (an operation to each
    // wallet), docs/decisions.md, Payments.
    index("invoices_transaction_hash_idx").on(t.transactionHash),
    // Owner lists: one index per sortable field, scoped to live rows of one wallet.
    // Ascending on both: read backwards it is the default order (created_at desc, id desc),
    // ties included, so a page stops after its rows instead of sorting all of the wallet's.
    index("invoices_owner_created_idx")
      .on(t.freelancerWallet, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // The list's total (invoices or links of one wallet) as an index-only count.
    index("invoices_owner_kind_idx")
      .on(t.freelancerWallet, t.kind)
      .where(sql`${t.deletedAt} is null`),
    index("invoices_owner_updated_idx")
      .on(t.freelancerWallet, t.updatedAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // Due dates sort undated invoices last both ways: each direction orders by its own
    // non-null key (sortKey in lib/services/invoices/list-invoices.ts), with its own index.
    index("invoices_owner_due_asc_idx")
      .on(t.freelancerWallet, sql`coalesce(${t.dueDate}, 'infinity'::timestamptz)`, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("invoices_owner_due_desc_idx")
      .on(t.freelancerWallet, sql`coalesce(${t.dueDate}, '-infinity'::timestamptz)`, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("invoices_owner_total_idx")
      .on(t.freelancerWallet, t.total, t.id)
      .where(sql`${t.deletedAt} is null`),
    // Totals sorted within one currency (docs/decisions.md, Invoice list, "Cost"): a total's
    // order across currencies puts every XLM amount above the USDC ones, so the page of one
    // currency would otherwise read the wallet's other currency first.
    index("invoices_owner_currency_total_idx")
      .on(t.freelancerWallet, t.currency, t.total, t.id)
      .where(sql`${t.deletedAt} is null`),
    // Sorted by status (ties by id); the index below serves a status filter by date.
    index("invoices_owner_status_id_idx")
      .on(t.freelancerWallet, t.status, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("invoices_owner_status_idx")
      .on(t.freelancerWallet, t.status, t.createdAt.desc())
      .where(sql`${t.deletedAt} is null`),
    index("invoices_owner_currency_idx")
      .on(t.freelancerWallet, t.currency, t.createdAt.desc())
      .where(sql`${t.deletedAt} is null`),
    index("invoices_owner_client_email_idx")
      .on(t.freelancerWallet, t.clientEmail)
      .where(sql`${t.deletedAt} is null`),
    // Jobs: expiry sweep and the watcher's "which networks have payable invoices".
    index("invoices_status_due_idx").on(t.status, t.dueDate).where(sql`${t.deletedAt} is null`),
    // Each recurring period's invoice exists once, however many workers race to create it.
    uniqueIndex("invoices_recurring_period_key")
      .on(t.recurringId, t.recurringPeriod)
      .where(sql`${t.recurringId} is not null`),
    // A reusable link's checkouts (its paid records and open reservations).
    index("invoices_parent_link_idx")
      .on(t.parentLinkId, t.createdAt.desc())
      .where(sql`${t.parentLinkId} is not null`),
    // A quote becomes one invoice, however many accepts race (docs/decisions.md, Quotes).
    uniqueIndex("invoices_quote_key").on(t.quoteId).where(sql`${t.quoteId} is not null`),
    // Search (docs/decisions.md, Search): one GIN index over the owner's word-start keys of
    // the folded text (`search_keys`, migration 0042), live rows only.
    index("invoices_search_keys_idx")
      .using("gin", searchKeys(t.freelancerWallet, t.searchText))
      .where(sql`${t.deletedAt} is null`),
    index("invoices_network_status_idx")
      .on(t.networkPassphrase, t.status)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** `invoice_id` of a row that belongs to an invoice and goes with it. */
export const invoiceIdRef = () =>
  text("invoice_id")
    .notNull()
    .references(() => invoices.id, { onDelete: "cascade" });

export const invoiceLineItems = pgTable(
  "invoice_line_items",
  {
    id: idColumn(),
    invoiceId: invoiceIdRef(),
    position: integer("position").notNull(),
    description: text("description").notNull(),
    quantity: numeric("quantity", { precision: 10, scale: 2 }).notNull(),
    rate: amount("rate").notNull(),
    amount: amount("amount").notNull(),
    /** The line's own tax (docs/decisions.md, Tax per line); null: the invoice's rate. */
    taxRate: numeric("tax_rate", { precision: 5, scale: 2 }),
    taxCategory: text("tax_category", { enum: TAX_CATEGORIES }),
    exemptionReason: text("exemption_reason"),
    exemptionReasonCode: text("exemption_reason_code"),
  },
  (t) => [index("invoice_line_items_invoice_idx").on(t.invoiceId, t.position)],
);

export const invoiceAuditLogs = pgTable(
  "invoice_audit_logs",
  {
    id: idColumn(),
    invoiceId: invoiceIdRef(),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    actorWallet: text("actor_wallet").notNull(),
    changes: jsonb("changes").$type<Record<string, unknown> | null>(),
    createdAt: ts("created_at").notNull(),
    /**
     * The invoice's freelancer, filled by the database at the insert (trigger of migration
     * 0036): the statistics' recent activity reads a wallet's latest entries off
     * invoice_audit_logs_owner_idx instead of joining all of its invoices.
     */
    freelancerWallet: text("freelancer_wallet"),
  },
  (t) => [
    index("invoice_audit_logs_invoice_idx").on(t.invoiceId, t.createdAt),
    // Read backwards: newest first (created_at desc, id desc), as the recent activity asks.
    index("invoice_audit_logs_owner_idx").on(t.freelancerWallet, t.createdAt, t.id),
    index("invoice_audit_logs_actor_idx").on(t.actorWallet, t.createdAt.desc()),
  ],
);
