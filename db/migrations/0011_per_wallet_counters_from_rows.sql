-- Custom SQL migration file, put your code below! ---- Each wallet's counter starts at its highest number of the generated form (INV- and digits),
-- so existing rows keep their numbers and the wallet's next generated number follows them.
-- Suffixes longer than 18 digits do not fit the bigint counter and are left out.
INSERT INTO "invoice_number_counters" ("wallet", "last")
SELECT "freelancer_wallet", max(substring("invoice_number" from 5)::bigint)
FROM "invoices"
WHERE "invoice_number" ~ '^INV-[0-9]{1,18}$'
GROUP BY "freelancer_wallet"
ON CONFLICT ("wallet") DO NOTHING;
