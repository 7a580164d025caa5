CREATE TABLE "privacy_notice_reads" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "privacy_notice_reads" ADD CONSTRAINT "privacy_notice_reads_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;