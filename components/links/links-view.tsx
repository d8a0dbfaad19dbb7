"use client";

import { type FormEvent, useEffect, useState } from "react";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import {
  Checkbox,
  Hint,
  Loading,
  PageHeader,
  Th,
  tableClass,
  tdClass,
  textLinkClass,
} from "@/components/invoices/controls";
import { CopyButton } from "@/components/invoices/copy-button";
import {
  formatAmount,
  formatDateTime,
  NETWORK_LABELS,
  NETWORK_NAMES,
  type NetworkName,
  networkOf,
} from "@/components/invoices/format";
import { QrCode } from "@/components/invoices/qr-code";
import { useResource } from "@/components/invoices/use-resource";
import { Button } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { Field, Select, TextArea } from "@/components/ui/field";
import { ApiError } from "@/lib/client/api";
import { errorMessage, useApi } from "@/lib/client/session";
import { AMOUNT_SPEC, CURRENCIES, type Currency, checkDecimal } from "@/lib/domain/money";

/** Form B shape of a payment link (lib/serializers/links.ts). */
export type PaymentLink = {
  id: string;
  checkoutUrl: string;
  amount: string;
  asset: Currency;
  networkPassphrase: string;
  destination: string;
  memo: string;
  metadata: { title: string | null; reference: string | null };
  description: string | null;
  activateNewAccounts: boolean;
  status: "ACTIVE" | "PAID" | "EXPIRED" | "CANCELLED";
  expiresAt: string | null;
  paidAt: string | null;
  transactionHash: string | null;
  createdAt: string;
};

type Draft = {
  amount: string;
  asset: Currency;
  network: NetworkName;
  title: string;
  reference: string;
  description: string;
  expiresAt: string;
  activateNewAccounts: boolean;
};

const EMPTY: Draft = {
  amount: "",
  asset: "XLM",
  network: "testnet",
  title: "",
  reference: "",
  description: "",
  expiresAt: "",
  activateNewAccounts: false,
};

