"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, Hint } from "@/components/ui/field";
import { fromInput, fromTextBox, labelled } from "@/lib/client/form-schema";
import { useAction } from "@/lib/client/use-action";
import { type PaymentLinkBody, type UpdateLinkInput, updateLinkSchema } from "@/lib/schemas/links";
import { z } from "@/lib/zod";

type Draft = { title: string; expiresAt: string };

const shape = updateLinkSchema.shape;

/** An instant as a datetime-local box shows it: the viewer's local time, to the minute. */
const localInput = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/**
 * PATCH /api/links/{id}'s own field schemas (lib/schemas/links.ts). An empty expiry is "never"
 * (null) on a reusable link; on a single-use one it leaves the expiry as it is.
 */
const formSchema = (reusable: boolean) =>
  z.object({
    title: fromTextBox(shape.title),
    expiresAt: fromInput(shape.expiresAt, (local: string) => {
      if (local.trim() === "") return reusable ? null : undefined;
      const at = new Date(local);
      return Number.isNaN(at.getTime()) ? local : at.toISOString();
    }),
  });

/** The owner's edit of an active link's title and expiry (docs/decisions.md, Payment links). */
export function EditLinkForm({
  link,
  api,
  onSaved,
}: {
  link: PaymentLinkBody;
  api: <T>(path: string, opts: { method: string; body: unknown }) => Promise<T>;
  onSaved: (link: PaymentLinkBody) => void;
}) {
  const form = useForm<Draft, unknown, UpdateLinkInput>({
    resolver: zodResolver(formSchema(link.reusable)),
    defaultValues: { title: link.metadata.title, expiresAt: localInput(link.expiresAt) },
    mode: "onChange",
  });
  const { errors } = form.formState;
  const { busy, notice, details, run } = useAction();
  const errorOf = (key: keyof Draft, label: string) =>
    details[key] ?? labelled(errors[key]?.message, label);

  const save = (values: UpdateLinkInput) =>
    run("save", async () => {
      const next = await api<PaymentLinkBody>(`/api/links/${link.id}`, {
        method: "PATCH",
        body: values,
      });
      onSaved(next);
      form.reset({ title: next.metadata.title, expiresAt: localInput(next.expiresAt) });
      return "Changes saved.";
    });

  return (
    <Card title="Edit link">
      <form
        onSubmit={form.handleSubmit(save)}
        noValidate
        className="space-y-4"
        aria-label="Edit link"
      >
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
        <Field
          label="Title"
          {...form.register("title")}
          error={errorOf("title", "Title")}
          hint={<Hint>Shown to the payer.</Hint>}
        />
        <Field
          label="Expires at"
          type="datetime-local"
          {...form.register("expiresAt")}
          error={errorOf("expiresAt", "Expires at")}
          hint={
            <Hint>
              Your local time, at most 90 days ahead.
              {link.reusable ? " Empty: never expires." : ""}
            </Hint>
          }
        />
        <Button type="submit" disabled={busy !== null}>
          Save changes
        </Button>
      </form>
    </Card>
  );
}
