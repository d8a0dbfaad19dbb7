// The reference point of the HTTP benchmark: a minimal Next.js route handler doing the same
// indexed lookup as GET /api/payments/:id/status, with no framework of ours around it.
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });

export async function GET(_req, ctx) {
  const { id } = await ctx.params;
  const [row] = await sql`select id, status, transaction_hash, ledger_number, paid_at, payer_wallet
    from invoices where id = ${id} and deleted_at is null`;
  return Response.json(row ?? null, { status: row ? 200 : 404 });
}
