"use client";

import Link from "next/link";
import { textLinkClass } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Loading, PageHeader } from "@/components/ui/page";
import { useResource } from "@/lib/client/use-resource";
import { EDITABLE_STATUSES } from "@/lib/domain/invoice-state";
import { shownStatus } from "@/lib/format";
import { InvoiceForm } from "./invoice-form";
import type { OwnerInvoice } from "./types";

export function NewInvoice() {
  return (
    <>
      <PageHeader
        title="New invoice"
        description="Saved as a draft. Send it when it is ready to be paid."
      />
      <InvoiceForm />
    </>
  );
}

/** Loads the owner view; only drafts may be edited. */
export function EditInvoice({ id }: { id: string }) {
  const { data, error, loading } = useResource<OwnerInvoice>(`/api/invoices/${id}/owner`);
  if (error) return <Alert>{error}</Alert>;
  if (!data || loading) return <Loading what="invoice" />;
  const editable = (EDITABLE_STATUSES as readonly string[]).includes(data.status);
  return (
    <>
      <PageHeader title={`Edit ${data.invoiceNumber}`} description={data.title} />
      {editable ? (
        <InvoiceForm invoice={data} />
      ) : (
        <Alert kind="info">
          Only draft invoices can be edited; this one is {shownStatus(data.status)}.{" "}
          <Link href={`/invoices/${id}`} className={textLinkClass}>
            Back to the invoice
          </Link>
        </Alert>
      )}
    </>
  );
}
