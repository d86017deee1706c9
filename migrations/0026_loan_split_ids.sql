-- Which of these ids any thing already has, whether or not the caller can see it. A loan's split
-- makes a new thing with a device-made id, and that id must be free: the answer is the same
-- "taken" the primary key would give, checked before anything is written, so that a taken id
-- refuses the loan whether or not a split turned out to be needed.
CREATE OR REPLACE FUNCTION app_things_taken(ids uuid[]) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
  SELECT coalesce(array_agg(t.id), '{}') FROM things t WHERE t.id = ANY(ids)
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_things_taken(uuid[]) TO app_role;
