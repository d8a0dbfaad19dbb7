"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { errorMessage, useApi, useCan, useSession } from "@/lib/client/session";
import { signPayment } from "@/lib/client/wallet";
import { compareAmounts } from "@/lib/domain/money";
import { formatAmount, shortHash } from "@/lib/format";
import type { refundIntent, refundView } from "@/lib/schemas/refunds";
import type { FormB } from "@/lib/schemas/wire";
import { InvoicePayments } from "./invoice-payments";
import type { OwnerInvoice, Payment } from "./types";

type Intent = FormB<typeof refundIntent>;
type Refund = FormB<typeof refundView>;

type Step =
  | { kind: "idle" }
  | { kind: "asking" }
  | { kind: "building" | "signing" | "submitting" }
  | { kind: "done"; text: string }
  | { kind: "failed"; text: string };

const PROGRESS = {
  building: "Preparing the refund...",
  signing: "Confirm the refund in your wallet...",
  submitting: "Sending the refund to the network...",
} as const;

/** A payment with money left to send back (docs/decisions.md, Refunds). */
export function canRefund(payment: Payment): boolean {
  return (
    // A payment received outside Stellar moved nothing on the ledger: nothing to send back.
    payment.method === "stellar" &&
    payment.status === "CONFIRMED" &&
    compareAmounts(payment.amount, payment.amountRefunded) > 0
  );
}

/**
 * The invoice's payments with a Refund button on each row that has money left to send back;
 * the button opens the refund form below the table (a table cell is no place for a form).
 */
export function PaymentsWithRefunds({
  invoice,
  onDone,
  otherAction,
}: {
  invoice: OwnerInvoice;
  onDone: () => unknown;
  /** The action of a payment received outside Stellar (Void): it has no refund. */
  otherAction?: (p: OwnerInvoice["payments"][number]) => ReactNode;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const payment = invoice.payments.find((p) => p.id === open) ?? null;
  const formId = "refund-form";
  // Refunds are the owner's alone (docs/decisions.md, Team access); voids are writes.
  const can = useCan();
  return (
    <div className="space-y-4">
      <InvoicePayments
        invoice={invoice}
        action={(p) =>
          p.method !== "stellar"
            ? can("write") && otherAction?.(p)
            : can("owner") &&
              canRefund(p) && (
                <Button
                  variant="secondary"
                  onClick={() => setOpen(p.id)}
                  aria-expanded={open === p.id}
                  aria-controls={open === p.id ? formId : undefined}
                  data-testid={`refund-${p.id}`}
                >
                  Refund
                </Button>
              )
        }
      />
      {payment && (
        <RefundButton
          key={payment.id}
          id={formId}
          invoiceId={invoice.id}
          payment={payment}
          // A credit note is in the invoice's unit: offered when that is the asset refunded.
          offerCreditNote={
            invoice.status !== "DRAFT" &&
            !invoice.priceCurrency &&
            payment.applied &&
            payment.asset === invoice.currency
          }
          onDone={onDone}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}

/**
 * The freelancer's refund of one payment (opened from its row): an optional amount (left empty, the service picks
 * the default), then the unsigned refund from POST /api/invoices/:id/payments/:paymentId/
 * refund is signed with the wallet (Freighter, as the checkout signs) and sent through
 * POST /api/refunds/submit; each step shows, and `onDone` reloads the invoice.
 */
export function RefundButton({
  id,
  invoiceId,
  payment,
  offerCreditNote = false,
  onDone,
  onClose,
}: {
  id: string;
  invoiceId: string;
  payment: Payment;
  /** "Also issue a credit note" for the refunded amount, linked to the refund. */
  offerCreditNote?: boolean;
  onDone: () => unknown;
  onClose: () => void;
}) {
  const api = useApi();
  const { session } = useSession();
  const [step, setStep] = useState<Step>({ kind: "asking" });
  const [amount, setAmount] = useState("");
  const [withCredit, setWithCredit] = useState(false);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    panel.current?.querySelector("input")?.focus();
  }, []);

  async function refund() {
    try {
      setStep({ kind: "building" });
      const intent = await api<Intent>(`/api/invoices/${invoiceId}/payments/${payment.id}/refund`, {
        method: "POST",
        body: amount.trim() ? { amount: amount.trim() } : {},
      });
      setStep({ kind: "signing" });
      const signed = await signPayment(
        intent.transactionXdr,
        intent.networkPassphrase,
        session?.wallet ?? "",
      );
      setStep({ kind: "submitting" });
      const result = await api<Refund>("/api/refunds/submit", {
        method: "POST",
        body: { refundId: intent.refundId, signedTransactionXdr: signed },
      });
      const sent = formatAmount(result.amount, result.asset.code);
      let credited = "";
      if (offerCreditNote && withCredit) {
        // The credit note for what went back, linked to the refund (docs/decisions.md, Credit notes).
        try {
          const note = await api<{ number: string }>(`/api/invoices/${invoiceId}/credit-notes`, {
            method: "POST",
            body: { reason: `Refund of ${sent}`, amount: result.amount, refundId: result.refundId },
          });
          credited = ` Credit note ${note.number} issued.`;
        } catch (err) {
          credited = ` No credit note: ${errorMessage(err)}`;
        }
      }
      setStep({
        kind: "done",
        text:
          (result.status === "CONFIRMED"
            ? `Refunded ${sent}.`
            : `${sent} sent; waiting for the network to confirm it.`) + credited,
      });
      await onDone();
    } catch (err) {
      setStep({ kind: "failed", text: errorMessage(err) });
    }
  }

  const title = `Refund of ${formatAmount(payment.amount, payment.asset)} (${shortHash(payment.transactionHash ?? "")})`;
  return (
    <section
      ref={panel}
      id={id}
      aria-label={title}
      className="rounded-md border border-slate-200 p-4 dark:border-slate-700"
      data-testid="refund-panel"
    >
      <h3 className="mb-3 text-sm font-semibold">{title}</h3>
      {body()}
    </section>
  );

  function body() {
    switch (step.kind) {
      case "idle":
      case "asking":
      case "failed":
        return (
          <div className="max-w-sm space-y-2">
            <Field
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              label="Amount to refund"
              inputMode="decimal"
              error={step.kind === "failed" ? step.text : undefined}
              hint="Leave empty for the default: the overpaid part, or the whole payment."
            />
            {offerCreditNote && (
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={withCredit}
                  onChange={(e) => setWithCredit(e.target.checked)}
                />
                Also issue a credit note
              </label>
            )}
            <div className="flex gap-2">
              <Button onClick={refund}>Sign and refund</Button>
              <Button variant="ghost" onClick={onClose}>
                Cancel
              </Button>
            </div>
          </div>
        );
      case "done":
        return (
          <div className="flex flex-wrap items-center gap-3">
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
              {step.text}
            </p>
            <Button variant="ghost" onClick={onClose}>
              Close
            </Button>
          </div>
        );
      default:
        return (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
            {PROGRESS[step.kind]}
          </p>
        );
    }
  }
}
