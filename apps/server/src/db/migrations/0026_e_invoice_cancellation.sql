ALTER TABLE "credit_notes" ADD COLUMN "e_invoice_cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "e_invoice_cancelled_at" timestamp with time zone;