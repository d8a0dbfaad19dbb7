"use client";

import type { RefObject } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, TextArea } from "@/components/ui/field";
import type { SavedClient } from "./types";

export type ClientDraft = {
  name: string;
  email: string;
  company: string;
  address: string;
  isFavorite: boolean;
};
export const EMPTY_CLIENT: ClientDraft = {
  name: "",
  email: "",
  company: "",
  address: "",
  isFavorite: false,
};

/** Add a client, or update the one whose email is typed (a client is known by email). */
export function ClientForm({
  draft,
  onChange,
  onSave,
  existing,
  details,
  busy,
  formRef,
}: {
  draft: ClientDraft;
  onChange: (draft: ClientDraft) => void;
  onSave: () => void;
  existing: SavedClient | undefined;
  details: Record<string, string>;
  busy: boolean;
  formRef: RefObject<HTMLFormElement | null>;
}) {
  const text = (key: "name" | "email" | "company" | "address") => ({
    name: key,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value }),
    error: details[key],
  });
  return (
    <Card title={existing ? `Update ${existing.name}` : "Add a client"} className="lg:order-2">
      <form
        ref={formRef}
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
        noValidate
        className="space-y-4"
        aria-label="Client"
      >
        <Field label="Name" required {...text("name")} />
        <Field
          label="Email"
          type="email"
          required
          {...text("email")}
          hint={<Hint>A client is identified by email: saving an existing email updates it.</Hint>}
        />
        <Field label="Company" {...text("company")} />
        <TextArea label="Address" rows={3} {...text("address")} />
        <Checkbox
          label="Favorite"
          name="isFavorite"
          checked={draft.isFavorite}
          onChange={(e) => onChange({ ...draft, isFavorite: e.target.checked })}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {existing ? "Update client" : "Add client"}
          </Button>
          {(draft.name || draft.email) && (
            <Button variant="ghost" onClick={() => onChange(EMPTY_CLIENT)}>
              Clear form
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
