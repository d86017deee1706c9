-- Audit entries (issue #32): security-relevant settings changes that a person can read in the app
-- (a personal token, webhook, share link or OAuth grant made or revoked, an AI key set or cleared,
-- a location deleted, restored or transferred, a member joined). Written by one writer
-- (server/commands/audit.ts) in the same transaction as the change. Never synced: no sync_log
-- trigger, no shape. Append-only for app_role: no UPDATE or DELETE grant.
-- `user_id` is the account the entry concerns (its owner reads it at /me/audit); `location_id` the
-- location (its owner and admins read it at /locations/{id}/audit). Purging a location removes its
-- entries with its other rows (server/modules/locations/purge.ts), so a deletion and a restore are
-- the owner's account entries only, naming the location, and outlive it. `params` holds names only,
-- never a secret, token, key or URL.
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"location_id" uuid,
	"actor_type" text NOT NULL,
	"actor_user_id" uuid,
	"actor_token_id" uuid,
	"action" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_entries_concerns" CHECK ("user_id" IS NOT NULL OR "location_id" IS NOT NULL),
	CONSTRAINT "audit_entries_actor_type" CHECK ("actor_type" IN ('user', 'token', 'mcp', 'system'))
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_user_idx" ON "audit_entries" USING btree ("user_id","at" DESC,"id" DESC) WHERE "user_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_entries_location_idx" ON "audit_entries" USING btree ("location_id","at" DESC,"id" DESC) WHERE "location_id" IS NOT NULL;--> statement-breakpoint
GRANT SELECT, INSERT ON audit_entries TO app_role;
--> statement-breakpoint
ALTER TABLE audit_entries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
-- A person reads the entries of their own account, and those of the locations they administer.
CREATE POLICY audit_entries_read ON audit_entries FOR SELECT TO app_role
  USING (user_id = app_user_id() OR location_id = ANY ((SELECT app_admin_locations())::uuid[]));
--> statement-breakpoint
-- A person records only their own acts, about their own account or a location they can read; the
-- acts that run with the service's authority (invite acceptance, location delete and restore) are
-- recorded there, outside RLS.
CREATE POLICY audit_entries_write ON audit_entries FOR INSERT TO app_role
  WITH CHECK (actor_user_id = app_user_id() AND (user_id IS NULL OR user_id = app_user_id())
    AND (location_id IS NULL OR location_id = ANY ((SELECT app_readable_locations())::uuid[])));
