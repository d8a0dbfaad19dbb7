import { and, asc, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { invoices } from "@/db/schema";
import type { SortField } from "@/lib/schemas/common";
import type { ListInvoicesQuery } from "@/lib/schemas/invoices";
import { keyNetworkCondition } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "../context";
import { resolveNetwork } from "./network";
import type { InvoiceRow } from "./store";

const SORT_COLUMNS = {
  createdAt: invoices.createdAt,
  updatedAt: invoices.updatedAt,
  dueDate: invoices.dueDate,
  total: invoices.total,
  invoiceNumber: invoices.invoiceNumber,
  status: invoices.status,
} satisfies Record<SortField, unknown>;

export type InvoicePage = {
  invoices: InvoiceRow[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
};

/**
 * The caller's live invoices. Payment links (kind LINK) are left out unless
 * `excludePreview=false` (docs/decisions.md). Ties are broken by id so pages never overlap.
 */
export async function listInvoices(
  ctx: AuthedContext,
  query: ListInvoicesQuery & { defaultLimit: number },
): Promise<InvoicePage> {
  const limit = query.limit ?? query.defaultLimit;
  const offset = query.offset ?? 0;
  const network = resolveNetwork(query.network, query.networkPassphrase);
  const where: SQL[] = [
    eq(invoices.freelancerWallet, ctx.wallet),
    isNull(invoices.deletedAt),
    ...keyNetworkCondition(ctx),
  ];
  if (query.excludePreview !== false) where.push(eq(invoices.kind, "INVOICE"));
  if (query.status) where.push(eq(invoices.status, query.status));
  if (query.currency) where.push(eq(invoices.currency, query.currency));
  if (network) where.push(eq(invoices.networkPassphrase, network));
  if (query.clientEmail) where.push(eq(invoices.clientEmail, query.clientEmail));

  const [field, direction] = (query.sort ?? "createdAt:desc").split(":") as [
    SortField,
    "asc" | "desc",
  ];
  const order = direction === "asc" ? asc : desc;
  // Invoices without a due date sort last in both directions.
  const primary =
    field === "dueDate"
      ? sql`${invoices.dueDate} ${sql.raw(direction)} nulls last`
      : order(SORT_COLUMNS[field]);
  const condition = and(...where);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(invoices)
      .where(condition)
      .orderBy(primary, order(invoices.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(invoices).where(condition),
  ]);
  return { invoices: rows, total: n, limit, offset, hasMore: offset + rows.length < n };
}
