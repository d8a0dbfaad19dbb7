import http from "node:http";
import type { AddressInfo } from "node:net";
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
    expect(result.error).toMatch(/^Refused: Webhook URL must be a public https URL: /);
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
      error: "Unreachable: the host hooks.internal.example could not be resolved",
    });
  });
});
