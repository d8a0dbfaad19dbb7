"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Checkbox, Field, FieldError, Hint } from "@/components/ui/field";
import { useAction } from "@/lib/client/use-action";
import { EVENT_TYPES } from "@/lib/domain/invoice-state";
import type { CreatedWebhook } from "./types";

export const ALL_EVENTS = "*";

/** POST /api/webhooks: an endpoint URL and the event types it receives. */
export function WebhookForm({
  api,
  onCreated,
}: {
  api: <T>(path: string, opts: { method: string; body: unknown }) => Promise<T>;
  onCreated: (hook: CreatedWebhook) => Promise<void>;
}) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(["invoice.paid"]);
  const { busy, notice, details, run } = useAction();
  const all = events.includes(ALL_EVENTS);

  function toggle(type: string, on: boolean) {
    setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));
  }

  const create = (e: { preventDefault: () => void }) => {
    e.preventDefault();
    return run("create", async () => {
      const hook = await api<CreatedWebhook>("/api/webhooks", {
        method: "POST",
        body: { url: url.trim(), events: all ? [ALL_EVENTS] : events },
      });
      setUrl("");
      await onCreated(hook);
    });
  };

  return (
    <Card title="Add an endpoint">
      <form onSubmit={create} noValidate className="space-y-4" aria-label="Add an endpoint">
        {notice && <Alert>{notice.text}</Alert>}
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          required
          placeholder="https://example.com/webhooks/stellar"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={details.url}
          hint={<Hint>A public https address; private and local addresses are refused.</Hint>}
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
          {details.events && <FieldError className="mt-1">{details.events}</FieldError>}
        </fieldset>
        <Button type="submit" disabled={busy !== null || events.length === 0}>
          Add endpoint
        </Button>
      </form>
    </Card>
  );
}
