CREATE TABLE "second_factor_invitations" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"dismissed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "second_factor_invitations" ADD CONSTRAINT "second_factor_invitations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;