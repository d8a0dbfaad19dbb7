"use client";

import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "@/components/invoices/confirm-dialog";
import { Checkbox, Hint, Loading, PageHeader } from "@/components/invoices/controls";
import { CopyButton } from "@/components/invoices/copy-button";
import { formatDateTime } from "@/components/invoices/format";
import { useResource } from "@/components/invoices/use-resource";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { ApiError } from "@/lib/client/api";
import { errorMessage, useApi } from "@/lib/client/session";
import { EVENT_TYPES } from "@/lib/domain/invoice-state";
import { DeliveryLog } from "./delivery-log";
import type { CreatedWebhook, Webhook } from "./types";

const ALL = "*";

export function WebhooksView() {
  const api = useApi();
  const { data: hooks, setData, error, loading } = useResource<Webhook[]>("/api/webhooks");
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(["invoice.paid"]);
  const [details, setDetails] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const [toDelete, setToDelete] = useState<Webhook | null>(null);
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(null);

  function toggleEvent(type: string, on: boolean) {
    setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));
  }

  async function create(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFormError(null);
    setDetails({});
    try {
      const hook = await api<CreatedWebhook>("/api/webhooks", {
        method: "POST",
        body: { url: url.trim(), events: events.includes(ALL) ? [ALL] : events },
      });
      // The secret first: it is shown this once, whatever happens next.
      setCreated(hook);
      setUrl("");
      await api<Webhook[]>("/api/webhooks").then(setData, () => undefined);
    } catch (err) {
      if (err instanceof ApiError) {
        setDetails((err.body as { details?: Record<string, string> } | null)?.details ?? {});
      }
      setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!toDelete) return;
    setBusy(true);
    setNotice(null);
    try {
      await api(`/api/webhooks/${toDelete.id}`, { method: "DELETE" });
      setData((list) => list?.filter((x) => x.id !== toDelete.id) ?? list);
      setNotice({ kind: "success", text: `Deleted the endpoint ${toDelete.url}.` });
      if (created?.id === toDelete.id) setCreated(null);
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setToDelete(null);
      setBusy(false);
    }
  }

  const all = events.includes(ALL);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="The service POSTs signed JSON events to your endpoints when invoices and links change."
      />

      {created && (
        <section
          aria-labelledby="secret-heading"
          className="rounded-lg border-2 border-amber-400 bg-amber-50 p-5 text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50"
        >
          <h2 id="secret-heading" className="text-base font-semibold">
            Signing secret for {created.url}
          </h2>
          <p className="mt-1 text-sm">
            Copy it now and keep it safe: <strong>you will not see it again.</strong> Use it to
            check the signature header of every delivery.
          </p>
          <label className="mt-3 block text-sm font-medium">
            Signing secret
            <input
              readOnly
              value={created.secret}
              onFocus={(e) => e.currentTarget.select()}
              className="mt-1 block w-full rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-xs text-slate-900 focus:outline-none focus:ring-2 focus:ring-indigo-500"
              data-testid="webhook-secret"
            />
          </label>
          <div className="mt-3 flex flex-wrap gap-2">
            <CopyButton text={created.secret} label="Copy secret" />
            <Button variant="ghost" onClick={() => setCreated(null)}>
              I have saved the secret
            </Button>
          </div>
        </section>
      )}

      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}

      <Card title="Add an endpoint">
        <form onSubmit={create} noValidate className="space-y-4" aria-label="Add an endpoint">
          {formError && <Alert>{formError}</Alert>}
          <Field
            label="Endpoint URL"
            name="url"
            type="url"
            required
            placeholder="https://example.com/webhooks/stellar"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={details.url}
            hint={<Hint>A public https address; private and local addresses are refused.</Hint>}
          />
          <fieldset>
            <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">
              Events
            </legend>
            <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3">
              <Checkbox
                id="event-all"
                label="All events"
                hint="Including types added later"
                checked={all}
                onChange={(e) => toggleEvent(ALL, e.target.checked)}
              />
              {EVENT_TYPES.map((t) => (
                <Checkbox
                  key={t}
                  id={`event-${t}`}
                  label={t}
                  checked={all || events.includes(t)}
                  disabled={all}
                  onChange={(e) => toggleEvent(t, e.target.checked)}
                />
              ))}
            </div>
            {details.events && (
              <p className="mt-1 text-xs text-red-600 dark:text-red-400">{details.events}</p>
            )}
          </fieldset>
          <Button type="submit" disabled={busy || events.length === 0}>
            Add endpoint
          </Button>
        </form>
      </Card>

      <section aria-labelledby="endpoints-heading" className="space-y-4">
        <h2 id="endpoints-heading" className="text-lg font-semibold">
          Your endpoints
        </h2>
        {error && <Alert>{error}</Alert>}
        {!hooks && loading && <Loading what="endpoints" />}
        {hooks && hooks.length === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            No endpoints yet. Add one above to receive invoice.paid and other events.
          </p>
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
                  Events: {h.events.map((t) => (t === ALL ? "all events" : t)).join(", ")} · added{" "}
                  {formatDateTime(h.createdAt)}
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
                  variant="danger"
                  onClick={() => setToDelete(h)}
                  aria-label={`Delete endpoint ${h.url}`}
                >
                  Delete
                </Button>
              </div>
            </div>
            <div id={`deliveries-${h.id}`}>{open[h.id] && <DeliveryLog webhookId={h.id} />}</div>
          </article>
        ))}
      </section>

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this endpoint?"
        confirmLabel="Confirm deletion"
        cancelLabel="Keep endpoint"
        busy={busy}
        onConfirm={remove}
        onClose={() => setToDelete(null)}
      >
        <p className="break-all text-sm text-slate-600 dark:text-slate-300">
          {toDelete?.url} stops receiving events.
        </p>
      </ConfirmDialog>
    </div>
  );
}

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
