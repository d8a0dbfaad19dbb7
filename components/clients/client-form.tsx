"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { RefObject } from "react";
import { type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { AddressFields } from "@/components/ui/address-fields";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, Select, TextArea } from "@/components/ui/field";
import { LanguageOptions } from "@/components/ui/language-options";
import { TaxSchemeOptions } from "@/components/ui/tax-scheme-options";
import { type AddressValues, addressBoxes, addressFromForm } from "@/lib/client/address-form";
import { fromInput, fromTextBox } from "@/lib/client/form-schema";
import type { TaxScheme } from "@/lib/domain/address";
import type { Language } from "@/lib/i18n/languages";
import { clientInputSchema } from "@/lib/schemas/clients";
import { z } from "@/lib/zod";
import type { SavedClient } from "./types";

export type ClientDraft = {
  name: string;
  email: string;
  company: string;
  address: string;
  /** The client's tax registration (docs/decisions.md, Tax identities); "": kept as typed. */
  taxScheme: TaxScheme | "";
  taxId: string;
  /** The structured address (docs/decisions.md, Tax identities): e-invoices and tax rules use it. */
  postalAddress: AddressValues;
  isBusiness: boolean;
  /** The language of the client's documents; "": the profile's (docs/decisions.md, Languages). */
  language: Language | "";
  /** Its invoices' default buyer reference (BT-10, a Leitweg-ID): XRechnung needs one. */
  buyerReference: string;
  isFavorite: boolean;
};
export const EMPTY_CLIENT: ClientDraft = {
  name: "",
  email: "",
  company: "",
  address: "",
  taxScheme: "",
  taxId: "",
  postalAddress: addressBoxes(null),
  isBusiness: false,
  language: "",
  buyerReference: "",
  isFavorite: false,
};

const shape = clientInputSchema.shape;

/** The form's rules: POST /api/clients's own schema (lib/schemas/clients.ts) on the boxes. */
export const clientFormSchema = z.object({
  name: fromTextBox(shape.name),
  email: fromTextBox(shape.email),
  company: fromTextBox(shape.company),
  address: fromTextBox(shape.address),
  taxScheme: fromInput(shape.taxScheme, (v: TaxScheme | "") => v || null),
  taxId: fromTextBox(shape.taxId),
  postalAddress: addressFromForm(shape.postalAddress),
  isBusiness: shape.isBusiness.unwrap().unwrap(),
  language: fromInput(shape.language, (v: Language | "") => v || null),
  buyerReference: fromTextBox(shape.buyerReference),
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
  taxScheme: c.taxScheme ?? "",
  taxId: c.taxId ?? "",
  postalAddress: addressBoxes(c.postalAddress),
  isBusiness: c.isBusiness ?? false,
  language: c.language ?? "",
  buyerReference: c.buyerReference ?? "",
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

  const text = (
    key:
      | "name"
      | "email"
      | "company"
      | "address"
      | "taxId"
      | "taxScheme"
      | "language"
      | "buyerReference",
  ) => ({
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
        <details className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
          <summary className="cursor-pointer text-sm font-medium text-slate-700 dark:text-slate-200">
            Tax registration, address and language
          </summary>
          <div className="mt-3 space-y-4">
            <Select label="Tax number type" {...text("taxScheme")}>
              <TaxSchemeOptions />
            </Select>
            <Field label="Tax ID" {...text("taxId")} />
            <Checkbox label="A business" {...register("isBusiness")} />
            <AddressFields
              autoComplete={false}
              field={(box) => ({
                ...register(`postalAddress.${box}`),
                error:
                  details[`postalAddress.${box}`] ??
                  details.postalAddress ??
                  errors.postalAddress?.[box]?.message,
              })}
            />
            <Select label="Invoice language" {...text("language")}>
              <LanguageOptions none="Your profile's" />
            </Select>
            <Field
              label="Buyer reference (Leitweg-ID)"
              {...text("buyerReference")}
              hint={<Hint>Its invoices take it by default; XRechnung needs one.</Hint>}
            />
            <p
              className="text-sm text-slate-600 dark:text-slate-300"
              data-testid="einvoice-client-hint"
            >
              E-invoices need the client&apos;s postal address with its country (and, for reverse
              charge, its VAT number); XRechnung also needs its city, postcode and the buyer
              reference.
            </p>
          </div>
        </details>
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
