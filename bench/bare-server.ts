/**
 * The practical ceiling: a bare node:http + postgres server answering the same status query
 * as GET /api/payments/:id/status. Started by bench/http.ts in its own process.
 */
import http from "node:http";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL as string, { max: 10, onnotice: () => {} });
const server = http.createServer(async (req, res) => {
  const id = req.url?.split("/")[2] ?? "";
  const [row] = await sql`select id, status, transaction_hash, ledger_number, paid_at, payer_wallet
    from invoices where id = ${id} and deleted_at is null`;
  if (!row) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"Invoice not found"}');
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      invoiceId: row.id,
      status: row.status,
      transactionHash: row.transaction_hash,
      ledgerNumber: row.ledger_number,
      paidAt: row.paid_at,
      payerWallet: row.payer_wallet,
    }),
  );
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
