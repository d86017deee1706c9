-- Shape streams read the change log through these functions: app_role cannot read sync_log
-- itself, and the functions return only entries of locations the actor can read right now.

CREATE OR REPLACE FUNCTION sync_log_head() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT coalesce(max(seq), 0) FROM sync_log
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sync_log_since(after bigint, tbl text, max_rows int)
RETURNS TABLE (seq bigint, op text, "row" jsonb, txid text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT l.seq, l.op, l."row", (l.txid::xid)::text
  FROM sync_log l
  WHERE l.seq > after AND l.table_name = tbl
    AND l.location_id = ANY (app_readable_locations())
  ORDER BY l.seq
  LIMIT max_rows
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS sync_log_table_seq_idx ON sync_log (table_name, seq);
