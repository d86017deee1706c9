-- The row-level-security policies call app_locations_with_role() in every query of a request. As a
-- SQL function with SECURITY DEFINER it is re-planned at each call (about 0.2 ms); plpgsql keeps
-- its plan for the session. Same rule, same result.
CREATE OR REPLACE FUNCTION app_locations_with_role(roles text[]) RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_catalog AS $$
BEGIN
  RETURN (
    SELECT coalesce(array_agg(m.location_id), '{}')
    FROM memberships m
    JOIN locations l ON l.id = m.location_id
    WHERE m.user_id = nullif(current_setting('app.user_id', true), '')::uuid
      AND m.deleted_at IS NULL
      AND l.deleted_at IS NULL
      AND m.role = ANY(roles)
      AND (NOT l.requires_two_factor OR coalesce(current_setting('app.mfa_proven', true), '') = 'on')
      AND (coalesce(current_setting('app.location_ids', true), '') = ''
           OR m.location_id = ANY(string_to_array(current_setting('app.location_ids', true), ',')::uuid[])));
END $$;
