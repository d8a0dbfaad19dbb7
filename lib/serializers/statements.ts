import { sameInBothForms } from "@/lib/http/forms";
import { statementResponse } from "@/lib/schemas/statements";
import type { FormB } from "@/lib/schemas/wire";
import type { Statement } from "@/lib/services/statements/statement";

/** The statement: amounts stay exact decimal strings in both forms (a balance may be negative). */
export const statementSerializer = sameInBothForms(
  statementResponse,
  (s: Statement): FormB<typeof statementResponse> => ({
    client: {
      id: s.client.id,
      name: s.client.name,
      email: s.client.email,
      company: s.client.company,
    },
    from: s.from,
    to: s.to,
    currencies: s.currencies.map((c) => ({
      ...c,
      lines: c.lines.map((l) => ({
        date: l.at.toISOString(),
        kind: l.kind,
        reference: l.reference,
        invoiceId: l.invoiceId,
        invoiceNumber: l.invoiceNumber,
        amount: l.amount,
        balance: l.balance,
      })),
    })),
  }),
);
