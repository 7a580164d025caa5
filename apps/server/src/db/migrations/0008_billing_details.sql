CREATE TABLE "billing_details" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"gstin" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"state_code" text NOT NULL,
	"pin" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_gstin" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_address_line1" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_address_line2" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_city" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_state_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_pin" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "place_of_supply" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "supplier_state_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cgst_paise" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sgst_paise" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "igst_paise" bigint;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;