ALTER TABLE "credit_notes" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "drawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "drawn_at" timestamp with time zone;--> statement-breakpoint
-- documents issued before this were drawn and stored at issue
UPDATE "credit_notes" SET "drawn_at" = "issued_at";--> statement-breakpoint
UPDATE "invoices" SET "drawn_at" = "issued_at";
