"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Checkbox, Field, FieldError, Hint } from "@/components/ui/field";
import { fromInput, fromTextBox } from "@/lib/client/form-schema";
import { useAction } from "@/lib/client/use-action";
import { EVENT_TYPES } from "@/lib/domain/invoice-state";
import { createWebhookSchema } from "@/lib/schemas/webhooks";
import { z } from "@/lib/zod";
import type { CreatedWebhook } from "./types";

export const ALL_EVENTS = "*";

type WebhookValues = { url: string; events: string[] };

const shape = createWebhookSchema.shape;

/** The form's rules: POST /api/webhooks's own schema (lib/schemas/webhooks.ts). */
const webhookFormSchema = z.object({
  url: fromTextBox(shape.url),
  // "All events" stands for every type, present and future: it is sent alone.
  events: fromInput(shape.events, (list: string[]) =>
    list.includes(ALL_EVENTS) ? [ALL_EVENTS] : list,
  ),
});

type WebhookInput = z.output<typeof webhookFormSchema>;

/**
 * POST /api/webhooks: an endpoint URL and the event types it receives, on react-hook-form
 * with the API's schema; whether the address may be called needs DNS, so that refusal comes
 * from the server, beside the URL too.
 */
export function WebhookForm({
  api,
  onCreated,
}: {
  api: <T>(path: string, opts: { method: string; body: unknown }) => Promise<T>;
  onCreated: (hook: CreatedWebhook) => Promise<void>;
}) {
  const form = useForm<WebhookValues, unknown, WebhookInput>({
    resolver: zodResolver(webhookFormSchema),
    defaultValues: { url: "", events: ["invoice.paid"] },
  });
  const { register, handleSubmit, setValue, control, reset } = form;
  const { errors } = form.formState;
  const events = useWatch({ control, name: "events" });
  const { busy, notice, details, run } = useAction();
  const all = events.includes(ALL_EVENTS);

  function toggle(type: string, on: boolean) {
    const list = form.getValues("events");
    setValue("events", on ? [...list, type] : list.filter((t) => t !== type), {
      shouldValidate: form.formState.isSubmitted,
    });
  }

  const create = (body: WebhookInput) =>
    run("create", async () => {
      const hook = await api<CreatedWebhook>("/api/webhooks", { method: "POST", body });
      reset({ url: "", events: form.getValues("events") });
      await onCreated(hook);
    });

  const eventsError = details.events ?? errors.events?.message;
  return (
    <Card title="Add an endpoint">
      <form
        onSubmit={handleSubmit(create)}
        noValidate
        className="space-y-4"
        aria-label="Add an endpoint"
      >
        {notice && <Alert>{notice.text}</Alert>}
        <Field
          label="Endpoint URL"
          type="url"
          required
          placeholder="https://example.com/webhooks/stellar"
          {...register("url")}
          error={details.url ?? errors.url?.message}
          hint={
            <Hint>
              A public https address; private addresses are refused, and a receiver on this machine
              only where the server allows it (as <code>npm run dev:offline</code> does). Once
              added, try it with Send test event.
            </Hint>
          }
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Events</legend>
          <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3">
            <Checkbox
              id="event-all"
              label="All events"
              hint="Including types added later"
              checked={all}
              onChange={(e) => toggle(ALL_EVENTS, e.target.checked)}
            />
            {EVENT_TYPES.map((t) => (
              <Checkbox
                key={t}
                id={`event-${t}`}
                label={t}
                checked={all || events.includes(t)}
                disabled={all}
                onChange={(e) => toggle(t, e.target.checked)}
              />
            ))}
          </div>
          {eventsError && <FieldError className="mt-1">{eventsError}</FieldError>}
        </fieldset>
        <Button type="submit" disabled={busy !== null || events.length === 0}>
          Add endpoint
        </Button>
      </form>
    </Card>
  );
}
