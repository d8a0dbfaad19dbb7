import { eq, gte, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { invoices } from "@/db/schema";
import type { ExportQuery } from "@/lib/schemas/exports";
import { keyNetworkCondition } from "@/lib/services/auth/key-network";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import type { AuthedContext } from "../context";

/** The invoices an export may read: the caller's own (an API key: its network's), on the
 * network asked for. */
export function invoiceFilter(ctx: AuthedContext, query: ExportQuery): SQL[] {
  const where: SQL[] = [eq(invoices.freelancerWallet, ctx.wallet), ...keyNetworkCondition(ctx)];
  if (query.network) where.push(eq(invoices.networkPassphrase, NETWORK_PASSPHRASES[query.network]));
  return where;
}

/** `time` in [from, to). */
export function timeRange(time: PgColumn, query: ExportQuery): SQL[] {
  const where: SQL[] = [];
  if (query.from) where.push(gte(time, query.from));
  if (query.to) where.push(lt(time, query.to));
  return where;
}

/**
 * A keyset cursor: the last row's time as Postgres text (microseconds kept: a Date would cut
 * them to milliseconds and read rows twice) and its id.
 */
export type TimeCursor = { at: string; id: string };

/** The time column as cursor text, for the select list. */
export const cursorText = (time: SQLWrapper) => sql<string>`${time}::text`;
