import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { withTimeout } from "../lib/timeout";
import {
  MIGRATIONS_FOLDER,
  migrateIfBehind,
  migrationsUpToDate,
  QUERY_TIMEOUT_MS,
} from "./migrate";
import * as schema from "./schema";

export type Schema = typeof schema;
/** One type for both drivers: postgres.js (DATABASE_URL) and PGlite (embedded). */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>;
/** Database functions take either, so a caller can compose them in one transaction. */
export type DbOrTx = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "postgres" | "pglite";
  /**
   * One parameterised statement straight through the driver, for the few queries that run on
   * every request (the rate-limit counter): no query builder, no result mapping.
   */
  raw: <T>(text: string, params: unknown[]) => Promise<T[]>;
  /** Cheap liveness probe for /api/health. */
  ping: () => Promise<void>;
  /**
   * Follows NOTIFY on `channel` over one connection of its own (postgres.js) or the embedded
   * database's: `onNotify` gets each payload; `onState(true)` says it is listening (again, after
   * a lost connection: what was sent meanwhile is lost, so the caller treats everything as
   * changed), `onState(false)` that it is not, while it reconnects with backoff.
   */
  listen: (
    channel: string,
    onNotify: (payload: string) => void,
    onState: (listening: boolean) => void,
  ) => { close: () => Promise<void> };
  close: () => Promise<void>;
};

/** The error a statement fails with when it has waited QUERY_TIMEOUT_MS. */
export function queryTimeoutError(): Error {
  return Object.assign(new Error("database did not answer in time"), { code: "QUERY_TIMEOUT" });
}

export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  migrate?: boolean;
  poolSize?: number;
  queryTimeoutMs?: number;
}): Promise<DatabaseHandle> {
  if (opts.databaseUrl)
    return openPostgres(
      opts.databaseUrl,
      opts.migrate ?? true,
      opts.poolSize ?? 10,
      opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
    );
  return openPglite(path.join(opts.dataDir, "pg"), opts.migrate ?? true);
}

