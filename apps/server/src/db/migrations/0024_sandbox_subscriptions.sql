CREATE TABLE "sandbox_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"item_id" text NOT NULL,
	"period" text NOT NULL,
	"interval" integer NOT NULL,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text,
	"notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"status" text NOT NULL,
	"total_count" integer NOT NULL,
	"quantity" integer NOT NULL,
	"gateway_notifies" boolean NOT NULL,
	"start_at" timestamp with time zone,
	"expire_by" timestamp with time zone,
	"notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"payment_method" text,
	"gateway_customer_id" text,
	"paid_count" integer DEFAULT 0 NOT NULL,
	"auth_attempts" integer DEFAULT 0 NOT NULL,
	"cancel_at_cycle_end" boolean DEFAULT false NOT NULL,
	"paused_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD CONSTRAINT "sandbox_subscriptions_plan_id_sandbox_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."sandbox_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_subscriptions_plan_idx" ON "sandbox_subscriptions" USING btree ("plan_id","created_at");