import { operation } from "@/lib/http/route";
import { exportQuerySchema } from "@/lib/schemas/exports";
import { costlyLimit } from "../../common-errors";
import { badExportQuery, csvSuccess } from "../csv-reply";

export const exportPayments = operation({
  method: "GET",
  path: "/api/exports/payments.csv",
  operationId: "exportPayments",
  tag: "Invoices",
  summary: "Payments as CSV (accounting)",
  description:
    "Every payment received on your invoices and payment links, oldest first, confirmed in [`from`, `to`): invoice number and id, client, asset and issuer, exact amount, `fiatCurrency`/`fiatValue`/`rate`/`rateSource`/`rateAt` (empty when no price was known), `priceCurrency`/`priceValue` of fiat-priced invoices, `paidLate`, transaction hash, ledger, operation index, payer, `status` (`applied`, `unapplied` with `unappliedReason`, `refunded` with `amountRefunded`), `confirmedAt`, network, `method` (`stellar`, or `bank_transfer`, `cash`, `other` for a payment received outside Stellar, which has no hash, ledger or payer; `status` `voided` once voided) and its `reference`. Times are ISO 8601 UTC; amounts exact decimal strings; a text cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` (CSV injection). Streamed: any size. Through an API key (`invoices:read`), only the key's network.",
  auth: "authed",
  scope: ["invoices:read"],
  limit: costlyLimit,
  query: exportQuerySchema,
  responses: [csvSuccess("payment")],
  errors: [badExportQuery],
});
