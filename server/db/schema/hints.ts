/** First-use hints a person has seen or dismissed (migrations/0031_user_hints.sql). Per user, not synced. */
import { pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { ts } from "./columns.js";

export const userHints = pgTable(
  "user_hints",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    seenAt: ts("seen_at"),
    dismissedAt: ts("dismissed_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "user_hints_pk", columns: [t.userId, t.key] })],
);
