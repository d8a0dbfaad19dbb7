import { CopyButton } from "@/components/ui/copy-button";
import { formatMoney } from "@/lib/format";
import type { MobileState } from "./use-wallet-payment";

/** The SEP-7 QR code, an "Open in wallet" link, and the raw details to pay by hand. */
export function MobilePayment({
  state,
  networkLabel,
}: {
  state: MobileState;
  networkLabel: string;
}) {
  const { intent, qrSvg } = state;
  if (!intent || !qrSvg) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        Preparing the payment request…
      </p>
    );
  }
  const { code, issuer } = intent.asset;
  return (
    <section aria-labelledby="mobile-heading" className="space-y-4">
      <h3 id="mobile-heading" className="text-base font-semibold">
        Scan with your Stellar wallet
      </h3>
      <div className="flex flex-col items-center gap-3">
        <div
          role="img"
          aria-label="Payment QR code"
          className="rounded-md border border-slate-200 bg-white p-2 [&>svg]:h-64 [&>svg]:w-64"
          // The SVG comes from the qrcode encoder, never from user input.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: encoder output
          dangerouslySetInnerHTML={{ __html: qrSvg }}
        />
        <a
          href={intent.sep7Uri}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Open in wallet
        </a>
      </div>
      <div>
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Or send the payment by hand with exactly these details ({networkLabel}):
        </p>
        <dl className="mt-3 divide-y divide-slate-200 rounded-md border border-slate-200 text-sm dark:divide-slate-700 dark:border-slate-700">
          <Detail label="Destination" value={intent.destination} mono />
          <Detail label="Amount" value={intent.amount} display={formatMoney(intent.amount, code)} />
          <Detail
            label="Asset"
            value={issuer ?? code}
            display={issuer ? `${code} issued by ${issuer}` : `${code} (native lumens)`}
            copy={issuer ? "asset issuer" : false}
            mono={issuer !== null}
          />
          <Detail
            label="Memo"
            value={intent.memo}
            mono
            hint="Text memo. Required: it matches your payment to this invoice."
          />
        </dl>
      </div>
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        Waiting for your payment. This page updates by itself when it arrives.
      </p>
    </section>
  );
}

/** One detail with a copy button named "Copy <copy>" (none with `copy={false}`). */
function Detail({
  label,
  value,
  display = value,
  mono = false,
  hint,
  copy = label.toLowerCase(),
}: {
  label: string;
  value: string;
  display?: string;
  mono?: boolean;
  hint?: string;
  copy?: string | false;
}) {
  // A <dl> may only hold <div>s of <dt>/<dd>: the copy button lives inside the <dd>.
  return (
    <div className="px-3 py-2">
      <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="flex flex-wrap items-start justify-between gap-2">
        <span className="min-w-0 flex-1 text-slate-900 dark:text-slate-100">
          <span className={`break-all ${mono ? "font-mono" : ""}`}>{display}</span>
          {hint && (
            <span className="mt-1 block text-xs text-slate-600 dark:text-slate-300">{hint}</span>
          )}
        </span>
        {copy && (
          <CopyButton
            text={value}
            label="Copy"
            ariaLabel={`Copy ${copy}`}
            buttonClassName="px-3 py-1"
          />
        )}
      </dd>
    </div>
  );
}
