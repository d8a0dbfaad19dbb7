// The cold-start bench's reference page (bench/cold-start.ts): a server-rendered page doing
// the same indexed lookup as the app's /pay/:id, with no framework of ours around it.
import postgres from "postgres";

export const dynamic = "force-dynamic";

const sql = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });

export default async function Page({ params }) {
  const { id } = await params;
  const [row] = await sql`select id, invoice_number, status, total, currency
    from invoices where id = ${id} and deleted_at is null`;
  return (
    <main>
      <h1>{row ? row.invoice_number : "Not found"}</h1>
      <p>{row ? `${row.total} ${row.currency} (${row.status})` : ""}</p>
    </main>
  );
}
