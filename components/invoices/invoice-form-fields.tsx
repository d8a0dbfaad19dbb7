"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import type { UseFormRegister } from "react-hook-form";
import type { SavedClient } from "@/components/clients/types";
import { AddressFields } from "@/components/ui/address-fields";
import { Button, textLinkClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, OptionsSelect, Select, TextArea } from "@/components/ui/field";
import { LanguageOptions } from "@/components/ui/language-options";
import { CURRENCY_OPTIONS, NETWORK_OPTIONS, priceOptions } from "@/components/ui/options";
import { TaxSchemeOptions } from "@/components/ui/tax-scheme-options";
import { TotalsList } from "@/components/ui/totals";
import type { AddressValues } from "@/lib/client/address-form";
import type { InvoiceFormValues, LiveTotals, TextKey } from "@/lib/client/invoice-form";
import { termsWords } from "@/lib/client/profile-defaults";
import { useResource } from "@/lib/client/use-resource";
import { TAX_CATEGORY_NOTES } from "@/lib/domain/tax-categories";
import { formatAmount, formatFiat } from "@/lib/format";
import type { ProfileBody } from "@/lib/schemas/profile";

type Registered = ReturnType<UseFormRegister<InvoiceFormValues>>;

/** A text box's props: react-hook-form's registration and its message. */
export type TextProps = (key: TextKey) => Registered & { error?: string };

const grid = "grid grid-cols-1 gap-4 sm:grid-cols-2";

/** The client: picked from the saved ones or typed, and kept for next time if asked. */
export function ClientFields({
  text,
  saveBoxes,
  emailBox,
  taxBoxes,
  onPick,
  link,
}: {
  text: TextProps;
  /** The "save client" and "favorite" boxes, on a new invoice only. */
  saveBoxes?: { saveClient: Registered; favoriteClient: Registered };
  /** "Email the invoice to this client". */
  emailBox: Registered;
  /** The buyer's tax scheme and "is a business" (docs/decisions.md, Tax identities). */
  taxBoxes?: {
    clientTaxScheme: Registered & { error?: string };
    clientIsBusiness: Registered;
    /** A box of the buyer's structured address, with its message. */
    clientPostalAddress: (box: keyof AddressValues) => Registered & { error?: string };
    /** The documents' language (docs/decisions.md, Languages). */
    language?: Registered & { error?: string };
  };
  onPick: (client: SavedClient) => void;
  /**
   * The saved client stays linked (a recurring template's `clientId`): the picker shows it,
   * choosing none unlinks it, and the hint says what the link means.
   */
  link?: { clientId: string | null; onUnlink: () => void; hint: string; error?: string };
}) {
  const { data: clients, loading } = useResource<SavedClient[]>("/api/clients");
  // A linked client's details as they are now: an edit starts from its id alone. One that
  // is gone stays linked, and the server's 400 says so beside the picker.
  const linkedId = link?.clientId ?? null;
  const filled = useRef<string | null>(null);
  const gone = linkedId !== null && clients !== null && !clients.some((c) => c.id === linkedId);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per client list and link
  useEffect(() => {
    const c = clients?.find((x) => x.id === linkedId);
    if (!c || filled.current === c.id) return;
    filled.current = c.id;
    onPick(c);
  }, [clients, linkedId]);
  return (
    <Card title="Client">
      <div className={grid}>
        <Select
          label="Saved client"
          id="savedClient"
          {...(link ? { value: link.clientId ?? "" } : { defaultValue: "" })}
          hint={link?.clientId ? <Hint>{link.hint}</Hint> : undefined}
          error={link?.error}
          onChange={(e) => {
            const c = clients?.find((x) => x.id === e.target.value);
            if (c) onPick(c);
            else link?.onUnlink();
          }}
          disabled={!clients || (clients.length === 0 && !gone)}
          className="sm:col-span-2"
        >
          <option value="">
            {loading && !clients
              ? "Loading saved clients…"
              : clients && clients.length > 0
                ? "Choose a saved client (optional)"
                : "No saved clients yet"}
          </option>
          {clients?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.isFavorite ? "★ " : ""}
              {c.name} ({c.email})
            </option>
          ))}
          {gone && <option value={linkedId ?? ""}>A saved client that was deleted</option>}
        </Select>
        <Field label="Client name" required autoComplete="off" {...text("clientName")} />
        <Field
          label="Client email"
          type="email"
          required
          autoComplete="off"
          {...text("clientEmail")}
        />
        <Field label="Client company" autoComplete="off" {...text("clientCompany")} />
        <TextArea label="Client address" rows={2} {...text("clientAddress")} />
        {taxBoxes && (
          <details
            className="rounded-md border border-slate-200 p-3 sm:col-span-2 dark:border-slate-700"
            data-testid="client-tax"
          >
            <summary className="cursor-pointer text-sm font-medium text-slate-700 dark:text-slate-200">
              Client's tax registration, address and language
            </summary>
            <div className={`${grid} mt-3`}>
              <Select label="Client tax number type" {...taxBoxes.clientTaxScheme}>
                <TaxSchemeOptions />
              </Select>
              <Field
                label="Client tax ID"
                autoComplete="off"
                {...text("clientTaxId")}
                hint={<Hint>e.g. FR40303265045: checked for its type, printed on the PDF.</Hint>}
              />
              <div className="sm:col-span-2">
                <Checkbox
                  label="The client is a business"
                  hint="A VAT-registered business in another EU country may be reverse charged."
                  {...taxBoxes.clientIsBusiness}
                />
              </div>
              <AddressFields autoComplete={false} field={taxBoxes.clientPostalAddress} />
              {taxBoxes.language && (
                <Select
                  label="Invoice language"
                  {...taxBoxes.language}
                  hint={<Hint>The PDF, the emails and the checkout page the client reads.</Hint>}
                >
                  <LanguageOptions none="Client's, else your profile's (English)" />
                </Select>
              )}
            </div>
          </details>
        )}
        <div className="sm:col-span-2">
          <Checkbox
            label="Email the invoice to this client"
            hint="When it is sent: the invoice with its PDF and a Pay now link, then a receipt for each payment and the reminders."
            {...emailBox}
          />
        </div>
        {saveBoxes && (
          <div className="flex flex-wrap gap-x-6 gap-y-2 sm:col-span-2">
            <Checkbox
              label="Save client"
              hint="Keep this client for your next invoices."
              {...saveBoxes.saveClient}
            />
            <Checkbox
              label="Mark as favorite"
              hint="Favorites come first in your client list."
              {...saveBoxes.favoriteClient}
            />
          </div>
        )}
      </div>
    </Card>
  );
}

