import { randomBytes } from "node:crypto";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { webhookDeliveries, webhookSubscriptions } from "@/db/schema";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { WEBHOOK_NOT_FOUND } from "@/lib/domain/not-found";
import { DELIVERY_ERRORS } from "@/lib/domain/webhook-errors";
import { isId, newId } from "@/lib/ids";
import type { CreateWebhookInput } from "@/lib/schemas/webhooks";
import type { AuthedContext, ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import {
  assertPublicWebhookUrl,
  WebhookUrlError,
  webhookUrlRefusalMessage,
} from "@/lib/webhooks/ssrf";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
/** The create response: the only time the secret is shown. */
export type CreatedSubscription = SubscriptionRow & { secret: string };

export { WEBHOOK_NOT_FOUND };
export const MAX_WEBHOOKS_PER_WALLET = 10;
export const WEBHOOK_LIMIT_REACHED = `Webhook limit reached (at most ${MAX_WEBHOOKS_PER_WALLET} per wallet)`;

/** Id and wallet of the subscription row that mirrors WEBHOOK_URL / WEBHOOK_SECRET. */
export const CONFIGURED_WEBHOOK_ID = "cfg_webhook";
export const ALL_WALLETS = "*";

/**
 * Mirrors the configured endpoint into webhook_subscriptions (wallet `*`, events `*`): it
 * is created or updated when WEBHOOK_URL is set (a changed URL or secret also re-enables
 * it) and soft-deleted when it is no longer configured. Writes only when something changed.
 */
export async function syncConfiguredEndpoint(ctx: Pick<ServiceContext, "db" | "config" | "now">) {
  const endpoint = ctx.config.webhooks.endpoint;
  const now = ctx.now();
  if (!endpoint) {
    await ctx.db
      .update(webhookSubscriptions)
      .set({ deletedAt: now })
      .where(
        and(
          eq(webhookSubscriptions.id, CONFIGURED_WEBHOOK_ID),
          isNull(webhookSubscriptions.deletedAt),
        ),
      );
    return;
  }
  const t = webhookSubscriptions;
  await ctx.db
    .insert(t)
    .values({
      id: CONFIGURED_WEBHOOK_ID,
      wallet: ALL_WALLETS,
      url: endpoint.url,
      events: ["*"],
      secret: endpoint.secret,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: t.id,
      set: {
        url: endpoint.url,
        secret: endpoint.secret,
        wallet: ALL_WALLETS,
        events: ["*"],
        deletedAt: null,
        disabledAt: sql`case when ${t.url} = ${endpoint.url} and ${t.secret} = ${endpoint.secret} and ${t.deletedAt} is null then ${t.disabledAt} else null end`,
        failingSince: sql`case when ${t.url} = ${endpoint.url} and ${t.secret} = ${endpoint.secret} and ${t.deletedAt} is null then ${t.failingSince} else null end`,
      },
      setWhere: sql`${t.url} <> ${endpoint.url} or ${t.secret} <> ${endpoint.secret} or ${t.deletedAt} is not null or ${t.wallet} <> ${ALL_WALLETS}`,
    });
}

/** `whsec_` + 32 random bytes in hex. Stored as is: the service needs it to sign. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("hex")}`;
}

/**
 * Registers an endpoint of the caller. The URL must pass the SSRF check (resolved now, and
 * again at every delivery); at most MAX_WEBHOOKS_PER_WALLET live endpoints per wallet.
 */
export async function createWebhook(
  ctx: AuthedContext,
  input: CreateWebhookInput,
): Promise<CreatedSubscription> {
  try {
    await assertPublicWebhookUrl(input.url, {
      allowLoopback: ctx.config.webhooks.allowLoopback,
    });
  } catch (err) {
    if (err instanceof WebhookUrlError) {
      throw new ValidationError(webhookUrlRefusalMessage(err.refusal), { url: err.reason });
    }
    throw err;
  }
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    // Serialises creations per wallet so two concurrent requests cannot both pass the cap.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${ctx.wallet}`}, 0))`,
    );
    const [{ n }] = await tx
      .select({ n: count() })
      .from(webhookSubscriptions)
      .where(
        and(eq(webhookSubscriptions.wallet, ctx.wallet), isNull(webhookSubscriptions.deletedAt)),
      );
    if (n >= MAX_WEBHOOKS_PER_WALLET) throw new ConflictError(WEBHOOK_LIMIT_REACHED);
    const [row] = await tx
      .insert(webhookSubscriptions)
      .values({
        id: newId(),
        wallet: ctx.wallet,
        url: input.url,
        events: input.events,
        // Made by an API key: its network's events only (docs/decisions.md, API keys).
        network: ctx.apiKey?.network ?? null,
        secret: newWebhookSecret(),
        createdAt: now,
      })
      .returning();
    return row;
  });
}

