-- Inventory reports (issue "data-out"): a report is a job row, its own leased queue (as
-- extractions, migrations/0022), and the finished PDF is kept in the row until it expires (a
-- report is small and short-lived; keeping it here means expiry is one UPDATE, with no blob left
-- behind in a content-addressed store that has no delete). Not synced: devices follow a report
-- over the REST API only.
CREATE TABLE "report_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"params" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"file" bytea,
	"bytes" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_jobs_status" CHECK ("status" IN ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "report_jobs" ADD CONSTRAINT "report_jobs_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_jobs" ADD CONSTRAINT "report_jobs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_jobs_due_idx" ON "report_jobs" USING btree ("status", "created_at") WHERE "status" IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "report_jobs_expires_idx" ON "report_jobs" USING btree ("expires_at") WHERE "file" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "report_jobs_requester_idx" ON "report_jobs" USING btree ("requested_by", "created_at");--> statement-breakpoint
GRANT SELECT, INSERT ON report_jobs TO app_role;
--> statement-breakpoint
-- A report carries what its requester may see (money, by role), so it is the requester's alone:
-- readers of the location (viewers too) request and read their own; the worker writes with the
-- service's authority.
ALTER TABLE report_jobs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY report_jobs_read ON report_jobs FOR SELECT TO app_role USING (requested_by = (SELECT app_user_id()) AND location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY report_jobs_insert ON report_jobs FOR INSERT TO app_role WITH CHECK (requested_by = (SELECT app_user_id()) AND location_id = ANY ((SELECT app_readable_locations())::uuid[]));
