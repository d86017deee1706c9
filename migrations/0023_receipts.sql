-- Receipts (issue "inbox-ai"). A receipt photographed as such is a `purchases` row: its pages, and
-- what the AI pipeline read off them (vendor, date, currency, total, tax, lines). Purchases are not
-- a synced shape: devices see a receipt through its inbox item, whose payload mirrors the purchase
-- (server/modules/receipts/). An extraction now reads either a thing or a purchase.
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"place_id" uuid,
	"file_ids" uuid[] NOT NULL,
	"vendor_seen" text,
	"purchased_on" date,
	"currency" text,
	"currency_seen" text,
	"total" numeric(18, 4),
	"tax" numeric(18, 4),
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'reading' NOT NULL,
	"created_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_location_idx" ON "purchases" USING btree ("location_id", "created_at");--> statement-breakpoint
ALTER TABLE "extractions" ALTER COLUMN "thing_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "purchase_id" uuid;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_one_target" CHECK (("thing_id" IS NULL) <> ("purchase_id" IS NULL));--> statement-breakpoint
CREATE INDEX "extractions_purchase_idx" ON "extractions" USING btree ("purchase_id") WHERE "purchase_id" IS NOT NULL;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON purchases TO app_role;
--> statement-breakpoint
-- As the inventory tables: every reader reads (the API leaves amounts out for those who may not
-- see money), members and above write, nothing is hard-deleted.
ALTER TABLE purchases ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY purchases_read ON purchases FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY purchases_insert ON purchases FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
--> statement-breakpoint
CREATE POLICY purchases_update ON purchases FOR UPDATE TO app_role USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
