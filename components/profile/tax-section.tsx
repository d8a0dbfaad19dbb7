"use client";

import type { UseFormRegister } from "react-hook-form";
import { AddressFields } from "@/components/ui/address-fields";
import { Field, Hint, Select } from "@/components/ui/field";
import { LanguageOptions } from "@/components/ui/language-options";
import { TaxSchemeOptions } from "@/components/ui/tax-scheme-options";
import type { ProfileFormValues } from "./profile-values";

/**
 * The seller's tax registration and structured address (docs/decisions.md, Tax identities):
 * closed until used, so a freelancer who needs none of it sees one line.
 */
export function TaxSection({
  open,
  register,
  error,
}: {
  open: boolean;
  register: UseFormRegister<ProfileFormValues>;
  error: (key: string) => string | undefined;
}) {
  const field = (key: Parameters<typeof register>[0]) => ({
    ...register(key),
    error: error(key),
  });
  return (
    <details open={open} className="mt-4 rounded-md border border-slate-200 p-3">
      <summary className="cursor-pointer text-sm font-medium text-slate-700">
        Tax registration, postal address and invoice language
      </summary>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <Select label="Tax number type" {...field("taxScheme")}>
          <TaxSchemeOptions />
        </Select>
        <Field
          label="Tax ID"
          {...field("taxId")}
          hint={<Hint>VAT number, ABN, EIN…: checked for its type, printed on the PDF.</Hint>}
        />
        <Field
          label="Registered in (country code)"
          maxLength={2}
          autoComplete="off"
          {...field("taxCountry")}
          hint={<Hint>e.g. DE. Empty: the address's country.</Hint>}
        />
        <AddressFields field={(box) => field(`postalAddress.${box}`)} />
        <Select
          label="Invoice language"
          {...field("defaultLanguage")}
          hint={<Hint>For clients without their own: the PDF, emails and checkout page.</Hint>}
        >
          <LanguageOptions none="English (default)" />
        </Select>
        <Field
          label="Phone"
          type="tel"
          autoComplete="tel"
          {...field("phone")}
          hint={<Hint>Only for XRechnung (German public buyers) as the contact phone.</Hint>}
        />
      </div>
      <p className="mt-3 text-sm text-slate-600" data-testid="einvoice-profile-hint">
        E-invoices (Factur-X, XRechnung) need your name or company, this postal address with its
        country and, when you charge VAT, your tax ID. XRechnung also needs your email, city,
        postcode and phone. Without them invoices still send, as plain PDFs.
      </p>
    </details>
  );
}
