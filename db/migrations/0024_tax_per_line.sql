ALTER TABLE "invoice_line_items" ADD COLUMN "tax_rate" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD COLUMN "tax_category" text;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD COLUMN "exemption_reason" text;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD COLUMN "exemption_reason_code" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax_breakdown" jsonb;