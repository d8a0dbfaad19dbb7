/**
 * Server-Sent Events in Horizon's wire format (services/horizon/internal/render/sse):
 *
 *   retry: 1000\nevent: open\ndata: "hello"\n\n         on connect
 *   id: <paging_token>\ndata: <compact JSON>\n\n        per record
 *   retry: 10\nevent: close\ndata: "byebye"\n\n         after `limit` records, then the
 *                                                        response ends and clients reconnect
 *
 * New records are looked up again each time a ledger closes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface StreamRecord {
  token: bigint;
  json: unknown;
}

export interface StreamOptions {
  /** records strictly after `cursor`, ascending, at most `limit` */
  fetch(cursor: bigint, limit: number): StreamRecord[];
  /** subscribe to ledger closes; returns the unsubscribe function */
  subscribe(onLedger: () => void): () => void;
  cursor: bigint;
  limit: number;
  /** interval of `:` comment lines that keep idle connections open; 0 disables */
  keepAliveMs: number;
}

/** Compact JSON with Go's HTML escaping of &, < and >. */
export function goJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent)
    .replaceAll("&", "\\u0026")
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e");
}

export function serveStream(req: IncomingMessage, res: ServerResponse, opts: StreamOptions): void {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    "Access-Control-Allow-Origin": "*",
  });
  res.write('retry: 1000\nevent: open\ndata: "hello"\n\n');

  let cursor = opts.cursor;
  let remaining = opts.limit;
  let finished = false;

  const finish = () => {
    if (finished) return;
    finished = true;
    unsubscribe();
    if (keepAlive) clearInterval(keepAlive);
  };

  const pump = () => {
    if (finished) return;
    for (const record of opts.fetch(cursor, remaining)) {
      res.write(`id: ${record.token}\ndata: ${goJson(record.json)}\n\n`);
      cursor = record.token;
      remaining -= 1;
    }
    if (remaining <= 0) {
      res.end('retry: 10\nevent: close\ndata: "byebye"\n\n');
      finish();
    }
  };

  const unsubscribe = opts.subscribe(pump);
  const keepAlive =
    opts.keepAliveMs > 0
      ? setInterval(() => {
          if (!finished) res.write(": keepalive\n\n");
        }, opts.keepAliveMs)
      : undefined;
  keepAlive?.unref();
  req.on("close", finish);
  res.on("close", finish);
  res.on("error", finish);
  pump();
}
