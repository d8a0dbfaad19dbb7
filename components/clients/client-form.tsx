"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { RefObject } from "react";
import { type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, TextArea } from "@/components/ui/field";
import { fromTextBox } from "@/lib/client/form-schema";
import { clientInputSchema } from "@/lib/schemas/clients";
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

const shape = clientInputSchema.shape;

/** The form's rules: POST /api/clients's own schema (lib/schemas/clients.ts) on the boxes. */
export const clientFormSchema = z.object({
  name: fromTextBox(shape.name),
  email: fromTextBox(shape.email),
  company: fromTextBox(shape.company),
  address: fromTextBox(shape.address),
  isFavorite: shape.isFavorite.unwrap(),
});

/** The validated values: POST /api/clients's body. */
export type ClientInput = z.output<typeof clientFormSchema>;

export type ClientFormApi = UseFormReturn<ClientDraft, unknown, ClientInput>;

/** The form's state, kept by the page so that "Edit" on a row can load a client into it. */
export function useClientForm(): ClientFormApi {
  return useForm<ClientDraft, unknown, ClientInput>({
    resolver: zodResolver(clientFormSchema),
    defaultValues: EMPTY_CLIENT,
  });
}

/** A saved client's values in the boxes. */
export const draftOf = (c: SavedClient): ClientDraft => ({
  name: c.name,
  email: c.email,
  company: c.company ?? "",
  address: c.address ?? "",
  isFavorite: c.isFavorite,
});

/**
 * Add a client, or update the one whose email is typed (a client is known by email), on
 * react-hook-form with the API's schema: a field's error (the schema's, else the server's
 * detail) is shown beside it. `onSave` answers whether the client was saved.
 */
export function ClientForm({
  form,
  clients,
  onSave,
  details,
  busy,
  formRef,
}: {
  form: ClientFormApi;
  clients: readonly SavedClient[] | null | undefined;
  onSave: (client: ClientInput) => Promise<boolean>;
  details: Record<string, string>;
  busy: boolean;
  formRef: RefObject<HTMLFormElement | null>;
}) {
  const { register, handleSubmit, control, reset } = form;
  const { errors, isSubmitting } = form.formState;
  const [name, email] = useWatch({ control, name: ["name", "email"] });
  const existing = clients?.find((c) => c.email.toLowerCase() === email.trim().toLowerCase());

  const text = (key: "name" | "email" | "company" | "address") => ({
    ...register(key),
    error: details[key] ?? errors[key]?.message,
  });

  async function save(values: ClientInput) {
    if (await onSave(values)) reset(EMPTY_CLIENT);
  }

  return (
    <Card title={existing ? `Update ${existing.name}` : "Add a client"} className="lg:order-2">
      <form
        ref={formRef}
        onSubmit={handleSubmit(save)}
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
        <Checkbox label="Favorite" {...register("isFavorite")} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy || isSubmitting}>
            {existing ? "Update client" : "Add client"}
          </Button>
          {(name || email) && (
            <Button variant="ghost" onClick={() => reset(EMPTY_CLIENT)}>
              Clear form
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
