-- Custom SQL migration file, put your code below! --
-- Invoices paid before partial payments existed: amount_paid is the sum of their payments
-- (each was one operation covering the total, recorded as applied).
UPDATE "invoices" AS i SET "amount_paid" = p."paid"
FROM (SELECT "invoice_id", sum("amount") AS "paid" FROM "payments" GROUP BY "invoice_id") AS p
WHERE p."invoice_id" = i."id";
