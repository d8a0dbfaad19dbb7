import { sql } from "drizzle-orm";
import { clients } from "@/db/schema";
import { normalizeTaxId, type TaxScheme } from "@/lib/domain/tax-id";
import type { Language } from "@/lib/i18n/languages";
import { newId } from "@/lib/ids";
import { type PostalAddress, type PostalAddressInput, storedAddress } from "@/lib/schemas/parties";
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
    taxId?: string | null;
    taxScheme?: TaxScheme | null;
    postalAddress?: PostalAddressInput | PostalAddress | null;
    isBusiness?: boolean | null;
    language?: Language | null;
    buyerReference?: string | null;
    isFavorite?: boolean;
  },
): Promise<ClientRow> {
  const now = ctx.now();
  const email = normalizeEmail(input.email);
  const postalAddress =
    input.postalAddress === undefined ? undefined : storedAddress(input.postalAddress);
  const tax =
    input.taxId === undefined && input.taxScheme === undefined
      ? undefined
      : normalizeTaxId(input.taxId, input.taxScheme, postalAddress?.country);
  // The optional columns: left out of the input, the stored value stays.
  const optional = {
    company: [input.company, clients.company],
    address: [input.address, clients.address],
    taxId: [tax?.taxId, clients.taxId],
    taxScheme: [tax?.scheme, clients.taxScheme],
    postalAddress: [postalAddress, clients.postalAddress],
    isBusiness: [input.isBusiness, clients.isBusiness],
    language: [input.language, clients.language],
    buyerReference: [input.buyerReference, clients.buyerReference],
    isFavorite: [input.isFavorite, clients.isFavorite],
  } as const;
  const keep = <T>(value: T | undefined, column: unknown) =>
    value === undefined ? sql`${column}` : sql`excluded.${sql.raw(columnName(column))}`;
  const kept = Object.fromEntries(
    Object.entries(optional).map(([key, [value, column]]) => [key, keep(value, column)]),
  );
  const columns = Object.values(optional).map(([, column]) => sql`${column}`);
  const changed = sql`(${clients.name}, ${sql.join(columns, sql`, `)})
    is distinct from (excluded.name, ${sql.join(Object.values(kept), sql`, `)})`;
  const [row] = await ctx.db
    .insert(clients)
    .values({
      id: newId(),
      freelancerWallet: ctx.wallet,
      name: input.name.trim(),
      email,
      company: input.company ?? null,
      address: input.address ?? null,
      taxId: tax?.taxId ?? null,
      taxScheme: tax?.scheme ?? null,
      postalAddress: postalAddress ?? null,
      isBusiness: input.isBusiness ?? null,
      language: input.language ?? null,
      buyerReference: input.buyerReference ?? null,
      isFavorite: input.isFavorite ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [clients.freelancerWallet, clients.email],
      set: {
        name: sql`excluded.name`,
        ...kept,
        updatedAt: sql`case when ${changed} then excluded.updated_at else ${clients.updatedAt} end`,
      },
    })
    .returning();
  return row;
}

function columnName(column: unknown): string {
  return (column as { name: string }).name;
}
