-- "My own captures go straight in" (issue 19, point 7): a person's own setting in one location,
-- read by the server when it receives a capture (so a capture made offline and pushed later goes
-- in too). Per person and location: it is about one's own captures, and a household member alone
-- at home may want it where a shop's staff, reviewing each other's work, would not. A person reads
-- and writes only their own rows, and only for a location they can see. Not a synced shape: the
-- app reads it over REST and keeps a copy on the device.
CREATE TABLE "capture_settings" (
	"user_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"straight_in" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "capture_settings_pk" PRIMARY KEY ("user_id", "location_id")
);
--> statement-breakpoint
ALTER TABLE "capture_settings" ADD CONSTRAINT "capture_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capture_settings" ADD CONSTRAINT "capture_settings_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE (straight_in, updated_at) ON capture_settings TO app_role;
--> statement-breakpoint
ALTER TABLE capture_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
-- Read your own rows where you can read; set them where you can write (viewers do not capture).
CREATE POLICY capture_settings_read ON capture_settings FOR SELECT TO app_role
  USING (user_id = (SELECT app_user_id()) AND location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY capture_settings_insert ON capture_settings FOR INSERT TO app_role
  WITH CHECK (user_id = (SELECT app_user_id()) AND location_id = ANY ((SELECT app_writable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY capture_settings_update ON capture_settings FOR UPDATE TO app_role
  USING (user_id = (SELECT app_user_id()) AND location_id = ANY ((SELECT app_writable_locations())::uuid[]))
  WITH CHECK (user_id = (SELECT app_user_id()) AND location_id = ANY ((SELECT app_writable_locations())::uuid[]));
