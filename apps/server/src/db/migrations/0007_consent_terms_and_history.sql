CREATE TABLE "consent_accesses" (
	"consent_ref" uuid PRIMARY KEY NOT NULL,
	"last_accessed_at" timestamp with time zone NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"fetches_in_window" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "purpose" text;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "transaction_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "transaction_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "fetches_per_day" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "accounts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "reconnect_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consent_accesses" ADD CONSTRAINT "consent_accesses_consent_ref_consents_id_fk" FOREIGN KEY ("consent_ref") REFERENCES "public"."consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_customer_past_idx" ON "consents" USING btree ("customer_id","created_at","id") WHERE "consents"."status" in ('Expired', 'Revoked');--> statement-breakpoint
CREATE INDEX "consents_partner_reconnect_idx" ON "consents" USING btree ("partner_ref","reconnect_requested_at","id") WHERE "consents"."reconnect_requested_at" is not null;