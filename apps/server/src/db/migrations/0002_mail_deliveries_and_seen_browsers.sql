CREATE TABLE "seen_browsers" (
	"customer_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "seen_browsers_customer_id_device_hash_pk" PRIMARY KEY("customer_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "mail_deliveries" (
	"message_id" text PRIMARY KEY NOT NULL,
	"delivered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "seen_browsers" ADD CONSTRAINT "seen_browsers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;