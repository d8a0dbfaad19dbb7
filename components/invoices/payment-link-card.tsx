"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Muted } from "@/components/ui/page";
import { QrCode } from "@/components/ui/qr-code";
import { ReadOnlyField } from "@/components/ui/read-only-field";
import { isPayable } from "@/lib/domain/invoice-state";
import { paymentPageUrl } from "@/lib/format";
import type { OwnerInvoice } from "./types";

/** The invoice's checkout URL on this site ("" until mounted: it needs window.location). */
export function usePaymentPageUrl(id: string): string {
  const [link, setLink] = useState("");
  useEffect(() => setLink(paymentPageUrl(id)), [id]);
  return link;
}

/** The payment page to share: its URL, a copy button and a QR code on demand. */
export function PaymentLinkCard({ invoice }: { invoice: OwnerInvoice }) {
  const link = usePaymentPageUrl(invoice.id);
  const [showQr, setShowQr] = useState(false);
  const { status } = invoice;
  return (
    <Card title="Payment link">
      <div className="space-y-3">
        <Muted>
          {status === "DRAFT"
            ? "Your client can pay from this page once the invoice is sent."
            : isPayable(status)
              ? "Share this page with your client: they pay with Freighter or any wallet that reads the QR code."
              : "This invoice can no longer be paid."}
        </Muted>
        <ReadOnlyField label="Payment page" value={link} />
        <div className="flex flex-wrap gap-2">
          <CopyButton text={link} label="Copy payment link" />
          <Button
            variant="secondary"
            onClick={() => setShowQr((v) => !v)}
            aria-expanded={showQr}
            aria-controls="payment-qr"
          >
            {showQr ? "Hide QR code" : "Show QR code"}
          </Button>
        </div>
        <div id="payment-qr">
          {showQr && link && (
            <QrCode
              value={link}
              label={`QR code for the payment page of ${invoice.invoiceNumber}`}
            />
          )}
        </div>
      </div>
    </Card>
  );
}
