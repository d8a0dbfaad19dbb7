import { render } from "@react-email/render";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { InvoiceEmail } from "@/emails/invoice";
import { ReceiptEmail } from "@/emails/receipt";
import { RefundEmail } from "@/emails/refund";
import { ReminderEmail } from "@/emails/reminder";
import { renderInvoicePdf } from "@/lib/services/invoices/pdf-render";
import { pdfText } from "@/tests/helpers/pdf";
import { paidInvoice, richInvoice } from "./document-samples";
import { formatDay, localizeAmount } from "./format";
import { LANGUAGES, type Language, type MessageKey, reminderWhenIn, t } from "./index";

// Every document the client reads, in each of the five languages (docs/decisions.md,
// Languages): no message id left raw, none of a fixed list of English labels where the
// language has its own word, and dates and amounts in the language's format.

const RAW_KEY = /\b(?:doc|pdf|tax|email|checkout)\.[a-zA-Z]+(?:\.[A-Za-z_]+)?\b/;

/** Labels that must not appear in English in another language's document. */
const PDF_LABELS: MessageKey[] = [
  "pdf.heading",
  "pdf.from",
  "pdf.billTo",
  "pdf.col.description",
  "pdf.subtotal",
  "pdf.discount",
  "pdf.totalVat",
  "pdf.paymentsReceived",
  "pdf.paymentTerms",
  "pdf.payOnline",
  "pdf.recipient",
  "tax.note.AE",
  "tax.name.AE",
  "tax.scheme.eu_vat",
  "doc.method.bank_transfer",
];
const EMAIL_LABELS: MessageKey[] = [
  "email.payNow",
  "email.dueDate",
  "email.invoice.attached",
  "email.stopReminders",
  "email.helloAnonymous",
];

/** The English words of `keys` that `lang` writes differently (a shared word like "Total" is fine). */
const englishOnly = (lang: Language, keys: MessageKey[]) =>
  keys
    .filter((k) => t(lang, k).trim() !== t("en", k).trim())
    .map((k) => t("en", k).replace(/[:\s]+$/, ""));

/** Every run of whitespace (no-break spaces too) one space: what a reader sees. */
const flat = (s: string) => s.replace(/\s+/g, " ");

const pdfOf = async (invoice: typeof richInvoice, lang: Language) =>
  flat(
    await pdfText(
      new Uint8Array(
        await renderInvoicePdf(
          { ...invoice, language: lang },
          { paymentLink: "https://invoices.example/pay/abc", compress: false },
        ),
      ),
    ),
  );

const flatAmount = (english: string, lang: Language) => flat(localizeAmount(english, lang));

describe("the invoice PDF in each language", () => {
  for (const lang of LANGUAGES) {
    it(`${lang}: every label translated, dates and amounts in ${lang}'s format`, async () => {
      const text = await pdfOf(richInvoice, lang);
      expect(text).not.toMatch(RAW_KEY);
      for (const english of englishOnly(lang, PDF_LABELS)) {
        expect(text, `${lang} shows "${english}"`).not.toContain(english);
      }
      expect(text).toContain(t(lang, "pdf.heading"));
      expect(text).toContain(flat(t(lang, "tax.note.AE")));
      expect(text).toContain(t(lang, "pdf.status", { status: t(lang, "doc.status.PENDING") }));
      // The due date and the total, written as the language writes them.
      expect(text).toContain(formatDay(new Date("2026-11-27T00:00:00Z"), lang));
      expect(text).toContain(flatAmount("1,419.45 USDC", lang));
      expect(text).toContain(flatAmount("990.7258065 USDC", lang));
      const paid = await pdfOf(paidInvoice, lang);
      expect(paid).toContain(t(lang, "pdf.paidStamp"));
      expect(paid).not.toMatch(RAW_KEY);
    });
  }

  it("writes German dates and amounts as a German reader expects", async () => {
    const text = await pdfOf(richInvoice, "de");
    expect(text).toContain("27. Nov. 2026");
    expect(text).toContain("1.419,45 USDC");
    expect(text).toContain("USt-IdNr.: FR40303265045");
    expect(text).toContain("Steuerschuldnerschaft des Leistungsempfängers");
    expect(text).toContain("Banküberweisung · Ref. SEPA 114");
  });

  it("keeps English as before", async () => {
    const text = await pdfOf(richInvoice, "en");
    expect(text).toContain("27 Nov 2026");
    expect(text).toContain("1,419.45 USDC");
    expect(text).toContain("VAT: FR40303265045");
    expect(text).toContain("Status: PENDING");
  });
});

