import { BusinessRuleError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { EXAMPLE_WALLET, idPath } from "@/lib/schemas/wire";
import { sentInvoiceSerializer } from "@/lib/serializers/invoices";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const sendInvoice = operation({
  method: "POST",
  path: "/api/invoices/{id}/send",
  operationId: "sendInvoice",
  tag: "Invoices",
  summary: "Send a draft (DRAFT -> PENDING)",
  description:
    "No body. The payment page `{APP_URL}/pay/<id>` becomes payable and the invoice read-only; audit `SENT`, event `invoice.sent`. A draft is first checked on its network: the freelancer's wallet must exist and, for USDC and EURC, hold an authorized trustline to the trusted issuer with room for the total (not checked for fiat-priced invoices), else 400 `Your wallet cannot receive <ASSET> on <network> yet: <reason>` with `details.reason` (`no_account`, `no_trustline`, `not_authorized`, `no_room`) and `details.fix`. When the network cannot be reached the invoice is sent unchecked.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Sent", serializer: sentInvoiceSerializer }],
  errors: [
    new BusinessRuleError("Invoice cannot be sent. Current status: PENDING"),
    new BusinessRuleError(
      `Your wallet cannot receive USDC on Testnet yet: it has no trustline to USDC issued by ${EXAMPLE_WALLET}`,
      {
        reason: "no_trustline",
        fix: `Add a trustline to USDC issued by ${EXAMPLE_WALLET} ("Add trustline" on the invoice page signs it with your wallet).`,
      },
    ),
    notOwner,
    invoiceNotFound,
  ],
});
