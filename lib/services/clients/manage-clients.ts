import { and, desc, eq } from "drizzle-orm";
import { clients } from "@/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { isId } from "@/lib/ids";
import type { AuthedContext } from "../context";
import type { ClientRow } from "./upsert-client";

export const CLIENT_NOT_FOUND = "Client not found";

/** The caller's clients: favorites first, then newest first. */
export async function listClients(ctx: AuthedContext): Promise<ClientRow[]> {
  return ctx.db
    .select()
    .from(clients)
    .where(eq(clients.freelancerWallet, ctx.wallet))
    .orderBy(desc(clients.isFavorite), desc(clients.createdAt), desc(clients.id));
}

export async function getClientForOwner(ctx: AuthedContext, id: string): Promise<ClientRow> {
  if (!isId(id)) throw new NotFoundError(CLIENT_NOT_FOUND);
  const [row] = await ctx.db.select().from(clients).where(eq(clients.id, id)).limit(1);
  if (!row) throw new NotFoundError(CLIENT_NOT_FOUND);
  if (row.freelancerWallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  return row;
}

export async function setClientFavorite(
  ctx: AuthedContext,
  id: string,
  isFavorite: boolean,
): Promise<ClientRow> {
  await getClientForOwner(ctx, id);
  const [row] = await ctx.db
    .update(clients)
    .set({ isFavorite, updatedAt: ctx.now() })
    .where(and(eq(clients.id, id), eq(clients.freelancerWallet, ctx.wallet)))
    .returning();
  if (!row) throw new NotFoundError(CLIENT_NOT_FOUND);
  return row;
}

export async function deleteClient(ctx: AuthedContext, id: string): Promise<void> {
  await getClientForOwner(ctx, id);
  await ctx.db
    .delete(clients)
    .where(and(eq(clients.id, id), eq(clients.freelancerWallet, ctx.wallet)));
}
