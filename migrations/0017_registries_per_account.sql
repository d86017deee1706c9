-- Registries belong to the owner account (DESIGN.md "Data conventions", issue "fields"): types,
-- their fields, place kinds and brands trade location_id for account_id and are shared by all of
-- the account's locations; tags and templates are new registries of the same kind. Also new: the
-- things' tags, the encrypted values of secret fields (never synced) and the owner's reveal policy.
--
-- Every location was seeded with its own built-in types and place kinds; an account now keeps one
-- of each key (the personal location's where there is one, else the oldest). Things, places, types
-- and fields that pointed at a dropped duplicate are re-pointed to the one kept (their version is
-- bumped so devices see the change), then the duplicates are deleted (the change log tells devices).
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"colour" text,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type_id" uuid NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"location_ids" uuid[] NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "secret_values" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"thing_id" uuid,
	"place_id" uuid,
	"field_id" uuid NOT NULL,
	"ciphertext" text NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "secret_values_one_owner" CHECK (("secret_values"."thing_id" is null) <> ("secret_values"."place_id" is null))
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "secret_reveal_roles" text[] DEFAULT '{owner}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
ALTER TABLE "place_kinds" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
ALTER TABLE "place_kinds" ADD COLUMN "archived_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "things" ADD COLUMN "tag_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "type_fields" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
ALTER TABLE "types" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
ALTER TABLE "types" ADD COLUMN "archived_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sync_log" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
UPDATE "types" r SET "account_id" = l."account_id" FROM "locations" l WHERE l."id" = r."location_id"
--> statement-breakpoint
UPDATE "place_kinds" r SET "account_id" = l."account_id" FROM "locations" l WHERE l."id" = r."location_id"
--> statement-breakpoint
UPDATE "type_fields" r SET "account_id" = l."account_id" FROM "locations" l WHERE l."id" = r."location_id"
--> statement-breakpoint
UPDATE "brands" r SET "account_id" = l."account_id" FROM "locations" l WHERE l."id" = r."location_id"
--> statement-breakpoint
CREATE TEMP TABLE registry_keep ON COMMIT DROP AS
SELECT r.id, first_value(r.id) OVER (PARTITION BY r.account_id, r.builtin_key ORDER BY l.is_personal DESC, r.created_at, r.id) AS keep
FROM "types" r JOIN "locations" l ON l.id = r.location_id WHERE r.builtin_key IS NOT NULL
UNION ALL
SELECT r.id, first_value(r.id) OVER (PARTITION BY r.account_id, r.builtin_key ORDER BY l.is_personal DESC, r.created_at, r.id)
FROM "place_kinds" r JOIN "locations" l ON l.id = r.location_id WHERE r.builtin_key IS NOT NULL
--> statement-breakpoint
DELETE FROM registry_keep WHERE id = keep
--> statement-breakpoint
UPDATE "things" t SET "type_id" = k.keep, "row_version" = t."row_version" + 1, "updated_at" = now()
FROM registry_keep k WHERE t."type_id" = k.id
--> statement-breakpoint
UPDATE "templates" t SET "type_id" = k.keep FROM registry_keep k WHERE t."type_id" = k.id
--> statement-breakpoint
UPDATE "places" p SET "kind_id" = k.keep, "row_version" = p."row_version" + 1, "updated_at" = now()
FROM registry_keep k WHERE p."kind_id" = k.id
--> statement-breakpoint
UPDATE "type_fields" f SET "type_id" = k.keep, "row_version" = f."row_version" + 1, "updated_at" = now()
FROM registry_keep k WHERE f."type_id" = k.id
--> statement-breakpoint
UPDATE "type_fields" f SET "place_kind_id" = k.keep, "row_version" = f."row_version" + 1, "updated_at" = now()
FROM registry_keep k WHERE f."place_kind_id" = k.id
--> statement-breakpoint
UPDATE "types" t SET "parent_id" = k.keep, "row_version" = t."row_version" + 1, "updated_at" = now()
FROM registry_keep k WHERE t."parent_id" = k.id
--> statement-breakpoint
UPDATE "types" t SET "group_ids" = (SELECT array_agg(coalesce(k.keep, g)) FROM unnest(t."group_ids") g LEFT JOIN registry_keep k ON k.id = g),
  "row_version" = t."row_version" + 1, "updated_at" = now()
WHERE t."group_ids" && (SELECT array_agg(id) FROM registry_keep)
--> statement-breakpoint
DELETE FROM "types" t USING registry_keep k WHERE t.id = k.id
--> statement-breakpoint
DELETE FROM "place_kinds" p USING registry_keep k WHERE p.id = k.id
--> statement-breakpoint
ALTER TABLE "types" ALTER COLUMN "account_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "place_kinds" ALTER COLUMN "account_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "type_fields" ALTER COLUMN "account_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "brands" ALTER COLUMN "account_id" SET NOT NULL
--> statement-breakpoint
DROP POLICY "types_read" ON "types"
--> statement-breakpoint
DROP POLICY "types_insert" ON "types"
--> statement-breakpoint
DROP POLICY "types_update" ON "types"
--> statement-breakpoint
DROP POLICY "place_kinds_read" ON "place_kinds"
--> statement-breakpoint
DROP POLICY "place_kinds_insert" ON "place_kinds"
--> statement-breakpoint
DROP POLICY "place_kinds_update" ON "place_kinds"
--> statement-breakpoint
DROP POLICY "type_fields_read" ON "type_fields"
--> statement-breakpoint
DROP POLICY "type_fields_insert" ON "type_fields"
--> statement-breakpoint
DROP POLICY "type_fields_update" ON "type_fields"
--> statement-breakpoint
DROP POLICY "brands_read" ON "brands"
--> statement-breakpoint
DROP POLICY "brands_insert" ON "brands"
--> statement-breakpoint
DROP POLICY "brands_update" ON "brands"
--> statement-breakpoint
ALTER TABLE "brands" DROP CONSTRAINT "brands_location_id_locations_id_fk";
--> statement-breakpoint
ALTER TABLE "place_kinds" DROP CONSTRAINT "place_kinds_location_id_locations_id_fk";
--> statement-breakpoint
ALTER TABLE "type_fields" DROP CONSTRAINT "type_fields_location_id_locations_id_fk";
--> statement-breakpoint
ALTER TABLE "types" DROP CONSTRAINT "types_location_id_locations_id_fk";
--> statement-breakpoint
DROP INDEX "brands_location_idx";
--> statement-breakpoint
DROP INDEX "place_kinds_location_idx";
--> statement-breakpoint
DROP INDEX "place_kinds_builtin_per_location";
--> statement-breakpoint
DROP INDEX "type_fields_type_idx";
--> statement-breakpoint
DROP INDEX "type_fields_place_kind_idx";
--> statement-breakpoint
DROP INDEX "types_location_idx";
--> statement-breakpoint
DROP INDEX "types_builtin_per_location";
--> statement-breakpoint
ALTER TABLE "brands" DROP COLUMN "location_id";
--> statement-breakpoint
ALTER TABLE "place_kinds" DROP COLUMN "location_id";
--> statement-breakpoint
ALTER TABLE "type_fields" DROP COLUMN "location_id";
--> statement-breakpoint
ALTER TABLE "types" DROP COLUMN "location_id";
--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_type_id_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."types"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "secret_values" ADD CONSTRAINT "secret_values_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "secret_values" ADD CONSTRAINT "secret_values_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "secret_values" ADD CONSTRAINT "secret_values_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "secret_values" ADD CONSTRAINT "secret_values_field_id_type_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."type_fields"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "tags_account_idx" ON "tags" USING btree ("account_id");
--> statement-breakpoint
CREATE INDEX "templates_account_idx" ON "templates" USING btree ("account_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "secret_values_thing_field" ON "secret_values" USING btree ("thing_id","field_id") WHERE "secret_values"."thing_id" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "secret_values_place_field" ON "secret_values" USING btree ("place_id","field_id") WHERE "secret_values"."place_id" is not null;
--> statement-breakpoint
CREATE INDEX "secret_values_location_idx" ON "secret_values" USING btree ("location_id");
--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "place_kinds" ADD CONSTRAINT "place_kinds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "type_fields" ADD CONSTRAINT "type_fields_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "types" ADD CONSTRAINT "types_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "brands_account_idx" ON "brands" USING btree ("account_id");
--> statement-breakpoint
CREATE INDEX "place_kinds_account_idx" ON "place_kinds" USING btree ("account_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "place_kinds_builtin_per_account" ON "place_kinds" USING btree ("account_id","builtin_key");
--> statement-breakpoint
CREATE INDEX "type_fields_account_idx" ON "type_fields" USING btree ("account_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "type_fields_key_per_type" ON "type_fields" USING btree ("type_id","key") WHERE "type_fields"."type_id" is not null and "type_fields"."deleted_at" is null;
--> statement-breakpoint
CREATE UNIQUE INDEX "type_fields_key_per_place_kind" ON "type_fields" USING btree ("place_kind_id","key") WHERE "type_fields"."place_kind_id" is not null and "type_fields"."deleted_at" is null;
--> statement-breakpoint
CREATE INDEX "types_account_idx" ON "types" USING btree ("account_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "types_builtin_per_account" ON "types" USING btree ("account_id","builtin_key");
--> statement-breakpoint
-- Who reads and who manages an account's registries: readers of any of its locations read them;
-- owners and admins of any of its locations manage them (spec "Roles in a location").
CREATE OR REPLACE FUNCTION app_readable_accounts() RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(DISTINCT l.account_id), '{}') FROM locations l WHERE l.id = ANY (app_readable_locations()));
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_registry_accounts() RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(DISTINCT l.account_id), '{}') FROM locations l WHERE l.id = ANY (app_admin_locations()));
END $$;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON tags, templates, secret_values TO app_role;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['place_kinds','types','type_fields','brands','tags','templates'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO app_role USING (account_id = ANY ((SELECT app_readable_accounts())::uuid[]))', t || '_read', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR INSERT TO app_role WITH CHECK (account_id = ANY ((SELECT app_registry_accounts())::uuid[]))', t || '_insert', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE TO app_role USING (account_id = ANY ((SELECT app_registry_accounts())::uuid[])) WITH CHECK (account_id = ANY ((SELECT app_registry_accounts())::uuid[]))', t || '_update', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- Secret values: ciphertext only (the key never reaches the database); the service decides who may
-- reveal one. Readers of the location read the row, writers write it.
ALTER TABLE secret_values ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY secret_values_read ON secret_values FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY secret_values_insert ON secret_values FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY secret_values_update ON secret_values FOR UPDATE TO app_role
  USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
--> statement-breakpoint
-- The change log learns account-wide rows. The rows this migration staged are flushed first, and
-- the session's staging tables dropped, so the staging function below makes them anew with the
-- account column.
SET CONSTRAINTS ALL IMMEDIATE;
--> statement-breakpoint
SET CONSTRAINTS ALL DEFERRED;
--> statement-breakpoint
DROP TABLE IF EXISTS pg_temp.sync_log_pending;
--> statement-breakpoint
DROP TABLE IF EXISTS pg_temp.sync_log_commit;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sync_log_flush() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301452);
  INSERT INTO sync_log (table_name, op, row_id, location_id, account_id, "row", txid)
  SELECT p.table_name, p.op, p.row_id, p.location_id, p.account_id, p."row", pg_current_xact_id()
  FROM pg_temp.sync_log_pending p ORDER BY p.pos;
  PERFORM pg_notify('sync_log', coalesce(d.loc::text, ''))
  FROM (SELECT DISTINCT coalesce(p.location_id, p.account_id) AS loc FROM pg_temp.sync_log_pending p) d;
  DELETE FROM pg_temp.sync_log_pending;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sync_log_stage() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
DECLARE
  first boolean;
  staged bigint;
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
  first := NOT EXISTS (SELECT 1 FROM pg_temp.sync_log_pending);
  -- `changed` is the statement's transition table: new rows for INSERT and UPDATE, old for DELETE.
  -- A location is its own scope; a registry row is its account's (location_id stays null, so a
  -- location's readers never see another account's registry, and every location of the account does).
  IF TG_TABLE_NAME = 'locations' THEN
    INSERT INTO pg_temp.sync_log_pending (table_name, op, row_id, location_id, "row")
    SELECT TG_TABLE_NAME, lower(TG_OP), c.id, c.id, to_jsonb(c) FROM changed c;
  ELSIF TG_TABLE_NAME IN ('types', 'place_kinds', 'type_fields', 'brands', 'tags', 'templates') THEN
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
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['tags','templates'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_delete', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- A device reads a log entry of a location it reads, or of a registry of an account it reads.
CREATE OR REPLACE FUNCTION sync_log_since(after bigint, tbl text, max_rows int)
RETURNS TABLE (seq bigint, op text, "row" jsonb, txid text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT l.seq, l.op, l."row", (l.txid::xid)::text
  FROM sync_log l
  WHERE l.seq > after AND l.table_name = tbl
    AND (l.location_id = ANY ((SELECT app_readable_locations())::uuid[])
         OR l.account_id = ANY ((SELECT app_readable_accounts())::uuid[]))
  ORDER BY l.seq
  LIMIT max_rows
$$;
