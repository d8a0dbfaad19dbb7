"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Loading, Muted, PageHeader } from "@/components/ui/page";
import { ShownOnce } from "@/components/ui/shown-once";
import { useAction, useRemoval } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { formatDateTime } from "@/lib/format";
import { DeliveryLog } from "./delivery-log";
import type { CreatedWebhook, RotatedSecret, Webhook } from "./types";
import { ALL_EVENTS, WebhookForm } from "./webhook-form";

export function WebhooksView() {
  const { data: hooks, setData, error, loading, api } = useResource<Webhook[]>("/api/webhooks");
  /** A secret shown this once: after creating an endpoint or rotating its secret. */
  const [created, setCreated] = useState<ShownSecret | null>(null);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  /** Test events queued per endpoint: a change makes its delivery log follow the new one. */
  const [tests, setTests] = useState<Record<string, number>>({});
  const action = useAction();
  const removal = useRemoval(action, async (hook: Webhook) => {
    await api(`/api/webhooks/${hook.id}`, { method: "DELETE" });
    setData((list) => list?.filter((x) => x.id !== hook.id) ?? list);
    if (created?.id === hook.id) setCreated(null);
    return `Deleted the endpoint ${hook.url}.`;
  });

  const rotate = (hook: Webhook) =>
    action.run("rotate", async () => {
      const r = await api<RotatedSecret>(`/api/webhooks/${hook.id}/rotate-secret`, {
        method: "POST",
      });
      setCreated({
        id: r.id,
        url: hook.url,
        secret: r.secret,
        oldUntil: r.previousSecretExpiresAt,
      });
    });

  /** A signed `ping` to this endpoint only; its delivery log opens and follows it. */
  const sendTest = (hook: Webhook) =>
    action.run(`test-${hook.id}`, async () => {
      await api(`/api/webhooks/${hook.id}/test`, { method: "POST" });
      setOpen((o) => ({ ...o, [hook.id]: true }));
      setTests((t) => ({ ...t, [hook.id]: (t[hook.id] ?? 0) + 1 }));
      // A disabled endpoint is enabled again by the test.
      if (hook.status === "disabled") {
        await api<Webhook[]>("/api/webhooks").then(setData, () => undefined);
      }
      return `Test event (ping) queued for ${hook.url}: its result appears in the deliveries below within a few seconds.`;
    });

  async function onCreated(hook: CreatedWebhook) {
    // The secret first: it is shown this once, whatever happens next.
    setCreated(hook);
    await api<Webhook[]>("/api/webhooks").then(setData, () => undefined);
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="The service POSTs signed JSON events to your endpoints when invoices and links change."
      />

      {created && (
        <ShownOnce
          heading={`Signing secret for ${created.url}`}
          label="Signing secret"
          value={created.secret}
          copyLabel="Copy secret"
          doneLabel="I have saved the secret"
          onDone={() => setCreated(null)}
          testId="webhook-secret"
        >
          <p className="mt-1 text-sm">
            Copy it now and keep it safe: <strong>you will not see it again.</strong> Use it to
            check the signature header of every delivery.
          </p>
          {created.oldUntil && (
            <p className="mt-1 text-sm" data-testid="webhook-rotation-note">
              The old secret still signs deliveries (a second <code>v1=</code> in
              X-Service-Signature-V2) until {formatDateTime(created.oldUntil)}; X-Service-Signature
              uses the new one from now on.
            </p>
          )}
        </ShownOnce>
      )}

      {action.notice && <Alert kind={action.notice.kind}>{action.notice.text}</Alert>}

      <WebhookForm api={api} onCreated={onCreated} />

      <section aria-labelledby="endpoints-heading" className="space-y-4">
        <h2 id="endpoints-heading" className="text-lg font-semibold">
          Your endpoints
        </h2>
        {error && <Alert>{error}</Alert>}
        {!hooks && loading && <Loading what="endpoints" />}
        {hooks && hooks.length === 0 && (
          <Muted>No endpoints yet. Add one above to receive invoice.paid and other events.</Muted>
        )}
        {hooks?.map((h) => (
          <article
            key={h.id}
            aria-label={`Endpoint ${h.url}`}
            className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="break-all font-mono text-sm font-medium">{h.url}</p>
                <p className="mt-1 text-sm">
                  <HookStatus hook={h} />
                </p>
                <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                  Events: {h.events.map((t) => (t === ALL_EVENTS ? "all events" : t)).join(", ")} ·
                  added {formatDateTime(h.createdAt)}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  aria-expanded={Boolean(open[h.id])}
                  aria-controls={`deliveries-${h.id}`}
                  onClick={() => setOpen((o) => ({ ...o, [h.id]: !o[h.id] }))}
                >
                  {open[h.id] ? "Hide deliveries" : "Show deliveries"}
                </Button>
                <Button
                  variant="secondary"
                  disabled={action.busy === `test-${h.id}`}
                  onClick={() => sendTest(h)}
                  aria-label={`Send test event to ${h.url}`}
                >
                  Send test event
                </Button>
                <Button
                  variant="secondary"
                  disabled={action.busy === "rotate"}
                  onClick={() => rotate(h)}
                  aria-label={`Rotate secret of ${h.url}`}
                >
                  Rotate secret
                </Button>
                <Button
                  variant="danger"
                  onClick={() => removal.ask(h)}
                  aria-label={`Delete endpoint ${h.url}`}
                >
                  Delete
                </Button>
              </div>
            </div>
            <div id={`deliveries-${h.id}`}>
              {open[h.id] && <DeliveryLog webhookId={h.id} follow={tests[h.id] ?? 0} />}
            </div>
          </article>
        ))}
      </section>

      <ConfirmDialog
        open={removal.target !== null}
        title="Delete this endpoint?"
        confirmLabel="Confirm deletion"
        cancelLabel="Keep endpoint"
        busy={action.busy === "delete"}
        onConfirm={removal.confirm}
        onClose={removal.cancel}
      >
        <Muted className="break-all">{removal.target?.url} stops receiving events.</Muted>
      </ConfirmDialog>
    </div>
  );
}

type ShownSecret = Pick<CreatedWebhook, "id" | "url" | "secret"> & {
  /** After a rotation: when the old secret stops signing. */
  oldUntil?: string;
};

function HookStatus({ hook }: { hook: Webhook }) {
  if (hook.status === "disabled") {
    return (
      <span className="font-medium text-red-700 dark:text-red-300">
        Disabled{hook.disabledAt ? ` since ${formatDateTime(hook.disabledAt)}` : ""} after repeated
        failures. Redeliver an event to turn it back on.
      </span>
    );
  }
  if (hook.failingSince) {
    return (
      <span className="font-medium text-amber-700 dark:text-amber-300">
        Active, failing since {formatDateTime(hook.failingSince)}
      </span>
    );
  }
  return <span className="font-medium text-emerald-700 dark:text-emerald-300">Active</span>;
}
