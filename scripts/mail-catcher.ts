/**
 * The offline mail catcher (`npm run dev:offline`, README "Trying it offline"): a local SMTP
 * server (smtp-server) that keeps every message in memory, parsed with mailparser, and a small
 * page listing them (time, to, subject) with each one's HTML and plain text. Nothing is
 * delivered anywhere. Run alone: `npx tsx scripts/mail-catcher.ts`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type CaughtMessage = {
  id: number;
  receivedAt: Date;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string;
  headers: Record<string, string>;
};

export type MailCatcher = {
  /** The page listing the messages. */
  url: string;
  /** smtp://127.0.0.1:<port>: the app's SMTP_URL. */
  smtpUrl: string;
  messages: CaughtMessage[];
  stop: () => Promise<void>;
};

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;color:#0f172a;margin:24px}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #cbd5e1;padding:6px 8px;text-align:left;vertical-align:top}pre{white-space:pre-wrap;background:#f8fafc;padding:12px;border:1px solid #cbd5e1}iframe{width:100%;height:640px;border:1px solid #cbd5e1}";

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${PAGE_STYLE}</style></head><body>${body}</body></html>`;
}

function listPage(messages: CaughtMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${esc(m.receivedAt.toISOString())}</td><td>${esc(m.to.join(", "))}</td><td><a href="/messages/${m.id}">${esc(m.subject || "(no subject)")}</a></td></tr>`,
    )
    .join("");
  return page(
    "Mail catcher",
    `<h1>Mail catcher</h1><p>${messages.length} message(s) caught; nothing is delivered. Reload to see new ones.</p><table><thead><tr><th>Received (UTC)</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function messagePage(m: CaughtMessage): string {
  const headers = Object.entries(m.headers)
    .map(([k, v]) => `${esc(k)}: ${esc(v)}`)
    .join("\n");
  return page(
    m.subject,
    `<p><a href="/">All messages</a></p><h1>${esc(m.subject)}</h1><p>To ${esc(m.to.join(", "))}, ${esc(m.receivedAt.toISOString())}</p>${m.html ? `<h2>HTML</h2><iframe sandbox src="/messages/${m.id}/html" title="HTML part"></iframe>` : ""}<h2>Plain text</h2><pre>${esc(m.text)}</pre><h2>Headers</h2><pre>${headers}</pre>`,
  );
}

export async function startMailCatcher(
  opts: { port?: number; smtpPort?: number; host?: string } = {},
): Promise<MailCatcher> {
  const host = opts.host ?? "127.0.0.1";
  const messages: CaughtMessage[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const headers: Record<string, string> = {};
          for (const line of parsed.headerLines) {
            const at = line.line.indexOf(":");
            headers[line.line.slice(0, at)] = line.line.slice(at + 1).trim();
          }
          messages.push({
            id: messages.length + 1,
            receivedAt: new Date(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            html: typeof parsed.html === "string" ? parsed.html : null,
            text: parsed.text ?? "",
            headers,
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(opts.smtpPort ?? 0, host, () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://catcher");
    const send = (
      status: number,
      type: string,
      body: string,
      extra: Record<string, string> = {},
    ) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...extra });
      res.end(body);
    };
    if (url.pathname === "/") return send(200, "text/html; charset=utf-8", listPage(messages));
    if (url.pathname === "/messages.json") {
      return send(200, "application/json", JSON.stringify(messages));
    }
    const match = /^\/messages\/(\d+)(\/html)?$/.exec(url.pathname);
    const m = match ? messages.find((x) => x.id === Number(match[1])) : undefined;
    if (!m || !match) return send(404, "text/plain", "Not found");
    if (match[2]) {
      // The email's own HTML, scripts off and in its own sandboxed origin.
      return send(200, "text/html; charset=utf-8", m.html ?? "", {
        "content-security-policy":
          "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline'",
      });
    }
    return send(200, "text/html; charset=utf-8", messagePage(m));
  });
  await new Promise<void>((resolve, reject) => {
    web.once("error", reject);
    web.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (web.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    smtpUrl: `smtp://${host}:${smtpPort}`,
    messages,
    stop: async () => {
      await new Promise<void>((r) => web.close(() => r()));
      await new Promise<void>((r) => smtp.close(() => r()));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const catcher = await startMailCatcher({
    port: Number(process.env.MAIL_CATCHER_PORT ?? 8025),
    smtpPort: Number(process.env.MAIL_CATCHER_SMTP_PORT ?? 2525),
  });
  process.stdout.write(`Mail catcher: ${catcher.url} (SMTP_URL=${catcher.smtpUrl})\n`);
}
