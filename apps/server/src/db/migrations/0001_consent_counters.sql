CREATE TABLE "consent_counts" (
	"customer_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "consent_counts_customer_id_status_pk" PRIMARY KEY("customer_id","status")
);
--> statement-breakpoint
CREATE TABLE "order_counts" (
	"customer_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "order_counts_customer_id_status_pk" PRIMARY KEY("customer_id","status")
);
--> statement-breakpoint
ALTER TABLE "consent_counts" ADD CONSTRAINT "consent_counts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_counts" ADD CONSTRAINT "order_counts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_customer_due_idx" ON "consents" USING btree ("customer_id","expires_at","status") WHERE "consents"."status" in ('Pending', 'Approved');--> statement-breakpoint
-- Per-customer counts by status, kept in the same transaction as every write to the table named
-- by the trigger's argument (docs/decisions/028-keyset-pages-and-counters.md). Statement-level,
-- so that a bulk insert adds one aggregate per customer and status, not one update per row.
-- Counter rows are changed in (customer, status) order, so that two writers never wait on each
-- other crosswise.
CREATE FUNCTION track_status_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format(
      'INSERT INTO %I AS c (customer_id, status, n)
         SELECT customer_id, status, count(*)::int FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (customer_id, status) DO UPDATE SET n = c.n + excluded.n', TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    -- an update, never an insert: a customer being deleted has no counter row to add
    EXECUTE format(
      'UPDATE %I AS c SET n = c.n - d.n
         FROM (SELECT customer_id, status, count(*)::int AS n FROM old_rows GROUP BY 1, 2) AS d
        WHERE c.customer_id = d.customer_id AND c.status = d.status', TG_ARGV[0]);
  ELSE
    EXECUTE format(
      'INSERT INTO %I AS c (customer_id, status, n)
         SELECT customer_id, status, sum(delta)::int
           FROM (SELECT customer_id, status, 1 AS delta FROM new_rows
                 UNION ALL SELECT customer_id, status, -1 FROM old_rows) AS d
          GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
       ON CONFLICT (customer_id, status) DO UPDATE SET n = c.n + excluded.n', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER consents_count_insert AFTER INSERT ON consents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_status_counts('consent_counts');
--> statement-breakpoint
CREATE TRIGGER consents_count_update AFTER UPDATE ON consents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_status_counts('consent_counts');
--> statement-breakpoint
CREATE TRIGGER consents_count_delete AFTER DELETE ON consents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_status_counts('consent_counts');
--> statement-breakpoint
CREATE TRIGGER orders_count_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_status_counts('order_counts');
--> statement-breakpoint
CREATE TRIGGER orders_count_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_status_counts('order_counts');
--> statement-breakpoint
CREATE TRIGGER orders_count_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_status_counts('order_counts');
--> statement-breakpoint
-- what a database migrated before this already holds
INSERT INTO consent_counts (customer_id, status, n)
  SELECT customer_id, status, count(*)::int FROM consents GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO order_counts (customer_id, status, n)
  SELECT customer_id, status, count(*)::int FROM orders GROUP BY 1, 2;
