DROP TABLE "invoice_counters" CASCADE;--> statement-breakpoint
DROP TABLE "receipts" CASCADE;