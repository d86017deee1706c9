/**
 * Managed accounts (spec "Managed accounts"): people without a real email, made by an owner or admin
 * of a location. The user row carries a synthetic address that is never shown or mailed; this table
 * says which location made the account and holds the hash of its outstanding one-time code.
 */
import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { ts } from "./columns.js";
import { locations } from "./locations.js";

export const managedAccounts = pgTable(
  "managed_accounts",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    /** Keyed hash of the one-time code handed to the admin; null once redeemed. */
    codeHash: text("code_hash"),
    codeExpiresAt: ts("code_expires_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("managed_accounts_location_idx").on(t.locationId)],
);
