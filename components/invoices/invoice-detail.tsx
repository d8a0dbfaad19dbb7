"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { TextArea } from "@/components/ui/field";
import { errorMessage, useApi, useSession } from "@/lib/client/session";
import { canTransition, isPayable } from "@/lib/domain/invoice-state";
import { AuditTimeline } from "./audit-timeline";
import { ConfirmDialog } from "./confirm-dialog";
import {
  Loading,
  linkButtonClass,
  PageHeader,
  Th,
  tableClass,
  tdClass,
  textLinkClass,
} from "./controls";
import { CopyButton } from "./copy-button";
import { DownloadPdfButton } from "./download-pdf-button";
import {
  explorerTxUrl,
  formatAmount,
  formatDate,
  formatDateTime,
  NETWORK_LABELS,
  networkOf,
  paymentPageUrl,
  shortAddress,
  shortHash,
} from "./format";
import { InvoiceDocument } from "./invoice-document";
import { QrCode } from "./qr-code";
import type { OwnerInvoice } from "./types";
import { useResource } from "./use-resource";

type Dialog = "cancel" | "delete" | null;

export function InvoiceDetail({ id }: { id: string }) {
  const api = useApi();
  const router = useRouter();
  const { session } = useSession();
  const { data: invoice, setData, error } = useResource<OwnerInvoice>(`/api/invoices/${id}/owner`);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [showQr, setShowQr] = useState(false);
  const [link, setLink] = useState("");

  useEffect(() => setLink(paymentPageUrl(id)), [id]);

  if (error && !invoice) return <Alert>{error}</Alert>;
  if (!invoice) return <Loading what="invoice" />;

  async function act(name: string, run: () => Promise<unknown>, done: string) {
    setBusy(name);
    setNotice(null);
    try {
      await run();
      // The page shows the new state before it says the action is done.
      await api<OwnerInvoice>(`/api/invoices/${id}/owner`).then(setData, () => undefined);
      setNotice({ kind: "success", text: done });
      setDialog(null);
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
      setDialog(null);
    } finally {
      setBusy(null);
    }
  }

  const send = () =>
    act(
      "send",
      () => api(`/api/invoices/${id}/send`, { method: "POST" }),
      "Invoice sent. It can now be paid from its payment link.",
    );
  const cancel = () =>
    act(
      "cancel",
      () =>
        api(`/api/invoices/${id}/cancel`, {
          method: "POST",
          body: reason.trim() ? { reason: reason.trim() } : {},
        }),
      "Invoice cancelled.",
    );
  async function remove() {
    setBusy("delete");
    setNotice(null);
    try {
      await api(`/api/invoices/${id}`, { method: "DELETE" });
      router.push("/invoices");
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
      setDialog(null);
      setBusy(null);
    }
  }

  const status = invoice.status;
  const canSend = canTransition(status, "send");
  const canCancel = canTransition(status, "cancel");
  const canEdit = canTransition(status, "update");
  const canDelete = canTransition(status, "delete");
  const network = networkOf(invoice.networkPassphrase);

  return (
    <div className="space-y-6">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span>{invoice.invoiceNumber}</span>
            <span data-testid="invoice-status">
              <StatusBadge status={status} />
            </span>
          </span>
        }
        description={invoice.title}
        actions={
          <>
            {canSend && (
              <Button onClick={send} disabled={busy !== null}>
                Send invoice
              </Button>
            )}
            {canEdit && (
              <Link href={`/invoices/${id}/edit`} className={linkButtonClass.secondary}>
                Edit invoice
              </Link>
            )}
            {canCancel && (
              <Button
                variant="secondary"
                onClick={() => setDialog("cancel")}
                disabled={busy !== null}
              >
                Cancel invoice
              </Button>
            )}
            {canDelete && (
              <Button variant="danger" onClick={() => setDialog("delete")} disabled={busy !== null}>
                Delete invoice
              </Button>
            )}
          </>
        }
      />

      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert>{error}</Alert>}

      <section aria-label="Summary" className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Fact label="Total" value={formatAmount(invoice.total, invoice.currency)} strong />
        <Fact label="Client" value={invoice.clientName} />
        <Fact label="Due date" value={formatDate(invoice.dueDate)} />
        <Fact label="Network" value={NETWORK_LABELS[network]} />
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Invoice">
            <InvoiceDocument invoice={invoice} />
          </Card>

          <Card title="Payments">
            {invoice.payments.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {isPayable(status)
                  ? "No payment yet. Payments show up here seconds after they reach the ledger."
                  : status === "DRAFT"
                    ? "Send the invoice to make it payable."
                    : "No payment recorded."}
              </p>
            ) : (
              <div className="overflow-x-auto">
                <table className={tableClass}>
                  <caption className="sr-only">Payments received</caption>
                  <thead>
                    <tr>
                      <Th>Transaction</Th>
                      <Th align="right">Amount</Th>
                      <Th>From</Th>
                      <Th>Ledger</Th>
                      <Th>Status</Th>
                      <Th>Confirmed</Th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                    {invoice.payments.map((p) => (
                      <tr key={p.id}>
                        <td className={`${tdClass} font-mono`}>
                          <a
                            href={explorerTxUrl(p.transactionHash, invoice.networkPassphrase)}
                            target="_blank"
                            rel="noreferrer"
                            className={textLinkClass}
                            title={p.transactionHash}
                          >
                            {shortHash(p.transactionHash)}
                            <span className="sr-only">
                              {" "}
                              (view on Stellar Expert, opens a new tab)
                            </span>
                          </a>
                        </td>
                        <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                          {formatAmount(p.amount, p.asset)}
                        </td>
                        <td className={`${tdClass} font-mono`} title={p.fromWallet}>
                          {shortAddress(p.fromWallet)}
                        </td>
                        <td className={tdClass}>{p.ledgerNumber}</td>
                        <td className={tdClass}>{p.status}</td>
                        <td className={`${tdClass} whitespace-nowrap`}>
                          {formatDateTime(p.confirmedAt)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>

          <Card title="History">
            <AuditTimeline entries={invoice.auditLogs} wallet={session?.wallet} />
          </Card>
        </div>

        <div className="space-y-6">
          <Card title="Payment link">
            <div className="space-y-3">
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {status === "DRAFT"
                  ? "Your client can pay from this page once the invoice is sent."
                  : isPayable(status)
                    ? "Share this page with your client: they pay with Freighter or any wallet that reads the QR code."
                    : "This invoice can no longer be paid."}
              </p>
              <label className="block text-sm font-medium text-slate-700 dark:text-slate-200">
                Payment page
                <input
                  readOnly
                  value={link}
                  onFocus={(e) => e.currentTarget.select()}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
                />
              </label>
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

          <Card title="Documents">
            <div className="flex flex-wrap gap-2">
              <DownloadPdfButton id={id} invoiceNumber={invoice.invoiceNumber} />
              <Link href={`/invoices/${id}/print`} className={linkButtonClass.secondary}>
                Printable view
              </Link>
            </div>
          </Card>

          <Card title="Details">
            <dl className="space-y-2 text-sm">
              <Pair label="Created" value={formatDateTime(invoice.createdAt)} />
              <Pair label="Last updated" value={formatDateTime(invoice.updatedAt)} />
              {invoice.sentAt && <Pair label="Sent" value={formatDateTime(invoice.sentAt)} />}
              {invoice.paidAt && <Pair label="Paid" value={formatDateTime(invoice.paidAt)} />}
              {invoice.cancelledAt && (
                <Pair label="Cancelled" value={formatDateTime(invoice.cancelledAt)} />
              )}
              {invoice.payerWallet && <Pair label="Paid by" value={invoice.payerWallet} mono />}
              {invoice.transactionHash && (
                <div>
                  <dt className="text-xs text-slate-500 dark:text-slate-400">Transaction</dt>
                  <dd className="break-all font-mono text-xs">
                    <a
                      href={explorerTxUrl(invoice.transactionHash, invoice.networkPassphrase)}
                      target="_blank"
                      rel="noreferrer"
                      className={textLinkClass}
                    >
                      {invoice.transactionHash}
                    </a>
                  </dd>
                </div>
              )}
            </dl>
          </Card>
        </div>
      </div>

      <ConfirmDialog
        open={dialog === "cancel"}
        title={`Cancel ${invoice.invoiceNumber}?`}
        confirmLabel="Confirm cancellation"
        cancelLabel="Keep invoice"
        busy={busy === "cancel"}
        onConfirm={cancel}
        onClose={() => setDialog(null)}
      >
        <p className="text-sm text-slate-600 dark:text-slate-300">
          The payment link stops working and the invoice cannot be sent or paid again.
        </p>
        <TextArea
          label="Reason (optional)"
          name="cancelReason"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === "delete"}
        title={`Delete ${invoice.invoiceNumber}?`}
        confirmLabel="Confirm deletion"
        cancelLabel="Keep invoice"
        busy={busy === "delete"}
        onConfirm={remove}
        onClose={() => setDialog(null)}
      >
        <p className="text-sm text-slate-600 dark:text-slate-300">
          The draft disappears from your lists. This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function Fact({
  label,
  value,
  strong = false,
}: {
  label: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <p className="text-xs text-slate-500 dark:text-slate-400">{label}</p>
      <p className={`mt-1 break-all ${strong ? "text-xl font-semibold" : "font-medium"}`}>
        {value}
      </p>
    </div>
  );
}

function Pair({ label, value, mono = false }: { label: string; value: string; mono?: boolean }) {
  return (
    <div>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={mono ? "break-all font-mono text-xs" : ""}>{value}</dd>
    </div>
  );
}