/** How the invoice is priced: the "Price in" choice and, for USD or EUR, the quote lifetime. */
export type PricingProps = {
  /** The asset chosen (its code names the first option). */
  asset: string;
  /** "" or USD / EUR, as chosen. */
  value: string;
  priceCurrency: Registered;
  quoteTtlMinutes: Registered;
  priceError?: string;
  ttlError?: string;
};

/** Title, number, currency, pricing, network, due date and summary. */
export function InvoiceFields({
  text,
  editing,
  template = false,
  currency,
  pricing,
  network,
  networkError,
  paymentTermsDays,
}: {
  text: TextProps;
  editing: boolean;
  /** A recurring invoice's template: each invoice gets its own number and due date. */
  template?: boolean;
  currency: Registered;
  pricing: PricingProps;
  network: Registered;
  networkError?: string;
  /** The profile's payment terms (a new invoice): the due date's hint names them. */
  paymentTermsDays?: number | null;
}) {
  const fiat = pricing.value !== "";
  const terms = termsWords(paymentTermsDays);
  return (
    <Card title="Invoice">
      <div className={grid}>
        <Field
          label="Title"
          {...text("title")}
          required={editing}
          hint={
            editing ? undefined : <Hint>Optional: “Invoice &lt;number&gt;” when left blank.</Hint>
          }
        />
        {!template && (
          <Field
            label="Invoice number (optional)"
            {...text("invoiceNumber")}
            placeholder="INV-0001"
            hint={<Hint>Left blank, the next number is given. It becomes the payment memo.</Hint>}
          />
        )}
        <OptionsSelect
          label={fiat ? "Paid in" : "Currency"}
          options={CURRENCY_OPTIONS}
          {...currency}
        />
        <OptionsSelect
          label="Price in"
          options={priceOptions(pricing.asset)}
          error={pricing.priceError}
          hint={
            <Hint>
              {fiat
                ? `Amounts in ${pricing.value}; the client pays ${pricing.asset} at a rate locked when they pay.`
                : "Or price in USD or EUR and be paid in the asset at the day's rate."}
            </Hint>
          }
          {...pricing.priceCurrency}
        />
        {fiat && (
          <Field
            label="Quote lifetime (minutes)"
            inputMode="numeric"
            error={pricing.ttlError}
            hint={<Hint>1 to 120. How long the client has to pay at a locked rate.</Hint>}
            {...pricing.quoteTtlMinutes}
          />
        )}
        <OptionsSelect
          label="Network"
          options={NETWORK_OPTIONS}
          error={networkError}
          {...network}
        />
        {!template && (
          <Field
            label="Due date"
            type="date"
            {...text("dueDate")}
            hint={
              <Hint>
                {terms
                  ? `${terms}: your profile's payment terms. A UTC date; change it or clear it.`
                  : "Optional. A UTC date."}
              </Hint>
            }
          />
        )}
        <Field
          label="Reminder days"
          placeholder="-3, 0, 7"
          {...text("reminders")}
          hint={
            <Hint>
              Emailed to the client until paid: -3 is 3 days before the due date, 7 a week late.
              Blank: your profile's default reminders.
            </Hint>
          }
        />
        <TextArea
          label="Invoice summary"
          rows={2}
          {...text("description")}
          className="sm:col-span-2"
        />
      </div>
    </Card>
  );
}

