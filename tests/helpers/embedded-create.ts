// Run with tsx in its own process (tests/numbering.test.ts): opens the embedded database in
// DATA_DIR argv[2], creates one invoice for wallet argv[3], prints its number and exits without
// closing the database, as the server does when it stops.
import { openDatabase } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { logger } from "@/lib/logger";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { invoiceBody } from "./api";

const [dataDir, wallet] = process.argv.slice(2);
const handle = await openDatabase({ dataDir });
const invoice = await createInvoice(
  {
    db: handle.db,
    config: parseConfig({ JWT_SECRET: "s".repeat(40) }),
    now: () => new Date(),
    logger,
    requestId: "embedded-create",
    wallet,
  },
  createInvoiceSchema.parse(invoiceBody()),
);
console.log(invoice.invoiceNumber);
process.exit(0);
