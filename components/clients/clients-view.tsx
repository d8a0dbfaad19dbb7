"use client";

import { type FormEvent, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/invoices/confirm-dialog";
import {
  Checkbox,
  Hint,
  Loading,
  PageHeader,
  Th,
  tableClass,
} from "@/components/invoices/controls";
import { useResource } from "@/components/invoices/use-resource";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, TextArea } from "@/components/ui/field";
import { ApiError } from "@/lib/client/api";
import { errorMessage, useApi } from "@/lib/client/session";
import type { SavedClient } from "./types";

type Draft = { name: string; email: string; company: string; address: string; isFavorite: boolean };
// Middle-aligned cells: the row's buttons are taller than its text.
const cell = "px-3 py-2 align-middle text-slate-800 dark:text-slate-200";

const EMPTY: Draft = { name: "", email: "", company: "", address: "", isFavorite: false };

/** Saved clients: favorites first (the API's order), upsert by email, favorite, delete. */
export function ClientsView() {
  const api = useApi();
  const { data: clients, setData, error, loading } = useResource<SavedClient[]>("/api/clients");
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [details, setDetails] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [pendingFavorite, setPendingFavorite] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<SavedClient | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The list is fetched again before a success is announced, so what it says is on screen.
  const refresh = async () => setData(await api<SavedClient[]>("/api/clients"));

  const existing = clients?.find((c) => c.email.toLowerCase() === draft.email.trim().toLowerCase());

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    setDetails({});
    try {
      const saved = await api<SavedClient>("/api/clients", {
        method: "POST",
        body: {
          name: draft.name,
          email: draft.email,
          company: draft.company.trim() || null,
          address: draft.address.trim() || null,
          isFavorite: draft.isFavorite,
        },
      });
      await refresh();
      setNotice({ kind: "success", text: `Saved ${saved.name}.` });
      setDraft(EMPTY);
    } catch (err) {
      if (err instanceof ApiError) {
        setDetails((err.body as { details?: Record<string, string> } | null)?.details ?? {});
      }
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  async function toggleFavorite(c: SavedClient) {
    setPendingFavorite(c.id);
    setNotice(null);
    try {
      const updated = await api<SavedClient>(`/api/clients/${c.id}/favorite`, {
        method: "PATCH",
        body: { isFavorite: !c.isFavorite },
      });
      setData((list) => list?.map((x) => (x.id === updated.id ? updated : x)) ?? list);
      // Then the API's order again: favorites first.
      await refresh();
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setPendingFavorite(null);
    }
  }

  async function remove() {
    if (!toDelete) return;
    setBusy(true);
    setNotice(null);
    try {
      await api(`/api/clients/${toDelete.id}`, { method: "DELETE" });
      setData((list) => list?.filter((x) => x.id !== toDelete.id) ?? list);
      setNotice({ kind: "success", text: `Deleted ${toDelete.name}.` });
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setToDelete(null);
      setBusy(false);
    }
  }

  function edit(c: SavedClient) {
    setDraft({
      name: c.name,
      email: c.email,
      company: c.company ?? "",
      address: c.address ?? "",
      isFavorite: c.isFavorite,
    });
    setDetails({});
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
        <Card title={existing ? `Update ${existing.name}` : "Add a client"} className="lg:order-2">
          <form ref={formRef} onSubmit={save} noValidate className="space-y-4" aria-label="Client">
            <Field
              label="Name"
              name="name"
              required
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              error={details.name}
            />
            <Field
              label="Email"
              name="email"
              type="email"
              required
              value={draft.email}
              onChange={(e) => setDraft({ ...draft, email: e.target.value })}
              error={details.email}
              hint={
                <Hint>A client is identified by email: saving an existing email updates it.</Hint>
              }
            />
            <Field
              label="Company"
              name="company"
              value={draft.company}
              onChange={(e) => setDraft({ ...draft, company: e.target.value })}
              error={details.company}
            />
            <TextArea
              label="Address"
              name="address"
              rows={3}
              value={draft.address}
              onChange={(e) => setDraft({ ...draft, address: e.target.value })}
            />
            {details.address && (
              <p className="text-xs text-red-600 dark:text-red-400">{details.address}</p>
            )}
            <Checkbox
              label="Favorite"
              name="isFavorite"
              checked={draft.isFavorite}
              onChange={(e) => setDraft({ ...draft, isFavorite: e.target.checked })}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                {existing ? "Update client" : "Add client"}
              </Button>
              {(draft.name || draft.email) && (
                <Button variant="ghost" onClick={() => setDraft(EMPTY)}>
                  Clear form
                </Button>
              )}
            </div>
          </form>
        </Card>

        <div className="lg:order-1 lg:col-span-2">
          {error && <Alert>{error}</Alert>}
          {!clients && loading && <Loading what="clients" />}
          {clients && clients.length === 0 && (
            <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
              No saved clients yet. Add one here, or tick “Save client” when you create an invoice.
            </div>
          )}
          {clients && clients.length > 0 && (
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
              <table className={tableClass}>
                <caption className="sr-only">Saved clients, favorites first</caption>
                <thead className="bg-slate-50 dark:bg-slate-800">
                  <tr>
                    <Th>Favorite</Th>
                    <Th>Name</Th>
                    <Th>Email</Th>
                    <Th>Company</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
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
                        {c.name}
                      </th>
                      <td className={`${cell} break-all`}>{c.email}</td>
                      <td className={cell}>{c.company ?? "—"}</td>
                      <td className={`${cell} whitespace-nowrap text-right`}>
                        <Button
                          variant="ghost"
                          onClick={() => edit(c)}
                          aria-label={`Edit ${c.name}`}
                        >
                          Edit
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => setToDelete(c)}
                          aria-label={`Delete ${c.name}`}
                          className="text-red-700 dark:text-red-300"
                        >
                          Delete
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </div>

      <ConfirmDialog
        open={toDelete !== null}
        title={`Delete ${toDelete?.name ?? "client"}?`}
        confirmLabel="Confirm deletion"
        cancelLabel="Keep client"
        busy={busy}
        onConfirm={remove}
        onClose={() => setToDelete(null)}
      >
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Invoices already sent to {toDelete?.email} keep their details.
        </p>
      </ConfirmDialog>
    </div>
  );
}
