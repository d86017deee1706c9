/**
 * Purchases (migrations/0023_receipts.sql): a receipt's pages and what was read off them. Not
 * synced; a receipt reaches devices through its inbox item (server/modules/receipts/).
 */
import { date, index, jsonb, numeric, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { PURCHASE_STATUSES } from "../../../shared/receipts.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns } from "./columns.js";
import { places } from "./inventory.js";
import { locations } from "./locations.js";

/** A line as a purchase keeps it: the thing it became once its item was accepted. */
export interface PurchaseLine {
  index: number;
  description: string;
  quantity: string;
  unitPrice?: string;
  lineTotal?: string;
  flagged: boolean;
  /** The thing accepting made of the line, or linked to it. */
  thingId?: string;
  action?: "create" | "link" | "skip";
}

const money = (name: string) => numeric(name, { precision: 18, scale: 4 });

export const purchases = pgTable(
  "purchases",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    placeId: uuid("place_id").references(() => places.id),
    fileIds: uuid("file_ids").array().notNull(),
    vendorSeen: text("vendor_seen"),
    purchasedOn: date("purchased_on", { mode: "string" }),
    /** ISO 4217; null while unknown (not read yet, or an ambiguous symbol waiting in a currency item). */
    currency: text("currency"),
    /** The currency as printed ("$", "kr", "EUR"). */
    currencySeen: text("currency_seen"),
    total: money("total"),
    tax: money("tax"),
    lines: jsonb("lines").$type<PurchaseLine[]>().notNull().default([]),
    status: text("status", { enum: PURCHASE_STATUSES }).notNull().default("reading"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [index("purchases_location_idx").on(t.locationId, t.createdAt)],
);
