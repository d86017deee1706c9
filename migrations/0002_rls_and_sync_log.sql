-- Row-level security and the change log. drizzle-kit does not model grants, functions, triggers or
-- policies that call functions, so they live in this hand-written (custom) migration.
--
-- Request transactions run as app_role with these transaction-local settings (server/db/actor.ts):
--   app.user_id       the acting user
--   app.mfa_proven    'on' when the session proved a second factor (locations requiring 2FA show)
--   app.location_ids  optional comma list narrowing what the actor reaches (tokens, MCP grants)
--   app.can_write     'off' for read-only actors (read tokens, svc:read grants)

CREATE OR REPLACE FUNCTION app_user_id() RETURNS uuid
LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('app.user_id', true), '')::uuid $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_locations_with_role(roles text[]) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT coalesce(array_agg(m.location_id), '{}')
  FROM memberships m
  JOIN locations l ON l.id = m.location_id
  WHERE m.user_id = nullif(current_setting('app.user_id', true), '')::uuid
    AND m.deleted_at IS NULL
    AND l.deleted_at IS NULL
    AND m.role = ANY(roles)
    AND (NOT l.requires_two_factor OR coalesce(current_setting('app.mfa_proven', true), '') = 'on')
    AND (coalesce(current_setting('app.location_ids', true), '') = ''
         OR m.location_id = ANY(string_to_array(current_setting('app.location_ids', true), ',')::uuid[]))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_readable_locations() RETURNS uuid[]
LANGUAGE sql STABLE AS $$ SELECT app_locations_with_role(ARRAY['owner','admin','member','viewer']) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_writable_locations() RETURNS uuid[]
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN coalesce(current_setting('app.can_write', true), '') = 'off' THEN '{}'::uuid[]
              ELSE app_locations_with_role(ARRAY['owner','admin','member']) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_admin_locations() RETURNS uuid[]
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN coalesce(current_setting('app.can_write', true), '') = 'off' THEN '{}'::uuid[]
              ELSE app_locations_with_role(ARRAY['owner','admin']) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_owned_accounts() RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT coalesce(array_agg(id), '{}') FROM accounts
  WHERE owner_user_id = nullif(current_setting('app.user_id', true), '')::uuid
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_co_member_ids() RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT coalesce(array_agg(DISTINCT m.user_id), '{}') FROM memberships m
  WHERE m.deleted_at IS NULL AND m.location_id = ANY(app_locations_with_role(ARRAY['owner','admin','member','viewer']))
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO app_role;
--> statement-breakpoint
GRANT SELECT (id, name, email, username, display_username, image, two_factor_enabled, created_at) ON users TO app_role;
--> statement-breakpoint
GRANT SELECT ON accounts TO app_role;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON locations, memberships, invites, place_kinds, places, types, type_fields,
  brands, files, things, history_entries, inbox_items TO app_role;
--> statement-breakpoint
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY users_self_and_co_members ON users FOR SELECT TO app_role
  USING (id = app_user_id() OR id = ANY ((SELECT app_co_member_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY accounts_own ON accounts FOR SELECT TO app_role USING (owner_user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE locations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY locations_read ON locations FOR SELECT TO app_role
  USING (id = ANY ((SELECT app_readable_locations())::uuid[]) OR account_id = ANY ((SELECT app_owned_accounts())::uuid[]));
--> statement-breakpoint
CREATE POLICY locations_create ON locations FOR INSERT TO app_role
  WITH CHECK (account_id = ANY ((SELECT app_owned_accounts())::uuid[]) AND coalesce(current_setting('app.can_write', true), '') <> 'off');
--> statement-breakpoint
CREATE POLICY locations_update ON locations FOR UPDATE TO app_role
  USING (id = ANY ((SELECT app_admin_locations())::uuid[])) WITH CHECK (id = ANY ((SELECT app_admin_locations())::uuid[]));
--> statement-breakpoint
ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY memberships_read ON memberships FOR SELECT TO app_role
  USING (user_id = app_user_id() OR location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
-- Admins manage members; the creator of a location in their own account becomes its owner.
CREATE POLICY memberships_insert ON memberships FOR INSERT TO app_role
  WITH CHECK (location_id = ANY ((SELECT app_admin_locations())::uuid[])
    OR (role = 'owner' AND user_id = app_user_id() AND location_id IN (
      SELECT id FROM locations WHERE account_id = ANY ((SELECT app_owned_accounts())::uuid[]))));
--> statement-breakpoint
CREATE POLICY memberships_update ON memberships FOR UPDATE TO app_role
  USING (location_id = ANY ((SELECT app_admin_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_admin_locations())::uuid[]));
--> statement-breakpoint
-- Anyone but the owner may leave: the only change allowed on one's own row is the tombstone.
CREATE POLICY memberships_leave ON memberships FOR UPDATE TO app_role
  USING (user_id = app_user_id() AND role <> 'owner') WITH CHECK (user_id = app_user_id() AND deleted_at IS NOT NULL);
--> statement-breakpoint
ALTER TABLE invites ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY invites_admin ON invites FOR ALL TO app_role
  USING (location_id = ANY ((SELECT app_admin_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_admin_locations())::uuid[]));
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  -- Inventory tables: every member reads, members and above write; nothing is hard-deleted.
  FOREACH t IN ARRAY ARRAY['place_kinds','places','types','type_fields','brands','files','things','history_entries','inbox_items'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]))', t || '_read', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]))', t || '_insert', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE TO app_role USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]))', t || '_update', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- Anyone who may read a location may record their own leaving it (a viewer cannot write history
-- otherwise); member.remove writes this row just before the tombstone.
CREATE POLICY history_entries_member_left ON history_entries FOR INSERT TO app_role
  WITH CHECK (entity_type = 'member' AND action = 'member.left' AND entity_id = app_user_id()
    AND actor_user_id = app_user_id() AND location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
-- The change log. SECURITY DEFINER: app_role writes synced tables but can neither read nor write
-- sync_log itself. One NOTIFY per location per transaction (identical payloads are folded).
CREATE OR REPLACE FUNCTION sync_log_capture() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
DECLARE
  r jsonb;
  loc uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
  IF TG_TABLE_NAME = 'locations' THEN loc := (r->>'id')::uuid; ELSE loc := (r->>'location_id')::uuid; END IF;
  INSERT INTO sync_log (table_name, op, row_id, location_id, "row", txid)
  VALUES (TG_TABLE_NAME, lower(TG_OP), (r->>'id')::uuid, loc, r, pg_current_xact_id());
  PERFORM pg_notify('sync_log', coalesce(loc::text, ''));
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['locations','memberships','place_kinds','places','types','type_fields','brands','files','things','inbox_items'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION sync_log_capture()', t || '_sync_log', t);
  END LOOP;
END $$;
