-- Field work (issue "field-work"): meters and readings with photo proofs, box checks, and short
-- codes. Every thing and place gets a short code when it is inserted; `codes` holds every code the
-- instance has handed out (things', places' and printed labels'), so a code is unique across all of
-- them, and an old code keeps answering after its owner gets a new one.
--> statement-breakpoint
CREATE TABLE "box_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"container_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by_user_id" uuid,
	"seen" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"not_here" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"split" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"moved_in" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"code" text NOT NULL,
	"thing_id" uuid,
	"place_id" uuid,
	"sheet_id" uuid,
	"claimed_at" timestamp with time zone,
	"claimed_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "codes_one_owner" CHECK ("codes"."thing_id" is null or "codes"."place_id" is null)
);
--> statement-breakpoint
CREATE TABLE "label_sheets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"size" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meters" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"thing_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"unit" text NOT NULL,
	"label" text,
	"offset" numeric(18, 3) DEFAULT '0' NOT NULL,
	"max_per_day" numeric(14, 3),
	"nudge_days" integer,
	"nudged_for" timestamp with time zone,
	"created_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "readings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"meter_id" uuid NOT NULL,
	"value" numeric(18, 3) NOT NULL,
	"offset" numeric(18, 3) DEFAULT '0' NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"file_id" uuid,
	"status" text DEFAULT 'ok' NOT NULL,
	"reason" text,
	"created_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "places_short_code_unique";--> statement-breakpoint
