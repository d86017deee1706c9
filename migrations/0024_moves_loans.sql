-- Moves of boxes between locations, and loans (issue "moves-loans").
--
-- A move belongs to the location its boxes leave (`location_id`); `to_location_id` is where they go.
-- A box of a move is a `move_boxes` row (number, destination, state). Unpacking a box in the target
-- location moves the box and everything in it into that location: the rows keep their ids and
-- change `location_id`, so this migration also teaches the change log that a row which changes
-- location leaves the shapes of its old location (a `delete` logged under the old location, staged
-- before the row's update under the new one).
--
-- A loan belongs to its thing's location. Its person is a member (`person_user_id`) or a contact of
-- the owner account (`contact_id`); contacts are account records like the registries.
CREATE TABLE "moves" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"to_location_id" uuid,
	"to_location_name" text,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" uuid,
	"finished_at" timestamp with time zone,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "moves_status" CHECK ("status" IN ('active', 'finished', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "move_boxes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"move_id" uuid NOT NULL,
	"container_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"state" text DEFAULT 'packed' NOT NULL,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"destination_place_id" uuid,
	"destination_name" text,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "move_boxes_state" CHECK ("state" IN ('packed', 'in_transit', 'unpacked')),
	CONSTRAINT "move_boxes_number_positive" CHECK ("number" > 0)
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"thing_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"person_user_id" uuid,
	"contact_id" uuid,
	"person_name" text NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"split_from_thing_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"due_on" date,
	"returned_at" timestamp with time zone,
	"previous_place_id" uuid,
	"previous_container_id" uuid,
	"return_place_id" uuid,
	"return_container_id" uuid,
	"notes" text,
	"condition_out" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"condition_in" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"overdue_notified_at" timestamp with time zone,
	"created_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "loans_direction" CHECK ("direction" IN ('out', 'in')),
	-- At most one: a member's account may be deleted later (the reference becomes null, the name stays).
	CONSTRAINT "loans_one_person" CHECK ("person_user_id" IS NULL OR "contact_id" IS NULL),
	CONSTRAINT "loans_quantity_positive" CHECK ("quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "moves" ADD CONSTRAINT "moves_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moves" ADD CONSTRAINT "moves_to_location_id_locations_id_fk" FOREIGN KEY ("to_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moves" ADD CONSTRAINT "moves_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "move_boxes" ADD CONSTRAINT "move_boxes_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "move_boxes" ADD CONSTRAINT "move_boxes_move_id_moves_id_fk" FOREIGN KEY ("move_id") REFERENCES "public"."moves"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "move_boxes" ADD CONSTRAINT "move_boxes_container_id_things_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "move_boxes" ADD CONSTRAINT "move_boxes_destination_place_id_places_id_fk" FOREIGN KEY ("destination_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_person_user_id_users_id_fk" FOREIGN KEY ("person_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_split_from_thing_id_things_id_fk" FOREIGN KEY ("split_from_thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moves_location_idx" ON "moves" USING btree ("location_id", "created_at");--> statement-breakpoint
CREATE INDEX "move_boxes_location_idx" ON "move_boxes" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "move_boxes_number_per_move" ON "move_boxes" USING btree ("move_id", "number") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "move_boxes_container_per_move" ON "move_boxes" USING btree ("move_id", "container_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "move_boxes_container_idx" ON "move_boxes" USING btree ("container_id");--> statement-breakpoint
CREATE INDEX "contacts_account_idx" ON "contacts" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "loans_location_idx" ON "loans" USING btree ("location_id", "started_at");--> statement-breakpoint
CREATE INDEX "loans_thing_idx" ON "loans" USING btree ("thing_id");--> statement-breakpoint
CREATE INDEX "loans_open_due_idx" ON "loans" USING btree ("due_on") WHERE "returned_at" IS NULL AND "deleted_at" IS NULL;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON moves, move_boxes, contacts, loans TO app_role;
--> statement-breakpoint
-- Who writes an account's contacts: members and above of any of its locations (a person lending
-- a thing names the borrower inline; contacts are not registries that only admins manage).
CREATE OR REPLACE FUNCTION app_writable_accounts() RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(DISTINCT l.account_id), '{}') FROM locations l WHERE l.id = ANY (app_writable_locations()));
END $$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['moves','move_boxes','loans'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]))', t || '_read', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]))', t || '_insert', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE TO app_role USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]))', t || '_update', t);
  END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE contacts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY contacts_read ON contacts FOR SELECT TO app_role USING (account_id = ANY ((SELECT app_readable_accounts())::uuid[]));