/** Tax and discount beside the live totals (computed as the service will store them). */
export function TaxAndTotals({
  text,
  live,
  currency,
  fiat = false,
  explain,
  reverseCharge,
}: {
  text: TextProps;
  live: LiveTotals;
  /** Offered for a business client in another EU country (docs/decisions.md, Tax per line). */
  reverseCharge?: { offer: boolean; applied: boolean; apply: () => void; remove: () => void };
  /** The code amounts are in: the price currency when `fiat`, else the asset. */
  currency: string;
  fiat?: boolean;
  explain: string;
}) {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Card title="Tax and discount">
        {reverseCharge && (reverseCharge.offer || reverseCharge.applied) && (
          <div
            className="mb-4 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm dark:border-indigo-800 dark:bg-indigo-950"
            data-testid="reverse-charge"
          >
            {reverseCharge.applied ? (
              <>
                <p>
                  Reverse charge applied: every line is at 0 %, and the invoice says “
                  {TAX_CATEGORY_NOTES.AE}”.
                </p>
                <Button variant="secondary" className="mt-2" onClick={reverseCharge.remove}>
                  Charge VAT instead
                </Button>
              </>
            ) : (
              <>
                <p>
                  Your client is a VAT-registered business in another EU country: reverse charge
                  usually applies (no VAT on the invoice; the client accounts for it).
                </p>
                <Button variant="secondary" className="mt-2" onClick={reverseCharge.apply}>
                  Apply reverse charge
                </Button>
              </>
            )}
          </div>
        )}
        <div className={grid}>
          <Field label="Tax rate (%)" inputMode="decimal" placeholder="0" {...text("taxRate")} />
          <Field
            label="Discount"
            inputMode="decimal"
            placeholder="0"
            {...text("discount")}
            hint={<Hint>An amount in {currency}, not a percent.</Hint>}
          />
          <Field
            label="Payment tolerance (%)"
            inputMode="decimal"
            placeholder="0"
            {...text("paymentTolerance")}
            className="sm:col-span-2"
            hint={
              <Hint>
                Optional, 0 to 5. The invoice counts as paid when the payments reach the total less
                this percent (for exchange fees).
              </Hint>
            }
          />
        </div>
      </Card>
      <section
        aria-label="Totals"
        className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <h2 className="mb-3 text-base font-semibold">Totals</h2>
        <TotalsList
          totals={live.ok ? live.totals : null}
          money={(amount) => (fiat ? formatFiat(amount, currency) : formatAmount(amount, currency))}
          showAll
          valueClassName="font-mono break-all"
        />
        <p aria-live="polite" className="mt-2 text-xs text-slate-600 dark:text-slate-300">
          {explain}
        </p>
      </section>
    </div>
  );
}

/**
 * The freelancer's own details and notes, printed on the invoice. A new invoice shows the
 * profile's (filled in by the form, editable here) and the address and tax id the documents
 * print from the profile.
 */
export function FromYouFields({ text, profile }: { text: TextProps; profile?: ProfileBody }) {
  const printed = [profile?.address, profile?.taxId ? `Tax id ${profile.taxId}` : null].filter(
    Boolean,
  );
  return (
    <Card title="From you">
      {profile && (
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300" data-testid="from-you">
          {printed.length > 0 ? (
            <>
              From your profile, printed on the invoice:{" "}
              <span className="whitespace-pre-line text-slate-900 dark:text-slate-100">
                {printed.join("\n")}
              </span>
              .{" "}
            </>
          ) : (
            "From your profile. "
          )}
          <Link href="/settings/profile" className={textLinkClass}>
            Edit your profile
          </Link>
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Field label="Your name" autoComplete="name" {...text("freelancerName")} />
        <Field label="Your email" type="email" autoComplete="email" {...text("freelancerEmail")} />
        <Field label="Your company" autoComplete="organization" {...text("freelancerCompany")} />
        <TextArea label="Notes" rows={2} {...text("notes")} className="sm:col-span-3" />
        <Field
          label="Payment terms"
          placeholder="Net 30"
          {...text("paymentTerms")}
          className="sm:col-span-3"
        />
        <Field
          label="Buyer reference (Leitweg-ID)"
          {...text("buyerReference")}
          hint={<Hint>The client&apos;s reference for this invoice; XRechnung needs one.</Hint>}
          className="sm:col-span-3"
        />
      </div>
    </Card>
  );
}
