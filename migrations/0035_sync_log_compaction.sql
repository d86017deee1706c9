-- Compaction of the change log (sync/SPEC.md SH10), run by a periodic job (server/sync/compaction.ts).
--
-- Every log entry carries a full row, and a reader converges on the last entry of a row, so an
-- entry followed by a later one of the same row in the same scope (location, or account for a
-- registry row) can go at any time: a reader at any offset still gets the later one. Delete entries
-- (tombstones, a row leaving a location included) are the last of their key; they go once older
-- than the retention, and the horizon records the newest seq removed that way: a reader whose
-- offset is older than the horizon is told to refetch (SH7).

-- One row: how far the log has been compacted (entries up to `compacted_through` have no older
-- entry of their key left) and the horizon.
CREATE TABLE sync_log_compaction (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  compacted_through bigint NOT NULL DEFAULT 0,
  horizon bigint NOT NULL DEFAULT 0,
  compacted_at timestamp with time zone
);
--> statement-breakpoint
INSERT INTO sync_log_compaction DEFAULT VALUES;
--> statement-breakpoint
-- The older entries of a key touched since the last run: a row's entries, found by its id.
CREATE INDEX IF NOT EXISTS sync_log_row_seq_idx ON sync_log (row_id, seq);
--> statement-breakpoint
-- Tombstones, oldest first: the only entries that age out. Small (deletes of the retention period).
CREATE INDEX IF NOT EXISTS sync_log_delete_seq_idx ON sync_log (seq) WHERE op = 'delete';
--> statement-breakpoint
-- Shape streams read the horizon as they read the log (app_role cannot read the table itself).
CREATE OR REPLACE FUNCTION sync_log_horizon() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT coalesce((SELECT horizon FROM sync_log_compaction), 0)
$$;
