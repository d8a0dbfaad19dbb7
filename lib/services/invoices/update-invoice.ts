import { assertDueDateNotPast } from "@/lib/domain/due-date";
import { ConflictError, ForbiddenError, ValidationError } from "@/lib/domain/errors";
import { validateInvoiceNumber } from "@/lib/domain/invoice-number";
import { transition } from "@/lib/domain/invoice-state";
import { parseTolerance } from "@/lib/domain/settlement";
import type { LineTax } from "@/lib/domain/tax";
import { normalizeTaxId } from "@/lib/domain/tax-id";
import { INVOICE_STORED_KEYS, PERIOD_ORDER, type UpdateInvoiceInput } from "@/lib/schemas/invoices";
import { storedAddress } from "@/lib/schemas/parties";
import { assertKeyNetwork } from "@/lib/services/auth/key-network";
import { actorOf } from "@/lib/services/context";
import type { AuthedContext } from "../context";
import { pgErrorCode, withTransaction } from "../db";
import { NUMBER_TAKEN, priceInvoice, WALLET_MISMATCH } from "./create-invoice";
import { applyTransition, type InvoiceChanges } from "./lifecycle";
import { resolveNetwork } from "./network";
import {
  type InvoiceRow,
  loadLineItems,
  loadOwnerView,
  lockInvoiceForOwner,
  type OwnerInvoice,
  replaceLineItems,
} from "./store";

type Scalar = string | number | boolean | null;

/**
 * PATCH: any subset of the creatable fields, DRAFT only, owner only. Totals are recomputed
 * from the merged line items, tax and discount. Audit UPDATED carries a `changes` diff of the
 * fields that changed; a PATCH that changes nothing writes nothing.
 */
export async function updateInvoice(
  ctx: AuthedContext,
  id: string,
  input: UpdateInvoiceInput,
): Promise<OwnerInvoice> {
  if (input.freelancerWallet && input.freelancerWallet !== ctx.wallet) {
    throw new ForbiddenError(WALLET_MISMATCH);
  }
  const now = ctx.now();
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const current = await lockInvoiceForOwner(tx, id, ctx);
      transition(current.status, "update"); // 400 before any other check
      const currentItems = await loadLineItems(tx, id);

      const itemsChanged = input.lineItems !== undefined || input.items !== undefined;
      const priceCurrency =
        input.priceCurrency === undefined ? current.priceCurrency : input.priceCurrency;
      // A change of pricing (asset or fiat) re-checks the amounts at the new scale.
      const pricing =
        itemsChanged ||
        input.taxRate !== undefined ||
        input.discount !== undefined ||
        input.amount !== undefined ||
        (priceCurrency ?? null) !== current.priceCurrency
          ? priceInvoice({
              lineItems: input.lineItems ?? input.items ?? currentItems.map(itemKey),
              taxRate: input.taxRate === undefined ? current.taxRate : input.taxRate,
              discount: input.discount === undefined ? current.discount : input.discount,
              amount: input.amount,
              priceCurrency,
            })
          : undefined;
      if (input.dueDate !== undefined) assertDueDateNotPast(input.dueDate, now);
      // The service period as it will be (docs/decisions.md, Tax identities): in order.
      const start = input.periodStart === undefined ? current.periodStart : input.periodStart;
      const end = input.periodEnd === undefined ? current.periodEnd : input.periodEnd;
      if (start && end && end < start) {
        throw new ValidationError(PERIOD_ORDER, { periodEnd: PERIOD_ORDER });
      }
      const network = resolveNetwork(input.network, input.networkPassphrase);
      // A key stays on its network: it cannot move a draft to the other one either.
      if (network) assertKeyNetwork(ctx, network);

      const next: Partial<Record<keyof typeof current, Scalar | Date | object>> = {
        invoiceNumber: input.invoiceNumber ? validateInvoiceNumber(input.invoiceNumber) : undefined,
        ...pickStored(input),
        ...clientTaxIdentity(input, current),
        currency: input.currency,
        priceCurrency: input.priceCurrency,
        quoteTtlMinutes: input.quoteTtlMinutes,
        networkPassphrase: network,
        dueDate: input.dueDate,
        emailClient: input.emailClient,
        subtotal: pricing?.totals.subtotal,
        taxRate: pricing?.totals.taxRate,
        taxAmount: pricing?.totals.taxAmount,
        discount: pricing?.totals.discount,
        total: pricing?.totals.total,
        taxBreakdown: pricing?.totals.taxBreakdown,
        paymentTolerance:
          input.paymentTolerance === undefined
            ? undefined
            : parseTolerance(input.paymentTolerance ?? "0"),
      };
      const changes: Record<string, { from: Scalar; to: Scalar }> = {};
      const set: Record<string, Scalar | Date | object> = {};
      for (const [key, value] of Object.entries(next)) {
        if (value === undefined) continue;
        const before = current[key as keyof typeof current] as Scalar | Date | object;
        if (wire(before) !== wire(value)) {
          // The breakdown follows from the lines, whose change is audited below.
          if (key !== "taxBreakdown") changes[key] = { from: wire(before), to: wire(value) };
          set[key] = value;
        }
      }
      if (
        input.reminders !== undefined &&
        JSON.stringify(input.reminders) !== JSON.stringify(current.reminders)
      ) {
        changes.reminders = {
          from: JSON.stringify(current.reminders),
          to: JSON.stringify(input.reminders),
        };
        (set as InvoiceChanges).reminders = input.reminders;
      }
      const newItems = pricing && itemsChanged ? pricing.lineItems : undefined;
      if (newItems && !sameItems(currentItems, newItems)) {
        changes.lineItems = {
          from: JSON.stringify(currentItems.map(itemKey)),
          to: JSON.stringify(newItems.map(itemKey)),
        };
        await replaceLineItems(tx, id, newItems);
      }
      if (Object.keys(changes).length === 0) return loadOwnerView(tx, current);

      const updated = await applyTransition(tx, current, "update", {
        actor: actorOf(ctx),
        at: now,
        set: set as InvoiceChanges,
        changes,
      });
      return loadOwnerView(tx, updated);
    });
  } catch (err) {
    if (pgErrorCode(err).code === "23505") throw new ConflictError(NUMBER_TAKEN);
    throw err;
  }
}