--> statement-breakpoint
CREATE POLICY contacts_insert ON contacts FOR INSERT TO app_role WITH CHECK (account_id = ANY ((SELECT app_writable_accounts())::uuid[]));
--> statement-breakpoint
CREATE POLICY contacts_update ON contacts FOR UPDATE TO app_role USING (account_id = ANY ((SELECT app_writable_accounts())::uuid[])) WITH CHECK (account_id = ANY ((SELECT app_writable_accounts())::uuid[]));
--> statement-breakpoint
-- The staging tables of the change log, made once per session by whichever trigger runs first.
-- One definition for every staging trigger: two triggers that each made the table their own way
-- would leave a session's table shaped by whichever ran first.
CREATE OR REPLACE FUNCTION sync_log_prepare() RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  IF to_regclass('pg_temp.sync_log_pending') IS NULL THEN
    CREATE TEMP TABLE sync_log_pending (
      pos bigint GENERATED ALWAYS AS IDENTITY,
      table_name text NOT NULL,
      op text NOT NULL,
      row_id uuid NOT NULL,
      location_id uuid,
      account_id uuid,
      "row" jsonb NOT NULL
    ) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE sync_log_commit (queued boolean) ON COMMIT DELETE ROWS;
    CREATE CONSTRAINT TRIGGER sync_log_flush AFTER INSERT ON pg_temp.sync_log_commit
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sync_log_flush();
  END IF;
  -- True when nothing is staged yet in this transaction: the caller queues the flush.
  RETURN NOT EXISTS (SELECT 1 FROM pg_temp.sync_log_pending);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sync_log_stage() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  first boolean;
  staged bigint;
BEGIN
  first := sync_log_prepare();
  -- `changed` is the statement's transition table: new rows for INSERT and UPDATE, old for DELETE.
  -- A location is its own scope; a registry row (or a contact) is its account's (location_id stays
  -- null, so a location's readers never see another account's rows, and every location of the
  -- account does).
  IF TG_TABLE_NAME = 'locations' THEN
    INSERT INTO pg_temp.sync_log_pending (table_name, op, row_id, location_id, "row")
    SELECT TG_TABLE_NAME, lower(TG_OP), c.id, c.id, to_jsonb(c) FROM changed c;
  ELSIF TG_TABLE_NAME IN ('types', 'place_kinds', 'type_fields', 'brands', 'tags', 'templates', 'contacts') THEN
    INSERT INTO pg_temp.sync_log_pending (table_name, op, row_id, account_id, "row")
    SELECT TG_TABLE_NAME, lower(TG_OP), c.id, c.account_id, to_jsonb(c) FROM changed c;
  ELSE
    INSERT INTO pg_temp.sync_log_pending (table_name, op, row_id, location_id, "row")
    SELECT TG_TABLE_NAME, lower(TG_OP), c.id, c.location_id, to_jsonb(c) FROM changed c;
  END IF;
  GET DIAGNOSTICS staged = ROW_COUNT;
  IF first AND staged > 0 THEN
    INSERT INTO pg_temp.sync_log_commit VALUES (true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A row whose location changed leaves its old location's shapes: a `delete` under the old location,
-- staged before the update under the new one (triggers of one event fire in name order, and
-- `_sync_log_depart` sorts before `_sync_log_update`), so a device that reads both locations sees
-- the delete and then the row, and one that reads only the old location sees it go.
CREATE OR REPLACE FUNCTION sync_log_stage_departures() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  first boolean;
  staged bigint;
BEGIN
  first := sync_log_prepare();
  INSERT INTO pg_temp.sync_log_pending (table_name, op, row_id, location_id, "row")
  SELECT TG_TABLE_NAME, 'delete', o.id, o.location_id, to_jsonb(o)
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE n.location_id IS DISTINCT FROM o.location_id;
  GET DIAGNOSTICS staged = ROW_COUNT;
  IF first AND staged > 0 THEN
    INSERT INTO pg_temp.sync_log_commit VALUES (true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['moves','move_boxes','loans','contacts'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_delete', t);
  END LOOP;
  -- The synced tables whose rows can change location (a box and what travels with it).
  FOREACH t IN ARRAY ARRAY['things','files','inbox_items','meters','readings','box_checks','codes','loans'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage_departures()', t || '_sync_log_depart', t);
  END LOOP;
END $$;
