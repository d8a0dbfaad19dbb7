"use client";

import { Muted } from "@/components/ui/page";
import { type AuditContext, auditWords } from "@/lib/audit-words";
import { useSession } from "@/lib/client/session";
import { useResource } from "@/lib/client/use-resource";
import { formatDateTime, type Pricing } from "@/lib/format";
import type { AuditLog } from "./types";

export { AUDIT_ACTION_LABELS } from "@/lib/audit-words";

type KeyName = { prefix: string; name: string };
type TeamMember = { wallet: string; role: "accountant" | "member" };

/**
 * The invoice's audit trail, oldest first, in words (lib/audit-words.ts): what happened with
 * its amounts in their unit, who did it ("you", the API key's name, "the service", "the
 * client"), when. The owner's API keys are read only when an entry names one.
 */
export function AuditTimeline({
  entries,
  wallet,
  pricing,
  clientEmail,
}: {
  entries: AuditLog[];
  wallet?: string;
  /** The invoice's pricing: a fiat-priced invoice's amounts are shown in its currency. */
  pricing?: Pricing;
  /** Where the invoice was sent. */
  clientEmail?: string | null;
}) {
  const { session } = useSession();
  const books = session?.books;
  // The API keys and the team are the owner's to read: a team member names only itself.
  const byKey = !books && entries.some((e) => e.actorWallet.startsWith("key:"));
  const { data: keys } = useResource<KeyName[]>(byKey ? "/api/keys" : null);
  const byOther =
    !books && entries.some((e) => e.actorWallet.startsWith("G") && e.actorWallet !== wallet);
  const { data: team } = useResource<TeamMember[]>(byOther ? "/api/team" : null);
  if (entries.length === 0) {
    return <Muted>No history yet.</Muted>;
  }
  const ctx: AuditContext = {
    me: wallet,
    pricing,
    clientEmail,
    keyNames: Object.fromEntries((keys ?? []).map((k) => [k.prefix, k.name])),
    team: books
      ? { [books.own.wallet]: books.role }
      : Object.fromEntries((team ?? []).map((m) => [m.wallet, m.role])),
  };
  return (
    <ol
      aria-label="Audit trail"
      className="relative space-y-4 border-l border-slate-200 pl-5 dark:border-slate-700"
    >
      {entries.map((e) => {
        const words = auditWords(e, ctx);
        return (
          <li key={e.id} className="relative" data-testid="audit-entry">
            <span
              aria-hidden="true"
              className="absolute top-1.5 -left-[1.65rem] h-2.5 w-2.5 rounded-full bg-indigo-500"
            />
            <p className="text-sm break-words">
              <span className="font-semibold">{words.sentence}</span>{" "}
              <span className="text-slate-600 dark:text-slate-300">
                by <span title={e.actorWallet}>{words.actor}</span>
              </span>
            </p>
            <time
              dateTime={e.createdAt}
              className="block text-xs text-slate-500 dark:text-slate-400"
            >
              {formatDateTime(e.createdAt)}
            </time>
            {words.details.length > 0 && (
              <ul className="mt-1 space-y-0.5 text-xs break-words text-slate-600 dark:text-slate-300">
                {words.details.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}
