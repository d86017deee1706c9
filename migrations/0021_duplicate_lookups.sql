-- Duplicates (issue "inbox-ai"): every thing made or accepted looks for another live thing of its
-- location with the same serial, or the same brand and model. These indexes make each look-up a
-- probe instead of a scan of the location, and the open-pair check a probe by thing.
CREATE INDEX "things_serial_idx" ON "things" ("location_id", lower(btrim("serial"))) WHERE "deleted_at" IS NULL AND "serial" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "things_brand_model_idx" ON "things" ("location_id", "brand_id", lower(btrim("model"))) WHERE "deleted_at" IS NULL AND "brand_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "inbox_duplicate_thing_idx" ON "inbox_items" ("thing_id") WHERE "kind" = 'duplicate';
