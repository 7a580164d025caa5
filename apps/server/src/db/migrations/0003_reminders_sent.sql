CREATE TABLE "reminders_sent" (
	"customer_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"threshold_days" integer NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reminders_sent_customer_id_subject_threshold_days_pk" PRIMARY KEY("customer_id","subject","threshold_days")
);
--> statement-breakpoint
ALTER TABLE "reminders_sent" ADD CONSTRAINT "reminders_sent_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;