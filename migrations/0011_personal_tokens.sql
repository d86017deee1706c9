CREATE TABLE "personal_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"lookup" text NOT NULL,
	"hmac" text NOT NULL,
	"key_version" integer DEFAULT 1 NOT NULL,
	"scope" text NOT NULL,
	"location_ids" uuid[] NOT NULL,
	"mfa_proven" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personal_tokens_lookup_unique" UNIQUE("lookup")
);
--> statement-breakpoint
ALTER TABLE "personal_tokens" ADD CONSTRAINT "personal_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_tokens_user_idx" ON "personal_tokens" USING btree ("user_id") WHERE "personal_tokens"."revoked_at" is null;