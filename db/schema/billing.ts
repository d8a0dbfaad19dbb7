import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { type PostalAddress, TAX_SCHEMES } from "../../lib/domain/address";
import { LANGUAGES } from "../../lib/i18n/languages";
import { idColumn, ts } from "./columns";

/** Raw bytes (PostgreSQL `bytea`), read as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A freelancer's business profile, one per wallet (docs/decisions.md, Profile): what new
 * invoices take their `freelancer*` fields and defaults from, and what the checkout, the PDF
 * and emails show. The logo is stored here (PNG, JPEG or sanitised SVG, at most 200 KB).
 */
export const profiles = pgTable("profiles", {
  wallet: text("wallet").primaryKey(),
  displayName: text("display_name"),
  company: text("company"),
  email: text("email"),
  /** The seller contact's phone (an XRechnung's BT-42). */
  phone: text("phone"),
  address: text("address"),
  /** VAT number, ABN, EIN...: checked under taxScheme when it has one (lib/domain/tax-id.ts). */
  taxId: text("tax_id"),
  taxScheme: text("tax_scheme", { enum: TAX_SCHEMES }),
  /** The tax registration's country (ISO 3166-1 alpha-2). */
  taxCountry: text("tax_country"),
  /** Structured address (lib/schemas/parties.ts), beside the free-text `address`. */
  postalAddress: jsonb("postal_address").$type<PostalAddress>(),
  logo: bytea("logo"),
  logoType: text("logo_type", { enum: ["image/png", "image/jpeg", "image/svg+xml"] }),
  logoUpdatedAt: ts("logo_updated_at"),
  reportingCurrency: text("reporting_currency", { enum: ["USD", "EUR"] })
    .notNull()
    .default("USD"),
  /** Days from sending to the due date for new invoices; null: no default due date. */
  paymentTermsDays: integer("payment_terms_days"),
  /** Reminder offsets in days relative to the due date (e.g. [-3, 0, 7]); null: none. */
  defaultReminders: jsonb("default_reminders").$type<number[]>(),
  defaultPaymentTolerance: numeric("default_payment_tolerance", { precision: 5, scale: 2 }),
  emailFooter: text("email_footer"),
  /** New invoices' language when their client has none; null: en (docs/decisions.md, Languages). */
  defaultLanguage: text("default_language", { enum: LANGUAGES }),
  createdAt: ts("created_at").notNull(),
  updatedAt: ts("updated_at").notNull(),
});

export const EMAIL_KINDS = [
  "invoice",
  "reminder",
  "receipt",
  "payment_notice",
  "refund",
  "credit_note",
  "quote",
  "portal_link",
  "statement",
] as const;
export const EMAIL_STATUSES = ["pending", "sent", "failed", "skipped"] as const;

/**
 * The email outbox and its log (docs/decisions.md, Email): a row is written in the same
 * transaction as the state change it tells about, then claimed with FOR UPDATE SKIP LOCKED by
 * the worker or /api/cron/emails and delivered over SMTP, retried with backoff for 24 h.
 * `dedupeKey` makes each message at most once (one invoice email per send, one reminder per
 * rule, one receipt per payment); a manual resend has its own key.
 */
export const emailMessages = pgTable(
  "email_messages",
  {
    id: idColumn(),
    /** The freelancer whose invoice (or profile) the message is about. */
    wallet: text("wallet").notNull(),
    invoiceId: text("invoice_id"),
    kind: text("kind", { enum: EMAIL_KINDS }).notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    /** Recipient address (validated at enqueue: one address, no line breaks). */
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    /** What the template needs, rendered at delivery (lib/services/email). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    lastAttemptAt: ts("last_attempt_at"),
    /** The SMTP server's last answer or the connection error. */
    lastError: text("last_error"),
    /** The provider's Message-ID once accepted. */
    messageId: text("message_id"),
    sentAt: ts("sent_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("email_messages_dedupe_key").on(t.dedupeKey),
    index("email_messages_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("email_messages_invoice_idx").on(t.invoiceId, t.createdAt),
  ],
);

export const RECURRING_INTERVALS = ["week", "month", "quarter", "year"] as const;

/**
 * Recurring invoices (docs/decisions.md, Recurring invoices): a template (the create-invoice
 * body without dates) and a schedule. Each period's invoice is created exactly once: invoices
 * carry (recurring_id, recurring_period), unique.
 */
export const recurringSchedules = pgTable(
  "recurring_schedules",
  {
    id: idColumn(),
    wallet: text("wallet").notNull(),
    networkPassphrase: text("network_passphrase").notNull(),
    template: jsonb("template").$type<Record<string, unknown>>().notNull(),
    interval: text("interval", { enum: RECURRING_INTERVALS }).notNull(),
    intervalCount: integer("interval_count").notNull().default(1),
    /** Period 0's date; period n is n * intervalCount intervals later, clamped to month end. */
    startDate: ts("start_date").notNull(),
    endDate: ts("end_date"),
    /** Number of invoices to create in all; null with no endDate: until stopped. */
    count: integer("count"),
    dueInDays: integer("due_in_days").notNull(),
    autoSend: boolean("auto_send").notNull().default(true),
    /** The next period to create (0-based) and when it is due. */
    nextPeriod: integer("next_period").notNull().default(0),
    nextRunAt: ts("next_run_at"),
    pausedAt: ts("paused_at"),
    /**
     * The job's last refusal (docs/decisions.md, Recurring invoices): why a period's invoice
     * was not created, or was kept a draft; cleared when a period is created (and sent).
     * Written by recordRefusal (lib/services/recurring/refusals.ts).
     */
    refusalReason: text("refusal_reason"),
    refusedPeriod: integer("refused_period"),
    refusedAt: ts("refused_at"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    index("recurring_schedules_wallet_idx").on(t.wallet, t.createdAt.desc()),
    index("recurring_schedules_due_idx")
      .on(t.nextRunAt)
      .where(sql`${t.deletedAt} is null and ${t.pausedAt} is null`),
  ],
);
