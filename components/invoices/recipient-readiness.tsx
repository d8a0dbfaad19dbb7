"use client";

import { useCallback, useEffect, useState } from "react";
import { type Control, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { ApiError } from "@/lib/client/api";
import type { InvoiceFormOutput, InvoiceFormValues, LiveTotals } from "@/lib/client/invoice-form";
import { useApi, useSession } from "@/lib/client/session";
import { NETWORK_LABELS, type NetworkName, networkOf } from "@/lib/format";
import type {
  recipientReadiness,
  trustlineResult,
  trustlineTransaction,
} from "@/lib/schemas/readiness";
import type { FormB } from "@/lib/schemas/wire";
import type { OwnerInvoice } from "./types";

type Readiness = FormB<typeof recipientReadiness>;

/** A wallet or API failure in the user's words (wallet errors carry their own message). */
const messageOf = (err: unknown) =>
  err instanceof ApiError || (err instanceof Error && "kind" in err && err.message)
    ? (err as Error).message
    : "Something went wrong. Please try again.";

/**
 * The drafting warning (docs/decisions.md, Recipient readiness): can the signed-in wallet
 * receive `currency` on `network`, with room for `amount` (null: not compared, as for a
 * fiat-priced invoice)? When not, the message sending would answer and its fix, and for a
 * missing or full trustline an "Add trustline" button: the service builds the change_trust,
 * the wallet signs it, the service relays it, and the warning gives way to a confirmation once
 * the wallet is ready. The issuer is named once (in the message; the API's `fix` names it again
 * for API callers, so the banner says its own words beside its button). Nothing shows while
 * the answer is ready or unknown (the network unreachable).
 */
export function RecipientReadiness({
  network,
  currency,
  amount,
}: {
  network: NetworkName;
  currency: string;
  amount: string | null;
}) {
  const api = useApi();
  const { session } = useSession();
  const [readiness, setReadiness] = useState<Readiness | null>(null);
  const [step, setStep] = useState<"idle" | "building" | "signing" | "submitting">("idle");
  const [failure, setFailure] = useState<string | null>(null);
  /** The query whose trustline this banner added: confirmed while the form asks the same. */
  const [added, setAdded] = useState<string | null>(null);

  const query = new URLSearchParams({ network, currency, ...(amount ? { amount } : {}) });
  const url = `/api/wallet/readiness?${query}`;
  const load = useCallback(
    (signal?: AbortSignal) =>
      api<Readiness>(url, { signal }).then(setReadiness, () => setReadiness(null)),
    [api, url],
  );
  // Asked again a moment after the network, asset or total stops changing.
  useEffect(() => {
    if (!session) return;
    const controller = new AbortController();
    const timer = setTimeout(() => load(controller.signal), 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [load, session]);

  if (readiness?.status === "ready" && added === url) {
    return (
      <section aria-label="Trustline added">
        <Alert kind="success">
          <p>
            Trustline added: your wallet can now receive {currency} on {NETWORK_LABELS[network]}.
          </p>
        </Alert>
      </section>
    );
  }
  if (readiness?.status !== "not_ready") return null;

  async function addTrustline() {
    setFailure(null);
    try {
      setStep("building");
      const built = await api<FormB<typeof trustlineTransaction>>("/api/wallet/trustline", {
        method: "POST",
        body: { network, currency },
      });
      setStep("signing");
      const { signPayment } = await import("@/lib/client/wallet");
      const signed = await signPayment(
        built.transactionXdr,
        built.networkPassphrase,
        session?.wallet ?? "",
      );
      setStep("submitting");
      await api<FormB<typeof trustlineResult>>("/api/wallet/trustline/submit", {
        method: "POST",
        body: { network, signedTransactionXdr: signed },
      });
      await load();
      setAdded(url);
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setStep("idle");
    }
  }

  const busy = step !== "idle";
  return (
    <section aria-label="Recipient readiness" className="[overflow-wrap:anywhere]">
      <Alert kind="info">
        <p>{readiness.message}</p>
        {readiness.canAddTrustline ? (
          <p className="mt-1">
            {readiness.problem === "no_room"
              ? "“Add trustline” raises its limit to the maximum"
              : "“Add trustline” adds it"}
            : your wallet signs the change, and nothing is paid.
          </p>
        ) : (
          readiness.fix && <p className="mt-1">{readiness.fix}</p>
        )}
        {readiness.canAddTrustline && (
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <Button type="button" onClick={addTrustline} disabled={busy} aria-busy={busy}>
              Add trustline
            </Button>
            {busy && (
              <span role="status">
                {
                  {
                    building: "Preparing the trustline...",
                    signing: "Confirm the trustline in your wallet...",
                    submitting: "Adding the trustline on the network...",
                  }[step]
                }
              </span>
            )}
          </div>
        )}
        {failure && (
          <p role="alert" className="mt-2 font-medium">
            {failure}
          </p>
        )}
      </Alert>
    </section>
  );
}

/** The invoice form's warning: the form's network, asset and live total (none when fiat). */
export function FormRecipientReadiness({
  control,
  live,
}: {
  control: Control<InvoiceFormValues, unknown, InvoiceFormOutput>;
  live: LiveTotals;
}) {
  const [network, currency, priceCurrency] = useWatch({
    control,
    name: ["network", "currency", "priceCurrency"],
  });
  const amount = !priceCurrency && live.ok ? live.totals.total : null;
  return <RecipientReadiness network={network} currency={currency} amount={amount} />;
}

/** The detail page's warning for a draft: its network, asset and total (none when fiat). */
export function DraftReadiness({ invoice }: { invoice: OwnerInvoice }) {
  return (
    <RecipientReadiness
      network={networkOf(invoice.networkPassphrase)}
      currency={invoice.currency}
      amount={invoice.priceCurrency ? null : invoice.total}
    />
  );
}