/** The stored fields the body sets (undefined: left as they are). */
const pickStored = (input: UpdateInvoiceInput) =>
  Object.fromEntries(INVOICE_STORED_KEYS.map((key) => [key, input[key]]));

/**
 * The buyer's tax id, scheme and address after the PATCH: the id is checked again under the
 * merged scheme and country whenever one of them changes.
 */
function clientTaxIdentity(
  input: UpdateInvoiceInput,
  current: Pick<InvoiceRow, "clientTaxId" | "clientTaxScheme" | "clientPostalAddress">,
) {
  const address =
    input.clientPostalAddress === undefined
      ? current.clientPostalAddress
      : storedAddress(input.clientPostalAddress);
  if (
    input.clientTaxId === undefined &&
    input.clientTaxScheme === undefined &&
    input.clientPostalAddress === undefined
  ) {
    return {};
  }
  const { taxId, scheme } = normalizeTaxId(
    input.clientTaxId === undefined ? current.clientTaxId : input.clientTaxId,
    input.clientTaxScheme === undefined ? current.clientTaxScheme : input.clientTaxScheme,
    address?.country,
    "clientTaxId",
  );
  return { clientTaxId: taxId, clientTaxScheme: scheme, clientPostalAddress: address };
}

function wire(v: Scalar | Date | object): Scalar {
  if (v instanceof Date) return v.toISOString();
  // A structured value (an address) is compared, and audited, as its JSON.
  return v !== null && typeof v === "object" ? JSON.stringify(v) : v;
}

type ItemKey = { description: string; quantity: string; rate: string } & Partial<LineTax>;

/** A line as compared and audited: its tax fields only when it has them (as before them). */
const itemKey = (i: ItemKey) => ({
  description: i.description,
  quantity: i.quantity,
  rate: i.rate,
  ...Object.fromEntries(LINE_TAX_KEYS.filter((k) => i[k] != null).map((k) => [k, i[k]])),
});
const LINE_TAX_KEYS = ["taxRate", "taxCategory", "exemptionReason", "exemptionReasonCode"] as const;

function sameItems(a: ItemKey[], b: ItemKey[]): boolean {
  return JSON.stringify(a.map(itemKey)) === JSON.stringify(b.map(itemKey));
}
