-- Reads in one round trip (issue 20). A request's reads used to be five or more round trips under
-- RLS (BEGIN, the settings, the location check, the page, its paths and loans, COMMIT), each a
-- socket write that wakes a backend on the other core. These functions take the actor's settings
-- as arguments and apply them (transaction-local) before their own policy-checked queries run, so
-- a read is one statement in its own implicit transaction: the settings end with it.
--
-- app_act_as: the one place the request settings are made (server/db/actor.ts withActor calls it
-- too). The role changes for the statements that follow it, which are planned as app_role, so the
-- policies apply to them; plpgsql re-plans a cached plan when the role it was made for changes.
CREATE OR REPLACE FUNCTION app_act_as(actor_user_id text, actor_mfa_proven boolean, actor_location_ids text, actor_can_write boolean) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('role', 'app_role', true),
    set_config('app.user_id', actor_user_id, true),
    set_config('app.mfa_proven', CASE WHEN actor_mfa_proven THEN 'on' ELSE 'off' END, true),
    set_config('app.location_ids', coalesce(actor_location_ids, ''), true),
    set_config('app.can_write', CASE WHEN actor_can_write THEN 'on' ELSE 'off' END, true);
END $$;
--> statement-breakpoint
-- The chain of places and containers above each thing, root first (server/modules/things/paths.ts
-- reads it for detail pages, app_things_page for lists). Each node is looked up by its key
-- (LATERAL), never by joining whole tables: joins on "things" made the planner hash every thing of
-- the location for a 50-row page. Invoker's rights: the policies of things and places apply.
CREATE OR REPLACE FUNCTION app_thing_paths(ids uuid[])
RETURNS TABLE (thing_id uuid, depth integer, kind text, node_id uuid, name text, is_unplaced boolean, short_code text)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE up(thing_id, depth, kind, node_id) AS (
    SELECT t.id, 0, CASE WHEN t.container_id IS NOT NULL THEN 'container' ELSE 'place' END, coalesce(t.container_id, t.place_id)
    FROM things t WHERE t.id = ANY(ids)
    UNION ALL
    SELECT up.thing_id, up.depth + 1, nxt.kind, nxt.node_id
    FROM up
    CROSS JOIN LATERAL (
      SELECT CASE WHEN c.container_id IS NOT NULL THEN 'container' ELSE 'place' END AS kind, coalesce(c.container_id, c.place_id) AS node_id
      FROM things c WHERE up.kind = 'container' AND c.id = up.node_id
      UNION ALL
      SELECT 'place', p.parent_id FROM places p WHERE up.kind = 'place' AND p.id = up.node_id
    ) nxt
    WHERE up.node_id IS NOT NULL AND up.depth < 64
  )
  SELECT up.thing_id, up.depth, up.kind, up.node_id, n.name, coalesce(n.is_unplaced, false), n.short_code
  FROM up
  LEFT JOIN LATERAL (
    SELECT c.name, false AS is_unplaced, c.short_code FROM things c WHERE up.kind = 'container' AND c.id = up.node_id
    UNION ALL
    SELECT p.name, p.is_unplaced, p.short_code FROM places p WHERE up.kind = 'place' AND p.id = up.node_id
  ) n ON true
  WHERE up.node_id IS NOT NULL
$$;
--> statement-breakpoint
-- A page of a location's things by name then id (server/modules/things/read.ts listThings), with
-- everything a summary shows: the type, the path, the open loans' directions and the container's
-- cover. NULL when the location is not visible to the actor (404, as server/access/location.ts
-- answers). Filters are NULL when not given; after_key/after_id is the cursor. The answer is one
-- json array, built here: mapping some thousand columns row by row cost the server more than the
-- query cost PostgreSQL.
CREATE OR REPLACE FUNCTION app_things_page(
  actor_user_id text, actor_mfa_proven boolean, actor_location_ids text, actor_can_write boolean,
  loc uuid, max_rows integer, type_filter uuid, tag_filter uuid, like_filter text, place_filter uuid, after_key text, after_id uuid)
RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  in_place uuid[];
  ids uuid[];
  page json;
