import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";
import { getConfig } from "@/lib/config";
import { getOpenApiDocument } from "@/lib/openapi/document";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "API reference | Stellar Invoicing",
  description: "The JSON API: endpoints, both response forms, errors, authentication, webhooks",
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

type Operation = { summary?: string; security?: Record<string, string[]>[] };

function authOf(op: Operation): string {
  const schemes = (op.security ?? []).flatMap((r) => Object.keys(r));
  if (schemes.includes("cronSecret")) return "CRON_SECRET";
  if ((op.security ?? []).some((r) => Object.keys(r).length === 0)) return "public";
  if (schemes.includes("bearerAuth"))
    return "Bearer or x-wallet-address/x-auth-nonce/x-auth-signature";
  return "none";
}

/**
 * `/docs`: the interactive reference (Scalar, rendered in the browser from /openapi.3.1.json,
 * the version with the `webhooks` section),
 * and a plain server-rendered index of every operation for readers without JavaScript.
 */
export default function DocsPage() {
  const { document } = getOpenApiDocument(getConfig().appUrl);
  const paths = (document.paths ?? {}) as Record<string, Partial<Record<string, Operation>>>;
  const rows = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((m) => {
      const op = item[m];
      return op
        ? [{ method: m.toUpperCase(), path, summary: op.summary ?? "", auth: authOf(op) }]
        : [];
    }),
  );
  return (
    <main>
      <noscript>
        <div className="mx-auto max-w-4xl p-8">
          <h1 className="text-2xl font-semibold">Stellar Invoicing API</h1>
          <p className="mt-2">
            The machine-readable description is at <a href="/openapi.json">/openapi.json</a>{" "}
            (OpenAPI 3.0) and <a href="/openapi.3.1.json">/openapi.3.1.json</a> (OpenAPI 3.1). Every
            endpoint answers Form B by default and Form A with <code>?envelope=true</code>.
          </p>
          <table className="mt-4 w-full text-left text-sm">
            <thead>
              <tr>
                <th>Method</th>
                <th>Path</th>
                <th>Summary</th>
                <th>Auth</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.method} ${r.path}`}>
                  <td>
                    <code>{r.method}</code>
                  </td>
                  <td>
                    <code>{r.path}</code>
                  </td>
                  <td>{r.summary}</td>
                  <td>{r.auth}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </noscript>
      <ApiReference url="/openapi.3.1.json" />
    </main>
  );
}
