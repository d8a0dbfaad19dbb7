import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "@/lib/zod";
import type { LedgerSourceKind } from "./ledger-sources/interface";
import { type Explorers, STELLAR_EXPERT } from "./stellar/networks";
import { isSecretSeed } from "./stellar/strkey";

/**
 * The one place that reads process.env. Every variable is validated here; a bad value
 * stops start-up with a message naming the variable (see `loadConfig`).
 */

/** The value WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION must have (see below). */
export const LOOPBACK_ACKNOWLEDGEMENT = "i-understand";

/** Where a trusted proxy puts the client address (X-Forwarded-For: its right-most entry). */
export const PROXY_HEADERS = ["x-forwarded-for", "x-vercel-forwarded-for", "x-real-ip"] as const;

/**
 * The environment's schema, built on first use: building it (sixty-odd zod fields) costs more
 * than parsing with it, and each server bundle that imports this module would otherwise build
 * it on load although the configuration is parsed once per process (`getConfig`,
 * docs/decisions.md, Cold start).
 */
export function envSchema() {
  builtSchema ??= buildEnvSchema();
  return builtSchema;
}
let builtSchema: ReturnType<typeof buildEnvSchema> | undefined;

function buildEnvSchema() {
  const bool = z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off", ""])
    .transform((v) => ["true", "1", "yes", "on"].includes(v));

  const positiveInt = z.coerce.number().int().positive();

  const stellarAccount = z.string().regex(/^G[A-Z2-7]{55}$/, "must be a Stellar account id (G...)");

  const httpUrl = z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), "must be an http(s) URL");

  return z.object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z
      .string()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), "must be a postgres:// URL")
      .optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_POOL_SIZE: positiveInt.default(10),
    /** Unset: http://localhost:<PORT>, where server.ts listens (docs/decisions.md, Configuration). */
    APP_URL: httpUrl.optional(),
    /** The port server.ts listens on (HOST is read there). */
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    SERVICE_NAME: z.string().min(1).max(100).default("Stellar Invoicing"),
    JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    HORIZON_TESTNET_URL: httpUrl.default("https://horizon-testnet.stellar.org"),
    HORIZON_MAINNET_URL: httpUrl.default("https://horizon.stellar.org"),
    /**
     * Where each network's payments, transactions and submissions go (lib/ledger-sources,
     * ARCHITECTURE.md, Ledger sources): Horizon or Stellar RPC. `LEDGER_SOURCE_TESTNET` /
     * `LEDGER_SOURCE_MAINNET` override it per network.
     */
    LEDGER_SOURCE: z.enum(["horizon", "rpc"]).default("horizon"),
    LEDGER_SOURCE_TESTNET: z.enum(["horizon", "rpc"]).optional(),
    LEDGER_SOURCE_MAINNET: z.enum(["horizon", "rpc"]).optional(),
    /** Stellar RPC per network (SDF runs a public one for testnet only: no mainnet default). */
    RPC_TESTNET_URL: httpUrl.default("https://soroban-testnet.stellar.org"),
    RPC_MAINNET_URL: httpUrl.optional(),
    /**
     * A Stellar RPC cursor older than RPC's retention: `horizon` reads the gap through the
     * network's Horizon, then goes on with RPC; `off` skips to RPC's oldest ledger (reported on
     * /api/health either way until read; docs/decisions.md, Stellar RPC).
     */
    RPC_GAP_BACKFILL: z.enum(["horizon", "off"]).default("horizon"),
    /**
     * `on`: every pay-intent and SEP-7 URI pays the invoice's muxed address (M..., the
     * freelancer's wallet and the invoice's 64-bit id); `off`: only payers that cannot set a
     * memo (smart wallets) get it (docs/decisions.md, Muxed addresses).
     */
    MUXED_DESTINATIONS: z.enum(["on", "off"]).default("off"),
    /** Where transaction links point: the hash is appended (dev:offline: the local ledger's). */
    EXPLORER_TESTNET_URL: httpUrl.default(STELLAR_EXPERT.testnet),
    EXPLORER_MAINNET_URL: httpUrl.default(STELLAR_EXPERT.mainnet),
    TRUST_PROXY: bool.default(false),
    /** With TRUST_PROXY: the header the proxy writes the client address in (lib/http/client-ip.ts). */
    TRUSTED_PROXY_HEADER: z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(PROXY_HEADERS))
      .default("x-forwarded-for"),
    UPSTASH_REDIS_REST_URL: httpUrl.optional(),
    UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
    /** `off` exists only to measure what limiting costs (npm run bench); never in production. */
    RATE_LIMITS: z.enum(["on", "off"]).default("on"),
    /** Global limit per minute (docs/decisions.md, Limits: 100). Raised only in tests. */
    RATE_LIMIT_GLOBAL_PER_MINUTE: positiveInt.default(100),
    /** Open payment-status streams per client address and per instance (docs/decisions.md). */
    STATUS_STREAMS_PER_IP: positiveInt.default(10),
    STATUS_STREAMS_MAX: positiveInt.default(10_000),
    /**
     * server.ts's node:http front (lib/http/connections.ts): milliseconds a client has to send a
     * request's headers, and the whole request; open connections per client address (not
     * applied with TRUST_PROXY, where every connection comes from the proxy).
     */
    HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
    REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
    MAX_CONNECTIONS_PER_IP: positiveInt.default(200),
    /** The per-instance payment-status cache; `auto`: on, except on Vercel (docs/decisions.md). */
    STATUS_CACHE: z.enum(["on", "off", "auto"]).default("auto"),
    /** Per-endpoint limits (docs/decisions.md, Limits); raised only in tests. */
    RATE_LIMIT_INVOICES_PER_HOUR: positiveInt.default(20),
    RATE_LIMIT_LINKS_PER_HOUR: positiveInt.default(60),
    RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: positiveInt.default(10),
    RATE_LIMIT_PRICE_PER_MINUTE: positiveInt.default(30),
    /** Places of limited payment links one IP may hold, in all and per link (docs/decisions.md). */
    RATE_LIMIT_LINK_HOLDS_PER_30_MINUTES: positiveInt.default(5),
    RATE_LIMIT_LINK_HOLDS_PER_LINK_PER_30_MINUTES: positiveInt.default(2),
    /** PDFs, exports, emails and profile saves per minute per client IP, every wallet together. */
    RATE_LIMIT_COSTLY_PER_MINUTE: positiveInt.default(30),
    /** Client portal sign-in requests (emailed links, wallet sign-ins) per 15 minutes per IP. */
    RATE_LIMIT_PORTAL_SIGN_IN_PER_15_MINUTES: positiveInt.default(10),
    /** Asset issuers: Circle's by default; the local ledger issues its own (docs/decisions.md). */
    USDC_ISSUER_TESTNET: stellarAccount.default(
      "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5",
    ),
    USDC_ISSUER_MAINNET: stellarAccount.default(
      "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN",
    ),
    EURC_ISSUER_TESTNET: stellarAccount.default(
      "GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO",
    ),
    EURC_ISSUER_MAINNET: stellarAccount.default(
      "GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2",
    ),
    /** Milliseconds before a Horizon read gives up (a submit waits longer, see lib/stellar). */
    HORIZON_TIMEOUT_MS: positiveInt.default(10_000),
    /** `npm start` runs the background worker in the same process unless WORKER=off. */
    WORKER: z.enum(["on", "off"]).default("on"),
    WATCHER_INTERVAL_MS: positiveInt.default(5000),
    EXPIRY_INTERVAL_MS: positiveInt.default(60_000),
    /** Follow Horizon's ledger stream for sub-second detection (polling stays as fallback). */
    WATCHER_STREAM: z.enum(["on", "off"]).default("on"),
    /** XLM/USD price source (docs/decisions.md); must answer CoinGecko's `{"stellar":{"usd":n}}`. */
    PRICE_SOURCE_URL: httpUrl.default(
      "https://api.coingecko.com/api/v3/simple/price?ids=stellar&vs_currencies=usd",
    ),
    /**
     * XLM/EUR and EUR/USD price source (docs/decisions.md, Price feed); must answer CoinGecko's
     * `{"stellar":{"eur":n},"euro-coin":{"usd":n}}`.
     */
    PRICE_SOURCE_EUR_URL: httpUrl.default(
      "https://api.coingecko.com/api/v3/simple/price?ids=stellar,euro-coin&vs_currencies=eur,usd",
    ),
    /** Milliseconds before a price fetch gives up (5 seconds); lowered only in tests. */
    PRICE_FETCH_TIMEOUT_MS: positiveInt.default(5000),
    /** Operator's webhook endpoint: receives every wallet's events, signed with WEBHOOK_SECRET. */
    WEBHOOK_URL: httpUrl.optional(),
    WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** Lets webhook URLs reach loopback (http://127.0.0.1, localhost): development and tests only. */
    WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
    /**
     * With NODE_ENV=production, WEBHOOK_ALLOW_LOOPBACK stops start-up unless this says exactly
     * `i-understand` (the production build under test, dev:offline): any wallet could then make
     * the service POST to its own loopback ports (docs/decisions.md, Webhooks).
     */
    WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: z
      .enum([LOOPBACK_ACKNOWLEDGEMENT], {
        error: `must be exactly ${LOOPBACK_ACKNOWLEDGEMENT} (or unset)`,
      })
      .optional(),
    /** Milliseconds a receiver has to answer a delivery (docs/decisions.md, Webhooks: 5 seconds). */
    WEBHOOK_TIMEOUT_MS: positiveInt.default(5000),
    /** First retry delay; attempt n waits min(base x 2^n, 6 h), +-20% jitter. Tests lower it. */
    WEBHOOK_RETRY_BASE_MS: positiveInt.default(30_000),
    /** A delivery still failing this long after it was queued is marked failed (3 days). */
    WEBHOOK_MAX_AGE_MS: positiveInt.default(3 * 24 * 3600_000),
    /** An endpoint failing continuously this long is disabled (5 days). */
    WEBHOOK_DISABLE_AFTER_MS: positiveInt.default(5 * 24 * 3600_000),
    /** Pause of the worker's webhook loop between passes with nothing left to send. */
    WEBHOOK_INTERVAL_MS: positiveInt.default(2000),
    /** How long a claimed delivery is leased before another worker may retry it (> timeout). */
    WEBHOOK_LEASE_MS: positiveInt.default(60_000),
    /** Path payments: sendMax = the path's estimated cost + this many basis points (docs/decisions.md, Path payments). */
    PATH_SLIPPAGE_BPS: z.coerce.number().int().min(0).max(5000).default(100),
    /** Largest accepted request body in bytes (413 above). */
    MAX_BODY_BYTES: positiveInt.default(100_000),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /** Signs every SEP-7 URI; stellar.toml publishes its public key (docs/decisions.md, SEP-7). */
    /** Offers WalletConnect in the wallet pickers (docs/decisions.md, Wallets); hidden when unset. */
    WALLETCONNECT_PROJECT_ID: z.string().min(1).max(200).optional(),
    /** Offers the demo wallet on networks whose Horizon is loopback (docs/decisions.md, Wallets). */
    DEMO_WALLET: bool.default(false),
    /** Outgoing email (docs/decisions.md, Email): smtp(s)://user:pass@host:port; unset: no email is sent. */
    SMTP_URL: z
      .string()
      .url()
      .refine((u) => /^smtps?:\/\//.test(u), "must be an smtp:// or smtps:// URL")
      .optional(),
    /** The From of every email: `address` or `Name <address>` (default: SERVICE_NAME <no-reply@APP_URL's host>). */
    EMAIL_FROM: z
      .string()
      .max(200)
      .refine((v) => parseMailbox(v) !== null, "must be an address or Name <address>")
      .optional(),
    SEP7_SIGNING_SECRET: z
      .string()
      .refine((s) => isSecretSeed(s), "must be a Stellar secret seed (S...)")
      .optional(),
  });
}

