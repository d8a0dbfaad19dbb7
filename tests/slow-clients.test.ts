import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./helpers/app";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Issue 27, item 9 (docs/decisions.md, Limits; lib/http/connections.ts): server.ts's front
 * closes clients that send their headers or their request too slowly, and caps the open
 * connections of one client address. Each loopback address (127.0.0.3, 127.0.0.4...) is a
 * client address of its own on Linux; the test's own fetch calls come from 127.0.0.1.
 */
let timed: RunningApp;
let capped: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const CAP = 5;

beforeAll(async () => {
  db = await createTestDatabase();
  [timed, capped] = await Promise.all([
    startApp({
      DATABASE_URL: db.url,
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    }),
    // Generous timeouts here: the held connections must outlive the test.
    startApp({
      DATABASE_URL: db.url,
      MAX_CONNECTIONS_PER_IP: String(CAP),
      HEADERS_TIMEOUT_MS: "120000",
      REQUEST_TIMEOUT_MS: "120000",
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([timed?.stop(), capped?.stop()]);
  await db?.drop();
});

type Held = { socket: net.Socket; received: () => string; closed: Promise<number> };

/** A raw connection from `from`; `closed` resolves with the time it was closed. */
function connect(port: number, from: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    let data = "";
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: from });
    const closed = new Promise<number>((done) => socket.on("close", () => done(Date.now())));
    socket.on("data", (d) => {
      data += d;
    });
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
    socket.once("error", reject);
  });
}

/** GET `path` from the address `from` (no shared agent: its own connection). */
function getFrom(port: number, from: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path, localAddress: from, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
  });
}

describe("slow clients are closed", () => {
  it("a client that never finishes its headers gets 408 and is closed after the headers timeout", async () => {
    const start = Date.now();
    const held = await connect(timed.port, "127.0.0.5");
    held.socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    const closedAt = await held.closed;
    // Node checks once a second (connectionsCheckingInterval); before: 60 s + up to 30 s.
    expect(closedAt - start).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(closedAt - start).toBeLessThan(HEADERS_TIMEOUT_MS + 5000);
    expect(held.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("a body that trickles in is cut off at the request timeout", async () => {
    const start = Date.now();
    const held = await connect(timed.port, "127.0.0.6");
    held.socket.write(
      "POST /api/auth/nonce HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    // One byte every 200 ms: never idle, never done.
    const drip = setInterval(() => held.socket.writable && held.socket.write(" "), 200);
    const closedAt = await held.closed;
    clearInterval(drip);
    expect(closedAt - start).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(closedAt - start).toBeLessThan(REQUEST_TIMEOUT_MS + 5000);
    expect(held.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("a client that sends its request at once is answered as before", async () => {
    expect(await getFrom(timed.port, "127.0.0.7", "/api/health")).toBe(200);
  });
});

describe("open connections per client address", () => {
  it(`the ${CAP + 1}th open connection from one address is refused; other addresses, and the same after one closes, are served`, async () => {
    const held = await Promise.all(
      Array.from({ length: CAP }, () => connect(capped.port, "127.0.0.3")),
    );
    // One more from the same address: 429 before anything is read, then closed.
    const extra = await connect(capped.port, "127.0.0.3");
    extra.socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 /);
    const body = extra.received().split("\r\n\r\n")[1];
    expect(JSON.parse(body)).toEqual({
      error: "Too many open connections",
      code: "RATE_LIMIT_EXCEEDED",
      retryAfter: 1,
    });
    // The held ones are still open, and another address is served.
    expect(held.every((h) => !h.socket.destroyed)).toBe(true);
    expect(await getFrom(capped.port, "127.0.0.4", "/api/health")).toBe(200);

    // One closes: the address has room again (the server hears of the close a moment later).
    held[0].socket.destroy();
    await held[0].closed;
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await getFrom(capped.port, "127.0.0.3", "/api/health").catch(() => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    for (const h of held) h.socket.destroy();
  });
});
