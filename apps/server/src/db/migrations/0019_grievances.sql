CREATE TABLE "grievances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"message" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"respond_by" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"answer" text,
	CONSTRAINT "grievances_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "grievances" ADD CONSTRAINT "grievances_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grievances_customer_idx" ON "grievances" USING btree ("customer_id","submitted_at");--> statement-breakpoint
CREATE INDEX "grievances_open_idx" ON "grievances" USING btree ("respond_by") WHERE "grievances"."answered_at" IS NULL;