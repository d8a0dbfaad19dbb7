/**
 * The offline mail catcher (`npm run dev:offline`, README "Trying it offline"): a local SMTP
 * server (smtp-server) that keeps every message in memory, parsed with mailparser, and a small
 * page listing them (time, to, subject) with each one's HTML, plain text and attachments (name,
 * type, size, and a download of the exact bytes: the invoice PDF). Nothing is delivered
 * anywhere. Run alone: `npx tsx scripts/mail-catcher.ts`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type CaughtAttachment = {
  filename: string;
  contentType: string;
  size: number;
  content: Buffer;
};

export type CaughtMessage = {
  id: number;
  receivedAt: Date;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string;
  headers: Record<string, string>;
  attachments: CaughtAttachment[];
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

/** "12.3 KB": sizes as a person reads them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const attachmentUrl = (m: CaughtMessage, i: number) => `/messages/${m.id}/attachments/${i + 1}`;

function listPage(messages: CaughtMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${esc(m.receivedAt.toISOString())}</td><td>${esc(m.to.join(", "))}</td><td><a href="/messages/${m.id}">${esc(m.subject || "(no subject)")}</a></td><td>${m.attachments
          .map((a, i) => `<a href="${attachmentUrl(m, i)}" download>${esc(a.filename)}</a>`)
          .join("<br>")}</td></tr>`,
    )
    .join("");
  return page(
    "Mail catcher",
    `<h1>Mail catcher</h1><p>${messages.length} message(s) caught; nothing is delivered. Reload to see new ones.</p><table><thead><tr><th>Received (UTC)</th><th>To</th><th>Subject</th><th>Attachments</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function attachmentsSection(m: CaughtMessage): string {
  if (m.attachments.length === 0) return "";
  const rows = m.attachments
    .map(
      (a, i) =>
        `<tr><td>${esc(a.filename)}</td><td>${esc(a.contentType)}</td><td>${formatSize(a.size)}</td><td><a href="${attachmentUrl(m, i)}" target="_blank" rel="noopener">Open</a> · <a href="${attachmentUrl(m, i)}" download="${esc(a.filename)}">Download</a></td></tr>`,
    )
    .join("");
  return `<h2>Attachments (${m.attachments.length})</h2><table><thead><tr><th>Name</th><th>Type</th><th>Size</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function messagePage(m: CaughtMessage): string {
  const headers = Object.entries(m.headers)
    .map(([k, v]) => `${esc(k)}: ${esc(v)}`)
    .join("\n");
  return page(
    m.subject,
    `<p><a href="/">All messages</a></p><h1>${esc(m.subject)}</h1><p>To ${esc(m.to.join(", "))}, ${esc(m.receivedAt.toISOString())}</p>${attachmentsSection(m)}${m.html ? `<h2>HTML</h2><iframe sandbox src="/messages/${m.id}/html" title="HTML part"></iframe>` : ""}<h2>Plain text</h2><pre>${esc(m.text)}</pre><h2>Headers</h2><pre>${headers}</pre>`,
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
            // Every part that is not the body: files, and inline images with a name.
            attachments: parsed.attachments.map((a, i) => ({
              filename: a.filename || `attachment-${i + 1}`,
              contentType: a.contentType || "application/octet-stream",
              size: a.content.length,
              content: a.content,
            })),
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
      // Attachments as their name, type and size (the bytes are at their own URL).
      const listed = messages.map((m) => ({
        ...m,
        attachments: m.attachments.map((a, i) => ({
          filename: a.filename,
          contentType: a.contentType,
          size: a.size,
          url: attachmentUrl(m, i),
        })),
      }));
      return send(200, "application/json", JSON.stringify(listed));
    }
    const match = /^\/messages\/(\d+)(?:(\/html)|\/attachments\/(\d+))?$/.exec(url.pathname);
    const m = match ? messages.find((x) => x.id === Number(match[1])) : undefined;
    if (!m || !match) return send(404, "text/plain", "Not found");
    if (match[3]) {
      const a = m.attachments[Number(match[3]) - 1];
      if (!a) return send(404, "text/plain", "Not found");
      // The exact bytes with the type the email gave them; a sandbox CSP, as the HTML part,
      // so an attached HTML or SVG file cannot run script on the catcher's origin.
      res.writeHead(200, {
        "content-type": a.contentType,
        "content-length": String(a.content.length),
        "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(a.filename)}`,
        "content-security-policy": "sandbox",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
      });
      res.end(a.content);
      return;
    }
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
