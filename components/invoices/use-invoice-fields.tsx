"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { type FieldError, get, type UseFormReturn, useWatch } from "react-hook-form";
import type { SavedClient } from "@/components/clients/types";
import { Alert } from "@/components/ui/card";
import { addressBoxes } from "@/lib/client/address-form";
import {
  type InvoiceFormOutput,
  type InvoiceFormValues,
  liveTotals,
  readable,
  type TextKey,
} from "@/lib/client/invoice-form";

/** A server refusal: its message and the per-field details of its 400. */
export type ServerError = { message: string; details: Record<string, string> };

export type InvoiceFormApi = UseFormReturn<InvoiceFormValues, unknown, InvoiceFormOutput>;

/**
 * What every form built from the invoice's fields shares (the invoice form, the recurring
 * invoice's template): the server's refusal, each detail cleared as its field changes; the
 * live totals from the service's own code; each field's message (the server's detail, else
 * the live totals', else the schema's); filling the client from a saved one.
 */
export function useInvoiceFields(form: InvoiceFormApi) {
  const { register, control, setValue, watch } = form;
  const { errors, isSubmitted } = form.formState;
  const [server, setServer] = useState<ServerError | null>(null);

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

  /** Amounts the totals refuse: the form is not sent. */
  const amountsProblem = (): ServerError | null =>
    live.ok ? null : { message: `Check the amounts: ${live.message}`, details: {} };

  /** The totals' caption: how they are computed, or what they are waiting for. */
  const totalsExplain = live.ok
    ? "Computed exactly as the service will store it."
    : isSubmitted || rows.every((r) => r.rate.trim() !== "")
      ? live.message
      : "Enter a quantity and a rate on every line to see the total.";

  function pickClient(c: SavedClient) {
    const options = { shouldDirty: true };
    setValue("clientName", c.name, options);
    setValue("clientEmail", c.email, options);
    setValue("clientCompany", c.company ?? "", options);
    setValue("clientAddress", c.address ?? "", options);
    // The saved client's tax identity (docs/decisions.md, Tax identities).
    setValue("clientTaxId", c.taxId ?? "", options);
    setValue("clientTaxScheme", c.taxScheme ?? "", options);
    setValue("clientIsBusiness", c.isBusiness ?? false, options);
    setValue("clientPostalAddress", addressBoxes(c.postalAddress), options);
    // The client's language when it has one (docs/decisions.md, Languages).
    setValue("language", c.language ?? "", options);
    // Its default buyer reference (BT-10, an XRechnung's Leitweg-ID); the box may change it.
    setValue("buyerReference", c.buyerReference ?? "", options);
  }

  return {
    server,
    setServer,
    rows,
    currency,
    priceCurrency,
    live,
    errorFor,
    text,
    amountsProblem,
    totalsExplain,
    pickClient,
  };
}

/**
 * The server's refusal at the top of a form, focused (the button is at the bottom of a long
 * form); the details no field shows are listed in it.
 */
export function ServerErrorBox({
  server,
  isShownInline,
}: {
  server: ServerError | null;
  isShownInline: (key: string) => boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (server?.message) box.current?.focus();
  }, [server?.message]);
  if (!server) return null;
  const otherDetails = Object.entries(server.details).filter(([k]) => !isShownInline(k));
  return (
    <div ref={box} tabIndex={-1} className="focus:outline-none">
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
  );
}