DROP INDEX "things_short_code_unique";--> statement-breakpoint
ALTER TABLE "box_checks" ADD CONSTRAINT "box_checks_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_checks" ADD CONSTRAINT "box_checks_container_id_things_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_checks" ADD CONSTRAINT "box_checks_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codes" ADD CONSTRAINT "codes_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codes" ADD CONSTRAINT "codes_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codes" ADD CONSTRAINT "codes_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codes" ADD CONSTRAINT "codes_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_sheets" ADD CONSTRAINT "label_sheets_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_sheets" ADD CONSTRAINT "label_sheets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readings" ADD CONSTRAINT "readings_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readings" ADD CONSTRAINT "readings_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readings" ADD CONSTRAINT "readings_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readings" ADD CONSTRAINT "readings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "box_checks_location_idx" ON "box_checks" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "box_checks_container_at_idx" ON "box_checks" USING btree ("container_id","at","id");--> statement-breakpoint
CREATE INDEX "box_checks_not_here_idx" ON "box_checks" USING gin ("not_here");--> statement-breakpoint
CREATE UNIQUE INDEX "codes_code_unique" ON "codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "codes_location_idx" ON "codes" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "codes_thing_idx" ON "codes" USING btree ("thing_id");--> statement-breakpoint
CREATE INDEX "codes_place_idx" ON "codes" USING btree ("place_id");--> statement-breakpoint
CREATE INDEX "label_sheets_location_idx" ON "label_sheets" USING btree ("location_id","created_at");--> statement-breakpoint
CREATE INDEX "meters_location_idx" ON "meters" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "meters_thing_idx" ON "meters" USING btree ("thing_id");--> statement-breakpoint
CREATE INDEX "readings_location_idx" ON "readings" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "readings_meter_taken_idx" ON "readings" USING btree ("meter_id","taken_at","id");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON meters, readings, box_checks, codes, label_sheets TO app_role;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  -- As the inventory tables: every reader reads, members and above write, nothing is hard-deleted.
  FOREACH t IN ARRAY ARRAY['meters','readings','box_checks','codes','label_sheets'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]))', t || '_read', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]))', t || '_insert', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE TO app_role USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]))', t || '_update', t);
  END LOOP;
  -- Synced to devices by location, through the change log.
  FOREACH t IN ARRAY ARRAY['meters','readings','box_checks','codes'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_delete', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- Six characters with nothing that reads two ways (no 0/O, 1/I/L, U): shared/codes.ts holds the
-- same alphabet. Codes are labels, not secrets: random() is enough, and a code of a location the
-- reader cannot see answers as an unknown one.
CREATE OR REPLACE FUNCTION app_short_code() RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTVWXYZ';
  c text := '';
BEGIN
  FOR i IN 1..6 LOOP
    c := c || substr(alphabet, 1 + floor(random() * 30)::int, 1);
  END LOOP;
  RETURN c;
END $$;
--> statement-breakpoint
-- Before a thing or place is inserted it gets a code (no query, so a 1000-row insert stays cheap).
CREATE OR REPLACE FUNCTION codes_pick() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.short_code IS NULL THEN
    NEW.short_code := app_short_code();
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- After the statement, its codes are registered in one insert. The rare row whose code was already
-- taken (by an older row, or by another row of the same statement) draws again until one is free,
-- and is updated with it (the change log carries that update to devices like any other).
CREATE OR REPLACE FUNCTION codes_register() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
DECLARE
  is_thing constant boolean := TG_TABLE_NAME = 'things';
  r record;
  c text;
BEGIN
  INSERT INTO codes (id, location_id, code, thing_id, place_id, claimed_at)
  SELECT gen_random_uuid(), n.location_id, n.short_code, CASE WHEN is_thing THEN n.id END, CASE WHEN is_thing THEN NULL ELSE n.id END, now()
  FROM changed n
  ON CONFLICT (code) DO NOTHING;
  FOR r IN
    SELECT n.id, n.location_id FROM changed n
    WHERE NOT EXISTS (SELECT 1 FROM codes k WHERE k.code = n.short_code AND (CASE WHEN is_thing THEN k.thing_id ELSE k.place_id END) = n.id)
  LOOP
    LOOP
      c := app_short_code();
      INSERT INTO codes (id, location_id, code, thing_id, place_id, claimed_at)
      VALUES (gen_random_uuid(), r.location_id, c, CASE WHEN is_thing THEN r.id END, CASE WHEN is_thing THEN NULL ELSE r.id END, now())
      ON CONFLICT (code) DO NOTHING;
      EXIT WHEN FOUND;
    END LOOP;
    EXECUTE format('UPDATE %I SET short_code = $1 WHERE id = $2', TG_TABLE_NAME) USING c, r.id;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER things_code_pick BEFORE INSERT ON things FOR EACH ROW EXECUTE FUNCTION codes_pick();
--> statement-breakpoint
CREATE TRIGGER places_code_pick BEFORE INSERT ON places FOR EACH ROW EXECUTE FUNCTION codes_pick();
--> statement-breakpoint
CREATE TRIGGER things_code_register AFTER INSERT ON things REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION codes_register();
--> statement-breakpoint
CREATE TRIGGER places_code_register AFTER INSERT ON places REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION codes_register();
--> statement-breakpoint
-- Things and places made before codes existed get theirs now, set-based, and are registered by the
-- same rule (the updates go through the change log, so devices learn their codes).
UPDATE things SET short_code = app_short_code() WHERE short_code IS NULL;
--> statement-breakpoint
UPDATE places SET short_code = app_short_code() WHERE short_code IS NULL;
--> statement-breakpoint
DO $$
DECLARE
  r record;
  c text;
BEGIN
  INSERT INTO codes (id, location_id, code, thing_id, place_id, claimed_at)
  SELECT gen_random_uuid(), t.location_id, t.short_code, t.id, NULL, now() FROM things t
  UNION ALL SELECT gen_random_uuid(), p.location_id, p.short_code, NULL, p.id, now() FROM places p
  ON CONFLICT (code) DO NOTHING;
  FOR r IN SELECT t.id, t.location_id, 'things' AS tbl FROM things t WHERE NOT EXISTS (SELECT 1 FROM codes k WHERE k.code = t.short_code AND k.thing_id = t.id)
           UNION ALL SELECT p.id, p.location_id, 'places' FROM places p WHERE NOT EXISTS (SELECT 1 FROM codes k WHERE k.code = p.short_code AND k.place_id = p.id)
  LOOP
    LOOP
      c := app_short_code();
      INSERT INTO codes (id, location_id, code, thing_id, place_id, claimed_at)
      VALUES (gen_random_uuid(), r.location_id, c, CASE WHEN r.tbl = 'things' THEN r.id END, CASE WHEN r.tbl = 'places' THEN r.id END, now())
      ON CONFLICT (code) DO NOTHING;
      EXIT WHEN FOUND;
    END LOOP;
    EXECUTE format('UPDATE %I SET short_code = $1 WHERE id = $2', r.tbl) USING c, r.id;
  END LOOP;
END $$;
