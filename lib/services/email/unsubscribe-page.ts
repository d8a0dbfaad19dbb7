import type { UnsubscribeTarget } from "./unsubscribe";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/**
 * The unsubscribe page (GET and POST /api/unsubscribe/<token>): before, the invoice and a
 * button that POSTs to the same address; after, the confirmation. Plain HTML with its own
 * strict CSP (no script, form posts to this origin only); every value escaped.
 */
export function unsubscribePage(target: UnsubscribeTarget, token: string): Response {
  const invoice = escapeHtml(target.invoiceNumber);
  const sender = escapeHtml(target.sender);
  const body = target.stoppedAt
    ? `<h1>Reminders stopped</h1>
<p>You will get no more payment reminders for invoice ${invoice} from ${sender}. Receipts of payments still arrive.</p>`
    : `<h1>Stop reminders?</h1>
<p>Stop the payment reminders for invoice ${invoice} from ${sender}.</p>
<form method="post" action="/api/unsubscribe/${encodeURIComponent(token)}"><button type="submit">Stop reminders</button></form>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${invoice}: reminders</title>
<style>body{font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;background:#f8fafc;margin:0;padding:48px 16px}main{max-width:480px;margin:0 auto;background:#fff;border:1px solid #cbd5e1;border-radius:8px;padding:24px 28px}h1{font-size:20px}button{background:#1e293b;color:#fff;border:0;border-radius:6px;padding:10px 18px;font-size:15px;cursor:pointer}</style>
</head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      "referrer-policy": "no-referrer",
    },
  });
}
