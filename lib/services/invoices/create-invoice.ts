import { assertDueDateNotPast } from "@/lib/domain/due-date";
import { ConflictError, ForbiddenError } from "@/lib/domain/errors";
import { DEFAULT_QUOTE_TTL_MINUTES } from "@/lib/domain/fiat";
import { validateInvoiceNumber } from "@/lib/domain/invoice-number";
import { AMOUNT_SCALE, assertAmountMatchesSubtotal, FIAT_SCALE } from "@/lib/domain/money";
import { parseTolerance } from "@/lib/domain/settlement";
import { computeInvoiceTotals, hasLineTaxes, type LineTaxInput } from "@/lib/domain/tax";
import { normalizeTaxId } from "@/lib/domain/tax-id";
import { newId } from "@/lib/ids";
import {
  type CreateInvoiceInput,
  INVOICE_STORED_KEYS,
  type InvoiceStoredField,
} from "@/lib/schemas/invoices";
import { storedAddress } from "@/lib/schemas/parties";
import { assertKeyNetwork, defaultPassphrase } from "@/lib/services/auth/key-network";
import { actorOf } from "@/lib/services/context";
import { type ClientDetails, savedClientDetails } from "../clients/saved-client";
import { upsertClient } from "../clients/upsert-client";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { invoiceDefaults, invoiceLanguage } from "../profile/defaults";
import { getProfile } from "../profile/profile";
import { initialStatus, recordCreation } from "./lifecycle";
import { resolveNetwork } from "./network";
import {
  insertGenerated,
  insertSupplied,
  loadOwnerView,
  type NewInvoiceRow,
  NUMBER_TAKEN,
  type OwnerInvoice,
  replaceLineItems,
} from "./store";

export const WALLET_MISMATCH = "Freelancer wallet must match authenticated wallet";
export { NUMBER_TAKEN };

type PricedLine = {
  description: string;
  quantity: string | number;
  rate: string | number;
} & Omit<LineTaxInput, "quantity" | "rate">;

/**
 * Line items and totals from either body form, computed exactly by the domain module
 * (lib/domain/tax.ts: the spec's formula, or tax per line when a line carries its own).
 */
export function priceInvoice(input: {
  lineItems?: PricedLine[];
  items?: PricedLine[];
  taxRate?: string | number | null;
  discount?: string | number | null;
  amount?: string | number;
  /** Priced in USD or EUR: 2-decimal amounts (docs/decisions.md, Fiat pricing). */
  priceCurrency?: string | null;
}) {
  const source = input.lineItems ?? input.items ?? [];
  const itemsField = input.lineItems ? "lineItems" : "items";
  const { lineTaxes, taxBreakdown, ...totals } = computeInvoiceTotals(
    { lineItems: source, taxRate: input.taxRate, discount: input.discount },
    { itemsField, scale: input.priceCurrency ? FIAT_SCALE : AMOUNT_SCALE },
  );
  if (input.amount !== undefined) assertAmountMatchesSubtotal(input.amount, totals.subtotal);
  const lineItems = totals.lineItems.map((t, i) => ({
    id: newId(),
    description: source[i].description,
    quantity: t.quantity,
    rate: t.rate,
    amount: t.amount,
    ...lineTaxes[i],
  }));
  // Stored only with line taxes: an invoice priced as the spec describes keeps its row as
  // before, and answers its one breakdown row from its rate (breakdownOf).
  return {
    totals: { ...totals, taxBreakdown: hasLineTaxes(source) ? taxBreakdown : null },
    lineItems,
  };
}

