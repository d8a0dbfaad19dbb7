"use client";

import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Muted } from "@/components/ui/page";
import { useAction } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { formatDate } from "@/lib/format";
import type { portalSessionsResponse } from "@/lib/schemas/portal";
import type { FormB } from "@/lib/schemas/wire";

type Sessions = FormB<typeof portalSessionsResponse>;

/**
 * The client's access to the client portal (docs/decisions.md, Client portal): how many
 * sessions are open, when each began and was last used, and "Revoke" (the client's next portal
 * request is refused; they can ask for a new link).
 */
export function PortalAccessCard({ clientId }: { clientId: string }) {
  const path = `/api/clients/${clientId}/portal-sessions`;
  const { data, error, reload, api } = useResource<Sessions>(path);
  const { busy, notice, run } = useAction();
  const count = data?.sessions.length ?? 0;

  const revoke = () =>
    run("revoke", async () => {
      const r = await api<{ revoked: number }>(path, { method: "DELETE" });
      reload();
      return `Revoked ${r.revoked} session${r.revoked === 1 ? "" : "s"}.`;
    });

  return (
    <Card title="Portal access" className="min-w-0">
      {error && <Alert>{error}</Alert>}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {data && (
        <div className="space-y-3">
          <p className="text-sm" data-testid="portal-session-count">
            {count} active session{count === 1 ? "" : "s"}
          </p>
          {count > 0 && (
            <ul className="space-y-1 text-sm text-slate-700 dark:text-slate-200">
              {data.sessions.map((s) => (
                <li key={s.id}>
                  Signed in {formatDate(s.createdAt)} by{" "}
                  {s.via === "email" ? "email link" : "wallet"}
                  {s.lastSeenAt ? `, last seen ${formatDate(s.lastSeenAt)}` : ""}
                </li>
              ))}
            </ul>
          )}
          <Muted>
            The client signs in at /portal with a link emailed to their address, or with the wallet
            that paid one of your invoices.
          </Muted>
          <Button
            variant="danger"
            onClick={revoke}
            disabled={count === 0 || busy !== null}
            aria-busy={busy === "revoke"}
          >
            Revoke
          </Button>
        </div>
      )}
    </Card>
  );
}
