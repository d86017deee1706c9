-- OAuth grants: a person lists and revokes their own grants from the web app (app_role, own rows
-- only). Creating grants and codes, redeeming codes and checking a grant on each /mcp call run with
-- the service's authority after their own checks; app_role never sees codes.

ALTER TABLE oauth_grants ADD CONSTRAINT oauth_grants_scopes_check
  CHECK (scopes <@ ARRAY['svc:read', 'svc:write']::text[] AND cardinality(scopes) > 0);
--> statement-breakpoint
ALTER TABLE oauth_grants ADD CONSTRAINT oauth_grants_live_has_locations
  CHECK (revoked_at IS NOT NULL OR cardinality(location_ids) > 0);
--> statement-breakpoint
GRANT SELECT, UPDATE (revoked_at) ON oauth_grants TO app_role;
--> statement-breakpoint
ALTER TABLE oauth_grants ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY oauth_grants_own ON oauth_grants FOR ALL TO app_role
  USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE oauth_codes ENABLE ROW LEVEL SECURITY;
