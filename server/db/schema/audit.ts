/**
 * Audit entries (migrations/0038_audit_entries.sql): security-relevant settings changes, one row
 * per change, written in the change's own transaction by server/commands/audit.ts. Not synced.
 */
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { AuditAction, AuditParams } from "../../../shared/audit.js";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";

export const auditEntries = pgTable(
  "audit_entries",
  {
    id: idColumn(),
    /** The account the entry concerns (read at /me/audit). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The location it concerns (read by its owner and admins); a purge removes the location's entries. */
    locationId: uuid("location_id"),
    actorType: text("actor_type", { enum: ["user", "token", "mcp", "system"] }).notNull(),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorTokenId: uuid("actor_token_id"),
    action: text("action").$type<AuditAction>().notNull(),
    /** Names only (shared/audit.ts auditParamsSchema): never a secret, token, key or URL. */
    params: jsonb("params").$type<AuditParams>().notNull().default({}),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    check("audit_entries_concerns", sql`${t.userId} IS NOT NULL OR ${t.locationId} IS NOT NULL`),
    check("audit_entries_actor_type", sql`${t.actorType} IN ('user', 'token', 'mcp', 'system')`),
    index("audit_entries_user_idx")
      .on(t.userId, t.at.desc(), t.id.desc())
      .where(sql`${t.userId} IS NOT NULL`),
    index("audit_entries_location_idx")
      .on(t.locationId, t.at.desc(), t.id.desc())
      .where(sql`${t.locationId} IS NOT NULL`),
  ],
);
