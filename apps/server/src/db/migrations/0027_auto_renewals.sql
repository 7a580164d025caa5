CREATE TABLE "sandbox_subscription_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"billing_start" timestamp with time zone,
	"billing_end" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_subscription_invoices_paymentId_unique" UNIQUE("payment_id")
);
--> statement-breakpoint
CREATE TABLE "auto_renewals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"gateway_status" text NOT NULL,
	"method" text,
	"amount_paise" bigint NOT NULL,
	"charge_at" timestamp with time zone,
	"authorise_url" text NOT NULL,
	"ends_at_cycle_end" boolean DEFAULT false NOT NULL,
	"synced_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_renewals_subscriptionId_unique" UNIQUE("subscription_id")
);
--> statement-breakpoint
CREATE TABLE "gateway_plans" (
	"plan_id" uuid NOT NULL,
	"amount_paise" bigint NOT NULL,
	"gateway_plan_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_plans_plan_id_amount_paise_pk" PRIMARY KEY("plan_id","amount_paise"),
	CONSTRAINT "gateway_plans_gatewayPlanId_unique" UNIQUE("gateway_plan_id")
);
--> statement-breakpoint
CREATE TABLE "renewal_charges" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"auto_renewal_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"charged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "renewal_charges_orderId_unique" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "sandbox_subscription_invoices" ADD CONSTRAINT "sandbox_subscription_invoices_subscription_id_sandbox_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."sandbox_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_renewals" ADD CONSTRAINT "auto_renewals_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_renewals" ADD CONSTRAINT "auto_renewals_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_plans" ADD CONSTRAINT "gateway_plans_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_charges" ADD CONSTRAINT "renewal_charges_auto_renewal_id_auto_renewals_id_fk" FOREIGN KEY ("auto_renewal_id") REFERENCES "public"."auto_renewals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_charges" ADD CONSTRAINT "renewal_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_subscription_invoices_subscription_idx" ON "sandbox_subscription_invoices" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auto_renewals_live_customer_key" ON "auto_renewals" USING btree ("customer_id") WHERE ended_at IS NULL;--> statement-breakpoint
CREATE INDEX "auto_renewals_charge_idx" ON "auto_renewals" USING btree ("charge_at") WHERE ended_at IS NULL;