async function openPostgres(
  url: string,
  migrate: boolean,
  poolSize: number,
  timeoutMs: number,
): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const pool = () =>
    postgres(url, {
      max: poolSize,
      onnotice: () => {},
      connect_timeout: Math.ceil(timeoutMs / 1000),
      idle_timeout: 30,
      // A documented postgres.js option its types leave out.
      ...({ socket: watchedSocket(timeoutMs) } as object),
    });
  let sql = pool();
  // One query on the pool says whether there is anything to migrate (db/migrate.ts); the
  // connection it opens then serves the first request.
  if (migrate) {
    let migrated: boolean;
    try {
      migrated = await migrateIfBehind(url, async (text) =>
        withTimeout(sql.unsafe(text), timeoutMs, queryTimeoutError),
      );
    } catch (err) {
      await sql.end({ timeout: 1 });
      throw err;
    }
    if (migrated) {
      // A fresh pool after migrating: none of its connections predates the schema (types).
      await sql.end({ timeout: 1 });
      sql = pool();
    }
  }
  const timed = <T>(query: PromiseLike<T>) => withTimeout(query, timeoutMs, queryTimeoutError);
  const db = drizzle(withDeadlines(sql, timeoutMs), { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    raw: async <T>(text: string, params: unknown[]) =>
      (await timed(sql.unsafe(text, params as never[], { prepare: true }))) as unknown as T[],
    ping: async () => {
      await timed(sql.unsafe("select 1"));
    },
    listen: (channel, onNotify, onState) =>
      listenPostgres(postgres, url, timeoutMs, channel, onNotify, onState),
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Longest wait between two attempts to listen again. */
const LISTEN_BACKOFF_MAX_MS = 30_000;
/**
 * How often the listening connection proves it is alive. A server that stops answering, or
 * a network that drops packets, closes nothing: without this the instance would believe it
 * still hears every change.
 */
export const LISTEN_HEARTBEAT_MS = 5_000;

function listenPostgres(
  postgres: typeof import("postgres"),
  url: string,
  timeoutMs: number,
  channel: string,
  onNotify: (payload: string) => void,
  onState: (listening: boolean) => void,
): { close: () => Promise<void> } {
  let closed = false;
  let listening = false;
  let retry: NodeJS.Timeout | undefined;
  let backoff = 500;
  const lost = () => {
    if (closed) return;
    if (listening) onState(false);
    listening = false;
    if (retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void attempt();
    }, backoff);
    backoff = Math.min(backoff * 2, LISTEN_BACKOFF_MAX_MS);
  };
  // One connection, never idle-closed; postgres.js opens it again on the next statement.
  const conn = postgres(url, {
    max: 1,
    idle_timeout: null,
    max_lifetime: null,
    fetch_types: false,
    connect_timeout: Math.ceil(timeoutMs / 1000),
    onnotice: () => {},
    onnotify: (name: string, payload: string) => {
      if (name === channel) onNotify(payload);
    },
    onclose: lost,
  } as never);
  const attempt = async () => {
    try {
      await withTimeout(
        conn.unsafe(`listen "${channel.replace(/"/g, '""')}"`),
        timeoutMs,
        queryTimeoutError,
      );
      if (closed) return;
      backoff = 500;
      listening = true;
      onState(true);
    } catch {
      lost();
    }
  };
  void attempt();
  let beating = false;
  const heartbeat = setInterval(async () => {
    if (!listening || beating) return;
    beating = true;
    try {
      await withTimeout(conn.unsafe("select 1"), timeoutMs, queryTimeoutError);
    } catch {
      // Whatever came meanwhile may be lost: listen again, then treat everything as changed.
      lost();
    } finally {
      beating = false;
    }
  }, LISTEN_HEARTBEAT_MS);
  heartbeat.unref();
  return {
    close: async () => {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(retry);
      await conn.end({ timeout: 1 });
    },
  };
}

type Sql = import("postgres").Sql;

/**
 * The client drizzle uses, with a deadline on everything it awaits: a statement (`unsafe`,
 * all drizzle sends) waits at most `timeoutMs` for a connection and its answer, and a
 * transaction (`begin`) at most `timeoutMs` for its connection, then each of its statements
 * as above; one that times out fails the whole transaction at once. A transaction whose turn
 * comes after its caller gave up rolls back without running, so a request answered 503 never
 * writes later; a statement already sent may still complete, as with any lost connection.
 */
function withDeadlines(sql: Sql, timeoutMs: number, failed?: (err: Error) => void): Sql {
  const timed = <T>(query: PromiseLike<T>) =>
    withTimeout(query, timeoutMs, () => {
      const err = queryTimeoutError();
      failed?.(err);
      return err;
    });
  const unsafe = (...args: Parameters<Sql["unsafe"]>) => {
    const query = sql.unsafe(...args);
    // drizzle calls .values() on what unsafe returns, then awaits it.
    const deadline = {
      values() {
        query.values();
        return deadline;
      },
      // biome-ignore lint/suspicious/noThenProperty: a thenable, as postgres.js queries are
      then: (...on: Parameters<Promise<unknown>["then"]>) => timed(query).then(...on),
    };
    return deadline;
  };
  /** `begin` and `savepoint` take their callback last; it gets a client with deadlines. */
  const scoped =
    (name: "begin" | "savepoint") =>
    (...args: unknown[]) => {
      const fn = args.pop() as (tx: Sql) => unknown;
      const open = sql[name as keyof Sql] as unknown as (...a: unknown[]) => Promise<unknown>;
      if (name === "savepoint")
        return open(...args, (tx: Sql) => fn(withDeadlines(tx, timeoutMs, failed)));
      let expired = false;
      let started = () => {};
      let abort: (err: Error) => void = () => {};
      const turn = new Promise<void>((resolve) => {
        started = resolve;
      });
      const aborted = new Promise<never>((_, reject) => {
        abort = reject;
      });
      aborted.catch(() => {});
      const run = open(...args, (tx: Sql) => {
        if (expired) throw queryTimeoutError();
        started();
        return fn(withDeadlines(tx, timeoutMs, abort));
      });
      const waited = withTimeout(turn, timeoutMs, () => {
        expired = true;
        return queryTimeoutError();
      });
      return Promise.race([run, waited.then(() => run), aborted]);
    };
  const begin = scoped("begin");
  const savepoint = scoped("savepoint");
  return new Proxy(sql, {
    get: (target, prop, receiver) =>
      prop === "unsafe"
        ? unsafe
        : prop === "begin"
          ? begin
          : prop === "savepoint" && "savepoint" in target
            ? savepoint
            : Reflect.get(target, prop, receiver),
  });
}

/**
 * Counts ReadyForQuery messages ('Z') in the server's byte stream, one chunk at a time: a
 * message is a type byte and a length (which counts itself), and may span chunks.
 */
function readyCounter() {
  let skip = 0;
  let head = Buffer.alloc(0);
  return (chunk: Buffer) => {
    let ready = 0;
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      let header: Buffer;
      if (head.length === 0 && chunk.length - i >= 5) {
        header = chunk.subarray(i, i + 5);
        i += 5;
      } else {
        const n = Math.min(5 - head.length, chunk.length - i);
        head = Buffer.concat([head, chunk.subarray(i, i + n)]);
        i += n;
        if (head.length < 5) break;
        header = head;
        head = Buffer.alloc(0);
      }
      if (header[0] === 0x5a) ready++;
      skip = header.readUInt32BE(1) - 4;
    }
    return ready;
  };
}

