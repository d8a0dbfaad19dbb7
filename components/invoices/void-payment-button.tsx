"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { errorMessage, useApi } from "@/lib/client/session";
import type { OwnerInvoice, Payment } from "./types";

/** A payment recorded by hand that can still be withdrawn (not on a PAID invoice). */
export const canVoid = (payment: Payment, invoice: OwnerInvoice) =>
  payment.method !== "stellar" && payment.status !== "VOIDED" && invoice.status !== "PAID";

/**
 * "Void" on a payment received outside Stellar that was recorded by mistake: asks once, then
 * DELETE /api/invoices/:id/payments/:paymentId; `onDone` gets the invoice as it is after it
 * (docs/decisions.md, Payments received outside Stellar).
 */
export function VoidPaymentButton({
  invoice,
  payment,
  onDone,
}: {
  invoice: OwnerInvoice;
  payment: Payment;
  onDone: (invoice: OwnerInvoice) => void;
}) {
  const api = useApi();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!canVoid(payment, invoice)) return null;

  async function confirm() {
    setBusy(true);
    setFailure(null);
    try {
      onDone(
        await api<OwnerInvoice>(`/api/invoices/${invoice.id}/payments/${payment.id}`, {
          method: "DELETE",
        }),
      );
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <div className="space-y-1">
      {asking ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" onClick={confirm} disabled={busy}>
            Void payment
          </Button>
          <Button variant="ghost" onClick={() => setAsking(false)} disabled={busy}>
            Keep
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setAsking(true)}>
          Void
        </Button>
      )}
      {failure && <p className="text-xs text-red-700 dark:text-red-300">{failure}</p>}
    </div>
  );
}
