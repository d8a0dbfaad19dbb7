"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, OptionsSelect } from "@/components/ui/field";
import { Loading, Muted, PageHeader } from "@/components/ui/page";
import { useAction, useRemoval } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import type { TeamRole } from "@/lib/domain/team-access";
import { formatDateTime, shortAddress } from "@/lib/format";
import type { TeamMemberBody as TeamMember } from "@/lib/schemas/team";

const ROLE_OPTIONS: [TeamRole, string][] = [
  ["accountant", "Accountant: reads everything, changes nothing"],
  ["member", "Member: everything but keys, webhooks, profile, team and refunds"],
];

const STATE_WORDS: Record<TeamMember["state"], string> = {
  pending: "Invited, not yet accepted",
  active: "Active",
  expired: "Invitation expired",
  revoked: "Revoked",
};

/** /settings/team: invite wallets to these books, change roles, revoke (docs/decisions.md, Team access). */
export function TeamView() {
  const { data: team, setData, error, loading, api } = useResource<TeamMember[]>("/api/team");
  const [wallet, setWallet] = useState("");
  const [role, setRole] = useState<TeamRole>("accountant");
  const action = useAction();
  const reload = () => api<TeamMember[]>("/api/team").then(setData, () => undefined);
  const removal = useRemoval(action, async (m: TeamMember) => {
    await api<TeamMember>(`/api/team/${m.id}`, { method: "DELETE" });
    await reload();
    return `Revoked ${shortAddress(m.wallet)}: its next request is refused.`;
  });

  const invite = (e: { preventDefault: () => void }) => {
    e.preventDefault();
    return action.run("invite", async () => {
      await api<TeamMember>("/api/team", { method: "POST", body: { wallet: wallet.trim(), role } });
      setWallet("");
      await reload();
      return "Invited. The wallet signs in as itself and picks your books within 7 days.";
    });
  };

  const change = (m: TeamMember, next: TeamRole) =>
    action.run(`role-${m.id}`, async () => {
      await api<TeamMember>(`/api/team/${m.id}`, { method: "PATCH", body: { role: next } });
      await reload();
      return `${shortAddress(m.wallet)} is now ${next === "accountant" ? "an accountant" : "a member"}.`;
    });

  return (
    <div className="space-y-6">
      <PageHeader
        title="Team"
        description="Let your accountant or a colleague open your books with their own wallet. An accountant only reads; a member works on invoices, quotes, clients and payments but never on keys, webhooks, the profile, the team or refunds."
      />

      {action.notice && <Alert kind={action.notice.kind}>{action.notice.text}</Alert>}

      <Card title="Invite a wallet">
        <form onSubmit={invite} noValidate className="space-y-4" aria-label="Invite a wallet">
          <Field
            label="Wallet address"
            name="wallet"
            required
            placeholder="G…"
            autoComplete="off"
            spellCheck={false}
            value={wallet}
            onChange={(e) => setWallet(e.target.value)}
            error={action.details.wallet}
          />
          <OptionsSelect
            label="Role"
            name="role"
            value={role}
            onChange={(e) => setRole(e.target.value as TeamRole)}
            options={ROLE_OPTIONS}
          />
          <Button type="submit" disabled={action.busy !== null || wallet.trim() === ""}>
            Invite
          </Button>
        </form>
      </Card>

      <section aria-labelledby="team-heading" className="space-y-4">
        <h2 id="team-heading" className="text-lg font-semibold">
          Your team
        </h2>
        {error && <Alert>{error}</Alert>}
        {!team && loading && <Loading what="team" />}
        {team && team.length === 0 && <Muted>Nobody invited yet.</Muted>}
        {team?.map((m) => (
          <article
            key={m.id}
            aria-label={`Team member ${shortAddress(m.wallet)}`}
            data-testid="team-member"
            className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <div className="min-w-0">
              <p className="font-mono text-sm break-all">{m.wallet}</p>
              <p className="mt-1 text-sm">
                <span className="font-medium">
                  {m.role === "accountant" ? "Accountant" : "Member"}
                </span>
                {" · "}
                <span data-testid="team-state">{STATE_WORDS[m.state]}</span>
              </p>
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                Invited {formatDateTime(m.invitedAt)}
                {m.state === "pending" && ` · expires ${formatDateTime(m.expiresAt)}`}
                {m.acceptedAt && ` · accepted ${formatDateTime(m.acceptedAt)}`}
                {m.revokedAt && ` · revoked ${formatDateTime(m.revokedAt)}`}
              </p>
            </div>
            {m.state !== "revoked" && (
              <div className="flex flex-wrap items-end gap-2">
                {m.state !== "expired" && (
                  <OptionsSelect
                    label={`Role of ${shortAddress(m.wallet)}`}
                    name={`role-${m.id}`}
                    value={m.role}
                    disabled={action.busy !== null}
                    onChange={(e) => change(m, e.target.value as TeamRole)}
                    options={[
                      ["accountant", "Accountant"],
                      ["member", "Member"],
                    ]}
                  />
                )}
                <Button
                  variant="danger"
                  onClick={() => removal.ask(m)}
                  aria-label={`Revoke ${shortAddress(m.wallet)}`}
                >
                  Revoke
                </Button>
              </div>
            )}
          </article>
        ))}
      </section>

      <ConfirmDialog
        open={removal.target !== null}
        title="Revoke this access?"
        confirmLabel="Revoke access"
        cancelLabel="Keep access"
        busy={action.busy === "delete"}
        onConfirm={removal.confirm}
        onClose={removal.cancel}
      >
        <Muted>
          {removal.target && shortAddress(removal.target.wallet)} can no longer open your books,
          from its next request.
        </Muted>
      </ConfirmDialog>
    </div>
  );
}
