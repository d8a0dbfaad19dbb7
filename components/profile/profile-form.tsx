"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { type FieldError, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, Hint, Select, TextArea } from "@/components/ui/field";
import { errorDetails } from "@/lib/client/api";
import { errorMessage, useApi } from "@/lib/client/session";
import type { ProfileBody } from "@/lib/schemas/profile";
import { LogoPicker } from "./logo-picker";
import {
  type AddressValues,
  type ProfileFormOutput,
  type ProfileFormValues,
  profileFormSchema,
  profileFormValues,
  profileRequest,
} from "./profile-values";
import { TaxSection } from "./tax-section";

type Notice = { kind: "success" | "error"; text: string; details: Record<string, string> };

/**
 * The business profile (PUT /api/profile), on react-hook-form with the API's own schema. The
 * logo is read in the browser as a data URL and checked again by the server.
 */
export function ProfileForm({
  profile,
  onSaved,
}: {
  profile: ProfileBody;
  onSaved: (p: ProfileBody) => void;
}) {
  const api = useApi();
  const form = useForm<ProfileFormValues, unknown, ProfileFormOutput>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: profileFormValues(profile),
  });
  const { register, handleSubmit } = form;
  const { errors, isSubmitting } = form.formState;
  /** undefined: unchanged; null: removed; a data URL: the new logo. */
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | null>(null);

  const text = (key: keyof ProfileFormValues) => ({
    ...register(key),
    error: notice?.details[key] ?? (errors[key] as FieldError | undefined)?.message ?? undefined,
  });

  async function save(values: ProfileFormOutput) {
    setNotice(null);
    try {
      const saved = await api<ProfileBody>("/api/profile", {
        method: "PUT",
        body: profileRequest(values, logo),
      });
      setLogo(undefined);
      onSaved(saved);
      setNotice({ kind: "success", text: "Profile saved.", details: {} });
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err), details: errorDetails(err) });
    }
  }

  return (
    <form onSubmit={handleSubmit(save)} noValidate className="space-y-6" aria-label="Profile">
      {notice && (
        <Alert kind={notice.kind}>
          {notice.text}
          {notice.details.logo && ` ${notice.details.logo}`}
        </Alert>
      )}
      <Card title="Your business">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Display name" autoComplete="name" {...text("displayName")} />
          <Field label="Company" autoComplete="organization" {...text("company")} />
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            {...text("email")}
            hint={<Hint>Payment notices are sent here.</Hint>}
          />
          <TextArea label="Address" rows={3} className="sm:col-span-2" {...text("address")} />
        </div>
        <TaxSection
          open={Boolean(
            profile.taxId || profile.postalAddress || profile.defaultLanguage || profile.phone,
          )}
          register={register}
          error={(key) =>
            notice?.details[key] ??
            (key.startsWith("postalAddress.")
              ? errors.postalAddress?.[key.slice(14) as keyof AddressValues]?.message
              : (errors[key as keyof ProfileFormValues] as FieldError | undefined)?.message)
          }
        />
        <LogoPicker
          current={logo === undefined ? profile.logoUrl : logo}
          error={notice?.details.logo}
          onPick={setLogo}
        />
      </Card>
      <Card title="Defaults for new invoices">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Payment terms (days)"
            inputMode="numeric"
            {...text("paymentTermsDays")}
            hint={<Hint>Due date = creation day + these days (0 to 365). Empty: no due date.</Hint>}
          />
          <Field
            label="Reminders (days from due date)"
            {...text("defaultReminders")}
            hint={<Hint>e.g. -3, 0, 7: three days before, on the day, a week after.</Hint>}
          />
          <Field
            label="Payment tolerance (%)"
            inputMode="decimal"
            {...text("defaultPaymentTolerance")}
            hint={<Hint>0 to 5: an invoice is paid when this little is still missing.</Hint>}
          />
          <Select label="Reporting currency" {...text("reportingCurrency")}>
            <option value="USD">USD</option>
            <option value="EUR">EUR</option>
          </Select>
          <TextArea
            label="Email footer"
            rows={2}
            className="sm:col-span-2"
            {...text("emailFooter")}
          />
        </div>
      </Card>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Saving…" : "Save profile"}
      </Button>
    </form>
  );
}
