import { describe, expect, it } from "vitest";
import { buildStatement, type StatementEntry } from "@/lib/domain/statement";
import { formatAmount } from "@/lib/format";
import { LANGUAGES, t } from "@/lib/i18n";
import { localizeAmount } from "@/lib/i18n/format";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import { flatPdfText } from "@/tests/helpers/pdf";
import { statementCsv } from "./csv";
import { renderStatementPdf } from "./pdf";
import type { Statement } from "./statement";

const entry = (
  kind: StatementEntry["kind"],
  day: string,
  amount: string,
  currency = "XLM",
): StatementEntry => ({
  kind,
  at: new Date(`${day}T10:00:00Z`),
  currency,
  amount,
  reference: kind === "credit_note" ? "CN-0001" : "INV-0001",
  invoiceId: "inv1",
  invoiceNumber: "INV-0001",
});

const statement: Statement = {
  client: {
    id: "c1",
    name: "Zoë Client",
    email: "zoe@example.com",
    company: "=Zoe Ltd",
  } as ClientRow,
  from: "2026-02-01",
  to: "2026-02-28",
  currencies: buildStatement(
    [
      entry("invoice", "2026-01-05", "100"),
      entry("payment", "2026-02-03", "110.0000001"),
      entry("refund", "2026-02-04", "10"),
      entry("credit_note", "2026-02-11", "20"),
      entry("invoice", "2026-02-12", "1234.5", "USD"),
    ],
    new Date("2026-02-01T00:00:00Z"),
    new Date("2026-03-01T00:00:00Z"),
  ),
};

// The statement PDF in each language (docs/decisions.md, Statements): every word from the
// catalogue, the balances exact.
describe("the statement PDF", () => {
  for (const lang of LANGUAGES) {
    it(`renders in ${lang}`, async () => {
      const pdf = await renderStatementPdf(statement, {
        lang,
        sellerLines: ["Ada Seller"],
        issuedAt: new Date(),
      });
      const text = await flatPdfText(new Uint8Array(pdf));
      for (const key of [
        "statement.title",
        "statement.opening",
        "statement.closing",
        "statement.payment",
      ] as const) {
        expect(text).toContain(t(lang, key));
      }
      expect(text).toContain("Zoë Client");
      for (const c of statement.currencies) {
        expect(text).toContain(
          localizeAmount(formatAmount(c.closingBalance, c.currency), lang).replace(/\s+/g, " "),
        );
      }
      // The credit balance is explained.
      expect(text).toContain(t(lang, "statement.inCredit"));
    });
  }
});

describe("the statement CSV", () => {
  it("opening, lines and closing per currency; the same figures", () => {
    const csv = statementCsv(statement);
    expect(
      csv.startsWith(
        "\uFEFFcurrency,date,kind,reference,invoiceNumber,invoiceId,amount,balance\r\n",
      ),
    ).toBe(true);
    expect(csv).toContain("XLM,2026-02-01,opening_balance,,,,,100.0000000\r\n");
    expect(csv).toContain("XLM,2026-02-28,closing_balance,,,,,-20.0000001\r\n");
    expect(csv).toContain("USD,2026-02-28,closing_balance,,,,,1234.5000000\r\n");
    // Text the client typed keeps the formula guard (the company is not in the CSV, the name
    // of a reference could be): amounts are numbers, even below zero.
    expect(csv).not.toContain("'-");
  });
});
