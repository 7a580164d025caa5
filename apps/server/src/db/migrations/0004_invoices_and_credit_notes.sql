CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credit_note_number" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"refund_id" text NOT NULL,
	"credited_through_paise" bigint NOT NULL,
	"taxable_paise" bigint NOT NULL,
	"cgst_paise" bigint NOT NULL,
	"sgst_paise" bigint NOT NULL,
	"igst_paise" bigint NOT NULL,
	"untaxed_paise" bigint DEFAULT 0 NOT NULL,
	"total_paise" bigint NOT NULL,
	"file_key" text NOT NULL,
	CONSTRAINT "credit_notes_creditNoteNumber_unique" UNIQUE("credit_note_number"),
	CONSTRAINT "credit_notes_invoice_through_unique" UNIQUE("invoice_id","credited_through_paise")
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_number" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"customer_gstin" text NOT NULL,
	"place_of_supply" text NOT NULL,
	"taxable_paise" bigint NOT NULL,
	"cgst_paise" bigint NOT NULL,
	"sgst_paise" bigint NOT NULL,
	"igst_paise" bigint NOT NULL,
	"untaxed_paise" bigint DEFAULT 0 NOT NULL,
	"total_paise" bigint NOT NULL,
	"credited_paise" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'Issued' NOT NULL,
	"file_key" text NOT NULL,
	CONSTRAINT "invoices_invoiceNumber_unique" UNIQUE("invoice_number"),
	CONSTRAINT "invoices_orderId_unique" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_customer_issued_idx" ON "credit_notes" USING btree ("customer_id","issued_at","id");--> statement-breakpoint
CREATE INDEX "invoices_customer_issued_idx" ON "invoices" USING btree ("customer_id","issued_at","id");