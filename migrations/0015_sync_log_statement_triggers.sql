-- The change log with one trigger call per statement and its lock held only while committing.
--
-- Until now a row trigger (0002, 0005) wrote every changed row into sync_log as it happened and took
-- the log's advisory lock at the first one, so a writer held that lock from its first synced write
-- to its commit, round trips to the service included, and concurrent writers ran one at a time.
-- Now:
--   * a statement-level trigger per table and event stages the statement's changed rows (its
--     transition table) in a per-session temporary table, in statement order;
--   * the first staged row of a transaction queues a deferred constraint trigger, which runs at
--     COMMIT: it takes the advisory lock, moves the staged rows into sync_log in order (drawing
--     their seqs), notifies, and the commit follows at once.
-- Log order is still commit order (sync/SPEC.md SH3): seqs are drawn under the lock and the lock is
-- released only once the commit is visible. Rows staged in a rolled-back savepoint vanish with it.
-- The staging tables belong to the definer: app_role can neither read nor write them.

CREATE OR REPLACE FUNCTION sync_log_flush() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301452);
  INSERT INTO sync_log (table_name, op, row_id, location_id, "row", txid)
  SELECT p.table_name, p.op, p.row_id, p.location_id, p."row", pg_current_xact_id()
  FROM pg_temp.sync_log_pending p ORDER BY p.pos;
  -- One NOTIFY per location per transaction, as before (identical payloads fold anyway).
  PERFORM pg_notify('sync_log', coalesce(d.loc::text, ''))
  FROM (SELECT DISTINCT p.location_id AS loc FROM pg_temp.sync_log_pending p) d;
  -- Emptied here, not only at commit: after SET CONSTRAINTS ALL IMMEDIATE a later write of the
  -- same transaction must find the table empty and queue a flush of its own.
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
      "row" jsonb NOT NULL
    ) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE sync_log_commit (queued boolean) ON COMMIT DELETE ROWS;
    CREATE CONSTRAINT TRIGGER sync_log_flush AFTER INSERT ON pg_temp.sync_log_commit
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sync_log_flush();
  END IF;
  first := NOT EXISTS (SELECT 1 FROM pg_temp.sync_log_pending);
  -- `changed` is the statement's transition table: new rows for INSERT and UPDATE, old for DELETE.
  IF TG_TABLE_NAME = 'locations' THEN
    INSERT INTO pg_temp.sync_log_pending (table_name, op, row_id, location_id, "row")
    SELECT TG_TABLE_NAME, lower(TG_OP), c.id, c.id, to_jsonb(c) FROM changed c;
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
  FOREACH t IN ARRAY ARRAY['locations','memberships','place_kinds','places','types','type_fields','brands','files','things','inbox_items'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_sync_log', t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sync_log_stage()', t || '_sync_log_delete', t);
  END LOOP;
END $$;
--> statement-breakpoint
DROP FUNCTION sync_log_capture();