export async function createInvoice(
  ctx: AuthedContext,
  input: CreateInvoiceInput,
  /**
   * A recurring schedule's period (lib/services/recurring/run-schedules.ts), or the quote it is
   * made from (lib/services/quotes/accept.ts).
   */
  origin: Pick<NewInvoiceRow, "recurringId" | "recurringPeriod" | "quoteId"> = {},
): Promise<OwnerInvoice> {
  if (input.freelancerWallet && input.freelancerWallet !== ctx.wallet) {
    throw new ForbiddenError(WALLET_MISMATCH);
  }
  const { totals, lineItems } = priceInvoice(input);
  const networkPassphrase =
    resolveNetwork(input.network, input.networkPassphrase) ?? defaultPassphrase(ctx);
  assertKeyNetwork(ctx, networkPassphrase);
  const now = ctx.now();
  assertDueDateNotPast(input.dueDate, now);
  const supplied = input.invoiceNumber ? validateInvoiceNumber(input.invoiceNumber) : undefined;
  // The profile's details and defaults where the body leaves them out (docs/decisions.md, Profile).
  const profile = await getProfile(ctx.db, ctx.wallet);
  const defaults = invoiceDefaults(profile, input, now);

  // The response is read inside the transaction: once it commits, nothing else can fail and
  // turn a created invoice into an error answer.
  // The stored fields as given; null when left out (lib/schemas/invoices.ts).
  const clientPostalAddress = storedAddress(input.clientPostalAddress);
  const clientTax = normalizeTaxId(
    input.clientTaxId,
    input.clientTaxScheme,
    clientPostalAddress?.country,
    "clientTaxId",
  );
  const textValues = {
    ...(Object.fromEntries(INVOICE_STORED_KEYS.map((key) => [key, input[key] ?? null])) as {
      [K in InvoiceStoredField]: NonNullable<CreateInvoiceInput[K]> | null;
    } & { clientName: string; clientEmail: string }),
    clientPostalAddress,
    clientTaxId: clientTax.taxId,
    clientTaxScheme: clientTax.scheme,
  };
  const client = await clientOf(ctx, input, textValues);
  const language = invoiceLanguage(input.language, client, profile);
  const view = await withTransaction(ctx.db, async (tx) => {
    const values = (invoiceNumber: string): NewInvoiceRow => ({
      id: newId(),
      kind: "INVOICE",
      invoiceNumber,
      status: initialStatus("INVOICE"),
      freelancerWallet: ctx.wallet,
      ...textValues,
      freelancerName: defaults.freelancerName,
      freelancerEmail: defaults.freelancerEmail,
      freelancerCompany: defaults.freelancerCompany,
      ...client,
      language,
      title: input.title ?? `Invoice ${invoiceNumber}`,
      subtotal: totals.subtotal,
      taxRate: totals.taxRate,
      taxAmount: totals.taxAmount,
      discount: totals.discount,
      total: totals.total,
      taxBreakdown: totals.taxBreakdown,
      paymentTolerance: parseTolerance(defaults.paymentTolerance),
      currency: input.currency ?? "XLM",
      priceCurrency: input.priceCurrency ?? null,
      quoteTtlMinutes: input.quoteTtlMinutes ?? DEFAULT_QUOTE_TTL_MINUTES,
      networkPassphrase,
      dueDate: defaults.dueDate,
      reminders: input.reminders ?? null,
      emailClient: input.emailClient ?? true,
      createdAt: now,
      updatedAt: now,
      ...origin,
    });
    const inserted = supplied
      ? await insertSupplied(tx, values(supplied))
      : await insertGenerated(tx, ctx.wallet, values);
    if (!inserted) throw new ConflictError(NUMBER_TAKEN);
    await replaceLineItems(tx, inserted.id, lineItems);
    await recordCreation(tx, inserted, { actor: actorOf(ctx), at: now });
    return loadOwnerView(tx, inserted);
  });

  if (input.saveClient && !input.clientId) {
    // Saving the client never fails the invoice (docs/decisions.md).
    try {
      await upsertClient(ctx, {
        name: client.clientName,
        email: client.clientEmail,
        company: client.clientCompany ?? undefined,
        address: client.clientAddress ?? undefined,
        taxId: client.clientTaxId ?? undefined,
        taxScheme: client.clientTaxScheme ?? undefined,
        postalAddress: client.clientPostalAddress ?? undefined,
        isBusiness: client.clientIsBusiness ?? undefined,
        // The invoice's language when it was chosen for this client (not a default).
        language: input.language ?? undefined,
        buyerReference: textValues.buyerReference ?? undefined,
        isFavorite: input.favoriteClient ? true : undefined,
      });
    } catch (err) {
      ctx.logger.warn("saving the client of a new invoice failed", {
        requestId: ctx.requestId,
        error: String(err),
      });
    }
  }
  return view;
}

/**
 * The invoice's client: a saved client's details as they are now (`clientId`: a recurring
 * template's each period, docs/decisions.md, Recurring invoices), else the body's (the
 * schema's `clientRule` makes it one or the other).
 */
function clientOf(
  ctx: AuthedContext,
  input: CreateInvoiceInput,
  typed: ClientDetails & { buyerReference: string | null },
): Promise<ClientDetails> {
  if (input.clientId) {
    // The body's buyer reference, else the saved client's (BT-10).
    return savedClientDetails(ctx.db, ctx.wallet, input.clientId).then((saved) => ({
      ...saved,
      buyerReference: typed.buyerReference ?? saved.buyerReference ?? null,
    }));
  }
  return Promise.resolve({
    clientName: typed.clientName ?? "",
    clientEmail: typed.clientEmail ?? "",
    clientCompany: typed.clientCompany,
    clientAddress: typed.clientAddress,
    clientTaxId: typed.clientTaxId,
    clientTaxScheme: typed.clientTaxScheme,
    clientPostalAddress: typed.clientPostalAddress,
    clientIsBusiness: typed.clientIsBusiness,
    language: null,
  });
}
