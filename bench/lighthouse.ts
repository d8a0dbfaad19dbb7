/**
 * Lighthouse bench (issue 28, Targets): Lighthouse 12 (mobile preset: a Moto G Power-sized
 * screen, simulated slow 4G and 4x CPU slowdown) on Debian's Chromium (/usr/bin/chromium,
 * never a downloaded browser) against the production server (`next build` + server.ts) on
 * PostgreSQL, with the offline environment the e2e tests use (local ledgers and price
 * source: e2e/helpers/env.ts) and seeded data: the checkout `/pay/<id>` of a sent invoice and
 * the signed-in dashboard. Each page runs LIGHTHOUSE_RUNS times (3; BENCH_QUICK=1: once) and
 * the median run's scores are written to bench/results.md with the largest script costs.
 * Targets: checkout performance >= 90, accessibility 100, best practices 100; dashboard
 * performance >= 85. BENCH_WRITE=0 leaves bench/results.md alone; LIGHTHOUSE_TAG names the
 * section's row (e.g. "before").
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";
import { apiFreelancer, sentInvoice, startEnv } from "../e2e/helpers/env";
import { Asset, funded, Memo, pay, send } from "../tests/helpers/stellar";
import { writeSection } from "./results-file";

const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = QUICK ? 1 : Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SESSION_KEY = "stellar-invoicing.session";

type Scores = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  scriptKb: number;
  failed: string[];
  bootup: string[];
};

const TARGETS: Record<
  string,
  Partial<Record<"performance" | "accessibility" | "bestPractices", number>>
> = {
  checkout: { performance: 90, accessibility: 100, bestPractices: 100 },
  dashboard: { performance: 85 },
};

async function main() {
  const env = await startEnv();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  try {
    const { sentId, freelancer } = await seed(env);
    // The dashboard's session, as the app stores it after signing in (lib/client/session.ts).
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    await page.goto(`${env.app.url}/api/health`).catch(() => undefined);
    await page.evaluate(
      (key, value) => localStorage.setItem(key, value),
      SESSION_KEY,
      JSON.stringify({
        token: freelancer.token,
        wallet: freelancer.wallet,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    await page.close();
    await browser.disconnect();

    const pages = [
      ["checkout", `${env.app.url}/pay/${sentId}`],
      ["dashboard", `${env.app.url}/dashboard`],
    ] as const;
    const results: [string, Scores][] = [];
    for (const [name, url] of pages) {
      // One warm-up load (Next compiles nothing in production, but the server's caches warm).
      const keepSession = name === "dashboard";
      await audit(chrome.port, url, keepSession);
      const runs: Scores[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(chrome.port, url, keepSession));
      runs.sort((a, b) => a.performance - b.performance);
      const median = runs[Math.floor(runs.length / 2)];
      console.log(
        `${name}: performance ${runs.map((r) => r.performance).join("/")}, accessibility ${median.accessibility}, best practices ${median.bestPractices}`,
      );
      results.push([name, median]);
    }
    report(results);
  } finally {
    await chrome.kill();
    await env.stop();
  }
}

/** A freelancer with a profile, paid and pending invoices (the dashboard has figures). */
async function seed(env: Awaited<ReturnType<typeof startEnv>>) {
  const freelancer = await apiFreelancer(env);
  await freelancer.api.put("/api/profile", {
    displayName: "Grace Hopper",
    company: "Compilers & Co",
    address: "12 St James's Square, London",
    taxId: "GB123456789",
  });
  const body = (title: string, rate: string) => ({
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    freelancerName: "Grace Hopper",
    title,
    currency: "XLM",
    lineItems: [
      { description: "Design", quantity: "2", rate },
      { description: "Build", quantity: "1", rate: "40" },
    ],
  });
  const invoices = [];
  for (let i = 0; i < 6; i++) invoices.push(await sentInvoice(freelancer, body(`Work ${i}`, "25")));
  const payer = await funded(env.testnet);
  for (const inv of invoices.slice(0, 3)) {
    await send(
      env.testnet,
      await pay(
        env.testnet,
        payer,
        freelancer.wallet,
        Asset.native(),
        "90",
        Memo.text(inv.invoiceNumber),
      ),
    );
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await (await fetch(`${env.app.url}/api/payments/${invoices[2].id}/status`)).json();
    if (s.status === "PAID") break;
    if (Date.now() > deadline) throw new Error("the watcher did not record the seeded payments");
    await new Promise((r) => setTimeout(r, 250));
  }
  return { freelancer, sentId: invoices[5].id as string };
}

/** Empties the browser's HTTP cache: every run loads the page as a first visit. */
async function clearCache(port: number) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send("Network.clearBrowserCache");
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

async function audit(port: number, url: string, keepSession: boolean): Promise<Scores> {
  // Lighthouse's own storage reset would also wipe the dashboard's stored session, so for the
  // dashboard it is off and the HTTP cache is emptied here instead (a cold load either way).
  await clearCache(port);
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices"],
    disableStorageReset: keepSession,
  });
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failed: string[] = [];
  for (const id of ["accessibility", "best-practices"]) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) failed.push(`${id}: ${a.id}`);
    }
  }
  const bootupItems =
    (
      lhr.audits["bootup-time"]?.details as
        | { items?: { url: string; scripting: number }[] }
        | undefined
    )?.items ?? [];
  const bootup = bootupItems
    .slice(0, 3)
    .map((i) => `${i.url.replace(/^https?:\/\/[^/]+/, "")} ${Math.round(i.scripting)} ms`);
  const network =
    (
      lhr.audits["network-requests"]?.details as
        | { items?: { resourceType?: string; transferSize?: number }[] }
        | undefined
    )?.items ?? [];
  const scriptKb = Math.round(
    network
      .filter((r) => r.resourceType === "Script")
      .reduce((s, r) => s + (r.transferSize ?? 0), 0) / 1024,
  );
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    fcp: numeric("first-contentful-paint"),
    lcp: numeric("largest-contentful-paint"),
    tbt: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    scriptKb,
    failed,
    bootup,
  };
}

function report(results: [string, Scores][]) {
  const tag = process.env.LIGHTHOUSE_TAG ?? "latest";
  const mark = (
    name: string,
    key: "performance" | "accessibility" | "bestPractices",
    v: number,
  ) => {
    const t = TARGETS[name]?.[key];
    return t === undefined ? String(v) : `${v} (target ${t}${v >= t ? ", met" : ", NOT met"})`;
  };
  const rows = results.map(
    ([name, s]) =>
      `| ${name} | ${mark(name, "performance", s.performance)} | ${mark(name, "accessibility", s.accessibility)} | ${mark(name, "bestPractices", s.bestPractices)} | ${(s.fcp / 1000).toFixed(1)} s | ${(s.lcp / 1000).toFixed(1)} s | ${Math.round(s.tbt)} ms | ${s.cls.toFixed(3)} | ${s.scriptKb} KB |`,
  );
  const details = results.flatMap(([name, s]) => [
    `- ${name}: most script time ${s.bootup.join(", ") || "—"}${s.failed.length ? `; failing audits: ${s.failed.join(", ")}` : ""}`,
  ]);
  const body = [
    `Lighthouse 12.2.3, mobile preset (simulated throttling), Debian Chromium, median of ${RUNS} run(s) per page after a warm-up load (${tag}).`,
    "",
    "| Page | Performance | Accessibility | Best practices | FCP | LCP | TBT | CLS | Script (transfer) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    ...details,
  ].join("\n");
  console.log(body);
  if (process.env.BENCH_WRITE !== "0") writeSection(`Lighthouse (${tag})`, body);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
