-- Share links (issue "data-out"): a read-only view of one thing, one place or a filtered view of a
-- location, opened by anyone who holds the link's token. Only a keyed hash of the token is kept,
-- and app_role cannot read it: the anonymous preview reads the row with the service's authority.
-- Not a synced shape (links are made online), so no change-log trigger.
CREATE TABLE "share_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"target_id" uuid,
	"filter" jsonb,
	"title" text,
	"cap" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "share_links_scope_check" CHECK ("scope" IN ('thing', 'place', 'view')),
	CONSTRAINT "share_links_target_check" CHECK (("scope" = 'view') = ("target_id" IS NULL) AND ("scope" = 'view') = ("filter" IS NOT NULL)),
	CONSTRAINT "share_links_cap_check" CHECK ("cap" > 0)
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_links_location_idx" ON "share_links" USING btree ("location_id", "created_at");--> statement-breakpoint
GRANT SELECT (id, location_id, scope, target_id, filter, title, cap, expires_at, created_by, created_at, revoked_at),
  INSERT, UPDATE (revoked_at) ON share_links TO app_role;
--> statement-breakpoint
-- Every reader of the location sees its links (never their tokens); members and above make and
-- revoke them (the service narrows revoking to the maker and admins).
ALTER TABLE share_links ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY share_links_read ON share_links FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY share_links_insert ON share_links FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY share_links_update ON share_links FOR UPDATE TO app_role USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
