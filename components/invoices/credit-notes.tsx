"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, TextArea } from "@/components/ui/field";
import { Muted } from "@/components/ui/page";
import { errorDetails } from "@/lib/client/api";
import { downloadFile } from "@/lib/client/download";
import { errorMessage, useApi, useCan, useSession } from "@/lib/client/session";
import { formatDate, formatPriced, trimZeros } from "@/lib/format";
import type { OwnerInvoice } from "./types";

type Mode = "full" | "lines" | "amount";

/**
 * The invoice's credit notes (docs/decisions.md, Credit notes): each with its number, date,
 * amount and PDF, and "Issue credit note" for a sent invoice: all that is left, chosen lines
 * and quantities, or an amount, with a reason. `onIssued` reloads the invoice.
 */
export function CreditNotes({
  invoice,
  onIssued,
}: {
  invoice: OwnerInvoice;
  onIssued: () => Promise<unknown>;
}) {
  const api = useApi();
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>("full");
  const [reason, setReason] = useState("");
  const [amount, setAmount] = useState("");
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [details, setDetails] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const writes = useCan()("write");
  const sent = invoice.status !== "DRAFT";
  const notes = invoice.creditNotes;
  if (!sent && notes.length === 0) return null;
  const nothingLeft = invoice.amountCredited === invoice.total;

  async function issue(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setDetails({});
    setFailure(null);
    const lines = Object.entries(quantities)
      .filter(([, q]) => q.trim() !== "")
      .map(([i, q]) => ({ lineIndex: Number(i), quantity: q.trim() }));
    const body =
      mode === "amount"
        ? { reason, amount: amount.trim() }
        : mode === "lines"
          ? { reason, lines }
          : { reason };
    try {
      const note = await api<{ number: string }>(`/api/invoices/${invoice.id}/credit-notes`, {
        method: "POST",
        body,
      });
      await onIssued();
      setDone(`Credit note ${note.number} issued.`);
      setOpen(false);
      setReason("");
      setAmount("");
      setQuantities({});
    } catch (err) {
      // The server names a line by its place in the request; the form by the invoice's line.
      const named = Object.entries(errorDetails(err)).map(([key, message]) => {
        const m = /^lines\.(\d+)\.(.+)$/.exec(key);
        const line = m ? lines[Number(m[1])] : undefined;
        return [line ? `line.${line.lineIndex}.${m?.[2]}` : key, message] as const;
      });
      setDetails(Object.fromEntries(named));
      setFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Credit notes">
      {done && <Alert kind="success">{done}</Alert>}
      {notes.length === 0 ? (
        <Muted>No credit notes. A sent invoice is corrected with one, never edited.</Muted>
      ) : (
        <ul className="space-y-2" aria-label="Credit notes">
          {notes.map((n) => (
            <li key={n.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                <span className="font-medium">{n.number}</span> · {formatDate(n.createdAt)} ·{" "}
                {formatPriced(n.total, invoice)}
                <span className="block text-xs text-slate-500 dark:text-slate-400">{n.reason}</span>
              </span>
              <span className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  onClick={() =>
                    downloadFile(n.pdfUrl, session?.token, `${n.number}.pdf`).catch((err) =>
                      setFailure(errorMessage(err)),
                    )
                  }
                >
                  PDF {n.number}
                </Button>
                {/* Its CII XML (EN 16931, type 381); what it lacks, if anything, is the refusal. */}
                <Button
                  variant="ghost"
                  onClick={() =>
                    downloadFile(
                      `/api/credit-notes/${n.id}/einvoice?format=cii`,
                      session?.token,
                      `${n.number}.xml`,
                    ).catch((err) => setFailure(errorMessage(err)))
                  }
                >
                  E-invoice {n.number}
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {failure && !open && <Alert>{failure}</Alert>}
      {writes && sent && !nothingLeft && !open && (
        <div className="mt-4">
          <Button
            variant="secondary"
            onClick={() => {
              setDone(null);
              setFailure(null);
              setOpen(true);
            }}
          >
            Issue credit note
          </Button>
        </div>
      )}
      {open && (
        <form
          onSubmit={issue}
          noValidate
          aria-label="Issue credit note"
          className="mt-4 space-y-4 rounded-md border border-slate-200 p-4 dark:border-slate-700"
        >
          {failure && <Alert>{failure}</Alert>}
          <fieldset className="space-y-1 text-sm">
            <legend className="font-medium">What to credit</legend>
            {(
              [
                ["full", "Everything not yet credited"],
                ["lines", "Chosen lines and quantities"],
                ["amount", "An amount on the whole invoice"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="creditMode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          {mode === "lines" && (
            <div className="space-y-2">
              {invoice.lineItems.map((line, i) => (
                <Field
                  key={line.id}
                  label={`${line.description} (of ${trimZeros(line.quantity)})`}
                  name={`creditQuantity${i}`}
                  inputMode="decimal"
                  value={quantities[i] ?? ""}
                  onChange={(e) => setQuantities({ ...quantities, [i]: e.target.value })}
                  error={details[`line.${i}.quantity`] ?? details[`line.${i}.lineIndex`]}
                />
              ))}
              {details.lines && <Muted>{details.lines}</Muted>}
            </div>
          )}
          {mode === "amount" && (
            <Field
              label={`Amount, tax included (${invoice.priceCurrency ?? invoice.currency})`}
              name="creditAmount"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              error={details.amount}
            />
          )}
          <TextArea
            label="Reason"
            name="creditReason"
            rows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={details.reason}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              Issue credit note
            </Button>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
