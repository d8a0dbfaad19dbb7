import { BusinessRuleError, UnavailableError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { PRICE_UNAVAILABLE } from "@/lib/prices/cache";
import { EXAMPLE_WALLET, idPath } from "@/lib/schemas/wire";
import { sentInvoiceSerializer } from "@/lib/serializers/invoices";
import { describeProblem, READINESS_PROBLEMS } from "@/lib/services/payments/recipient-readiness";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const sendInvoice = operation({
  method: "POST",
  path: "/api/invoices/{id}/send",
  operationId: "sendInvoice",
  tag: "Invoices",
  summary: "Send a draft (DRAFT -> PENDING)",
  description:
    "No body. The payment page `{APP_URL}/pay/<id>` becomes payable and the invoice read-only; audit `SENT`, event `invoice.sent`. A draft is first checked on its network: the freelancer's wallet must exist and, for USDC and EURC, hold an authorized trustline to the trusted issuer with room for the total (not checked for fiat-priced invoices), else 400 `Your wallet cannot receive <ASSET> on <network> yet: <reason>` with `details.reason` (`no_account`, `no_trustline`, `not_authorized`, `no_room`) and `details.fix`. When the network cannot be reached the invoice is sent unchecked. With a `taxCurrency`, the rate from the invoice's unit to it is fixed now (a price no older than 5 minutes; USDC = USD and EURC = EUR exactly) and answered in `taxExchange` from then on; without a fresh price, 503 and nothing is sent.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Sent", serializer: sentInvoiceSerializer }],
  errors: [
    new BusinessRuleError("Invoice cannot be sent. Current status: PENDING"),
    // Every reason, in the words the check writes them (lib/services/payments/recipient-readiness.ts).
    ...READINESS_PROBLEMS.map((problem) => {
      const { message, fix } = describeProblem(
        { problem, room: "40" },
        EXAMPLE_WALLET,
        "testnet",
        { code: "USDC", issuer: EXAMPLE_WALLET },
        "100",
      );
      return new BusinessRuleError(message, { reason: problem, fix });
    }),
    new UnavailableError(PRICE_UNAVAILABLE),
    notOwner,
    invoiceNotFound,
  ],
});
