"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/card";
import { Loading, PageHeader } from "@/components/ui/page";
import { useResource } from "@/lib/client/use-resource";
import { RecurringForm } from "./recurring-form";
import type { RecurringDetail } from "./types";

export function NewRecurring() {
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  return (
    <>
      <PageHeader
        title="New recurring invoice"
        description="The invoice made on each date: its client, lines, tax and pricing, then when."
      />
      <RecurringForm today={today} />
    </>
  );
}

/** The template and schedule of a recurring invoice; changes apply to the invoices to come. */
export function EditRecurring({ id }: { id: string }) {
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  const { data, error, loading } = useResource<RecurringDetail>(`/api/recurring/${id}`);
  if (error) return <Alert>{error}</Alert>;
  if (!data || loading) return <Loading what="recurring invoice" />;
  const made = data.invoicesCreated;
  return (
    <>
      <PageHeader
        title="Edit recurring invoice"
        description={
          made > 0
            ? `Changes apply to the invoices still to come; the ${made === 1 ? "invoice" : `${made} invoices`} already made stay as they are.`
            : "Changes apply to every invoice it makes."
        }
      />
      <RecurringForm today={today} schedule={data} />
    </>
  );
}
