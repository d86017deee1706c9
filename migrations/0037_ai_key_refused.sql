-- A stored AI key the provider refused (HTTP 401 or 403 on an extraction call, or on the check
-- when it was saved): when, and the provider's status, so the settings screen can say so. Cleared
-- when the key is replaced or removed, and when a later call with it succeeds.
ALTER TABLE ai_settings ADD COLUMN key_refused_at timestamptz;
--> statement-breakpoint
ALTER TABLE ai_settings ADD COLUMN key_refused_status integer;
