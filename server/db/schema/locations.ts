/** Owner accounts, locations, memberships, invites and instance-wide settings. */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ROLES } from "../../../shared/roles.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns, ts } from "./columns.js";

/** The owner account made with each user; AI budgets and billing hang off it. */
export const accounts = pgTable("accounts", {
  id: idColumn(),
  ownerUserId: uuid("owner_user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const locations = pgTable(
  "locations",
  {
    id: idColumn(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    /** The location made at sign-up; exactly one per owner account. */
    isPersonal: boolean("is_personal").notNull().default(false),
    requiresTwoFactor: boolean("requires_two_factor").notNull().default(false),
    viewersSeeMoney: boolean("viewers_see_money").notNull().default(false),
    /** The owner's secret-field policy: roles that may reveal a secret value (the owner always may). */
    secretRevealRoles: text("secret_reveal_roles", { enum: ROLES })
      .array()
      .notNull()
      .default(sql`'{owner}'::text[]`),
    /** Bumped when a setting that changes what members' shapes hold changes (sync/SPEC.md SH4). */
    scopeVersion: integer("scope_version").notNull().default(1),
    ...syncedColumns(),
  },
  (t) => [
    uniqueIndex("locations_one_personal_per_account")
      .on(t.accountId)
      .where(sql`${t.isPersonal}`),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    ...syncedColumns(),
  },
  (t) => [
    uniqueIndex("memberships_live_unique")
      .on(t.locationId, t.userId)
      .where(sql`${t.deletedAt} is null`),
    index("memberships_user_idx").on(t.userId),
  ],
);

export const invites = pgTable(
  "invites",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    /** When set, only this address may use the invite. */
    email: text("email"),
    role: text("role", { enum: ROLES }).notNull(),
    /** sha256 of the token; the token itself is shown once. */
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: ts("expires_at").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    acceptedAt: ts("accepted_at"),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("invites_location_idx").on(t.locationId)],
);

/** Instance-wide settings changed by instance admins (for example `signup_open`). */
export const instanceSettings = pgTable("instance_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Instance administration is a separate list, not a location role. */
export const instanceAdmins = pgTable("instance_admins", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: ts("created_at").notNull().defaultNow(),
});
