"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TextArea } from "@/components/ui/field";
import { Loading, Muted, PageHeader } from "@/components/ui/page";
import { Toasts, useToasts } from "@/components/ui/toast";
import { useCan, useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { type PaymentStatusBody, useStatusStream } from "@/lib/client/use-status-stream";
import { canTransition } from "@/lib/domain/invoice-state";
import {
  formatDate,
  formatExact,
  formatMoney,
  formatPriced,
  formatPricedWithAsset,
  isZero,
  NETWORK_LABELS,
  networkOf,
} from "@/lib/format";
import { AuditTimeline } from "./audit-timeline";
import { CreditNotes } from "./credit-notes";
import { DownloadPdfButton } from "./download-pdf-button";
import { DuplicateButton } from "./duplicate-button";
import { EInvoiceDownloads } from "./einvoice-downloads";
import { InvoiceDocument } from "./invoice-document";
import { InvoiceEmails, sentNotice } from "./invoice-emails";
import { InvoiceTimes } from "./invoice-payments";
import { PaymentLinkCard } from "./payment-link-card";
import { DraftReadiness } from "./recipient-readiness";
import { RecordPayment } from "./record-payment";
import { PaymentsWithRefunds } from "./refund-button";
import type { OwnerInvoice } from "./types";
import { VoidPaymentButton } from "./void-payment-button";

type Dialog = "cancel" | "delete" | null;

/** Statuses whose page does not follow the payment status: no payment can arrive, or it is final. */
const NOT_FOLLOWED = new Set(["DRAFT", "PAID", "CANCELLED"]);
/** One payment: its transaction and operation (one recorded by hand: how, when, how much). */
const paymentKey = (p: {
  transactionHash: string | null;
  operationIndex: number;
  method: string;
  confirmedAt: string;
  amount: string;
}) => `${p.transactionHash ?? `${p.method}:${p.confirmedAt}:${p.amount}`}:${p.operationIndex}`;

export function InvoiceDetail({ id }: { id: string }) {
  const router = useRouter();
  const { session } = useSession();
  const writes = useCan()("write");
  const path = `/api/invoices/${id}`;
  const {
    data: invoice,
    setData,
    error,
    api,
  } = useResource<OwnerInvoice>(`${path}/owner`, {
    refreshOnFocus: true,
  });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState("");
  const { busy, notice, run } = useAction();
  const { toasts, show, dismiss } = useToasts();
  const current = useRef(invoice);
  current.current = invoice;
  const toasted = useRef(new Set<string>());

  // The page follows the invoice's status as the checkout does (the same stream, polling when
  // it cannot be had): a payment arriving shows at once, with a toast, without a reload.
  const following = invoice !== null && !NOT_FOLLOWED.has(invoice.status);
  useStatusStream(id, {
    active: following,
    onStatus: (s: PaymentStatusBody) => {
      const shown = current.current;
      if (!shown) return;
      const known = new Set(shown.payments.map(paymentKey));
      // One the owner recorded by hand (no transaction) is news to nobody here.
      const fresh = s.payments.filter(
        (p) =>
          p.transactionHash !== null &&
          !known.has(paymentKey(p)) &&
          !toasted.current.has(paymentKey(p)),
      );
      for (const p of fresh) {
        toasted.current.add(paymentKey(p));
        const value =
          shown.priceCurrency && p.priceValue ? ` (${formatPriced(p.priceValue, shown)})` : "";
        show(
          `Payment received on ${shown.invoiceNumber}: ${formatMoney(p.amount, p.asset)}${value}${p.applied ? "" : ", not applied"}.`,
        );
      }
      if (fresh.length > 0 || s.status !== shown.status || s.amountPaid !== shown.amountPaid) {
        api<OwnerInvoice>(`${path}/owner`).then(setData, () => undefined);
      }
    },
  });

  if (error && !invoice) return <Alert>{error}</Alert>;
  if (!invoice) return <Loading what="invoice" />;

  /** Runs an action, then shows the new state before it says the action is done. */
  async function act(
    name: string,
    request: () => Promise<unknown>,
    done: string | (() => Promise<string>),
  ) {
    await run(name, async () => {
      await request();
      await api<OwnerInvoice>(`${path}/owner`).then(setData, () => undefined);
      return typeof done === "string" ? done : done();
    });
    setDialog(null);
  }
  const post = (action: string, body?: unknown) => () =>
    api(`${path}/${action}`, { method: "POST", body });
  // Says whether the client was emailed, never "emailed" when nothing was (invoice-emails.tsx).
  const send = () => act("send", post("send"), () => sentNotice(api, id));
  const cancel = () =>
    act(
      "cancel",
      post("cancel", reason.trim() ? { reason: reason.trim() } : {}),
      "Invoice cancelled.",
    );
  async function remove() {
    const deleted = await run("delete", () => api(path, { method: "DELETE" }));
    if (deleted) router.push("/invoices");
    else setDialog(null);
  }

  const { status, invoiceNumber } = invoice;
  // What the status allows, and what the open books' role allows (docs/decisions.md, Team access).
  const can = (action: "send" | "cancel" | "update" | "delete") =>
    writes && canTransition(status, action);
  const disabled = busy !== null;
  const cancelling = dialog === "cancel";

  return (
    <div className="space-y-6">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span>{invoiceNumber}</span>
            <span data-testid="invoice-status">
              <StatusBadge status={status} />
            </span>
          </span>
        }
        description={invoice.title}
        actions={
          <>
            {can("send") && (
              <Button onClick={send} disabled={disabled}>
                Send invoice
              </Button>
            )}
            {can("update") && (
              <Link href={`/invoices/${id}/edit`} className={buttonClass("secondary")}>
                Edit invoice
              </Link>
            )}
            {can("cancel") && (
              <Button variant="secondary" onClick={() => setDialog("cancel")} disabled={disabled}>
                Cancel invoice
              </Button>
            )}
            {can("delete") && (
              <Button variant="danger" onClick={() => setDialog("delete")} disabled={disabled}>
                Delete invoice
              </Button>
            )}
            {writes && <DuplicateButton id={id} />}
          </>
        }
      />

      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert>{error}</Alert>}
      {status === "DRAFT" && <DraftReadiness invoice={invoice} />}

      {/* The detail view shows amounts in full: all 7 decimals (docs/decisions.md). */}
      <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Fact
          label="Total"
          value={formatPricedWithAsset(invoice.total, invoice, formatExact)}
          amount
          strong
        />
        {!isZero(invoice.amountPaid) && (
          <>
            <Fact
              label="Paid"
              value={formatPriced(invoice.amountPaid, invoice, formatExact)}
              amount
            />
            <Fact
              label="Due"
              value={formatPriced(invoice.amountDue, invoice, formatExact)}
              amount
            />
          </>
        )}
        {!isZero(invoice.amountCredited) && (
          <>
            <Fact
              label="Credited"
              value={formatPriced(invoice.amountCredited, invoice, formatExact)}
              amount
            />
            {isZero(invoice.amountPaid) && (
              <Fact
                label="Due"
                value={formatPriced(invoice.amountDue, invoice, formatExact)}
                amount
              />
            )}
          </>
        )}
        {!isZero(invoice.amountOverpaid) && (
          <Fact
            label="Overpaid"
            value={formatPriced(invoice.amountOverpaid, invoice, formatExact)}
            amount
          />
        )}
        <Fact label="Client" value={invoice.clientName} />
        <Fact label="Due date" value={formatDate(invoice.dueDate)} />
        <Fact label="Network" value={NETWORK_LABELS[networkOf(invoice.networkPassphrase)]} />
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Invoice">
            <InvoiceDocument invoice={invoice} />
          </Card>
          <Card title="Payments">
            {/* A Refund button per row; its form opens below the table. */}
            <PaymentsWithRefunds
              invoice={invoice}
              onDone={() => api<OwnerInvoice>(`${path}/owner`).then(setData)}
              otherAction={(p) => (
                <VoidPaymentButton invoice={invoice} payment={p} onDone={setData} />
              )}
            />
            {writes && <RecordPayment invoice={invoice} onRecorded={setData} />}
          </Card>
          <CreditNotes
            invoice={invoice}
            onIssued={() => api<OwnerInvoice>(`${path}/owner`).then(setData)}
          />
          <Card title="History">
            <AuditTimeline
              entries={invoice.auditLogs}
              wallet={session?.wallet}
              pricing={invoice}
              clientEmail={invoice.clientEmail}
            />
          </Card>
        </div>

        <div className="space-y-6">
          <PaymentLinkCard invoice={invoice} />
          <Card title="Documents">
            <div className="flex flex-wrap gap-2">
              <DownloadPdfButton id={id} invoiceNumber={invoiceNumber} />
              <Link href={`/invoices/${id}/print`} className={buttonClass("secondary")}>
                Printable view
              </Link>
            </div>
            <EInvoiceDownloads id={id} invoiceNumber={invoiceNumber} status={status} />
          </Card>
          <Card title="Details">
            <InvoiceTimes invoice={invoice} />
          </Card>
          <InvoiceEmails key={invoice.updatedAt} id={id} status={status} />
        </div>
      </div>

      <Toasts toasts={toasts} dismiss={dismiss} />

      {/* One dialog, kept mounted: closing it hands focus back to the button that opened it. */}
      <ConfirmDialog
        open={dialog !== null}
        title={`${cancelling ? "Cancel" : "Delete"} ${invoiceNumber}?`}
        confirmLabel={cancelling ? "Confirm cancellation" : "Confirm deletion"}
        cancelLabel="Keep invoice"
        busy={busy !== null && busy === dialog}
        onConfirm={cancelling ? cancel : remove}
        onClose={() => setDialog(null)}
      >
        {cancelling ? (
          <>
            <Muted>
              The payment link stops working and the invoice cannot be sent or paid again.
            </Muted>
            <TextArea
              label="Reason (optional)"
              name="cancelReason"
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </>
        ) : (
          <Muted>The draft disappears from your lists. This cannot be undone.</Muted>
        )}
      </ConfirmDialog>
    </div>
  );
}

/** A summary box; an amount takes the full width on phones, its digits never split. */
function Fact({
  label,
  value,
  strong = false,
  amount = false,
}: {
  label: string;
  value: string;
  strong?: boolean;
  amount?: boolean;
}) {
  return (
    <div
      className={`min-w-0 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4 dark:border-slate-700 dark:bg-slate-900 ${amount ? "col-span-2 sm:col-span-1" : ""}`}
    >
      <p className="text-xs text-slate-500 dark:text-slate-400">{label}</p>
      <p
        className={`mt-1 [overflow-wrap:anywhere] ${strong ? "text-lg font-semibold sm:text-xl" : "font-medium"}`}
      >
        {value}
      </p>
    </div>
  );
}
