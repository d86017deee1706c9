/**
 * Share links (migrations/0029_share_links.sql): a read-only view of a thing, a place or a filtered
 * view of a location for whoever holds the token. Only the token's keyed hash is stored. Not synced.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { ShareLinkFilter, ShareScope } from "../../../shared/share-links.js";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";
import { locations } from "./locations.js";

export const shareLinks = pgTable(
  "share_links",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    scope: text("scope").$type<ShareScope>().notNull(),
    /** The thing or place shared (scopes thing and place). */
    targetId: uuid("target_id"),
    /** The view's filter (scope view). */
    filter: jsonb("filter").$type<ShareLinkFilter>(),
    title: text("title"),
    cap: integer("cap").notNull(),
    /** HMAC of the token (./../../modules/share-links/token.ts); app_role cannot read it. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    index("share_links_location_idx").on(t.locationId, t.createdAt),
    check("share_links_scope_check", sql`${t.scope} IN ('thing', 'place', 'view')`),
    check("share_links_target_check", sql`(${t.scope} = 'view') = (${t.targetId} IS NULL) AND (${t.scope} = 'view') = (${t.filter} IS NOT NULL)`),
    check("share_links_cap_check", sql`${t.cap} > 0`),
  ],
);
