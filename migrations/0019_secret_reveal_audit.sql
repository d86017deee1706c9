-- Revealing a secret value is audited in the thing's history, in the same transaction. The owner's
-- policy (locations.secret_reveal_roles) may let viewers reveal, and viewers cannot write history
-- otherwise: anyone who reads the location may record their own reveal, and nothing else (as
-- history_entries_member_left does for leaving).
CREATE POLICY history_entries_secret_revealed ON history_entries FOR INSERT TO app_role
  WITH CHECK (entity_type = 'thing' AND action = 'secret.revealed' AND actor_user_id = app_user_id()
    AND location_id = ANY ((SELECT app_readable_locations())::uuid[]));
