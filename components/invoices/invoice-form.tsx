"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, type Ref, useEffect, useId, useMemo, useRef, useState } from "react";
import type { SavedClient } from "@/components/clients/types";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, Select, TextArea } from "@/components/ui/field";
import { ApiError } from "@/lib/client/api";
import { errorMessage, useApi } from "@/lib/client/session";
import { ValidationError } from "@/lib/domain/errors";
import { CURRENCIES, type Currency, computeTotals, type Totals } from "@/lib/domain/money";
import { Checkbox, Hint, linkButtonClass } from "./controls";
import {
  formatAmount,
  NETWORK_LABELS,
  NETWORK_NAMES,
  NETWORK_PASSPHRASES,
  type NetworkName,
  networkOf,
} from "./format";
import type { OwnerInvoice } from "./types";
import { useResource } from "./use-resource";

type Row = { key: string; description: string; quantity: string; rate: string };

type Values = {
  clientName: string;
  clientEmail: string;
  clientCompany: string;
  clientAddress: string;
  title: string;
  description: string;
  notes: string;
  invoiceNumber: string;
  currency: Currency;
  network: NetworkName;
  taxRate: string;
  discount: string;
  dueDate: string;
  freelancerName: string;
  freelancerEmail: string;
  freelancerCompany: string;
  saveClient: boolean;
  favoriteClient: boolean;
};

type TextKey = Exclude<keyof Values, "currency" | "network" | "saveClient" | "favoriteClient">;

let rowCounter = 0;
const newRow = (init: Partial<Row> = {}): Row => ({
  key: `row-${++rowCounter}`,
  description: "",
  quantity: "1",
  rate: "",
  ...init,
});

/** "10.00" -> "10", "0.0000000" -> "0": the server's canonical form, shortened for editing. */
const trimZeros = (s: string | null | undefined) =>
  s ? s.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "") : "";
const isZero = (s: string | null | undefined) => !s || /^0*(\.0*)?$/.test(s);

function valuesFrom(invoice: OwnerInvoice | undefined, network: NetworkName): Values {
  return {
    clientName: invoice?.clientName ?? "",
    clientEmail: invoice?.clientEmail ?? "",
    clientCompany: invoice?.clientCompany ?? "",
    clientAddress: invoice?.clientAddress ?? "",
    title: invoice?.title ?? "",
    description: invoice?.description ?? "",
    notes: invoice?.notes ?? "",
    invoiceNumber: invoice?.invoiceNumber ?? "",
    currency: invoice?.currency ?? "USDC",
    network: invoice ? networkOf(invoice.networkPassphrase) : network,
    taxRate: invoice && !isZero(invoice.taxRate) ? trimZeros(invoice.taxRate) : "",
    discount: invoice && !isZero(invoice.discount) ? trimZeros(invoice.discount) : "",
    dueDate: invoice?.dueDate ? invoice.dueDate.slice(0, 10) : "",
    freelancerName: invoice?.freelancerName ?? "",
    freelancerEmail: invoice?.freelancerEmail ?? "",
    freelancerCompany: invoice?.freelancerCompany ?? "",
    saveClient: false,
    favoriteClient: false,
  };
}

const FIELD_LABELS: Record<string, string> = {
  quantity: "Quantity",
  rate: "Rate",
  amount: "Amount",
  taxRate: "Tax rate",
  discount: "Discount",
  subtotal: "Subtotal",
  total: "Total",
  lineItems: "Line items",
};

/** "lineItems.0.rate must not be negative" -> "Rate must not be negative". */
function readable(message: string): string {
  return message.replace(/^([\w.]+)(?= )/, (path) => {
    const last = path.split(".").pop() ?? path;
    return FIELD_LABELS[last] ?? FIELD_LABELS[path] ?? path;
  });
}

type Live =
  | { ok: true; totals: Totals }
  | { ok: false; message: string; details: Record<string, string> };

/** The same computeTotals the server runs: what is shown here is what will be stored. */
function liveTotals(rows: Row[], taxRate: string, discount: string): Live {
  try {
    return {
      ok: true,
      totals: computeTotals({
        lineItems: rows.map((r) => ({ quantity: r.quantity.trim(), rate: r.rate.trim() })),
        taxRate: taxRate.trim() === "" ? null : taxRate.trim(),
        discount: discount.trim() === "" ? null : discount.trim(),
      }),
    };
  } catch (err) {
    if (err instanceof ValidationError) {
      return { ok: false, message: readable(err.message), details: err.details ?? {} };
    }
    throw err;
  }
}