const frame = (lang: Language) => ({
  sender: "Grace Freelancer",
  serviceName: "Stellar Invoicing",
  unsubscribeUrl: "https://invoices.example/unsubscribe/x",
  lang,
});

async function emails(lang: Language) {
  const total = localizeAmount("1,419.45 USDC", lang);
  const due = formatDay(new Date("2026-11-27T00:00:00Z"), lang);
  const facts = {
    invoiceNumber: "INV-0042",
    title: "Website redesign",
    amount: localizeAmount("200.00 USDC", lang),
    value: null,
    amountPaid: localizeAmount("250.00 USDC", lang),
    total,
    remaining: localizeAmount("1,169.45 USDC", lang),
    paidAt: due,
    transactionHash: "a".repeat(64),
  };
  const pay = "https://invoices.example/pay/abc";
  const base = { ...frame(lang), invoiceNumber: "INV-0042", title: "Website redesign" };
  const elements = [
    createElement(InvoiceEmail, { ...base, clientName: null, total, dueDate: due, payUrl: pay }),
    createElement(ReminderEmail, {
      ...base,
      clientName: "Ada",
      when: reminderWhenIn(lang, -3),
      amountDue: total,
      dueDate: due,
      payUrl: pay,
    }),
    createElement(ReceiptEmail, { ...frame(lang), ...facts, clientName: "Ada", payUrl: pay }),
    createElement(RefundEmail, {
      ...base,
      clientName: "Ada",
      amount: localizeAmount("12.50 USDC", lang),
      destination: "GABC",
      refundedAt: due,
      transactionHash: "c".repeat(64),
      paymentHash: "a".repeat(64),
    }),
  ];
  return Promise.all(
    elements.map(async (e) => ({
      html: await render(e),
      // The plain text wraps long lines: one space for every run of whitespace.
      text: flat(await render(e, { plainText: true })),
    })),
  );
}

describe("the client's emails in each language", () => {
  for (const lang of LANGUAGES) {
    it(`${lang}: the invoice email, reminder, receipt and refund email`, async () => {
      const [invoice, reminder, receipt, refund] = await emails(lang);
      for (const mail of [invoice, reminder, receipt, refund]) {
        expect(mail.text).not.toMatch(RAW_KEY);
        expect(mail.html).toContain(`lang="${lang}"`);
        for (const english of englishOnly(lang, EMAIL_LABELS)) {
          expect(mail.text, `${lang} shows "${english}"`).not.toContain(english);
        }
        expect(mail.text).toContain(t(lang, "email.sentWith", { service: "Stellar Invoicing" }));
      }
      expect(invoice.text).toContain(
        t(lang, "email.invoice.new", {
          number: "INV-0042",
          sender: "Grace Freelancer",
          title: "Website redesign",
        }),
      );
      expect(invoice.text).toContain(flatAmount("1,419.45 USDC", lang));
      expect(invoice.text).toContain(formatDay(new Date("2026-11-27T00:00:00Z"), lang));
      expect(reminder.text).toContain(reminderWhenIn(lang, -3));
      expect(receipt.text).toContain(t(lang, "email.receipt.payRest"));
      expect(refund.text).toContain(t(lang, "email.refund.refunded"));
    });
  }

  it("speaks German to a German client", async () => {
    const [invoice, reminder] = await emails("de");
    expect(invoice.text).toContain("Sie haben eine neue Rechnung INV-0042 von Grace Freelancer");
    expect(invoice.text).toContain("1.419,45 USDC");
    expect(invoice.text).toContain("27. Nov. 2026");
    expect(reminder.text).toContain("ist in 3 Tagen fällig");
  });

  it("keeps the English words", async () => {
    const [invoice, reminder] = await emails("en");
    expect(invoice.text).toContain(
      "You have a new invoice INV-0042 from Grace Freelancer: Website redesign.",
    );
    expect(reminder.text).toContain("is due in 3 days");
    expect(reminderWhenIn("en", -1)).toBe("is due in 1 day");
    expect(reminderWhenIn("en", 0)).toBe("is due today");
    expect(reminderWhenIn("en", 7)).toBe("is 7 days overdue");
  });
});
