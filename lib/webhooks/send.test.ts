import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWebhook, WEBHOOK_USER_AGENT } from "./send";
import { verifyWebhookSignature } from "./sign";
import { CONFIGURED_WEBHOOK_ID } from "./subscriptions";

const secret = `whsec_${"cd".repeat(32)}`;
const event = {
  id: "evt_1",
  type: "invoice.paid",
  data: { total: "10.5000000" },
  createdAt: new Date("2026-01-01T00:00:00.000Z"),
};
const sentAt = new Date("2026-01-01T00:00:05.000Z");

type Received = { headers: http.IncomingHttpHeaders; body: Buffer };

describe("sendWebhook (one attempt's network side)", () => {
  const received: Received[] = [];
  let status = 200;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (over: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
    sendWebhook({
      subscriptionId: "sub_1",
      url: `http://127.0.0.1:${port}/hook`,
      secret,
      event,
      now: () => sentAt,
      timeoutMs: 2000,
      allowLoopback: true,
      ...over,
    });

  it("POSTs the signed envelope with the event id and the attempt's timestamp", async () => {
    received.length = 0;
    status = 204;
    expect(await send()).toEqual({ statusCode: 204 });
    const [req] = received;
    expect(JSON.parse(req.body.toString("utf8"))).toEqual({
      id: "evt_1",
      type: "invoice.paid",
      created: 1767225600,
      data: { total: "10.5000000" },
    });
    expect(
      verifyWebhookSignature(secret, req.body, String(req.headers["x-service-signature"])),
    ).toBe(true);
    expect(req.headers["x-service-event-id"]).toBe("evt_1");
    expect(req.headers["x-service-timestamp"]).toBe("1767225605");
    expect(req.headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
    expect(req.headers["content-type"]).toBe("application/json");
  });

  it("answers a non-2xx status as it came", async () => {
    status = 500;
    expect(await send()).toEqual({ statusCode: 500 });
  });

  it("refuses a self-service URL that fails the SSRF check, without sending", async () => {
    received.length = 0;
    const result = await send({ allowLoopback: false });
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toBe("URL not allowed");
    expect(received).toHaveLength(0);
  });

  it("lets the configured endpoint reach an internal address", async () => {
    received.length = 0;
    status = 200;
    const result = await send({ subscriptionId: CONFIGURED_WEBHOOK_ID, allowLoopback: false });
    expect(result).toEqual({ statusCode: 200 });
    expect(received).toHaveLength(1);
  });

  it("reports an unresolvable configured host as unreachable", async () => {
    const result = await send({
      subscriptionId: CONFIGURED_WEBHOOK_ID,
      url: "http://hooks.internal.example/x",
      resolve: async () => [],
    });
    expect(result).toEqual({
      error: "Connection failed",
      detail: "unreachable: the host hooks.internal.example could not be resolved",
    });
  });
});

/**
 * The delivery log is read by whoever registered the URL: what it says of a failure must not
 * tell a refused port from a reset one, nor carry an address, a code or a TLS library's words
 * (issue 27: with loopback allowed, the log worked as a port scanner).
 */
describe("sendWebhook: a failure is one of the fixed messages", () => {
  const servers: net.Server[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });
  const listen = async (onSocket: (socket: net.Socket) => void) => {
    const server = net.createServer(onSocket);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };
  const attempt = (url: string, timeoutMs = 2000) =>
    sendWebhook({
      subscriptionId: "sub_1",
      url,
      secret,
      event,
      now: () => sentAt,
      timeoutMs,
      allowLoopback: true,
    });
  const closedPort = async () => {
    const port = await listen(() => {});
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()));
    return port;
  };

  it("refused and reset connections read the same, with no address or code", async () => {
    const refused = await attempt(`http://127.0.0.1:${await closedPort()}/hook`);
    const resetPort = await listen((socket) => socket.resetAndDestroy());
    const reset = await attempt(`http://127.0.0.1:${resetPort}/hook`);
    const closedPort2 = await listen((socket) => socket.destroy());
    const closed = await attempt(`http://127.0.0.1:${closedPort2}/hook`);
    for (const r of [refused, reset, closed]) {
      expect(r.statusCode).toBeUndefined();
      expect(r.error).toBe("Connection failed");
    }
    // The server log still gets what happened.
    expect(refused.detail).toMatch(/ECONNREFUSED/);
    expect(reset.detail).toMatch(/ECONNRESET/);
  });

  it("a TLS failure is `TLS error`, a silent receiver `Timed out`", async () => {
    // Speaks plain text where TLS is expected: the handshake fails.
    const notTls = await listen((socket) => socket.end("HTTP/1.1 200 OK\r\n\r\n"));
    const tls = await attempt(`https://localhost:${notTls}/hook`);
    expect(tls.error).toBe("TLS error");
    const silent = await listen(() => {});
    const timedOut = await attempt(`http://127.0.0.1:${silent}/hook`, 300);
    expect(timedOut.error).toBe("Timed out");
  });
});
