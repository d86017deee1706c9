-- The role every request transaction switches to (SET LOCAL ROLE app_role), so that row-level
-- security applies even to a superuser connection. Roles are cluster-wide, hence the guard.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_role') THEN
    CREATE ROLE app_role NOLOGIN;
  END IF;
END $$;
--> statement-breakpoint
-- The connecting login must be able to switch to app_role (a no-op for a superuser).
DO $$
BEGIN
  EXECUTE format('GRANT app_role TO %I', current_user);
EXCEPTION WHEN others THEN
  RAISE NOTICE 'could not grant app_role to %: %', current_user, SQLERRM;
END $$;
