"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { Button, textLinkClass } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState, Loading, Muted, PageHeader } from "@/components/ui/page";
import { ACTIONS_COLUMN, Table } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { useAction, useRemoval } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { ClientForm, type ClientInput, draftOf, useClientForm } from "./client-form";
import type { SavedClient } from "./types";

// Middle-aligned cells: the row's buttons are taller than its text.
const cell = "px-3 py-2 align-middle text-slate-800 dark:text-slate-200";
const COLUMNS = ["Favorite", "Name", "Email", "Company", ACTIONS_COLUMN];

/** Saved clients: favorites first (the API's order), upsert by email, favorite, delete. */
export function ClientsView() {
  const {
    data: clients,
    setData,
    error,
    loading,
    api,
  } = useResource<SavedClient[]>("/api/clients");
  const form = useClientForm();
  const writes = useCan()("write");
  const [pendingFavorite, setPendingFavorite] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const action = useAction();
  const { busy, notice, details, clearDetails, run } = action;
  const removal = useRemoval(action, async (c: SavedClient) => {
    await api(`/api/clients/${c.id}`, { method: "DELETE" });
    setData((list) => list?.filter((x) => x.id !== c.id) ?? list);
    return `Deleted ${c.name}.`;
  });

  // The list is fetched again before a success is announced, so what it says is on screen.
  const refresh = async () => setData(await api<SavedClient[]>("/api/clients"));

  const save = (body: ClientInput) =>
    run("save", async () => {
      const saved = await api<SavedClient>("/api/clients", { method: "POST", body });
      await refresh();
      return `Saved ${saved.name}.`;
    });

  async function toggleFavorite(c: SavedClient) {
    setPendingFavorite(c.id);
    await run("favorite", async () => {
      const updated = await api<SavedClient>(`/api/clients/${c.id}/favorite`, {
        method: "PATCH",
        body: { isFavorite: !c.isFavorite },
      });
      setData((list) => list?.map((x) => (x.id === updated.id ? updated : x)) ?? list);
      // Then the API's order again: favorites first.
      await refresh();
    });
    setPendingFavorite(null);
  }

  function edit(c: SavedClient) {
    form.reset(draftOf(c));
    clearDetails();
    formRef.current?.querySelector("input")?.focus();
    formRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Clients"
        description="People you bill. Pick them in the invoice form to fill in their details."
      />
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        {writes && (
          <ClientForm
            form={form}
            clients={clients}
            onSave={save}
            details={details}
            busy={busy === "save" || busy === "delete"}
            formRef={formRef}
          />
        )}

        <div className="lg:order-1 lg:col-span-2">
          {error && <Alert>{error}</Alert>}
          {!clients && loading && <Loading what="clients" />}
          {clients && clients.length === 0 && (
            <EmptyState>
              No saved clients yet. Add one here, or tick “Save client” when you create an invoice.
            </EmptyState>
          )}
          {clients && clients.length > 0 && (
            <Table
              caption="Saved clients, favorites first"
              stacked
              columns={COLUMNS}
              headClassName="bg-slate-50 dark:bg-slate-800"
              className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {clients.map((c) => (
                <tr key={c.id}>
                  <td className={cell}>
                    <button
                      type="button"
                      aria-pressed={c.isFavorite}
                      aria-label={`Favorite ${c.name}`}
                      title={c.isFavorite ? "Remove from favorites" : "Mark as favorite"}
                      disabled={pendingFavorite === c.id}
                      onClick={() => toggleFavorite(c)}
                      className={`rounded px-1.5 text-xl leading-none focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${c.isFavorite ? "text-amber-500" : "text-slate-400 hover:text-amber-500"}`}
                    >
                      <span aria-hidden="true">{c.isFavorite ? "★" : "☆"}</span>
                    </button>
                    <span className="sr-only">{c.isFavorite ? "Favorite" : ""}</span>
                  </td>
                  <th scope="row" className={`${cell} text-left font-medium`}>
                    <Link href={`/clients/${c.id}`} className={textLinkClass}>
                      {c.name}
                    </Link>
                  </th>
                  <td className={`${cell} break-all`}>{c.email}</td>
                  <td className={cell}>{c.company ?? "—"}</td>
                  <td className={`${cell} whitespace-nowrap text-right`}>
                    <Button variant="ghost" onClick={() => edit(c)} aria-label={`Edit ${c.name}`}>
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      onClick={() => removal.ask(c)}
                      aria-label={`Delete ${c.name}`}
                      className="text-red-700 dark:text-red-300"
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </div>
      </div>

      <ConfirmDialog
        open={removal.target !== null}
        title={`Delete ${removal.target?.name ?? "client"}?`}
        confirmLabel="Confirm deletion"
        cancelLabel="Keep client"
        busy={busy === "delete"}
        onConfirm={removal.confirm}
        onClose={removal.cancel}
      >
        <Muted>Invoices already sent to {removal.target?.email} keep their details.</Muted>
      </ConfirmDialog>
    </div>
  );
}