/** After a rotation the old secret keeps signing (V2 header only) for this long. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type RotatedSecret = { id: string; secret: string; previousSecretExpiresAt: Date };

/**
 * Gives an endpoint of the caller a new secret (shown only in this answer). The secret it
 * replaces keeps signing deliveries, as a second `v1=` of X-Service-Signature-V2, for
 * SECRET_ROTATION_OVERLAP_MS; a second rotation inside the overlap drops the oldest one.
 * Owner only, like delete (docs/decisions.md, Webhooks).
 */
export async function rotateWebhookSecret(ctx: AuthedContext, id: string): Promise<RotatedSecret> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const row = await getWebhookForOwnerOrThrow(tx, ctx, id, true);
    const secret = newWebhookSecret();
    const previousSecretExpiresAt = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
    await tx
      .update(webhookSubscriptions)
      .set({ secret, previousSecret: row.secret, previousSecretExpiresAt })
      .where(eq(webhookSubscriptions.id, row.id));
    return { id: row.id, secret, previousSecretExpiresAt };
  });
}

/** The caller's live endpoints, oldest first (secrets are never serialised). */
export async function listWebhooks(ctx: AuthedContext): Promise<SubscriptionRow[]> {
  return ctx.db
    .select()
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.wallet, ctx.wallet),
        isNull(webhookSubscriptions.deletedAt),
        ...(ctx.apiKey ? [eq(webhookSubscriptions.network, ctx.apiKey.network)] : []),
      ),
    )
    .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id));
}

/**
 * A live endpoint of the caller: 404 when unknown or deleted (or, for an API key, made for
 * all networks or the other one), 403 `Unauthorized` for another wallet's.
 */
export async function getWebhookForOwnerOrThrow(
  db: DbOrTx,
  ctx: Pick<AuthedContext, "wallet" | "apiKey">,
  id: string,
  /** Lock the row (FOR UPDATE) inside the caller's transaction. */
  forUpdate = false,
): Promise<SubscriptionRow> {
  if (!isId(id)) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  const query = db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.deletedAt)))
    .limit(1);
  const [row] = forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  if (row.wallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (ctx.apiKey && row.network !== ctx.apiKey.network) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return row;
}

/**
 * Soft delete: the endpoint stops receiving at once; its pending deliveries are closed as
 * failed (the log keeps them) so the delivery scan never meets them again.
 */
export async function deleteWebhook(ctx: AuthedContext, id: string): Promise<void> {
  const now = ctx.now();
  await withTransaction(ctx.db, async (tx) => {
    await getWebhookForOwnerOrThrow(tx, ctx, id);
    await tx
      .update(webhookSubscriptions)
      .set({ deletedAt: now })
      .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.deletedAt)));
    // A fan-out holding this subscription FOR SHARE finished before the update above could
    // run, so this statement also sees the deliveries it inserted.
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: DELIVERY_ERRORS.deleted })
      .where(
        and(eq(webhookDeliveries.subscriptionId, id), eq(webhookDeliveries.status, "pending")),
      );
  });
}
