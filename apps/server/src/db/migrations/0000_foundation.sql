CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"mobile" text NOT NULL,
	"gst_no" text NOT NULL,
	"tally_serial_no" text NOT NULL,
	"password_hash" text NOT NULL,
	"company_name" text NOT NULL,
	"customer_type" text DEFAULT 'Customer' NOT NULL,
	"category" text,
	"tally_version" text,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_email_unique" UNIQUE("email")
);
