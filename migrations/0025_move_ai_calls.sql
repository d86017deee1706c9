-- Unpacking a box of a move into another location moves its things with every row that belongs to
-- them, in the unpacking person's own transaction (server/modules/moves/transfer.ts). The AI calls
-- of their extractions go too (the thing page shows them): app_role may change only their
-- location, and only from a location it writes to one it writes to.
GRANT UPDATE (location_id) ON ai_calls TO app_role;
--> statement-breakpoint
CREATE POLICY ai_calls_move ON ai_calls FOR UPDATE TO app_role
  USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
