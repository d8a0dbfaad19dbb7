import { sql } from "drizzle-orm";
import { clients } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { AuthedContext } from "../context";

export type ClientRow = typeof clients.$inferSelect;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Upsert on (owner wallet, lower-cased trimmed email), keeping the id and createdAt.
 * Fields left out of the input keep their stored values; `updatedAt` moves only when a
 * value actually changes (docs/decisions.md).
 */
export async function upsertClient(
  ctx: AuthedContext,
  input: {
    name: string;
    email: string;
    company?: string | null;
    address?: string | null;
    isFavorite?: boolean;
  },
): Promise<ClientRow> {
  const now = ctx.now();
  const email = normalizeEmail(input.email);
  const keep = <T>(value: T | undefined, column: unknown) =>
    value === undefined ? sql`${column}` : sql`excluded.${sql.raw(columnName(column))}`;
  const changed = sql`(${clients.name}, ${clients.company}, ${clients.address}, ${clients.isFavorite})
    is distinct from (excluded.name, ${keep(input.company, clients.company)}, ${keep(input.address, clients.address)}, ${keep(input.isFavorite, clients.isFavorite)})`;
  const [row] = await ctx.db
    .insert(clients)
    .values({
      id: newId(),
      freelancerWallet: ctx.wallet,
      name: input.name.trim(),
      email,
      company: input.company ?? null,
      address: input.address ?? null,
      isFavorite: input.isFavorite ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [clients.freelancerWallet, clients.email],
      set: {
        name: sql`excluded.name`,
        company: keep(input.company, clients.company),
        address: keep(input.address, clients.address),
        isFavorite: keep(input.isFavorite, clients.isFavorite),
        updatedAt: sql`case when ${changed} then excluded.updated_at else ${clients.updatedAt} end`,
      },
    })
    .returning();
  return row;
}

function columnName(column: unknown): string {
  return (column as { name: string }).name;
}
