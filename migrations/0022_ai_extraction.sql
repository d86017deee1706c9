-- AI extraction (issue "inbox-ai"). `extractions` are the runs of the pipeline for a thing, and
-- their own durable queue: a run is made in the transaction that captured the photo, workers
-- claim due runs with a lease (FOR UPDATE SKIP LOCKED, so replicas never share one) and a run
-- whose worker died is claimed again when its lease ends. `ai_calls` every call made or refused with its
-- tokens and cost, `ai_settings` the providers and keys people and owner accounts bring (keys
-- sealed, never readable by app_role), `ai_budget_months` what each paying scope has spent and
-- has reserved for calls in flight, per month: the row is locked while a call's estimate is
-- reserved, so parallel extractions cannot all pass the same budget check.
-- `things.field_status` is what each field's value is known from, with the suggestions waiting
-- for a person (synced with the thing).
ALTER TABLE "things" ADD COLUMN "field_status" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
CREATE TABLE "ai_settings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"account_id" uuid,
	"user_id" uuid,
	"provider_kind" text NOT NULL,
	"model" text NOT NULL,
	"base_url" text,
	"api_key_sealed" text,
	"budget_amount" numeric(15, 6),
	"budget_currency" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_settings_scope_owner" CHECK (("scope" = 'account' AND "account_id" IS NOT NULL AND "user_id" IS NULL) OR ("scope" = 'user' AND "user_id" IS NOT NULL AND "account_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "ai_settings" ADD CONSTRAINT "ai_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD CONSTRAINT "ai_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_settings_account_unique" ON "ai_settings" USING btree ("account_id") WHERE "account_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_settings_user_unique" ON "ai_settings" USING btree ("user_id") WHERE "user_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "ai_budget_months" (
	"payer_key" text NOT NULL,
	"month" text NOT NULL,
	"currency" text NOT NULL,
	"spent" numeric(18, 8) DEFAULT '0' NOT NULL,
	"reserved" numeric(18, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "ai_budget_months_pk" PRIMARY KEY ("payer_key", "month")
);
--> statement-breakpoint
CREATE TABLE "ai_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"thing_id" uuid,
	"extraction_id" uuid,
	"task" text NOT NULL,
	"model" text NOT NULL,
	"provider_kind" text NOT NULL,
	"tokens_in" integer DEFAULT 0 NOT NULL,
	"tokens_out" integer DEFAULT 0 NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"images" integer DEFAULT 0 NOT NULL,
	"cost_amount" numeric(18, 8),
	"cost_currency" text,
	"cost_source" text NOT NULL,
	"paid_by_scope" text NOT NULL,
	"paid_by_label" text NOT NULL,
	"payer_key" text NOT NULL,
	"paid_by_user_id" uuid,
	"paid_by_account_id" uuid,
	"outcome" text NOT NULL,
	"error_code" text,
	"requested_by" uuid,
	"month" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_calls" ADD CONSTRAINT "ai_calls_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_calls_location_month_idx" ON "ai_calls" USING btree ("location_id", "month");--> statement-breakpoint
CREATE INDEX "ai_calls_payer_month_idx" ON "ai_calls" USING btree ("payer_key", "month");--> statement-breakpoint
CREATE INDEX "ai_calls_later_idx" ON "ai_calls" USING btree ("created_at") WHERE "cost_source" = 'price_table_later';--> statement-breakpoint
CREATE TABLE "extractions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"location_id" uuid NOT NULL,
	"thing_id" uuid NOT NULL,
	"mode" text DEFAULT 'thing' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"status_reason" text,
	"paused_until" timestamp with time zone,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"model" text,
	"file_ids" uuid[] NOT NULL,
	"applied" text[] DEFAULT '{}'::text[] NOT NULL,
	"call_id" uuid,
	"requested_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_call_id_ai_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."ai_calls"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extractions_thing_idx" ON "extractions" USING btree ("thing_id", "created_at");--> statement-breakpoint
CREATE INDEX "extractions_due_idx" ON "extractions" USING btree ("run_after") WHERE "status" IN ('queued', 'waiting_provider', 'paused_budget', 'running');--> statement-breakpoint
-- Readers of a location read its extractions and calls (the thing page, history). A capture or a
-- re-run queues an extraction in the person's own transaction (members and up, as any write);
-- calls and everything after the queueing are the pipeline's, with the service's own authority.
GRANT SELECT ON extractions, ai_calls TO app_role;
--> statement-breakpoint
GRANT INSERT, UPDATE ON extractions TO app_role;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['extractions','ai_calls'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO app_role USING (location_id = ANY ((SELECT app_readable_locations())::uuid[]))', t || '_read', t);
  END LOOP;
  CREATE POLICY extractions_insert ON extractions FOR INSERT TO app_role WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
  CREATE POLICY extractions_update ON extractions FOR UPDATE TO app_role USING (location_id = ANY ((SELECT app_writable_locations())::uuid[])) WITH CHECK (location_id = ANY ((SELECT app_writable_locations())::uuid[]));
END $$;
