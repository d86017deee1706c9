-- Webhooks (issue "data-out"). `webhooks` are a location's receivers, managed by its admins; the
-- signing secret is sealed with the server secret (server/modules/webhooks/secret.ts), never stored
-- in the clear. `webhook_deliveries` is the outbox: triggers on the tables every command writes
-- (history_entries, inbox_items, moves, move_boxes) add one row per matching active webhook in the
-- writing transaction, so a REST write and a pushed op (one command path) raise an event exactly
-- when they commit, and never otherwise. The worker (server/modules/webhooks/worker.ts) claims due
-- rows under FOR UPDATE SKIP LOCKED with a lease, signs, sends and records each attempt.
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"secret_sealed" text NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"webhook_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "webhook_deliveries_status" CHECK ("status" IN ('pending', 'delivering', 'delivered', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhooks_location_idx" ON "webhooks" USING btree ("location_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" IN ('pending', 'delivering');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at","id");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON webhooks TO app_role;
--> statement-breakpoint
GRANT SELECT ON webhook_deliveries TO app_role;
--> statement-breakpoint
-- Admins only, as invites: members and viewers do not see that webhooks exist (404, not 403, comes
-- from the route's own role check; RLS is the backstop).
ALTER TABLE webhooks ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY webhooks_admin ON webhooks FOR ALL TO app_role
  USING (location_id = ANY ((SELECT app_admin_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_admin_locations())::uuid[]));
--> statement-breakpoint
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY webhook_deliveries_admin ON webhook_deliveries FOR SELECT TO app_role
  USING (location_id = ANY ((SELECT app_admin_locations())::uuid[]));
--> statement-breakpoint
-- Queues `events` (location_id, event type, data) for every active webhook of the location that
-- subscribed to the type. SECURITY DEFINER: the writing transaction runs as app_role, which may not
-- write deliveries (and a member, who may write things, does not even see the webhooks).
CREATE OR REPLACE FUNCTION webhook_enqueue(events jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, location_id, event_type, payload)
  SELECT w.id, w.location_id, e.type,
    jsonb_build_object('type', e.type, 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', e.data)
  FROM jsonb_to_recordset(events) AS e(location_id uuid, type text, data jsonb)
  JOIN webhooks w ON w.location_id = e.location_id AND w.active AND e.type = ANY (w.events)
  WHERE e.type IS NOT NULL;
END $$;
--> statement-breakpoint
-- History names what commands did; the events are the part of it a receiver is promised. Each
-- trigger returns at once when the written locations have no active webhook (nearly every write).
CREATE OR REPLACE FUNCTION webhook_from_history() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.active AND w.location_id IN (SELECT a.location_id FROM added a)) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(coalesce(jsonb_agg(jsonb_build_object(
    'location_id', a.location_id,
    'type', CASE a.action
      WHEN 'thing.created' THEN 'thing.created' WHEN 'thing.updated' THEN 'thing.updated'
      WHEN 'thing.deleted' THEN 'thing.deleted' WHEN 'thing.moved' THEN 'thing.moved'
      WHEN 'loan.lent' THEN 'loan.created' WHEN 'loan.borrowed' THEN 'loan.created'
      WHEN 'loan.returned' THEN 'loan.returned' WHEN 'move.created' THEN 'move.created' END,
    'data', jsonb_build_object('locationId', a.location_id, 'entityType', a.entity_type, 'id', a.entity_id,
      'name', a.entity_name, 'action', a.action, 'historyId', a.id, 'at', to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  ) ORDER BY a.at, a.id), '[]'::jsonb))
  FROM added a;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER history_entries_webhooks AFTER INSERT ON history_entries REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION webhook_from_history();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION webhook_from_inbox() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.active AND w.location_id IN (SELECT a.location_id FROM added a)) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(coalesce(jsonb_agg(jsonb_build_object('location_id', a.location_id, 'type', 'inbox.item_created',
    'data', jsonb_build_object('locationId', a.location_id, 'id', a.id, 'kind', a.kind, 'thingId', a.thing_id))
  ORDER BY a.created_at, a.id), '[]'::jsonb))
  FROM added a WHERE a.status = 'open';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER inbox_items_webhooks AFTER INSERT ON inbox_items REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION webhook_from_inbox();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION webhook_from_moves() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.active AND w.location_id IN (SELECT n.location_id FROM after_rows n)) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(coalesce(jsonb_agg(jsonb_build_object('location_id', n.location_id, 'type', 'move.finished',
    'data', jsonb_build_object('locationId', n.location_id, 'id', n.id, 'name', n.name, 'toLocationId', n.to_location_id))), '[]'::jsonb))
  FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE n.status = 'finished' AND o.status <> 'finished';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER moves_webhooks AFTER UPDATE ON moves REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_from_moves();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION webhook_from_boxes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.active AND w.location_id IN (SELECT n.location_id FROM after_rows n)) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(coalesce(jsonb_agg(jsonb_build_object('location_id', n.location_id, 'type', 'box.unpacked',
    'data', jsonb_build_object('locationId', n.location_id, 'id', n.id, 'moveId', n.move_id, 'containerId', n.container_id, 'number', n.number))), '[]'::jsonb))
  FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE n.state = 'unpacked' AND o.state <> 'unpacked';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER move_boxes_webhooks AFTER UPDATE ON move_boxes REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_from_boxes();
