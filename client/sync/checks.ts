/**
 * What the device refuses at once, before an op is queued (issue 19, point 6): what it can know
 * from what it holds, by the rules the server applies (sync/op-rules.ts): a role that cannot do
 * the op, a place or container that still holds something. And, for a dropped op, whether
 * re-applying it can succeed now (sync/SPEC.md DR6). What the device sees is the server's rows with
 * its own waiting ops on top, so a box emptied offline can be deleted offline.
 */
import { isOpName, type OpName } from "../../sync/ops.js";
import { dropReasonSchema } from "../../sync/protocol.js";
import { canReapply, DELETE_HOLDS, opRefusal, type OpFacts, type ReapplyFacts, type Refusal } from "../../sync/op-rules.js";
import type { Role } from "../../shared/roles.js";
import type { InventoryDb } from "../db/database.js";
import type { InboxRow } from "../db/rows.js";
import { overlay, type LocalState } from "./optimistic.js";

/** An op the device would not queue: `refusal` says which rule and why. */
export class RefusedHere extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = "RefusedHere";
  }
}

async function roleIn(db: InventoryDb, locationId: string): Promise<Role | undefined> {
  // The memberships shape holds only this person's own rows.
  return (await db.memberships.filter((m) => m.locationId === locationId && !m.deletedAt).first())?.role;
}

/** The location as the screens show it: server rows with this device's waiting ops replayed. */
async function localState(db: InventoryDb, locationId: string): Promise<LocalState> {
  const [things, places, inbox, outbox] = await Promise.all([
    db.things.where("locationId").equals(locationId).toArray(),
    db.places.where("locationId").equals(locationId).toArray(),
    db.inbox.where("locationId").equals(locationId).toArray(),
    db.outbox.orderBy("seq").toArray(),
  ]);
  const ops = outbox.filter((e) => e.state !== "rejected" && e.op.locationId === locationId).map((e) => e.op);
  return overlay({ things, places, inbox }, ops);
}

function holdings(name: OpName, id: string, state: LocalState): OpFacts["holds"] {
  const what = DELETE_HOLDS[name];
  if (!what) return undefined;
  const things = [...state.things.values()];
  if (what === "container") return { places: 0, things: things.filter((t) => t.containerId === id).length };
  const place = state.places.get(id);
  return {
    isUnplaced: place?.isUnplaced ?? false,
    places: [...state.places.values()].filter((p) => p.parentId === id).length,
    things: things.filter((t) => t.placeId === id).length,
  };
}

const targetOf = (args: unknown): string | undefined => {
  const id = (args as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : undefined;
};

/** Refuses (throws RefusedHere) an op the device knows the server would refuse. */
export async function refuseHere(db: InventoryDb, draft: { name: OpName; locationId: string; args: unknown }): Promise<void> {
  const role = await roleIn(db, draft.locationId);
  const id = targetOf(draft.args);
  const holds = DELETE_HOLDS[draft.name] && id ? holdings(draft.name, id, await localState(db, draft.locationId)) : undefined;
  const refusal = opRefusal(draft.name, { role, holds });
  if (refusal) throw new RefusedHere(refusal);
}

/** Where a row an op names lives on the device (ids of other tables are not checked). */
const REF_TABLES = { placeId: "places", parentId: "places", containerId: "things", into: "things" } as const;
const TARGET_TABLES = { "thing.": "things", "place.": "places", "inbox.": "inbox" } as const;

function rowsLive(name: OpName, args: Record<string, unknown>, state: LocalState): boolean {
  const wanted: [keyof typeof REF_TABLES | "id", "places" | "things" | "inbox"][] = [];
  const family = Object.entries(TARGET_TABLES).find(([prefix]) => name.startsWith(prefix))?.[1];
  // An op that creates its row (a create, a capture) names it before it exists.
  if (family && !name.endsWith(".create") && !name.endsWith(".capture")) wanted.push(["id", family]);
  for (const [key, table] of Object.entries(REF_TABLES) as [keyof typeof REF_TABLES, "places" | "things"][]) wanted.push([key, table]);
  return wanted.every(([key, table]) => {
    const id = args[key];
    return typeof id !== "string" || state[table].has(id);
  });
}

/** Whether re-applying a sync_drop item's op can succeed now, as far as this device can tell (DR6). */
export async function reapplyCanSucceed(db: InventoryDb, item: InboxRow): Promise<boolean> {
  const drop = item.payload.syncDrop;
  const op = drop?.op;
  if (!drop || !op || !isOpName(op.name)) return false;
  const state = await localState(db, op.locationId);
  const args = (op.args ?? {}) as Record<string, unknown>;
  const id = targetOf(args);
  const facts: ReapplyFacts = {
    role: await roleIn(db, op.locationId),
    holds: id ? holdings(op.name, id, state) : undefined,
    rowsLive: rowsLive(op.name, args, state),
  };
  const reason = dropReasonSchema.safeParse(drop.reason);
  return reason.success && canReapply(op.name, reason.data, facts);
}
