-- Personal tokens: grants, row-level security and the state table's transitions (spec "Personal
-- token" state table). A person manages only their own tokens; the stored HMAC is never readable
-- through app_role. Authentication of a bearer token reads the row with the service's own authority.

ALTER TABLE personal_tokens ADD CONSTRAINT personal_tokens_scope_check CHECK (scope IN ('read', 'write'));
--> statement-breakpoint
-- A token with no location left must be revoked: an empty app.location_ids would mean "no narrowing".
ALTER TABLE personal_tokens ADD CONSTRAINT personal_tokens_live_has_locations
  CHECK (revoked_at IS NOT NULL OR cardinality(location_ids) > 0);
--> statement-breakpoint
GRANT SELECT (id, user_id, name, lookup, key_version, scope, location_ids, mfa_proven, expires_at, revoked_at, last_used_at, created_at),
  INSERT, UPDATE (revoked_at) ON personal_tokens TO app_role;
--> statement-breakpoint
ALTER TABLE personal_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY personal_tokens_own ON personal_tokens FOR ALL TO app_role
  USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
-- The transitions run in the membership change's own transaction, whichever code path changes the
-- membership (member commands, invites, anything later). SECURITY DEFINER: the person making the
-- change (an admin) cannot otherwise see the member's tokens.
CREATE OR REPLACE FUNCTION personal_tokens_follow_membership() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
BEGIN
  IF OLD.deleted_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  UPDATE personal_tokens t
     SET location_ids = array_remove(t.location_ids, OLD.location_id),
         revoked_at = CASE WHEN cardinality(array_remove(t.location_ids, OLD.location_id)) = 0 THEN now() ELSE t.revoked_at END
   WHERE t.user_id = OLD.user_id
     AND t.revoked_at IS NULL
     AND OLD.location_id = ANY(t.location_ids)
     AND (NEW.deleted_at IS NOT NULL OR (NEW.role = 'viewer' AND t.scope = 'write'));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_narrow_personal_tokens AFTER UPDATE OF role, deleted_at ON memberships
  FOR EACH ROW EXECUTE FUNCTION personal_tokens_follow_membership();
