ALTER TABLE "consent_accesses" ADD COLUMN "fetches_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "data_life_days" integer;--> statement-breakpoint
ALTER TABLE "sandbox_bank_consents" ADD COLUMN "data_life_days" integer;