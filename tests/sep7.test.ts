import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { Keypair, StellarToml } from "@stellar/stellar-sdk";
import { parseSep7Uri } from "@stellar/typescript-wallet-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import { client, invoiceBody } from "./helpers/api";
import { freePort, startAppExpectingFailure, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, funded, holder, Memo, pay, send, TESTNET, trust } from "./helpers/stellar";

/**
 * SEP-7 request signing (docs/decisions.md): the server signs every SEP-7 URI with
 * SEP7_SIGNING_SECRET and publishes its public key in /.well-known/stellar.toml. A wallet
 * (here the wallet SDK's verifySignature) fetches https://<origin_domain>/.well-known/stellar.toml,
 * so the server runs behind a local TLS terminator, as a deployment does.
 */

const signingKey = Keypair.random();
let s: LedgerApp;
let tls: { server: https.Server; host: string; cert: string; dir: string };

/** A self-signed certificate for 127.0.0.1, made for this run (no key is kept in the repo). */
function selfSignedCert(dir: string): { key: string; cert: string } {
  execFileSync("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
    ...["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
    ...["-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
  ]);
  return {
    key: fs.readFileSync(path.join(dir, "key.pem"), "utf8"),
    cert: fs.readFileSync(path.join(dir, "cert.pem"), "utf8"),
  };
}

/** HTTPS in front of the app (started later): forwards every request as it came. */
async function startTlsFront(target: () => string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sep7-tls-"));
  const { key, cert } = selfSignedCert(dir);
  const server = https.createServer({ key, cert }, (req, res) => {
    const upstream = http.request(
      `${target()}${req.url}`,
      { method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, host: `127.0.0.1:${port}`, cert, dir };
}

beforeAll(async () => {
  tls = await startTlsFront(() => s.app.url);
  s = await startLedgerApp({
    SEP7_SIGNING_SECRET: signingKey.secret(),
    APP_URL: `https://${tls.host}`,
    SERVICE_NAME: 'Ann "Invoices"',
  });
  // The wallet SDK fetches with Node's default HTTPS agent: trust this run's certificate.
  https.globalAgent.options.ca = tls.cert;
});

afterAll(async () => {
  https.globalAgent.options.ca = undefined;
  await new Promise((resolve) => tls?.server.close(resolve));
  if (tls) fs.rmSync(tls.dir, { recursive: true, force: true });
  await stopLedgerApp(s ?? {});
});

async function sentUsdcInvoice() {
  const kp = await funded(s.testnet);
  await trust(s.testnet, kp, s.testnet.usdc);
  const { token } = await signIn(s.app.url, kp);
  const api = client(s.app.url, token);
  const created = await api.post(
    "/api/invoices",
    invoiceBody({
      currency: "USDC",
      lineItems: [{ description: "Logo", quantity: "1", rate: "99.5" }],
    }),
  );
  expect(created.status).toBe(201);
  expect((await api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return { freelancer: kp, invoice: created.body as { id: string; invoiceNumber: string } };
}

describe("stellar.toml", () => {
  it("serves URI_REQUEST_SIGNING_KEY (the secret's public key) as SEP-1 asks", async () => {
    const res = await fetch(`${s.app.url}/.well-known/stellar.toml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const text = await res.text();
    expect(text).not.toContain(signingKey.secret());
    // Read as wallets read it: the Stellar SDK's SEP-1 resolver, through the HTTPS front.
    const toml = await StellarToml.Resolver.resolve(tls.host);
    expect(toml.URI_REQUEST_SIGNING_KEY).toBe(signingKey.publicKey());
    expect(toml.DOCUMENTATION).toMatchObject({
      ORG_NAME: 'Ann "Invoices"',
      ORG_URL: `https://${tls.host}`,
    });
  });
});

describe("signed SEP-7 URIs", () => {
  it("a pay-intent's URI carries origin_domain and a signature the wallet SDK verifies", async () => {
    const { freelancer, invoice } = await sentUsdcInvoice();
    const intent = await s.anon.post(`/api/payments/${invoice.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(200);
    const uri: string = intent.body.sep7Uri;
    expect(uri).toMatch(/&signature=[^&]+$/);

    const sep7 = parseSep7Uri(uri);
    expect(sep7.originDomain).toBe(tls.host);
    expect(await sep7.verifySignature()).toBe(true);
    // Any change to the request breaks the signature: the wallet must refuse it.
    const tampered = parseSep7Uri(uri.replace("&amount=99.5&", "&amount=9.95&"));
    expect(tampered.toString()).not.toBe(uri);
    expect(await tampered.verifySignature()).toBe(false);

    // Our own parser, and a wallet paying exactly what the URI asks, still work.
    const params = parseSep7PayUri(uri);
    expect(params).toMatchObject({
      destination: freelancer.publicKey(),
      amount: "99.5",
      asset_code: "USDC",
      memo: invoice.invoiceNumber,
      origin_domain: tls.host,
    });
    const payer = await holder(s.testnet, s.testnet.usdc, "200");
    const hash = await send(
      s.testnet,
      await pay(
        s.testnet,
        payer,
        params.destination,
        new Asset(params.asset_code, params.asset_issuer),
        params.amount,
        Memo.text(params.memo),
        { passphrase: params.network_passphrase },
      ),
    );
    await fetch(`${s.app.url}/api/cron/watcher`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect((await s.anon.get(`/api/payments/${invoice.id}/status`)).body).toMatchObject({
      status: "PAID",
      transactionHash: hash,
    });
  });

  it("a key other than the published one does not verify", async () => {
    const { invoice } = await sentUsdcInvoice();
    const intent = await s.anon.post(`/api/payments/${invoice.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    const sep7 = parseSep7Uri(intent.body.sep7Uri);
    const other = Keypair.random();
    const payload = (
      sep7 as unknown as { createSignaturePayload(): Buffer }
    ).createSignaturePayload();
    const signature = Buffer.from(sep7.signature as string, "base64");
    expect(Keypair.fromPublicKey(signingKey.publicKey()).verify(payload, signature)).toBe(true);
    expect(other.verify(payload, signature)).toBe(false);
  });
});

describe("SEP7_SIGNING_SECRET", () => {
  it("a value that is not a secret seed stops start-up naming the variable", async () => {
    const { code, output } = await startAppExpectingFailure({
      JWT_SECRET: "j".repeat(40),
      SEP7_SIGNING_SECRET: signingKey.publicKey(),
    });
    expect(code).toBe(1);
    expect(output).toContain("SEP7_SIGNING_SECRET: must be a Stellar secret seed (S...)");
    expect(output).not.toContain(signingKey.publicKey());
  });
});