export type Config = {
  nodeEnv: "development" | "production" | "test";
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  appUrl: string;
  /** Where server.ts listens (PORT). */
  port: number;
  serviceName: string;
  jwtSecret: string;
  cronSecret: string | undefined;
  horizon: { testnet: string; mainnet: string; timeoutMs: number };
  /** Per network, the ledger source `ledgerSourceFor` builds (LEDGER_SOURCE). */
  ledgerSource: { testnet: LedgerSourceKind; mainnet: LedgerSourceKind };
  /** Per network, the Stellar RPC endpoint (undefined: none configured). */
  rpc: { testnet: string | undefined; mainnet: string | undefined };
  /** RPC_GAP_BACKFILL: how a cursor older than RPC's retention is caught up. */
  rpcGapBackfill: "horizon" | "off";
  /** MUXED_DESTINATIONS=on: every payer is asked to pay the invoice's muxed address. */
  muxedDestinations: boolean;
  /** Per network, the transaction explorer URL a hash is appended to (lib/format.ts). */
  explorers: Explorers;
  issuers: {
    testnet: { USDC: string; EURC: string };
    mainnet: { USDC: string; EURC: string };
  };
  trustProxy: boolean;
  trustedProxyHeader: (typeof PROXY_HEADERS)[number];
  upstash: { url: string; token: string } | undefined;
  rateLimitsEnabled: boolean;
  rateLimitGlobalPerMinute: number;
  /** Bounds on open GET /api/payments/{id}/events streams (lib/realtime/status-streams.ts). */
  statusStreams: { perIp: number; max: number };
  /** The node:http front's timeouts and connection cap (lib/http/connections.ts). */
  front: { headersTimeoutMs: number; requestTimeoutMs: number; connectionsPerIp: number };
  /** Answer unchanged payment statuses from this instance's memory (lib/services/payments/status-cache.ts). */
  statusCache: boolean;
  rateLimits: {
    invoicesPerHour: number;
    linksPerHour: number;
    payIntentPer5Minutes: number;
    pricePerMinute: number;
    linkHoldsPer30Minutes: number;
    linkHoldsPerLinkPer30Minutes: number;
    costlyPerMinute: number;
    portalSignInPer15Minutes: number;
  };
  /** The XLM/USD source (PRICE_SOURCE_URL) and the fetch timeout of every price source. */
  prices: { sourceUrl: string; timeoutMs: number };
  /** The XLM/EUR and EUR/USD source (PRICE_SOURCE_EUR_URL). */
  eurPriceSourceUrl: string;
  webhooks: {
    /** WEBHOOK_URL and WEBHOOK_SECRET, when configured. */
    endpoint: { url: string; secret: string } | undefined;
    allowLoopback: boolean;
    timeoutMs: number;
    retryBaseMs: number;
    maxAgeMs: number;
    disableAfterMs: number;
    intervalMs: number;
    leaseMs: number;
  };
  maxBodyBytes: number;
  worker: {
    inProcess: boolean;
    watcherIntervalMs: number;
    expiryIntervalMs: number;
    stream: boolean;
  };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** PATH_SLIPPAGE_BPS: the sendMax allowance of path payments (lib/stellar/paths.ts). */
  pathSlippageBps: number;
  /** SEP7_SIGNING_SECRET, when configured (lib/stellar/sep7.ts sep7Signer). */
  sep7SigningSecret: string | undefined;
  /** WALLETCONNECT_PROJECT_ID and DEMO_WALLET (lib/client/wallets/options.ts). */
  wallets: { walletConnectProjectId: string | undefined; demo: boolean };
  /** SMTP_URL (undefined: email is not configured, nothing is sent) and EMAIL_FROM. */
  email: { smtpUrl: string | undefined; from: { name: string; address: string } };
};

