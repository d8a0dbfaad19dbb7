"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button, buttonClass, textLinkClass } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { Loading, Muted, PageHeader } from "@/components/ui/page";
import { useApi, useCan } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { quoteAllows } from "@/lib/domain/quote-state";
import { formatDate, formatDateTime } from "@/lib/format";
import type { OwnerQuoteBody } from "@/lib/schemas/quotes";
import { QuoteLines } from "./quote-lines";

/** The owner's quote: its lines and totals, the client's answer, send, delete, the history. */
export function QuoteDetail({ id }: { id: string }) {
  const router = useRouter();
  const api = useApi();
  const {
    data: q,
    error,
    loading,
    reload,
  } = useResource<OwnerQuoteBody>(`/api/quotes/${id}/owner`);
  const { busy, notice, run } = useAction();
  // An accountant reads the books: no send, edit or delete (docs/decisions.md, Team access).
  const writes = useCan()("write");
  if (error) return <Alert>{error}</Alert>;
  if (!q || loading) return <Loading what="quote" />;

  const send = () =>
    run("send", async () => {
      await api(`/api/quotes/${id}/send`, { method: "POST" });
      reload();
      return "Sent: the client has the link to accept it.";
    });
  const remove = () =>
    run("delete", async () => {
      await api(`/api/quotes/${id}`, { method: "DELETE" });
      router.push("/quotes");
    });

  return (
    <div className="space-y-6">
      <PageHeader
        title={`Quote ${q.number}`}
        description={q.title}
        actions={
          <>
            {writes && quoteAllows(q.status, "send") && (
              <Button onClick={send} disabled={busy !== null} aria-busy={busy === "send"}>
                Send quote
              </Button>
            )}
            {writes && quoteAllows(q.status, "update") && (
              <Link href={`/quotes/${id}/edit`} className={buttonClass("secondary")}>
                Edit draft
              </Link>
            )}
            {writes && quoteAllows(q.status, "delete") && (
              <Button variant="secondary" onClick={remove} disabled={busy !== null}>
                Delete draft
              </Button>
            )}
            <a href={q.pdfUrl} className={textLinkClass} download>
              Download PDF
            </a>
          </>
        }
      />
      {notice && (
        <Alert kind={notice.kind === "success" ? "success" : "error"}>{notice.text}</Alert>
      )}
      <Card title="Status">
        <div className="space-y-2 text-sm">
          <p>
            <StatusBadge status={q.status} /> Valid until {formatDate(q.validUntil)} · on
            acceptance: {q.onAccept === "send" ? "the invoice is sent" : "a draft invoice"}
          </p>
          <p className="[overflow-wrap:anywhere]">
            Client page:{" "}
            <a href={q.quoteUrl} className={textLinkClass}>
              {q.quoteUrl}
            </a>
          </p>
          {q.acceptedAt && (
            <p>
              Accepted by <strong>{q.acceptedName}</strong> on {formatDateTime(q.acceptedAt)} from{" "}
              {q.acceptedIp}.
            </p>
          )}
          {q.invoiceId && (
            <p>
              <Link href={`/invoices/${q.invoiceId}`} className={textLinkClass}>
                Open the invoice made from it
              </Link>
            </p>
          )}
          {q.declinedAt && (
            <p>
              Declined on {formatDateTime(q.declinedAt)}
              {q.declineReason ? `: ${q.declineReason}` : "."}
            </p>
          )}
        </div>
      </Card>
      <Card title={`${q.clientName}${q.clientCompany ? `, ${q.clientCompany}` : ""}`}>
        <Muted className="mb-4 [overflow-wrap:anywhere]">{q.clientEmail}</Muted>
        <QuoteLines quote={q} />
      </Card>
      <Card title="History">
        <ol className="space-y-1 text-sm">
          {q.auditLogs.map((a) => (
            <li key={a.id}>
              {formatDateTime(a.createdAt)} · {a.action.toLowerCase()} ·{" "}
              {a.actorWallet === "CLIENT"
                ? "the client"
                : a.actorWallet === "SYSTEM"
                  ? "the service"
                  : "you"}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
