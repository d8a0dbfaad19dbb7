import type { statementResponse } from "@/lib/schemas/statements";
import type { FormB } from "@/lib/schemas/wire";

type Block = FormB<typeof statementResponse>["currencies"][number];

/** The words of the six figures (English on the freelancer's page, the client's in the portal). */
export type StatementLabels = Record<
  "opening" | "invoiced" | "paid" | "refunded" | "credited" | "closing",
  string
>;

export const ENGLISH_STATEMENT_LABELS: StatementLabels = {
  opening: "Opening balance",
  invoiced: "Invoiced",
  paid: "Paid",
  refunded: "Refunded",
  credited: "Credited",
  closing: "Closing balance",
};

/**
 * A statement's figures per currency (docs/decisions.md, Statements): opening, invoiced, paid,
 * refunded, credited, closing. Shared by the client page's card and the client portal.
 */
export function StatementFigures({
  currencies,
  labels,
  money,
}: {
  currencies: Block[];
  labels: StatementLabels;
  money: (value: string, currency: string) => string;
}) {
  return (
    // One definition list per currency, under its heading: a <dl> holds only its groups.
    <div className="mt-4 space-y-4" data-testid="statement-figures">
      {currencies.map((c) => (
        <section
          key={c.currency}
          aria-label={c.currency}
          className="rounded border border-slate-200 p-3 dark:border-slate-700"
        >
          <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">
            {c.currency}
          </h3>
          <dl>
            {(
              [
                ["opening", c.openingBalance],
                ["invoiced", c.invoiced],
                ["paid", c.paid],
                ["refunded", c.refunded],
                ["credited", c.credited],
                ["closing", c.closingBalance],
              ] as const
            ).map(([key, value]) => (
              <div key={key} className="flex flex-wrap justify-between gap-x-4 text-sm">
                <dt className="text-slate-600 dark:text-slate-300">{labels[key]}</dt>
                <dd className="break-all font-mono text-slate-900 dark:text-slate-100">
                  {money(value, c.currency)}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
