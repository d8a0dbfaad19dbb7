"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Checkbox, Field, FieldError, OptionsSelect } from "@/components/ui/field";
import { Loading, Muted, PageHeader } from "@/components/ui/page";
import { ShownOnce } from "@/components/ui/shown-once";
import { useAction, useRemoval } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { API_KEY_SCOPES } from "@/lib/domain/api-key-scopes";
import { formatDateTime } from "@/lib/format";
import type {
  ApiKeyBody as ApiKey,
  CreatedApiKeyBody as CreatedApiKey,
} from "@/lib/schemas/api-keys";

const SCOPE_HINTS: Record<(typeof API_KEY_SCOPES)[number], string> = {
  "invoices:read": "List and read invoices, stats, PDFs and events",
  "invoices:write": "Create, edit, send, cancel and delete invoices; prepare refunds",
  "clients:read": "List clients and read events",
  "clients:write": "Add, edit and delete clients",
  "links:write": "Create and list payment links",
  "webhooks:write": "Manage webhook endpoints",
  "profile:write": "Read and replace the business profile (name, email, logo, defaults)",
};

/** /settings/keys: restricted API keys (POST/GET /api/keys, DELETE /api/keys/:id). */
export function ApiKeysView() {
  const { data: keys, setData, error, loading, api } = useResource<ApiKey[]>("/api/keys");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["invoices:read"]);
  const [network, setNetwork] = useState("testnet");
  const action = useAction();
  const removal = useRemoval(action, async (key: ApiKey) => {
    const revoked = await api<ApiKey>(`/api/keys/${key.id}`, { method: "DELETE" });
    setData((list) => list?.map((k) => (k.id === key.id ? revoked : k)) ?? list);
    if (created?.id === key.id) setCreated(null);
    return `Revoked the key ${key.name} (${key.prefix}…).`;
  });

  const create = (e: { preventDefault: () => void }) => {
    e.preventDefault();
    return action.run("create", async () => {
      const key = await api<CreatedApiKey>("/api/keys", {
        method: "POST",
        body: { name: name.trim(), scopes, network },
      });
      // The secret first: it is shown this once, whatever happens next.
      setCreated(key);
      setName("");
      await api<ApiKey[]>("/api/keys").then(setData, () => undefined);
    });
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="Let a server use the API for your wallet without its secret key. Each key works only where its scopes allow, on one network."
      />

      {created && (
        <ShownOnce
          heading={`Key ${created.name}`}
          label="API key"
          value={created.secret}
          copyLabel="Copy key"
          doneLabel="I have saved the key"
          onDone={() => setCreated(null)}
          testId="api-key-secret"
        >
          <p className="mt-1 text-sm">
            Copy it now and keep it on your server: <strong>you will not see it again.</strong> Send
            it as <code>Authorization: Bearer sk_…</code>.
          </p>
        </ShownOnce>
      )}

      {action.notice && <Alert kind={action.notice.kind}>{action.notice.text}</Alert>}

      <Card title="Create a key">
        <form onSubmit={create} noValidate className="space-y-4" aria-label="Create a key">
          <Field
            label="Name"
            name="name"
            required
            placeholder="Accounting sync"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={action.details.name}
          />
          <OptionsSelect
            label="Network"
            name="network"
            value={network}
            onChange={(e) => setNetwork(e.target.value)}
            options={[
              ["testnet", "Testnet (sk_test_)"],
              ["mainnet", "Mainnet (sk_live_)"],
            ]}
          />
          <fieldset>
            <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">
              Scopes
            </legend>
            <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
              {API_KEY_SCOPES.map((s) => (
                <Checkbox
                  key={s}
                  id={`scope-${s}`}
                  label={s}
                  hint={SCOPE_HINTS[s]}
                  checked={scopes.includes(s)}
                  onChange={(e) =>
                    setScopes((list) =>
                      e.target.checked ? [...list, s] : list.filter((x) => x !== s),
                    )
                  }
                />
              ))}
            </div>
            {action.details.scopes && (
              <FieldError className="mt-1">{action.details.scopes}</FieldError>
            )}
          </fieldset>
          <Button type="submit" disabled={action.busy !== null || scopes.length === 0}>
            Create key
          </Button>
        </form>
      </Card>

      <section aria-labelledby="keys-heading" className="space-y-4">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Your keys
        </h2>
        {error && <Alert>{error}</Alert>}
        {!keys && loading && <Loading what="keys" />}
        {keys && keys.length === 0 && <Muted>No keys yet.</Muted>}
        {keys?.map((k) => (
          <article
            key={k.id}
            aria-label={`Key ${k.name}`}
            className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <div className="min-w-0">
              <p className="font-medium">
                {k.name} <span className="font-mono text-sm">{k.prefix}…</span>
              </p>
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                {k.network} · {k.scopes.join(", ")} · created {formatDateTime(k.createdAt)} ·{" "}
                {k.lastUsedAt ? `last used ${formatDateTime(k.lastUsedAt)}` : "never used"}
              </p>
              {k.revokedAt && (
                <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
                  Revoked {formatDateTime(k.revokedAt)}
                </p>
              )}
            </div>
            {!k.revokedAt && (
              <Button
                variant="danger"
                onClick={() => removal.ask(k)}
                aria-label={`Revoke ${k.name}`}
              >
                Revoke
              </Button>
            )}
          </article>
        ))}
      </section>

      <ConfirmDialog
        open={removal.target !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        cancelLabel="Keep key"
        busy={action.busy === "delete"}
        onConfirm={removal.confirm}
        onClose={removal.cancel}
      >
        <Muted>{removal.target?.name} stops working at once; servers that use it get 401.</Muted>
      </ConfirmDialog>
    </div>
  );
}
