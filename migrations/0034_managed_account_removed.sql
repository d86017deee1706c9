-- A managed account exists only for the location it was made in (spec "Managed accounts"). When its
-- membership there is removed (member.remove tombstones it), the account is retired in the same
-- transaction: it can no longer sign in (password, passkeys, second factor, sessions, tokens and
-- assistant grants go) and its place among the location's 20 managed accounts is free again. The
-- user row stays, so history still names who did what. A trigger rather than service code, so no
-- path that tombstones a membership can leave a removed child able to sign in.
CREATE OR REPLACE FUNCTION retire_removed_managed_account() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
BEGIN
  IF NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN
    DELETE FROM managed_accounts WHERE user_id = NEW.user_id AND location_id = NEW.location_id;
    IF FOUND THEN
      DELETE FROM auth_sessions WHERE user_id = NEW.user_id;
      DELETE FROM auth_accounts WHERE user_id = NEW.user_id;
      DELETE FROM passkeys WHERE user_id = NEW.user_id;
      DELETE FROM auth_two_factors WHERE user_id = NEW.user_id;
      DELETE FROM personal_tokens WHERE user_id = NEW.user_id;
      DELETE FROM oauth_grants WHERE user_id = NEW.user_id;
      DELETE FROM push_subscriptions WHERE user_id = NEW.user_id;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_retire_managed AFTER UPDATE OF deleted_at ON memberships
  FOR EACH ROW EXECUTE FUNCTION retire_removed_managed_account();
