"use client";

import Link from "next/link";
import { textLinkClass } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Loading, PageHeader } from "@/components/ui/page";
import { useResource } from "@/lib/client/use-resource";
import { ClientDocuments } from "./client-documents";
import { PortalAccessCard } from "./portal-access-card";
import { StatementCard } from "./statement-card";
import type { SavedClient } from "./types";

/** One saved client: who they are, their documents, statement of account and portal access. */
export function ClientDetail({ id }: { id: string }) {
  const { data: clients, error, loading } = useResource<SavedClient[]>("/api/clients");
  const client = clients?.find((c) => c.id === id);
  return (
    <div className="space-y-6">
      <Link href="/clients" className={textLinkClass}>
        ← Clients
      </Link>
      {error && <Alert>{error}</Alert>}
      {!clients && loading && <Loading what="client" />}
      {clients && !client && <Alert>Client not found.</Alert>}
      {client && (
        <>
          <PageHeader
            title={client.name}
            description={[client.company, client.email].filter(Boolean).join(" · ")}
          />
          <ClientDocuments email={client.email} />
          <StatementCard clientId={client.id} />
          <PortalAccessCard clientId={client.id} />
        </>
      )}
    </div>
  );
}
