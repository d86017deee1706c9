-- Exports (issue "data-out"): a zip of every record of a location or of an owner account, built by
-- a background job. The row is its own durable queue (a lease like extractions in 0022). Not
-- synced and not read by app_role: the API reads and writes it with the service's authority
-- after checking the person's role (server/modules/exports/), so RLS here denies app_role all.
CREATE TABLE "exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"location_id" uuid,
	"scope" text NOT NULL,
	"requested_by" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"options" jsonb NOT NULL,
	"includes_secrets" boolean DEFAULT false NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"bytes" bigint,
	"sha256" text,
	"error" text,
	"attempt" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "exports_scope" CHECK ("scope" IN ('location', 'account')),
	CONSTRAINT "exports_location_scope" CHECK (("scope" = 'location') = ("location_id" IS NOT NULL)),
	CONSTRAINT "exports_status" CHECK ("status" IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exports_requester_idx" ON "exports" USING btree ("requested_by", "created_at");--> statement-breakpoint
CREATE INDEX "exports_due_idx" ON "exports" USING btree ("status", "created_at") WHERE "status" IN ('queued', 'running');--> statement-breakpoint
ALTER TABLE exports ENABLE ROW LEVEL SECURITY;
