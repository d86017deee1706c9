/**
 * OAuth for MCP clients (spec "OAuth for MCP clients"). A grant is what a person allowed one client
 * on the consent page (scopes and locations); it is loaded on every /mcp call, so revoking it ends
 * every access token issued from it at once. Codes are single-use, short-lived and stored hashed.
 */
import { boolean, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";

export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The client metadata document URL that identifies the client. */
    clientId: text("client_id").notNull(),
    clientName: text("client_name").notNull(),
    scopes: text("scopes").array().notNull(),
    locationIds: uuid("location_ids").array().notNull(),
    /** Whether the consenting session had proven a second factor (as for personal tokens). */
    mfaProven: boolean("mfa_proven").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("oauth_grants_user_idx").on(t.userId)],
);

export const oauthCodes = pgTable("oauth_codes", {
  /** sha256 of the code, base64url; the code itself goes only to the client's redirect. */
  codeHash: text("code_hash").primaryKey(),
  grantId: uuid("grant_id")
    .notNull()
    .references(() => oauthGrants.id, { onDelete: "cascade" }),
  clientId: text("client_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  resource: text("resource").notNull(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});
