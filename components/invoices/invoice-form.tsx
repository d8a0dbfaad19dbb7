"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Button, buttonClass } from "@/components/ui/button";
import { errorDetails } from "@/lib/client/api";
import {
  type DraftInvoice,
  type InvoiceFormOutput,
  type InvoiceFormValues,
  initialValues,
  invoiceFormSchema,
  requestBody,
} from "@/lib/client/invoice-form";
import { profileFormDefaults } from "@/lib/client/profile-defaults";
import { errorMessage, useApi } from "@/lib/client/session";
import { useResource } from "@/lib/client/use-resource";
import { reverseChargeApplies } from "@/lib/domain/address";
import { TAX_CATEGORY_NOTES } from "@/lib/domain/tax-categories";
import type { ProfileBody } from "@/lib/schemas/profile";
import { ClientFields, FromYouFields, InvoiceFields, TaxAndTotals } from "./invoice-form-fields";
import { LineItemsEditor } from "./line-items-editor";
import { FormRecipientReadiness } from "./recipient-readiness";
import type { OwnerInvoice } from "./types";
import { ServerErrorBox, useInvoiceFields } from "./use-invoice-fields";

/** Detail keys the form shows beside a field; any other is listed in the error box. */
const FORM_KEYS = new Set([
  ...Object.keys(initialValues(undefined, "testnet")),
  "networkPassphrase",
]);
const isShownInline = (key: string) => FORM_KEYS.has(key) || /^lineItems\.\d+\.\w+$/.test(key);

/**
 * New invoice or draft edit, on react-hook-form. The rules are the API's request schemas
 * (lib/client/invoice-form.ts), so a message here is the one the API would answer; the totals
 * are computed live by the service's own code. A server refusal is shown at the top (and
 * focused: the button is at the bottom of a long form) with its details beside their fields,
 * each cleared as that field changes.
 */