BEGIN
  PERFORM app_act_as(actor_user_id, actor_mfa_proven, actor_location_ids, actor_can_write);
  -- server/access/visible.ts visibleMembership: a live membership in a location the actor may see.
  PERFORM 1 FROM memberships m JOIN locations l ON l.id = m.location_id
    WHERE m.location_id = loc AND m.user_id = app_user_id() AND m.deleted_at IS NULL AND m.location_id = ANY (app_readable_locations());
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- Everything under the place, in sub-places and in containers, read first: inside the page query
  -- the recursive subquery made the generic plan's estimate so large that each call was JIT-compiled.
  IF place_filter IS NOT NULL THEN
    WITH RECURSIVE sub(id) AS (SELECT p.id FROM places p WHERE p.id = place_filter AND p.location_id = loc
                               UNION ALL SELECT p.id FROM places p JOIN sub ON p.parent_id = sub.id),
    inside(id) AS (SELECT i.id FROM things i WHERE i.place_id IN (SELECT id FROM sub) AND i.deleted_at IS NULL
                   UNION ALL SELECT i.id FROM things i JOIN inside ON i.container_id = inside.id WHERE i.deleted_at IS NULL)
    SELECT coalesce(array_agg(id), '{}') INTO in_place FROM inside;
  END IF;
  -- Two statements that differ only in the cursor: with "no cursor" folded into the comparison the
  -- generic plan could no longer start the index scan at the cursor.
  IF after_key IS NULL THEN
    SELECT coalesce(array_agg(s.id ORDER BY s.k, s.id), '{}') INTO ids FROM (
      SELECT t.id, lower(coalesce(t.name, '')) AS k FROM things t
      WHERE t.location_id = loc AND t.deleted_at IS NULL
        AND (type_filter IS NULL OR t.type_id = type_filter)
        AND (tag_filter IS NULL OR t.tag_ids @> ARRAY[tag_filter])
        AND (like_filter IS NULL OR t.name ILIKE like_filter OR t.serial ILIKE like_filter OR t.model ILIKE like_filter OR t.description ILIKE like_filter)
        AND (in_place IS NULL OR t.id IN (SELECT unnest(in_place)))
      ORDER BY lower(coalesce(t.name, '')), t.id
      LIMIT max_rows) s;
  ELSE
    SELECT coalesce(array_agg(s.id ORDER BY s.k, s.id), '{}') INTO ids FROM (
      SELECT t.id, lower(coalesce(t.name, '')) AS k FROM things t
      WHERE t.location_id = loc AND t.deleted_at IS NULL
        AND (lower(coalesce(t.name, '')), t.id) > (after_key, after_id)
        AND (type_filter IS NULL OR t.type_id = type_filter)
        AND (tag_filter IS NULL OR t.tag_ids @> ARRAY[tag_filter])
        AND (like_filter IS NULL OR t.name ILIKE like_filter OR t.serial ILIKE like_filter OR t.model ILIKE like_filter OR t.description ILIKE like_filter)
        AND (in_place IS NULL OR t.id IN (SELECT unnest(in_place)))
      ORDER BY lower(coalesce(t.name, '')), t.id
      LIMIT max_rows) s;
  END IF;
  -- The paths of the whole page in one recursive query, not one per row, grouped once.
  WITH paths AS (
    SELECT pa.thing_id, json_agg(json_build_object('id', pa.node_id, 'name', coalesce(pa.name, ''), 'kind', pa.kind, 'isUnplaced', pa.is_unplaced, 'shortCode', pa.short_code) ORDER BY pa.depth DESC) AS path
    FROM app_thing_paths(ids) pa GROUP BY pa.thing_id)
  SELECT json_agg(json_build_object(
      'id', t.id, 'locationId', t.location_id, 'shortCode', t.short_code, 'name', t.name, 'typeId', t.type_id,
      'type', CASE WHEN ty.id IS NOT NULL THEN json_build_object('id', ty.id, 'icon', ty.icon, 'name', ty.name, 'builtinKey', ty.builtin_key) END,
      'quantity', t.quantity, 'lifecycle', t.lifecycle, 'missing', t.missing_since IS NOT NULL,
      'containerId', t.container_id, 'coverFileId', t.cover_file_id,
      'lastSeenAt', to_char(t.last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'isContainer', t.is_container, 'tagIds', t.tag_ids, 'rowVersion', t.row_version, 'k', lower(coalesce(t.name, '')),
      'containerCover', (SELECT c.cover_file_id FROM things c WHERE c.id = t.container_id),
      'loans', (SELECT json_agg(DISTINCT l.direction) FROM loans l WHERE l.thing_id = t.id AND l.returned_at IS NULL AND l.deleted_at IS NULL),
      'path', pa.path
    ) ORDER BY p.ord) INTO page
  FROM unnest(ids) WITH ORDINALITY AS p(id, ord)
  JOIN things t ON t.id = p.id
  LEFT JOIN types ty ON ty.id = t.type_id
  LEFT JOIN paths pa ON pa.thing_id = t.id;
  RETURN coalesce(page, '[]'::json);
END $$;
