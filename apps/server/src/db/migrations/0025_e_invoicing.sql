CREATE TABLE "sandbox_irp_documents" (
	"irn" text PRIMARY KEY NOT NULL,
	"supplier_gstin" text NOT NULL,
	"financial_year" text NOT NULL,
	"doc_type" text NOT NULL,
	"doc_no" text NOT NULL,
	"doc_date" text NOT NULL,
	"ack_no" text NOT NULL,
	"ack_date" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'ACT' NOT NULL,
	"document" jsonb NOT NULL,
	"signed_invoice" text NOT NULL,
	"signed_qr_code" text NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"cancel_remark" text,
	CONSTRAINT "sandbox_irp_documents_ackNo_unique" UNIQUE("ack_no")
);
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "e_invoice_status" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "e_invoice_document" jsonb;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "irn" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "ack_no" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "ack_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "signed_qr_code" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "e_invoice_refusal" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "e_invoice_status" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "e_invoice_document" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "irn" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "ack_no" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "ack_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "signed_qr_code" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "e_invoice_refusal" text;