export function InvoiceForm({
  invoice,
  quote,
}: {
  /** The draft edited (an invoice's owner view, or a draft quote's: components/quotes). */
  invoice?: DraftInvoice & { id: string };
  /**
   * A quote (components/quotes/quote-form.tsx): the same form, as a template (no number, no
   * due date: the invoice gets them when the client accepts), with the quote's own terms.
   */
  quote?: { terms: ReactNode; extra: () => Record<string, unknown> };
}) {
  const editing = invoice !== undefined;
  const api = useApi();
  const router = useRouter();
  const [preferred, , preferenceReady] = usePreferredNetwork();
  const form = useForm<InvoiceFormValues, unknown, InvoiceFormOutput>({
    resolver: zodResolver(invoiceFormSchema(editing)),
    defaultValues: initialValues(invoice, preferred),
  });
  const { register, control, setValue, handleSubmit } = form;
  const { isSubmitting } = form.formState;
  const fields = useInvoiceFields(form);
  const { server, setServer, live, errorFor, text, amountsProblem } = fields;
  const [saved, setSaved] = useState(false);
  const touchedNetwork = useRef(false);

  // A new invoice shows what the profile gives it (docs/decisions.md, Profile): "From you" and
  // the due date of its payment terms filled in, by the rule creation applies, in any field
  // still blank and untouched.
  // An edit reads it too: whether reverse charge applies depends on the seller's VAT number.
  const { data: profile } = useResource<ProfileBody>("/api/profile");
  useEffect(() => {
    if (!profile || editing) return;
    const defaults = profileFormDefaults(profile, new Date());
    for (const key of Object.keys(defaults) as (keyof typeof defaults)[]) {
      const value = defaults[key];
      if (value && form.getValues(key) === "" && !form.getFieldState(key).isDirty) {
        setValue(key, value);
      }
    }
  }, [profile, editing, form, setValue]);

  // Reverse charge (docs/decisions.md, Tax per line): offered for a business client with an EU
  // VAT number in another member state; applying it makes every line AE at 0 % with its note.
  const [clientTaxId, clientTaxScheme, clientIsBusiness] = useWatch({
    control,
    name: ["clientTaxId", "clientTaxScheme", "clientIsBusiness"],
  });
  const reverseCharge = {
    offer: reverseChargeApplies(
      { taxId: profile?.taxId ?? null, taxScheme: profile?.taxScheme ?? null },
      { taxId: clientTaxId, taxScheme: clientTaxScheme || null, isBusiness: clientIsBusiness },
    ),
    applied: fields.rows.length > 0 && fields.rows.every((r) => r.taxCategory === "AE"),
    apply: () =>
      setValue(
        "lineItems",
        form.getValues("lineItems").map((r) => ({
          ...r,
          taxCategory: "AE",
          taxRate: "0",
          exemptionReason: TAX_CATEGORY_NOTES.AE,
        })),
        { shouldDirty: true },
      ),
    remove: () =>
      setValue(
        "lineItems",
        form
          .getValues("lineItems")
          .map(
            ({
              taxCategory: _c,
              taxRate: _r,
              exemptionReason: _e,
              exemptionReasonCode: _x,
              ...r
            }) => r,
          ),
        { shouldDirty: true },
      ),
  };

  // A new invoice starts on the network chosen on the dashboard (read after mount).
  useEffect(() => {
    if (!editing && preferenceReady && !touchedNetwork.current) setValue("network", preferred);
  }, [editing, preferenceReady, preferred, setValue]);

  async function save(values: InvoiceFormOutput) {
    const problem = amountsProblem();
    setServer(problem);
    if (problem) return;
    try {
      const body = requestBody(values, invoice);
      if (quote) {
        // The quote's body is the invoice's template (lib/schemas/quotes.ts).
        const {
          invoiceNumber: _n,
          dueDate: _d,
          saveClient: _s,
          favoriteClient: _f,
          ...rest
        } = body;
        const made = await api<{ id: string }>(
          editing ? `/api/quotes/${invoice.id}` : "/api/quotes",
          { method: editing ? "PATCH" : "POST", body: { ...rest, ...quote.extra() } },
        );
        setSaved(true);
        router.push(`/quotes/${made.id}`);
        return;
      }
      const method = editing ? "PATCH" : "POST";
      const path = editing ? `/api/invoices/${invoice.id}` : "/api/invoices";
      const result = await api<OwnerInvoice>(path, { method, body });
      setSaved(true);
      router.push(`/invoices/${result.id}`);
    } catch (err) {
      setServer({ message: errorMessage(err), details: errorDetails(err) });
    }
  }

  const busy = isSubmitting || saved;

  return (
    <form
      onSubmit={handleSubmit(save, () => setServer(amountsProblem()))}
      noValidate
      className="space-y-6"
      aria-label={
        quote ? (editing ? "Edit quote" : "New quote") : editing ? "Edit invoice" : "New invoice"
      }
    >
      <ServerErrorBox server={server} isShownInline={isShownInline} />

      <ClientFields
        text={text}
        emailBox={register("emailClient")}
        taxBoxes={{
          clientTaxScheme: {
            ...register("clientTaxScheme"),
            error: fields.errorFor("clientTaxScheme"),
          },
          clientIsBusiness: register("clientIsBusiness"),
          clientPostalAddress: (box) => ({
            ...register(`clientPostalAddress.${box}`),
            error:
              fields.errorFor(`clientPostalAddress.${box}`) ??
              fields.errorFor("clientPostalAddress"),
          }),
          language: { ...register("language"), error: fields.errorFor("language") },
        }}
        onPick={fields.pickClient}
        saveBoxes={
          editing || quote
            ? undefined
            : {
                saveClient: register("saveClient", {
                  onChange: (e) => !e.target.checked && setValue("favoriteClient", false),
                }),
                favoriteClient: register("favoriteClient", {
                  onChange: (e) => e.target.checked && setValue("saveClient", true),
                }),
              }
        }
      />
      <InvoiceFields
        text={text}
        editing={editing}
        template={quote !== undefined}
        currency={register("currency")}
        pricing={{
          asset: fields.currency,
          value: fields.priceCurrency,
          priceCurrency: register("priceCurrency"),
          quoteTtlMinutes: register("quoteTtlMinutes"),
          priceError: errorFor("priceCurrency"),
          ttlError: errorFor("quoteTtlMinutes"),
        }}
        network={register("network", { onChange: () => (touchedNetwork.current = true) })}
        networkError={errorFor("networkPassphrase") ?? errorFor("network")}
        paymentTermsDays={profile?.paymentTermsDays}
      />
      {quote?.terms}
      <LineItemsEditor
        form={form}
        live={live}
        errorFor={errorFor}
        onRemoved={() => setServer((s) => s && { ...s, details: {} })}
      />
      <TaxAndTotals
        text={text}
        live={live}
        currency={fields.priceCurrency || fields.currency}
        fiat={fields.priceCurrency !== ""}
        explain={fields.totalsExplain}
        reverseCharge={reverseCharge}
      />
      <FromYouFields text={text} profile={editing ? undefined : (profile ?? undefined)} />
      <FormRecipientReadiness control={control} live={live} />

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {editing ? "Save changes" : quote ? "Create quote" : "Create invoice"}
        </Button>
        <Link
          href={
            quote
              ? editing
                ? `/quotes/${invoice.id}`
                : "/quotes"
              : editing
                ? `/invoices/${invoice.id}`
                : "/invoices"
          }
          className={buttonClass("secondary")}
        >
          Back without saving
        </Link>
      </div>
    </form>
  );
}
