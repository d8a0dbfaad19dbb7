import fs from "node:fs";
import { sql } from "drizzle-orm";
import { openDatabase } from "../db/client";
const h = await openDatabase({ dataDir: fs.mkdtempSync("/tmp/i33s-fold-") });
const r = await h.db.execute(sql`select search_fold(${"a[b]c\\d^e_f`g{h|i}j~k%l'm\"n ΣΟΦΙΑ Øre Ærø ﬁ İstanbul 株式会社"}) as f`);
console.log((r as unknown as { rows: unknown[] }).rows);
await h.close();
