"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { type FieldError, get, useForm, useWatch } from "react-hook-form";
import type { SavedClient } from "@/components/clients/types";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Button, buttonClass } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { errorDetails } from "@/lib/client/api";
import {
  type InvoiceFormOutput,
  type InvoiceFormValues,
  initialValues,
  invoiceFormSchema,
  liveTotals,
  readable,
  requestBody,
  type TextKey,
} from "@/lib/client/invoice-form";
import { profileFormDefaults } from "@/lib/client/profile-defaults";
import { errorMessage, useApi } from "@/lib/client/session";
import { useResource } from "@/lib/client/use-resource";
import type { ProfileBody } from "@/lib/schemas/profile";
import { ClientFields, FromYouFields, InvoiceFields, TaxAndTotals } from "./invoice-form-fields";
import { LineItemsEditor } from "./line-items-editor";
import { FormRecipientReadiness } from "./recipient-readiness";
import type { OwnerInvoice } from "./types";

type ServerError = { message: string; details: Record<string, string> };

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
export function InvoiceForm({ invoice }: { invoice?: OwnerInvoice }) {
  const editing = invoice !== undefined;
  const api = useApi();
  const router = useRouter();
  const [preferred, , preferenceReady] = usePreferredNetwork();
  const form = useForm<InvoiceFormValues, unknown, InvoiceFormOutput>({
    resolver: zodResolver(invoiceFormSchema(editing)),
    defaultValues: initialValues(invoice, preferred),
  });
  const { register, control, setValue, watch, handleSubmit } = form;
  const { errors, isSubmitting, isSubmitted } = form.formState;
  const [server, setServer] = useState<ServerError | null>(null);
  const [saved, setSaved] = useState(false);
  const touchedNetwork = useRef(false);
  const errorBox = useRef<HTMLDivElement>(null);

  // A new invoice shows what the profile gives it (docs/decisions.md, Profile): "From you" and
  // the due date of its payment terms filled in, by the rule creation applies, in any field
  // still blank and untouched.
  const { data: profile } = useResource<ProfileBody>(editing ? null : "/api/profile");
  useEffect(() => {
    if (!profile) return;
    const defaults = profileFormDefaults(profile, new Date());
    for (const key of Object.keys(defaults) as (keyof typeof defaults)[]) {
      const value = defaults[key];
      if (value && form.getValues(key) === "" && !form.getFieldState(key).isDirty) {
        setValue(key, value);
      }
    }
  }, [profile, form, setValue]);

  // A new invoice starts on the network chosen on the dashboard (read after mount).
  useEffect(() => {
    if (!editing && preferenceReady && !touchedNetwork.current) setValue("network", preferred);
  }, [editing, preferenceReady, preferred, setValue]);

  // A server detail goes once its field changes.
  useEffect(() => {
    const { unsubscribe } = watch((_, { name }) => {
      if (!name || name === "lineItems") return;
      const key = name === "network" ? "networkPassphrase" : name;
      setServer((s) => {
        if (!s || !(key in s.details)) return s;
        const { [key]: _gone, ...details } = s.details;
        return { ...s, details };
      });
    });
    return unsubscribe;
  }, [watch]);

  // A failed submit brings its message into view.
  useEffect(() => {
    if (server?.message) errorBox.current?.focus();
  }, [server?.message]);

  const [rows, taxRate, discount, currency, priceCurrency] = useWatch({
    control,
    name: ["lineItems", "taxRate", "discount", "currency", "priceCurrency"],
  });
  const live = useMemo(
    () => liveTotals(rows, taxRate, discount, priceCurrency),
    [rows, taxRate, discount, priceCurrency],
  );

  /** Server detail, else the live totals' (once typed in or submitted), else the schema's. */
  function errorFor(key: string, value = "x"): string | undefined {
    const liveDetail = live.ok ? undefined : live.details[key];
    const shown =
      liveDetail && (isSubmitted || value.trim() !== "") ? readable(liveDetail) : undefined;
    const at = (path: string) => (get(errors, path) as FieldError | undefined)?.message;
    const schema = at(key) ?? at(`${key}.root`);
    return server?.details[key] ?? shown ?? (schema && readable(schema, key));
  }
  const text = (key: TextKey) => ({ ...register(key), error: errorFor(key) });

  const amountsProblem = () =>
    live.ok ? null : { message: `Check the amounts: ${live.message}`, details: {} };

  async function save(values: InvoiceFormOutput) {
    const problem = amountsProblem();
    setServer(problem);
    if (problem) return;
    try {
      const body = requestBody(values, invoice);
      const method = editing ? "PATCH" : "POST";
      const path = editing ? `/api/invoices/${invoice.id}` : "/api/invoices";
      const result = await api<OwnerInvoice>(path, { method, body });
      setSaved(true);
      router.push(`/invoices/${result.id}`);
    } catch (err) {
      setServer({ message: errorMessage(err), details: errorDetails(err) });
    }
  }

  function pickClient(c: SavedClient) {
    const options = { shouldDirty: true };
    setValue("clientName", c.name, options);
    setValue("clientEmail", c.email, options);
    setValue("clientCompany", c.company ?? "", options);
    setValue("clientAddress", c.address ?? "", options);
  }

  const otherDetails = Object.entries(server?.details ?? {}).filter(([k]) => !isShownInline(k));
  const busy = isSubmitting || saved;

  return (
    <form
      onSubmit={handleSubmit(save, () => setServer(amountsProblem()))}
      noValidate
      className="space-y-6"
      aria-label={editing ? "Edit invoice" : "New invoice"}
    >
      {server && (
        <div ref={errorBox} tabIndex={-1} className="focus:outline-none">
          <Alert>
            <p>{server.message}</p>
            {otherDetails.length > 0 && (
              <ul className="mt-1 list-disc pl-5">
                {otherDetails.map(([k, m]) => (
                  <li key={k}>
                    {k}: {m}
                  </li>
                ))}
              </ul>
            )}
          </Alert>
        </div>
      )}

      <ClientFields
        text={text}
        emailBox={register("emailClient")}
        onPick={pickClient}
        saveBoxes={
          editing
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
        currency={register("currency")}
        pricing={{
          asset: currency,
          value: priceCurrency,
          priceCurrency: register("priceCurrency"),
          quoteTtlMinutes: register("quoteTtlMinutes"),
          priceError: errorFor("priceCurrency"),
          ttlError: errorFor("quoteTtlMinutes"),
        }}
        network={register("network", { onChange: () => (touchedNetwork.current = true) })}
        networkError={errorFor("networkPassphrase") ?? errorFor("network")}
        paymentTermsDays={profile?.paymentTermsDays}
      />
      <LineItemsEditor
        form={form}
        live={live}
        errorFor={errorFor}
        onRemoved={() => setServer((s) => s && { ...s, details: {} })}
      />
      <TaxAndTotals
        text={text}
        live={live}
        currency={priceCurrency || currency}
        fiat={priceCurrency !== ""}
        explain={
          live.ok
            ? "Computed exactly as the service will store it."
            : isSubmitted || rows.every((r) => r.rate.trim() !== "")
              ? live.message
              : "Enter a quantity and a rate on every line to see the total."
        }
      />
      <FromYouFields text={text} profile={editing ? undefined : (profile ?? undefined)} />
      <FormRecipientReadiness control={control} live={live} />

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {editing ? "Save changes" : "Create invoice"}
        </Button>
        <Link
          href={editing ? `/invoices/${invoice.id}` : "/invoices"}
          className={buttonClass("secondary")}
        >
          Back without saving
        </Link>
      </div>
    </form>
  );
}
