-- The device whose pushed op made a change (the push's clientId; null for REST, MCP and jobs).
-- A device's later op is not stale because of the device's own earlier ops (sync/SPEC.md VE8):
-- renaming a thing twice offline sends both renames with the version the device last saw.
ALTER TABLE "history_entries" ADD COLUMN "client_id" text;
