import { asIs, sameInBothForms } from "@/lib/http/forms";
import {
  portalLinkResponse,
  portalOverviewResponse,
  portalRevokedResponse,
  portalSessionsResponse,
  portalWalletResponse,
  statementSentResponse,
} from "@/lib/schemas/portal";
import type { FormB } from "@/lib/schemas/wire";
import type { PortalOverview } from "@/lib/services/portal/view";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The client's portal: the same in both forms (a browser page reads it). */
export const portalOverviewSerializer = sameInBothForms(
  portalOverviewResponse,
  (o: PortalOverview): FormB<typeof portalOverviewResponse> => ({
    ...o,
    invoices: o.invoices.map((i) => ({
      ...i,
      issuedAt: i.issuedAt.toISOString(),
      dueDate: iso(i.dueDate),
    })),
    creditNotes: o.creditNotes.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })),
    payments: o.payments.map((p) => ({ ...p, confirmedAt: p.confirmedAt.toISOString() })),
  }),
);

type SessionRow = {
  id: string;
  via: "email" | "wallet";
  createdAt: Date;
  lastSeenAt: Date | null;
  expiresAt: Date;
};

export const portalSessionsSerializer = sameInBothForms(
  portalSessionsResponse,
  (rows: SessionRow[]): FormB<typeof portalSessionsResponse> => ({
    sessions: rows.map((r) => ({
      id: r.id,
      via: r.via,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: iso(r.lastSeenAt),
      expiresAt: r.expiresAt.toISOString(),
    })),
  }),
);

export const portalRevokedSerializer = sameInBothForms(
  portalRevokedResponse,
  (r: { revoked: number }) => r,
);

export const statementSentSerializer = sameInBothForms(
  statementSentResponse,
  (r: { emailId: string; to: string }) => r,
);

/** POST /api/portal/link: the one answer, whatever the address. */
export const portalLinkSerializer = asIs(portalLinkResponse);

/** POST /api/portal/wallet-session: signed in (the cookie goes in Set-Cookie) or the choices. */
export const portalWalletSerializer = asIs(portalWalletResponse);
