import { z } from "zod";
import { EVENT_TYPES } from "@/lib/domain/invoice-state";

/** Event types a subscription may ask for; `*` is every type, present and future. */
export const WEBHOOK_EVENT_CHOICES = [...EVENT_TYPES, "*"] as const;

export const createWebhookSchema = z
  .object({
    // Only shape here: whether the target is allowed needs DNS, so the service checks it.
    url: z
      .string({ error: "url is required" })
      .trim()
      .min(1, "url is required")
      .max(2048, "url must be at most 2048 characters"),
    events: z
      .array(
        z.enum(WEBHOOK_EVENT_CHOICES, {
          error: `Unknown event type. Use one of ${WEBHOOK_EVENT_CHOICES.join(", ")}`,
        }),
        { error: "events must be an array of event types" },
      )
      .min(1, "events must list at least one event type")
      .max(WEBHOOK_EVENT_CHOICES.length, "events lists a type twice")
      .transform((list) => [...new Set(list)]),
  })
  .strict();

export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const listDeliveriesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    envelope: z.string().optional(),
  })
  .strict();