export function LinksView() {
  const api = useApi();
  const [preferred, , ready] = usePreferredNetwork();
  const { data, setData, error, loading } = useResource<{ links: PaymentLink[] }>("/api/links");
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [details, setDetails] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<PaymentLink | null>(null);

  useEffect(() => {
    if (ready) setDraft((d) => ({ ...d, network: preferred }));
  }, [ready, preferred]);

  const amountCheck =
    draft.amount.trim() === "" ? null : checkDecimal(draft.amount.trim(), AMOUNT_SPEC, "Amount");
  const amountError =
    details.amount ?? (amountCheck && !amountCheck.ok ? amountCheck.message : undefined);

  async function create(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFormError(null);
    setDetails({});
    try {
      const link = await api<PaymentLink>("/api/links", {
        method: "POST",
        body: {
          amount: draft.amount.trim(),
          asset: draft.asset,
          network: draft.network,
          title: draft.title.trim() || undefined,
          reference: draft.reference.trim() || undefined,
          description: draft.description.trim() || undefined,
          // datetime-local is the viewer's local time; the API wants an instant.
          expiresAt: draft.expiresAt ? new Date(draft.expiresAt).toISOString() : undefined,
          activateNewAccounts: draft.asset === "XLM" ? draft.activateNewAccounts : undefined,
        },
      });
      setData((d) => ({ links: [link, ...(d?.links ?? []).filter((l) => l.id !== link.id)] }));
      setCreated(link);
      setDraft({ ...EMPTY, network: draft.network, asset: draft.asset });
    } catch (err) {
      if (err instanceof ApiError) {
        setDetails((err.body as { details?: Record<string, string> } | null)?.details ?? {});
      }
      setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const links = data?.links ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Payment links"
        description="A single amount to collect, without writing an invoice. Each link is paid once."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="New payment link">
          <form onSubmit={create} noValidate className="space-y-4" aria-label="New payment link">
            {formError && <Alert>{formError}</Alert>}
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
              <Field
                label="Amount"
                name="amount"
                inputMode="decimal"
                required
                value={draft.amount}
                onChange={(e) => setDraft({ ...draft, amount: e.target.value })}
                error={amountError}
              />
              <Select
                label="Asset"
                name="asset"
                value={draft.asset}
                onChange={(e) => setDraft({ ...draft, asset: e.target.value as Currency })}
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
                value={draft.network}
                onChange={(e) => setDraft({ ...draft, network: e.target.value as NetworkName })}
              >
                {NETWORK_NAMES.map((n) => (
                  <option key={n} value={n}>
                    {NETWORK_LABELS[n]}
                  </option>
                ))}
              </Select>
            </div>
            <Field
              label="Title"
              name="title"
              value={draft.title}
              onChange={(e) => setDraft({ ...draft, title: e.target.value })}
              error={details.title}
              hint={<Hint>Shown to the payer.</Hint>}
            />
            <Field
              label="Reference"
              name="reference"
              value={draft.reference}
              onChange={(e) => setDraft({ ...draft, reference: e.target.value })}
              error={details.reference}
              hint={<Hint>Your own reference, echoed in webhook events.</Hint>}
            />
            <TextArea
              label="Description"
              name="description"
              rows={2}
              value={draft.description}
              onChange={(e) => setDraft({ ...draft, description: e.target.value })}
            />
            <Field
              label="Expires at"
              name="expiresAt"
              type="datetime-local"
              value={draft.expiresAt}
              onChange={(e) => setDraft({ ...draft, expiresAt: e.target.value })}
              error={details.expiresAt}
              hint={
                <Hint>Your local time. Default: 24 hours from now; at most 90 days ahead.</Hint>
              }
            />
            {draft.asset === "XLM" && (
              <Checkbox
                label="Activate new accounts"
                name="activateNewAccounts"
                checked={draft.activateNewAccounts}
                onChange={(e) => setDraft({ ...draft, activateNewAccounts: e.target.checked })}
                hint={
                  details.activateNewAccounts ? (
                    <span className="text-red-600 dark:text-red-400">
                      {details.activateNewAccounts}
                    </span>
                  ) : (
                    "If your wallet is not on the ledger yet, the payment creates it (at least 1 XLM)."
                  )
                }
              />
            )}
            <Button type="submit" disabled={busy}>
              Create payment link
            </Button>
          </form>
        </Card>

        {created && (
          <Card title="Your new link">
            <div className="space-y-3">
              <p className="text-sm" role="status">
                Link created: {formatAmount(created.amount, created.asset)} on{" "}
                {NETWORK_LABELS[networkOf(created.networkPassphrase)]}
                {created.expiresAt ? `, until ${formatDateTime(created.expiresAt)}` : ""}.
              </p>
              <label className="block text-sm font-medium text-slate-700 dark:text-slate-200">
                Checkout URL
                <input
                  readOnly
                  value={created.checkoutUrl}
                  onFocus={(e) => e.currentTarget.select()}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-800"
                />
              </label>
              <CopyButton text={created.checkoutUrl} label="Copy checkout link" />
              <div>
                <QrCode value={created.checkoutUrl} label="QR code for the new checkout link" />
              </div>
            </div>
          </Card>
        )}
      </div>

      <Card title="Your payment links">
        {error && <Alert>{error}</Alert>}
        {!data && loading && <Loading what="payment links" />}
        {data && links.length === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            No payment links yet. Create one above and share its URL or QR code.
          </p>
        )}
        {links.length > 0 && (
          <div className="overflow-x-auto">
            <table className={tableClass}>
              <caption className="sr-only">Your payment links, newest first</caption>
              <thead>
                <tr>
                  <Th>Title</Th>
                  <Th align="right">Amount</Th>
                  <Th>Status</Th>
                  <Th>Network</Th>
                  <Th>Expires</Th>
                  <Th>Checkout</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                {links.map((l) => {
                  const name = l.metadata.title ?? l.memo;
                  return (
                    <tr key={l.id}>
                      <th scope="row" className={`${tdClass} text-left font-medium`}>
                        {name}
                        {l.metadata.reference && (
                          <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                            Ref. {l.metadata.reference}
                          </span>
                        )}
                      </th>
                      <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                        {formatAmount(l.amount, l.asset)}
                      </td>
                      <td className={tdClass}>
                        <StatusBadge status={l.status} />
                      </td>
                      <td className={tdClass}>{NETWORK_LABELS[networkOf(l.networkPassphrase)]}</td>
                      <td className={`${tdClass} whitespace-nowrap`}>
                        {formatDateTime(l.expiresAt)}
                      </td>
                      <td className={`${tdClass} whitespace-nowrap`}>
                        <span className="flex flex-wrap items-center gap-2">
                          <a
                            href={l.checkoutUrl}
                            target="_blank"
                            rel="noreferrer"
                            className={textLinkClass}
                            aria-label={`Open checkout for ${name} (new tab)`}
                          >
                            Open
                          </a>
                          <CopyButton
                            text={l.checkoutUrl}
                            label="Copy"
                            ariaLabel={`Copy URL of ${name}`}
                            variant="ghost"
                          />
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
