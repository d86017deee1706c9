-- First-use hints (issue "account"): which hints a person has seen or dismissed, kept per user so a
-- hint dismissed on the phone stays dismissed on the laptop. A person reads and writes only their
-- own rows. Not a synced shape: the app reads them over REST and keeps a copy on the device.
CREATE TABLE "user_hints" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"seen_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_hints_pk" PRIMARY KEY ("user_id", "key"),
	CONSTRAINT "user_hints_key_check" CHECK ("key" ~ '^[a-z0-9][a-z0-9._-]{0,63}$')
);
--> statement-breakpoint
ALTER TABLE "user_hints" ADD CONSTRAINT "user_hints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE (seen_at, dismissed_at, updated_at) ON user_hints TO app_role;
--> statement-breakpoint
ALTER TABLE user_hints ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY user_hints_own ON user_hints FOR ALL TO app_role USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
