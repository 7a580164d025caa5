CREATE TABLE "correction_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"field" text NOT NULL,
	"current_value" text NOT NULL,
	"requested_value" text NOT NULL,
	"reason" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"respond_by" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"outcome" text,
	"note" text,
	CONSTRAINT "correction_requests_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "correction_requests" ADD CONSTRAINT "correction_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "correction_requests_customer_idx" ON "correction_requests" USING btree ("customer_id","submitted_at");--> statement-breakpoint
CREATE INDEX "correction_requests_waiting_idx" ON "correction_requests" USING btree ("respond_by") WHERE "correction_requests"."decided_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "correction_requests_one_waiting_idx" ON "correction_requests" USING btree ("customer_id","field") WHERE "correction_requests"."decided_at" IS NULL;