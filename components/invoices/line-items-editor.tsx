"use client";

import { type ComponentProps, useId, useRef, useState } from "react";
import { type UseFormReturn, useFieldArray, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, FieldError } from "@/components/ui/field";
import type { InvoiceFormOutput, InvoiceFormValues, LiveTotals } from "@/lib/client/invoice-form";
import {
  EXEMPT_CATEGORIES,
  TAX_CATEGORIES,
  TAX_CATEGORY_NAMES,
  type TaxCategory,
} from "@/lib/domain/tax-categories";
import { formatAmount } from "@/lib/format";

const GRID = "sm:grid-cols-[minmax(0,1fr)_7rem_9rem_9rem_auto]";
const NEW_ROW = { description: "", quantity: "1", rate: "" };

/**
 * The invoice's lines (react-hook-form's useFieldArray): description, quantity and rate per
 * line, its amount from the live totals, add and remove. `errorFor(key, value)` gives a cell's
 * message (`lineItems.0.rate`); `onRemoved` runs after a line goes.
 */
export function LineItemsEditor({
  form: { control, register, getValues, setValue },
  live,
  errorFor,
  onRemoved,
}: {
  form: UseFormReturn<InvoiceFormValues, unknown, InvoiceFormOutput>;
  live: LiveTotals;
  errorFor: (key: string, value?: string) => string | undefined;
  onRemoved: () => void;
}) {
  const { fields, append, remove } = useFieldArray({ control, name: "lineItems" });
  const [rows, asset, priceCurrency] = useWatch({
    control,
    name: ["lineItems", "currency", "priceCurrency"],
  });
  // Rates are in the price currency when the invoice is priced in fiat.
  const currency = priceCurrency || asset;
  const addArea = useRef<HTMLDivElement>(null);
  // Tax per line (docs/decisions.md, Tax per line): only when asked for, or when a line has it.
  const [perLine, setPerLine] = useState(() =>
    rows.some((r) => Boolean(r.taxRate?.trim() || r.taxCategory)),
  );

  function removeRow(i: number) {
    remove(i);
    onRemoved();
    // The pressed button is gone: keep keyboard users in the list's controls.
    addArea.current?.querySelector("button")?.focus();
  }

  return (
    <Card title="Line items">
      <div
        aria-hidden="true"
        className={`hidden ${GRID} gap-3 px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 sm:grid`}
      >
        <span>Description</span>
        <span>Quantity</span>
        <span>Rate ({currency})</span>
        <span className="text-right">Amount</span>
        <span className="w-[8.5rem]" />
      </div>
      <ol className="space-y-3">
        {fields.map((field, i) => {
          const n = i + 1;
          const key = (cell: string) => `lineItems.${i}.${cell}`;
          const amount = live.ok ? live.totals.lineItems[i]?.amount : undefined;
          const amountError = errorFor(key("amount"));
          const labelId = `item-label-${field.id}`;
          return (
            <li
              key={field.id}
              className={`grid grid-cols-2 gap-3 rounded-md border border-slate-200 p-3 ${GRID} sm:border-0 sm:p-1 dark:border-slate-700`}
            >
              <span id={labelId} className="sr-only">
                Item {n}
              </span>
              <ItemInput
                caption="Description"
                className="col-span-2 sm:col-span-1"
                aria-label={`Description, item ${n}`}
                error={errorFor(key("description"))}
                {...register(`lineItems.${i}.description`)}
              />
              <ItemInput
                caption="Quantity"
                aria-label={`Quantity, item ${n}`}
                inputMode="decimal"
                error={errorFor(key("quantity"), rows[i]?.quantity)}
                {...register(`lineItems.${i}.quantity`)}
              />
              <ItemInput
                caption={`Rate (${currency})`}
                aria-label={`Rate, item ${n}`}
                inputMode="decimal"
                placeholder="0.00"
                error={errorFor(key("rate"), rows[i]?.rate)}
                {...register(`lineItems.${i}.rate`)}
              />
              <div className="sm:text-right">
                <Caption>Amount</Caption>
                <output aria-label={`Amount, item ${n}`} className="block py-2 font-mono text-sm">
                  {amount ? formatAmount(amount) : "—"}
                </output>
                {amountError && <FieldError>{amountError}</FieldError>}
              </div>
              <div className="flex items-start sm:justify-end">
                <Button
                  variant="ghost"
                  onClick={() => removeRow(i)}
                  disabled={fields.length === 1}
                  aria-describedby={labelId}
                  className="whitespace-nowrap"
                >
                  Remove line item
                </Button>
              </div>
              {perLine && (
                <div
                  className="col-span-2 grid grid-cols-2 gap-3 sm:col-span-5 sm:grid-cols-[7rem_14rem_minmax(0,1fr)]"
                  data-testid="line-tax"
                >
                  <ItemInput
                    caption="VAT %"
                    aria-label={`VAT rate, item ${n}`}
                    inputMode="decimal"
                    placeholder="Invoice's"
                    error={errorFor(key("taxRate"), rows[i]?.taxRate)}
                    {...register(`lineItems.${i}.taxRate`)}
                  />
                  <div>
                    <Caption>VAT category</Caption>
                    <select
                      aria-label={`VAT category, item ${n}`}
                      className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
                      {...register(`lineItems.${i}.taxCategory`, {
                        // A category that needs no reason drops the one its box no longer
                        // shows (reverse charge undone on one line), or the server refuses it.
                        onChange: (e) => {
                          if (EXEMPT_CATEGORIES.includes(e.target.value as TaxCategory)) return;
                          setValue(`lineItems.${i}.exemptionReason`, "");
                          setValue(`lineItems.${i}.exemptionReasonCode`, "");
                        },
                      })}
                    >
                      <option value="">Standard (or zero at 0 %)</option>
                      {TAX_CATEGORIES.map((c) => (
                        <option key={c} value={c}>
                          {c}: {TAX_CATEGORY_NAMES[c]}
                        </option>
                      ))}
                    </select>
                  </div>
                  {EXEMPT_CATEGORIES.includes(rows[i]?.taxCategory as TaxCategory) && (
                    <ItemInput
                      caption="Why no VAT"
                      className="col-span-2 sm:col-span-1"
                      aria-label={`Exemption reason, item ${n}`}
                      error={errorFor(key("exemptionReason"))}
                      {...register(`lineItems.${i}.exemptionReason`)}
                    />
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {errorFor("lineItems") && <FieldError className="mt-2">{errorFor("lineItems")}</FieldError>}
      <div className="mt-3 flex flex-wrap items-center gap-4" ref={addArea}>
        <Button
          variant="secondary"
          onClick={() => append(NEW_ROW, { focusName: `lineItems.${fields.length}.description` })}
        >
          Add line item
        </Button>
        <Checkbox
          id="taxPerLine"
          label="Tax per line"
          checked={perLine}
          onChange={(e) => {
            setPerLine(e.target.checked);
            // Off: every line takes the invoice's rate again.
            if (!e.target.checked) {
              setValue(
                "lineItems",
                getValues("lineItems").map(({ description, quantity, rate }) => ({
                  description,
                  quantity,
                  rate,
                })),
                { shouldDirty: true },
              );
            }
          }}
        />
      </div>
    </Card>
  );
}

/** On phones each cell carries its column's name (the header row is hidden there). */
function Caption({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="block text-xs text-slate-500 dark:text-slate-400 sm:hidden">
      {children}
    </span>
  );
}

/** A line-item cell: named by aria-label ("Rate, item 2"); the caption is for sighted users. */
function ItemInput({
  caption,
  error,
  className = "",
  ...props
}: { caption: string; error?: string; "aria-label": string } & ComponentProps<"input">) {
  const errorId = useId();
  return (
    <div className={className}>
      <Caption>{caption}</Caption>
      <input
        type="text"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        {...props}
      />
      {error && (
        <FieldError id={errorId} className="mt-1">
          {error}
        </FieldError>
      )}
    </div>
  );
}
