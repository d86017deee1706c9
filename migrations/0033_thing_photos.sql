-- A thing's photos (issue "newcomer", point 5): every photo of a thing, not only its cover, so a
-- second device shows the gallery. An ordered uuid[] of files of the thing's location, like
-- tag_ids (no foreign key on array elements: the commands check each file, and moves and restores
-- carry the list: server/modules/moves/transfer.ts, server/modules/exports/restore-rows.ts).
ALTER TABLE "things" ADD COLUMN "photo_file_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;
--> statement-breakpoint
-- Things captured before: the cover first, then the photos their capture brought (the draft inbox
-- item's payload), each once, only live image files of the thing's own location.
UPDATE things t SET photo_file_ids = p.ids
FROM (
  SELECT x.thing_id, array_agg(x.file_id ORDER BY x.ord) AS ids
  FROM (
    SELECT DISTINCT ON (c.thing_id, c.file_id) c.thing_id, c.file_id, c.ord
    FROM (
      SELECT id AS thing_id, cover_file_id AS file_id, 0::bigint AS ord FROM things WHERE cover_file_id IS NOT NULL
      UNION ALL
      SELECT i.thing_id, (e.p->>'fileId')::uuid, e.n
      FROM inbox_items i
      CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(i.payload->'photos') = 'array' THEN i.payload->'photos' ELSE '[]'::jsonb END)
        WITH ORDINALITY AS e(p, n)
      WHERE i.kind = 'draft' AND i.thing_id IS NOT NULL AND (e.p->>'fileId') ~ '^[0-9a-fA-F-]{36}$'
    ) c
    JOIN things o ON o.id = c.thing_id
    JOIN files f ON f.id = c.file_id AND f.location_id = o.location_id AND f.deleted_at IS NULL AND f.mime LIKE 'image/%'
    ORDER BY c.thing_id, c.file_id, c.ord
  ) x
  GROUP BY x.thing_id
) p
WHERE t.id = p.thing_id;
