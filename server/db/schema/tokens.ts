/**
 * Personal tokens (spec "Personal tokens"). The secret is never stored: only an HMAC of it keyed by
 * a key derived from the server secret (server/modules/tokens/secret.ts), found by its public
 * lookup part. Locations leave a token when its creator's membership ends or drops below what the
 * token's scope needs; a database trigger does that in the membership change's own transaction
 * (migrations/0012_personal_token_rls.sql).
 */
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { TOKEN_SCOPES } from "../../../shared/tokens.js";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";

export const personalTokens = pgTable(
  "personal_tokens",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The public part of `svt_<lookup>_<secret>`; unique, so a lookup never touches the secret. */
    lookup: text("lookup").notNull().unique(),
    /** base64url HMAC-SHA256 of `<lookup>.<secret>` under the key of `keyVersion`. */
    hmac: text("hmac").notNull(),
    keyVersion: integer("key_version").notNull().default(1),
    scope: text("scope", { enum: TOKEN_SCOPES }).notNull(),
    locationIds: uuid("location_ids").array().notNull(),
    /** Whether the creating session had proven a second factor: locations requiring one stay hidden otherwise. */
    mfaProven: boolean("mfa_proven").notNull().default(false),
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
    lastUsedAt: ts("last_used_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("personal_tokens_user_idx")
      .on(t.userId)
      .where(sql`${t.revokedAt} is null`),
  ],
);