/** Messages sent that the server answers with a ReadyForQuery: Sync ('S') and Query ('Q'). */
function syncsIn(data: unknown): number {
  if (!Buffer.isBuffer(data)) return 0;
  let syncs = 0;
  for (let i = 0; i + 5 <= data.length; i += 1 + data.readUInt32BE(i + 1)) {
    if (data[i] === 0x53 || data[i] === 0x51) syncs++;
  }
  return syncs;
}

/**
 * Connections that discard themselves when the server goes silent: while the server owes an
 * answer (a ReadyForQuery for each Sync or Query sent, and one for the startup message), or
 * has not said anything since the client last wrote, it must send something within
 * `timeoutMs` or the socket is destroyed, failing what it carried, and the pool opens a new
 * one when it next needs it. TCP keepalive cannot see this: a stopped server's kernel still
 * acknowledges. Over TLS postgres.js wraps the socket and its bytes are opaque: there the
 * deadlines above still end every request, and a silent connection stays in the pool until
 * the server answers again or keepalive gives up on it.
 */
function watchedSocket(timeoutMs: number) {
  let next = 0;
  return (options: { host: string[]; port: number[]; path?: string; ssl?: unknown }) => {
    const i = next++ % options.host.length;
    const host = options.host[i];
    const port = options.port[i] ?? options.port[0];
    const socket = options.path ? net.connect(options.path) : net.connect(port, host);
    Object.assign(socket, { host, port });
    if (options.ssl) return socket;
    const countReady = readyCounter();
    let owed = 0;
    let heard = true;
    let started = false;
    let timer: NodeJS.Timeout | undefined;
    // Closed without an error: postgres.js fails what the socket carried (CONNECTION_CLOSED)
    // and does not count it towards its reconnect backoff, so the pool is back at once
    // when the server is.
    const silent = () => socket.destroy();
    const clock = () => {
      clearTimeout(timer);
      timer = owed > 0 || !heard ? setTimeout(silent, timeoutMs) : undefined;
    };
    const write = socket.write;
    socket.write = function (this: net.Socket, ...args: unknown[]) {
      // The first write is the startup message, which has no type byte.
      owed += started ? syncsIn(args[0]) : 1;
      started = true;
      heard = false;
      if (!timer) clock();
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof socket.write;
    socket.on("data", (chunk: Buffer) => {
      owed = Math.max(0, owed - countReady(chunk));
      heard = true;
      clock();
    });
    socket.on("close", () => clearTimeout(timer));
    return socket;
  };
}

async function openPglite(dir: string, migrate: boolean): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  // PGlite does not create parent folders.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Search's extensions (migration 0036, docs/decisions.md, Search): PGlite ships them as
  // contrib bundles that must be handed over when it starts.
  const [{ pg_trgm }, { unaccent }, { btree_gin }] = await Promise.all([
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/unaccent"),
    import("@electric-sql/pglite/contrib/btree_gin"),
  ]);
  const client = new PGlite(dir, { extensions: { pg_trgm, unaccent, btree_gin } });
  await client.waitReady;
  const db = drizzle(client, { schema });
  if (
    migrate &&
    !(await migrationsUpToDate(
      MIGRATIONS_FOLDER,
      async (text) => (await client.query<{ created_at: unknown }>(text)).rows,
    ))
  ) {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(db, { migrationsFolder: MIGRATIONS_FOLDER });
  }
  return {
    db: db as unknown as Database,
    kind: "pglite",
    raw: async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows,
    ping: async () => {
      await client.query("select 1");
    },
    // One process, one database: listening never drops.
    listen: (channel, onNotify, onState) => {
      const stop = client.listen(channel, onNotify).then((unlisten) => {
        onState(true);
        return unlisten;
      });
      return { close: async () => (await stop)() };
    },
    close: () => client.close(),
  };
}
