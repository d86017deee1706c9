/** A person's capture settings in one location (migrations/0032_capture_settings.sql). Per user and location, not synced. */
import { boolean, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { ts } from "./columns.js";
import { locations } from "./locations.js";

export const captureSettings = pgTable(
  "capture_settings",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    /** The person's own captures here are accepted as they arrive (no inbox review). */
    straightIn: boolean("straight_in").notNull().default(false),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "capture_settings_pk", columns: [t.userId, t.locationId] })],
);
