/**
 * The records every new location starts with: its Unplaced area and the owner membership; and the
 * built-in types and place kinds of its owner account, once per account (a second location shares
 * the first one's registries). Used by account bootstrap and by "create location" alike.
 * Every insert is ON CONFLICT DO NOTHING against a unique index, so running it twice (or two
 * requests at once) leaves exactly one of each.
 */
import { v7 as uuidv7 } from "uuid";
import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { locations, memberships, placeKinds, places, types } from "../../db/schema/index.js";

/** Built-in types; names come from builtinKey (the client translates; the server uses these). */
export const BUILTIN_TYPES = [
  { builtinKey: "thing", icon: "thing", containerByDefault: false },
  { builtinKey: "box", icon: "box", containerByDefault: true },
  { builtinKey: "tool", icon: "tool", containerByDefault: false },
  { builtinKey: "electronics", icon: "electronics", containerByDefault: false },
  { builtinKey: "book", icon: "book", containerByDefault: false },
  { builtinKey: "clothing", icon: "clothing", containerByDefault: false },
  { builtinKey: "furniture", icon: "furniture", containerByDefault: false },
  { builtinKey: "document", icon: "document", containerByDefault: false },
] as const;

export const BUILTIN_NAMES: Record<string, string> = {
  thing: "Thing",
  box: "Box",
  tool: "Tool",
  electronics: "Electronics",
  book: "Book",
  clothing: "Clothing",
  furniture: "Furniture",
  document: "Document",
  room: "Room",
  shelf: "Shelf",
  cupboard: "Cupboard",
  drawer: "Drawer",
};

export const BUILTIN_PLACE_KINDS = ["room", "shelf", "cupboard", "drawer"] as const;

export const UNPLACED_NAME = "Unplaced";

export interface NewLocation {
  id: string;
  accountId: string;
  name: string;
  isPersonal: boolean;
  ownerUserId: string;
  now: Date;
}

/**
 * Inserts the location and its starting records. Returns the location id that exists afterwards
 * (for a personal location that lost a race, the winner's id), or null, having written nothing,
 * when a new location's id is taken: by another of the actor's locations or by anyone else's,
 * which the caller may not even see (the inserts after this one would then seed that location).
 */
export async function seedLocation(tx: Tx, l: NewLocation): Promise<string | null> {
  const stamps = { rowVersion: 1, createdAt: l.now, updatedAt: l.now };
  const inserted = await tx
    .insert(locations)
    .values({ id: l.id, accountId: l.accountId, name: l.name, isPersonal: l.isPersonal, ...stamps })
    .onConflictDoNothing()
    .returning({ id: locations.id });
  if (!inserted.length && !l.isPersonal) return null;
  const id = l.isPersonal ? await personalLocationId(tx, l.accountId) : l.id;
  // The owner membership comes before anything RLS checks against it.
  await tx
    .insert(memberships)
    .values({ id: uuidv7(), locationId: id, userId: l.ownerUserId, role: "owner", ...stamps })
    .onConflictDoNothing();
  await tx
    .insert(places)
    .values({ id: uuidv7(), locationId: id, name: UNPLACED_NAME, isUnplaced: true, ...stamps })
    .onConflictDoNothing();
  await tx
    .insert(types)
    .values(BUILTIN_TYPES.map((t) => ({ id: uuidv7(), accountId: l.accountId, ...t, name: null, ...stamps })))
    .onConflictDoNothing();
  await tx
    .insert(placeKinds)
    .values(BUILTIN_PLACE_KINDS.map((k) => ({ id: uuidv7(), accountId: l.accountId, builtinKey: k, icon: k, name: null, ...stamps })))
    .onConflictDoNothing();
  return id;
}

async function personalLocationId(tx: Tx, accountId: string): Promise<string> {
  const [row] = await tx
    .select({ id: locations.id, isPersonal: locations.isPersonal })
    .from(locations)
    .where(eq(locations.accountId, accountId))
    .then((r) => r.filter((x) => x.isPersonal));
  if (!row) throw new Error("personal location vanished during bootstrap");
  return row.id;
}
