"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { errorMessage, useApi, useSession } from "@/lib/client/session";
import { signPayment } from "@/lib/client/wallet";
import { compareAmounts } from "@/lib/domain/money";
import { formatAmount } from "@/lib/format";
import type { refundIntent, refundView } from "@/lib/schemas/refunds";
import type { FormB } from "@/lib/schemas/wire";
import type { Payment } from "./types";

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
 * The freelancer's refund of one payment: an optional amount (left empty, the service picks
 * the default), then the unsigned refund from POST /api/invoices/:id/payments/:paymentId/
 * refund is signed with the wallet (Freighter, as the checkout signs) and sent through
 * POST /api/refunds/submit; each step shows, and `onDone` reloads the invoice.
 */
export function RefundButton({
  invoiceId,
  payment,
  onDone,
}: {
  invoiceId: string;
  payment: Payment;
  onDone: () => unknown;
}) {
  const api = useApi();
  const { session } = useSession();
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const [amount, setAmount] = useState("");
  if (!canRefund(payment) && step.kind !== "done") return null;

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
      setStep({
        kind: "done",
        text:
          result.status === "CONFIRMED"
            ? `Refunded ${sent}.`
            : `${sent} sent; waiting for the network to confirm it.`,
      });
      await onDone();
    } catch (err) {
      setStep({ kind: "failed", text: errorMessage(err) });
    }
  }

  const testId = `refund-${payment.id}`;
  switch (step.kind) {
    case "idle":
      return (
        <Button
          variant="secondary"
          onClick={() => setStep({ kind: "asking" })}
          data-testid={testId}
        >
          Refund
        </Button>
      );
    case "asking":
    case "failed":
      return (
        <div className="min-w-48 space-y-2" data-testid={testId}>
          <Field
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            label="Amount to refund"
            inputMode="decimal"
            error={step.kind === "failed" ? step.text : undefined}
            hint="Leave empty for the default: the overpaid part, or the whole payment."
          />
          <div className="flex gap-2">
            <Button onClick={refund}>Sign and refund</Button>
            <Button variant="ghost" onClick={() => setStep({ kind: "idle" })}>
              Cancel
            </Button>
          </div>
        </div>
      );
    case "done":
      return (
        <p
          role="status"
          className="text-sm text-emerald-700 dark:text-emerald-300"
          data-testid={testId}
        >
          {step.text}
        </p>
      );
    default:
      return (
        <p
          role="status"
          className="text-sm text-slate-600 dark:text-slate-300"
          data-testid={testId}
        >
          {PROGRESS[step.kind]}
        </p>
      );
  }
}
