-- Web push to reviewers (issue "inbox-ai"). `push_subscriptions` holds each person's browser
-- subscriptions; `push_pending` is an outbox the inbox_items insert trigger fills in the writing
-- transaction, so every producer of inbox items (captures, readings and nudges, label claims, sync
-- drops, and any added later) is covered, and a row exists only once its transaction committed.
-- The dispatcher (server/modules/push/dispatcher.ts) claims rows with DELETE ... RETURNING, so two
-- replicas never send the same notification, and sends after the commit, outside any write.
-- Neither table is granted to app_role: only the service's own authority reads or writes them.
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"label" text,
	"lang" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_pending" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"inbox_item_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_user_endpoint_unique" ON "push_subscriptions" USING btree ("user_id","endpoint");--> statement-breakpoint
CREATE INDEX "push_pending_location_idx" ON "push_pending" USING btree ("location_id","created_at");--> statement-breakpoint
-- SECURITY DEFINER: request transactions run as app_role, which has no access to push_pending.
CREATE OR REPLACE FUNCTION push_pending_stage() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO push_pending (inbox_item_id, location_id, kind, created_by)
  SELECT a.id, a.location_id, a.kind, a.created_by FROM added a WHERE a.status = 'open';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER inbox_items_push_pending AFTER INSERT ON inbox_items REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION push_pending_stage();
