CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" uuid,
	"customer_id" uuid,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"client_network" "cidr",
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_events_actor_kind" CHECK ("audit_events"."actor_kind" in ('customer', 'operator', 'system')),
	CONSTRAINT "audit_events_outcome" CHECK ("audit_events"."outcome" in ('success', 'failure'))
);
--> statement-breakpoint
CREATE INDEX "audit_events_occurred_idx" ON "audit_events" USING btree ("occurred_at","id");--> statement-breakpoint
-- The audit log is append-only (docs/decisions/063-audit-log.md): the database itself refuses to
-- change a row, or to delete one younger than 365 days, the year of logs the DPDP Rules, 2025 ask
-- for (rule 6(1)(e); AUDIT_RETENTION_FLOOR_DAYS in modules/audit/retention.ts). The retention job
-- deletes only older rows. Row triggers: a statement that touches no row is refused nothing.
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.occurred_at >= now() - interval '365 days' THEN
      RAISE EXCEPTION 'audit_events keeps every row 365 days: event % is younger', OLD.id;
    END IF;
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_early_delete BEFORE DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