const KNOWN_FIELDS = new Set<string>([
  "clientName",
  "clientEmail",
  "clientCompany",
  "clientAddress",
  "title",
  "description",
  "notes",
  "invoiceNumber",
  "currency",
  "networkPassphrase",
  "taxRate",
  "discount",
  "dueDate",
  "freelancerName",
  "freelancerEmail",
  "freelancerCompany",
]);
const isShownInline = (key: string) => KNOWN_FIELDS.has(key) || /^lineItems\.\d+\.\w+$/.test(key);

export function InvoiceForm({ invoice }: { invoice?: OwnerInvoice }) {
  const editing = invoice !== undefined;
  const api = useApi();
  const router = useRouter();
  const [preferred, , preferenceReady] = usePreferredNetwork();
  const [values, setValues] = useState<Values>(() => valuesFrom(invoice, preferred));
  const [rows, setRows] = useState<Row[]>(() =>
    invoice?.lineItems.length
      ? invoice.lineItems.map((i) =>
          newRow({
            description: i.description,
            quantity: trimZeros(i.quantity),
            rate: trimZeros(i.rate),
          }),
        )
      : [newRow()],
  );
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<{
    message: string;
    details: Record<string, string>;
  } | null>(null);
  const [pickedClient, setPickedClient] = useState("");
  const clients = useResource<SavedClient[]>("/api/clients");
  const touchedNetwork = useRef(false);
  const lastRowRef = useRef<HTMLInputElement>(null);
  const focusNewRow = useRef(false);
  const addRowArea = useRef<HTMLDivElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  // A new invoice starts on the network chosen on the dashboard (read after mount).
  useEffect(() => {
    if (!editing && preferenceReady && !touchedNetwork.current) {
      setValues((v) => ({ ...v, network: preferred }));
    }
  }, [editing, preferenceReady, preferred]);

  useEffect(() => {
    if (focusNewRow.current) {
      focusNewRow.current = false;
      lastRowRef.current?.focus();
    }
  });

  // A failed submit brings its message into view (the button is at the bottom of a long form).
  const errorMessageText = serverError?.message;
  useEffect(() => {
    if (errorMessageText) errorBox.current?.focus();
  }, [errorMessageText]);

  const live = useMemo(
    () => liveTotals(rows, values.taxRate, values.discount),
    [rows, values.taxRate, values.discount],
  );

  function set<K extends keyof Values>(key: K, value: Values[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    clearServerDetail(key === "network" ? "networkPassphrase" : key);
  }

  function clearServerDetail(key: string) {
    setServerError((e) => {
      if (!e || !(key in e.details)) return e;
      const details = { ...e.details };
      delete details[key];
      return { ...e, details };
    });
  }

  function setRow(index: number, patch: Partial<Row>) {
    setRows((rs) => rs.map((r, i) => (i === index ? { ...r, ...patch } : r)));
    for (const k of Object.keys(patch)) clearServerDetail(`lineItems.${index}.${k}`);
  }

  function addRow() {
    focusNewRow.current = true;
    setRows((rs) => [...rs, newRow()]);
  }

  function removeRow(index: number) {
    setRows((rs) => (rs.length > 1 ? rs.filter((_, i) => i !== index) : rs));
    setServerError((e) => (e ? { ...e, details: {} } : e));
    // The pressed button is gone: keep keyboard users in the list's controls.
    addRowArea.current?.querySelector("button")?.focus();
  }

  function pickClient(id: string) {
    setPickedClient(id);
    const c = clients.data?.find((x) => x.id === id);
    if (!c) return;
    setValues((v) => ({
      ...v,
      clientName: c.name,
      clientEmail: c.email,
      clientCompany: c.company ?? "",
      clientAddress: c.address ?? "",
    }));
  }

  /** Live (domain) messages show once a field has text or the form was submitted. */
  function liveError(key: string, value: string): string | undefined {
    if (live.ok) return undefined;
    const message = live.details[key];
    if (!message) return undefined;
    return submitted || value.trim() !== "" ? readable(message) : undefined;
  }

  function fieldError(key: string, value = "x"): string | undefined {
    return serverError?.details[key] ?? liveError(key, value);
  }

  const text = (key: TextKey) => ({
    name: key,
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    error: serverError?.details[key],
  });

  function body(): Record<string, unknown> {
    const opt = (s: string) => {
      const t = s.trim();
      return t === "" ? (editing ? null : undefined) : t;
    };
    const out: Record<string, unknown> = {
      clientName: values.clientName.trim(),
      clientEmail: values.clientEmail.trim(),
      clientCompany: opt(values.clientCompany),
      clientAddress: opt(values.clientAddress),
      title: editing ? values.title.trim() : opt(values.title),
      description: opt(values.description),
      notes: opt(values.notes),
      currency: values.currency,
      networkPassphrase: NETWORK_PASSPHRASES[values.network],
      taxRate: values.taxRate.trim() === "" ? null : values.taxRate.trim(),
      discount: values.discount.trim() === "" ? null : values.discount.trim(),
      freelancerName: opt(values.freelancerName),
      freelancerEmail: opt(values.freelancerEmail),
      freelancerCompany: opt(values.freelancerCompany),
      lineItems: rows.map((r) => ({
        description: r.description.trim(),
        quantity: r.quantity.trim(),
        rate: r.rate.trim(),
      })),
    };
    const number = values.invoiceNumber.trim();
    if (number !== "" && number !== invoice?.invoiceNumber) out.invoiceNumber = number;
    const due = values.dueDate === "" ? null : values.dueDate;
    // An unchanged due date is not resent: an old draft's date may already be past.
    if (!editing) {
      if (due) out.dueDate = due;
      out.saveClient = values.saveClient;
      out.favoriteClient = values.saveClient && values.favoriteClient;
    } else if (due !== (invoice?.dueDate?.slice(0, 10) ?? null)) {
      out.dueDate = due;
    }
    return out;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (!live.ok) {
      setServerError({ message: `Check the amounts: ${live.message}`, details: {} });
      return;
    }
    setBusy(true);
    setServerError(null);
    try {
      const saved = await api<OwnerInvoice>(
        editing ? `/api/invoices/${invoice.id}` : "/api/invoices",
        {
          method: editing ? "PATCH" : "POST",
          body: body(),
        },
      );
      router.push(`/invoices/${saved.id}`);
    } catch (err) {
      const details =
        err instanceof ApiError
          ? ((err.body as { details?: Record<string, string> } | null)?.details ?? {})
          : {};
      setServerError({ message: errorMessage(err), details });
      setBusy(false);
    }
  }

  const otherDetails = serverError
    ? Object.entries(serverError.details).filter(([k]) => !isShownInline(k))
    : [];
  const currency = values.currency;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6"
      aria-label={editing ? "Edit invoice" : "New invoice"}
    >
      {serverError && (
        <div ref={errorBox} tabIndex={-1} className="focus:outline-none">
          <Alert>
            <p>{serverError.message}</p>
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

      <Card title="Client">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Select
            label="Saved client"
            id="savedClient"
            value={pickedClient}
            onChange={(e) => pickClient(e.target.value)}
            disabled={!clients.data || clients.data.length === 0}
            className="sm:col-span-2"
          >
            <option value="">
              {clients.loading && !clients.data
                ? "Loading saved clients…"
                : clients.data && clients.data.length > 0
                  ? "Choose a saved client (optional)"
                  : "No saved clients yet"}
            </option>
            {clients.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.isFavorite ? "★ " : ""}
                {c.name} ({c.email})
              </option>
            ))}
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
          <TextArea
            label="Client address"
            rows={2}
            name="clientAddress"
            value={values.clientAddress}
            onChange={(e) => set("clientAddress", e.target.value)}
          />
          {serverError?.details.clientAddress && (
            <p className="text-xs text-red-600 dark:text-red-400">
              {serverError.details.clientAddress}
            </p>
          )}
          {!editing && (
            <div className="flex flex-wrap gap-x-6 gap-y-2 sm:col-span-2">
              <Checkbox
                label="Save client"
                name="saveClient"
                checked={values.saveClient}
                onChange={(e) =>
                  setValues((v) => ({
                    ...v,
                    saveClient: e.target.checked,
                    favoriteClient: e.target.checked ? v.favoriteClient : false,
                  }))
                }
                hint="Keep this client for your next invoices."
              />
              <Checkbox
                label="Mark as favorite"
                name="favoriteClient"
                checked={values.favoriteClient}
                onChange={(e) =>
                  setValues((v) => ({
                    ...v,
                    favoriteClient: e.target.checked,
                    saveClient: e.target.checked ? true : v.saveClient,
                  }))
                }
                hint="Favorites come first in your client list."
              />
            </div>
          )}
        </div>
      </Card>

      <Card title="Invoice">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field
            label="Title"
            {...text("title")}
            required={editing}
            hint={
              editing ? undefined : <Hint>Optional: “Invoice &lt;number&gt;” when left blank.</Hint>
            }
          />
          <Field
            label="Invoice number (optional)"
            {...text("invoiceNumber")}
            placeholder="INV-0001"
            hint={<Hint>Left blank, the next number is given. It becomes the payment memo.</Hint>}
          />
          <Select
            label="Currency"
            name="currency"
            value={values.currency}
            onChange={(e) => set("currency", e.target.value as Currency)}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <Select
            label="Network"
            name="network"
            value={values.network}
            onChange={(e) => {
              touchedNetwork.current = true;
              set("network", e.target.value as NetworkName);
            }}
          >
            {NETWORK_NAMES.map((n) => (
              <option key={n} value={n}>
                {NETWORK_LABELS[n]}
              </option>
            ))}
          </Select>
          {serverError?.details.networkPassphrase && (
            <p className="text-xs text-red-600 dark:text-red-400 sm:col-span-2">
              {serverError.details.networkPassphrase}
            </p>
          )}
          <Field
            label="Due date"
            type="date"
            {...text("dueDate")}
            hint={<Hint>Optional. A UTC date.</Hint>}
          />
          <div className="hidden sm:block" />
          <TextArea
            label="Invoice summary"
            rows={2}
            name="description"
            value={values.description}
            onChange={(e) => set("description", e.target.value)}
            className="sm:col-span-2"
          />
          {serverError?.details.description && (
            <p className="text-xs text-red-600 dark:text-red-400 sm:col-span-2">
              {serverError.details.description}
            </p>
          )}
        </div>
      </Card>

      <Card title="Line items">
        <div
          aria-hidden="true"
          className="hidden grid-cols-[minmax(0,1fr)_7rem_9rem_9rem_auto] gap-3 px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 sm:grid"
        >
          <span>Description</span>
          <span>Quantity</span>
          <span>Rate ({currency})</span>
          <span className="text-right">Amount</span>
          <span className="w-[8.5rem]" />
        </div>
        <ol className="space-y-3">
          {rows.map((row, i) => {
            const n = i + 1;
            const amount = live.ok ? live.totals.lineItems[i]?.amount : undefined;
            const descError = serverError?.details[`lineItems.${i}.description`];
            const qtyError = fieldError(`lineItems.${i}.quantity`, row.quantity);
            const rateError = fieldError(`lineItems.${i}.rate`, row.rate);
            const amountError = fieldError(`lineItems.${i}.amount`);
            const labelId = `item-label-${row.key}`;
            return (
              <li
                key={row.key}
                className="grid grid-cols-2 gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-[minmax(0,1fr)_7rem_9rem_9rem_auto] sm:border-0 sm:p-1 dark:border-slate-700"
              >
                <span id={labelId} className="sr-only">
                  Item {n}
                </span>
                <ItemInput
                  caption="Description"
                  className="col-span-2 sm:col-span-1"
                  aria-label={`Description, item ${n}`}
                  value={row.description}
                  onChange={(v) => setRow(i, { description: v })}
                  error={descError}
                  inputRef={i === rows.length - 1 ? lastRowRef : undefined}
                />
                <ItemInput
                  caption="Quantity"
                  aria-label={`Quantity, item ${n}`}
                  inputMode="decimal"
                  value={row.quantity}
                  onChange={(v) => setRow(i, { quantity: v })}
                  error={qtyError}
                />
                <ItemInput
                  caption={`Rate (${currency})`}
                  aria-label={`Rate, item ${n}`}
                  inputMode="decimal"
                  value={row.rate}
                  onChange={(v) => setRow(i, { rate: v })}
                  error={rateError}
                  placeholder="0.00"
                />
                <div className="sm:text-right">
                  <span
                    aria-hidden="true"
                    className="block text-xs text-slate-500 dark:text-slate-400 sm:hidden"
                  >
                    Amount
                  </span>
                  <output aria-label={`Amount, item ${n}`} className="block py-2 font-mono text-sm">
                    {amount ? formatAmount(amount) : "—"}
                  </output>
                  {amountError && (
                    <span className="block text-xs text-red-600 dark:text-red-400">
                      {amountError}
                    </span>
                  )}
                </div>
                <div className="flex items-start sm:justify-end">
                  <Button
                    variant="ghost"
                    onClick={() => removeRow(i)}
                    disabled={rows.length === 1}
                    aria-describedby={labelId}
                    className="whitespace-nowrap"
                  >
                    Remove line item
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
        {serverError?.details.lineItems && (
          <p className="mt-2 text-xs text-red-600 dark:text-red-400">
            {serverError.details.lineItems}
          </p>
        )}
        <div className="mt-3" ref={addRowArea}>
          <Button variant="secondary" onClick={addRow}>
            Add line item
          </Button>
        </div>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Tax and discount">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field
              label="Tax rate (%)"
              name="taxRate"
              inputMode="decimal"
              placeholder="0"
              value={values.taxRate}
              onChange={(e) => set("taxRate", e.target.value)}
              error={fieldError("taxRate", values.taxRate)}
            />
            <Field
              label="Discount"
              name="discount"
              inputMode="decimal"
              placeholder="0"
              value={values.discount}
              onChange={(e) => set("discount", e.target.value)}
              error={fieldError("discount", values.discount)}
              hint={<Hint>An amount in {currency}, not a percent.</Hint>}
            />
          </div>
        </Card>
        <section
          aria-label="Totals"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <h2 className="mb-3 text-base font-semibold">Totals</h2>
          <dl className="space-y-1 text-sm">
            <TotalRow
              label="Subtotal"
              value={live.ok ? formatAmount(live.totals.subtotal, currency) : "—"}
            />
            <TotalRow
              label={
                live.ok && !isZero(live.totals.taxRate)
                  ? `Tax (${trimZeros(live.totals.taxRate)}%)`
                  : "Tax"
              }
              value={live.ok ? formatAmount(live.totals.taxAmount, currency) : "—"}
            />
            <TotalRow
              label="Discount"
              value={
                live.ok
                  ? `${isZero(live.totals.discount) ? "" : "−"}${formatAmount(live.totals.discount, currency)}`
                  : "—"
              }
            />
            <TotalRow
              label="Total"
              strong
              value={live.ok ? formatAmount(live.totals.total, currency) : "—"}
            />
          </dl>
          <p aria-live="polite" className="mt-2 text-xs text-slate-600 dark:text-slate-300">
            {live.ok
              ? "Computed exactly as the service will store it."
              : submitted || rows.every((r) => r.rate.trim() !== "")
                ? live.message
                : "Enter a quantity and a rate on every line to see the total."}
          </p>
        </section>
      </div>

      <Card title="From you (optional)">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Field label="Your name" autoComplete="name" {...text("freelancerName")} />
          <Field
            label="Your email"
            type="email"
            autoComplete="email"
            {...text("freelancerEmail")}
          />
          <Field label="Your company" autoComplete="organization" {...text("freelancerCompany")} />
          <TextArea
            label="Notes"
            rows={2}
            name="notes"
            value={values.notes}
            onChange={(e) => set("notes", e.target.value)}
            className="sm:col-span-3"
          />
          {serverError?.details.notes && (
            <p className="text-xs text-red-600 dark:text-red-400 sm:col-span-3">
              {serverError.details.notes}
            </p>
          )}
        </div>
      </Card>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {editing ? "Save changes" : "Create invoice"}
        </Button>
        <Link
          href={editing ? `/invoices/${invoice.id}` : "/invoices"}
          className={linkButtonClass.secondary}
        >
          Back without saving
        </Link>
      </div>
    </form>
  );
}

function TotalRow({
  label,
  value,
  strong = false,
}: {
  label: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div
      className={`flex justify-between gap-4 ${strong ? "border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700" : ""}`}
    >
      <dt>{label}</dt>
      <dd className="font-mono break-all text-right">{value}</dd>
    </div>
  );
}

const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/** A line-item cell: named by aria-label ("Rate, item 2"); the caption is for sighted users. */
function ItemInput({
  caption,
  value,
  onChange,
  error,
  className = "",
  inputRef,
  ...props
}: {
  caption: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  className?: string;
  inputRef?: Ref<HTMLInputElement>;
  "aria-label": string;
  inputMode?: "decimal";
  placeholder?: string;
}) {
  const errorId = useId();
  return (
    <div className={className}>
      <span
        aria-hidden="true"
        className="block text-xs text-slate-500 dark:text-slate-400 sm:hidden"
      >
        {caption}
      </span>
      <input
        ref={inputRef}
        type="text"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={inputClass}
        {...props}
      />
      {error && (
        <span id={errorId} className="mt-1 block text-xs text-red-600 dark:text-red-400">
          {error}
        </span>
      )}
    </div>
  );
}
