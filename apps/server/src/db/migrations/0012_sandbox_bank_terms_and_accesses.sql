CREATE TABLE "sandbox_bank_accesses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"consent_id" text NOT NULL,
	"accessed_at" timestamp with time zone NOT NULL,
	"resource" text NOT NULL,
	"from_date_time" timestamp with time zone,
	"to_date_time" timestamp with time zone,
	"outcome" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "transaction_from_date_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "transaction_to_date_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "purpose" text;--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "fetches_per_day" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "window_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "fetches_in_window" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_bank_accesses" ADD CONSTRAINT "sandbox_bank_accesses_consent_id_sandbox_bank_consents_consent_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."sandbox_bank_consents"("consent_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_bank_accesses_consent_at_idx" ON "sandbox_bank_accesses" USING btree ("consent_id","accessed_at");