/**
 * `address` or `Name <address>` as a nodemailer address object, or null when it is not one
 * address (line breaks, commas, several addresses). Names are encoded by nodemailer, never
 * written into a header as text (docs/decisions.md, Email).
 */
export function parseMailbox(value: string): { name: string; address: string } | null {
  if (/[\r\n]/.test(value)) return null;
  const m = /^\s*(?:"?([^"<>]*?)"?\s*<([^<>\s,;]+)>|([^<>\s,;"]+))\s*$/.exec(value);
  if (!m) return null;
  const address = m[2] ?? m[3];
  if (!/^[^@\s]+@[^@\s]+$/.test(address)) return null;
  return { name: (m[1] ?? "").trim(), address };
}

/** The public payment page of an invoice or link: {APP_URL}/pay/<id>. */
export const paymentPageUrl = (appUrl: string, id: string) => `${appUrl}/pay/${id}`;

/** The passphrases live in a module without imports, so the browser can share them. */
export { NETWORK_PASSPHRASES } from "./stellar/networks";

export class ConfigError extends Error {}

/** Parses an environment; throws ConfigError naming each bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings are treated as unset, as most deploy dashboards leave them.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  // Parsed once per process: zod's compiled fast path for objects (built on an object's first
  // parse, worth it for a schema parsed per request) would cost more than it saves here.
  const parsed = envSchema().safeParse(cleaned, { jitless: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (Boolean(e.UPSTASH_REDIS_REST_URL) !== Boolean(e.UPSTASH_REDIS_REST_TOKEN)) {
    throw new ConfigError(
      "Invalid environment configuration:\n  UPSTASH_REDIS_REST_TOKEN: UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN must be set together",
    );
  }
  if (e.REQUEST_TIMEOUT_MS < e.HEADERS_TIMEOUT_MS) {
    throw new ConfigError(
      "Invalid environment configuration:\n  REQUEST_TIMEOUT_MS: must be at least HEADERS_TIMEOUT_MS",
    );
  }
  if (
    e.WEBHOOK_ALLOW_LOOPBACK &&
    e.NODE_ENV === "production" &&
    e.WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION !== LOOPBACK_ACKNOWLEDGEMENT
  ) {
    // Any wallet could register http://127.1:<port>/ and read the delivery log.
    throw new ConfigError(
      `Invalid environment configuration:\n  WEBHOOK_ALLOW_LOOPBACK: lets any wallet's webhooks reach this machine's loopback ports; it is for development and tests. With NODE_ENV=production, also set WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION=${LOOPBACK_ACKNOWLEDGEMENT} (only on a machine whose loopback serves nothing else), or turn it off`,
    );
  }
  if ((e.LEDGER_SOURCE_MAINNET ?? e.LEDGER_SOURCE) === "rpc" && !e.RPC_MAINNET_URL) {
    // SDF runs no public mainnet RPC: there is no default to fall back on.
    throw new ConfigError(
      `Invalid environment configuration:\n  RPC_MAINNET_URL: required when ${e.LEDGER_SOURCE_MAINNET ? "LEDGER_SOURCE_MAINNET" : "LEDGER_SOURCE"} is rpc (no public mainnet Stellar RPC to default to)`,
    );
  }
  if (e.WEBHOOK_URL && !e.WEBHOOK_SECRET) {
    throw new ConfigError(
      "Invalid environment configuration:\n  WEBHOOK_SECRET: required when WEBHOOK_URL is set (at least 16 characters)",
    );
  }
  let jwtSecret = e.JWT_SECRET;
  if (!jwtSecret) {
    if (e.DATABASE_URL) {
      // A deployment (shared database, several instances) must share one secret.
      throw new ConfigError(
        "Invalid environment configuration:\n  JWT_SECRET: required when DATABASE_URL is set (at least 32 characters)",
      );
    }
    jwtSecret = loadOrCreateLocalSecret(e.DATA_DIR);
  }
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.DATA_DIR),
    appUrl: appUrlOf(e),
    port: e.PORT,
    serviceName: e.SERVICE_NAME,
    jwtSecret,
    cronSecret: e.CRON_SECRET,
    horizon: {
      testnet: e.HORIZON_TESTNET_URL.replace(/\/+$/, ""),
      mainnet: e.HORIZON_MAINNET_URL.replace(/\/+$/, ""),
      timeoutMs: e.HORIZON_TIMEOUT_MS,
    },
    ledgerSource: {
      testnet: e.LEDGER_SOURCE_TESTNET ?? e.LEDGER_SOURCE,
      mainnet: e.LEDGER_SOURCE_MAINNET ?? e.LEDGER_SOURCE,
    },
    rpc: {
      testnet: e.RPC_TESTNET_URL.replace(/\/+$/, ""),
      mainnet: e.RPC_MAINNET_URL?.replace(/\/+$/, ""),
    },
    rpcGapBackfill: e.RPC_GAP_BACKFILL,
    muxedDestinations: e.MUXED_DESTINATIONS === "on",
    explorers: { testnet: e.EXPLORER_TESTNET_URL, mainnet: e.EXPLORER_MAINNET_URL },
    issuers: {
      testnet: { USDC: e.USDC_ISSUER_TESTNET, EURC: e.EURC_ISSUER_TESTNET },
      mainnet: { USDC: e.USDC_ISSUER_MAINNET, EURC: e.EURC_ISSUER_MAINNET },
    },
    trustProxy: e.TRUST_PROXY,
    trustedProxyHeader: e.TRUSTED_PROXY_HEADER,
    upstash:
      e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN
        ? { url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN }
        : undefined,
    rateLimitsEnabled: e.RATE_LIMITS === "on",
    rateLimitGlobalPerMinute: e.RATE_LIMIT_GLOBAL_PER_MINUTE,
    statusStreams: { perIp: e.STATUS_STREAMS_PER_IP, max: e.STATUS_STREAMS_MAX },
    front: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      connectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    },
    // A frozen serverless function may answer before it reads what was notified meanwhile.
    statusCache: e.STATUS_CACHE === "auto" ? !env.VERCEL : e.STATUS_CACHE === "on",
    rateLimits: {
      invoicesPerHour: e.RATE_LIMIT_INVOICES_PER_HOUR,
      linksPerHour: e.RATE_LIMIT_LINKS_PER_HOUR,
      payIntentPer5Minutes: e.RATE_LIMIT_PAY_INTENT_PER_5_MINUTES,
      pricePerMinute: e.RATE_LIMIT_PRICE_PER_MINUTE,
      linkHoldsPer30Minutes: e.RATE_LIMIT_LINK_HOLDS_PER_30_MINUTES,
      linkHoldsPerLinkPer30Minutes: e.RATE_LIMIT_LINK_HOLDS_PER_LINK_PER_30_MINUTES,
      costlyPerMinute: e.RATE_LIMIT_COSTLY_PER_MINUTE,
      portalSignInPer15Minutes: e.RATE_LIMIT_PORTAL_SIGN_IN_PER_15_MINUTES,
    },
    prices: { sourceUrl: e.PRICE_SOURCE_URL, timeoutMs: e.PRICE_FETCH_TIMEOUT_MS },
    eurPriceSourceUrl: e.PRICE_SOURCE_EUR_URL,
    webhooks: {
      endpoint:
        e.WEBHOOK_URL && e.WEBHOOK_SECRET
          ? { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET }
          : undefined,
      allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      maxAgeMs: e.WEBHOOK_MAX_AGE_MS,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_MS,
      intervalMs: e.WEBHOOK_INTERVAL_MS,
      leaseMs: Math.max(e.WEBHOOK_LEASE_MS, e.WEBHOOK_TIMEOUT_MS + 1000),
    },
    maxBodyBytes: e.MAX_BODY_BYTES,
    worker: {
      inProcess: e.WORKER === "on",
      watcherIntervalMs: e.WATCHER_INTERVAL_MS,
      expiryIntervalMs: e.EXPIRY_INTERVAL_MS,
      stream: e.WATCHER_STREAM === "on",
    },
    logLevel: e.LOG_LEVEL,
    pathSlippageBps: e.PATH_SLIPPAGE_BPS,
    sep7SigningSecret: e.SEP7_SIGNING_SECRET,
    wallets: { walletConnectProjectId: e.WALLETCONNECT_PROJECT_ID, demo: e.DEMO_WALLET },
    email: {
      smtpUrl: e.SMTP_URL,
      from: emailFrom(e.EMAIL_FROM, e.SERVICE_NAME, appUrlOf(e)),
    },
  };
}

/** APP_URL without a trailing slash; unset, the local address of the port the server listens on. */
const appUrlOf = (e: { APP_URL?: string; PORT: number }): string =>
  (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");

function emailFrom(value: string | undefined, serviceName: string, appUrl: string) {
  const parsed = value ? parseMailbox(value) : null;
  if (parsed) return { name: parsed.name || serviceName, address: parsed.address };
  return { name: serviceName, address: `no-reply@${new URL(appUrl).hostname}` };
}

/** Embedded mode: one secret generated on first start and kept in the data directory. */
function loadOrCreateLocalSecret(dataDir: string): string {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, "jwt-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not created yet
  }
  fs.mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

const CONFIG = Symbol.for("stellar-invoicing.config");
type Holder = { [CONFIG]?: Config };

/**
 * The process's configuration, parsed once per process: kept on globalThis, so server.ts's
 * parse serves the start-up hook and every route bundle (each holds its own copy of this
 * module) instead of each parsing again.
 */
export function getConfig(): Config {
  const g = globalThis as Holder;
  g[CONFIG] ??= parseConfig(process.env);
  return g[CONFIG];
}

/**
 * For process entry points (server, worker, start-up hook): a bad configuration stops the
 * process with the message naming the variable instead of a stack trace.
 */
export function exitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
