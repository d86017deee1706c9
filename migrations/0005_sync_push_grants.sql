-- Push: the op-id record, sync_drop inbox items from any role, and commit-ordered change log.

GRANT SELECT, INSERT ON sync_ops TO app_role;
--> statement-breakpoint
ALTER TABLE sync_ops ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY sync_ops_own ON sync_ops FOR ALL TO app_role
  USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
-- A dropped op becomes a sync_drop item even when its author may not write (a viewer's push,
-- sync/SPEC.md DR2): the author records their own drop in a location they can read (DR3).
CREATE POLICY inbox_items_sync_drop_insert ON inbox_items FOR INSERT TO app_role
  WITH CHECK (kind = 'sync_drop' AND created_by = app_user_id()
    AND location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
-- Log order must be commit order (sync/SPEC.md SH3): a reader that has seen seq N must never later
-- find a committed N-1. Writers of synced tables take one transaction-scoped advisory lock before
-- drawing a seq, so they commit in seq order. Re-entrant within a transaction, so cheap per row.
CREATE OR REPLACE FUNCTION sync_log_capture() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
DECLARE
  r jsonb;
  loc uuid;
BEGIN
  PERFORM pg_advisory_xact_lock(7301452);
  IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
  IF TG_TABLE_NAME = 'locations' THEN loc := (r->>'id')::uuid; ELSE loc := (r->>'location_id')::uuid; END IF;
  INSERT INTO sync_log (table_name, op, row_id, location_id, "row", txid)
  VALUES (TG_TABLE_NAME, lower(TG_OP), (r->>'id')::uuid, loc, r, pg_current_xact_id());
  PERFORM pg_notify('sync_log', coalesce(loc::text, ''));
  RETURN NULL;
END $$;
