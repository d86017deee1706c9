/**
 * The rules a device can check itself before it queues an op, because it holds the data they read:
 * the least role for each op (the device has its own memberships) and "an empty place or container
 * only" for deletes (it has the location's places and things). The server's commands apply the very
 * same rules (server/modules/registry.ts checks the roles at start-up; the delete commands call
 * `deleteRefusal`), so an op the device lets through is refused later only for what it could not
 * know: a change made elsewhere meanwhile. The same rules decide whether a dropped op can be
 * re-applied (sync/SPEC.md DR5, DR6).
 */
import { roleAtLeast, type Role } from "../shared/roles.js";
import type { OpName } from "./ops.js";
import type { DropReason } from "./protocol.js";

const member: Role = "member";
const admin: Role = "admin";

/** The least role that may push each op in a location (registries of the owner account: admins). */
export const OP_MIN_ROLE: Record<OpName, Role> = {
  "place.create": member,
  "place.update": member,
  "place.delete": member,
  "thing.create": member,
  "thing.update": member,
  "thing.move": member,
  "thing.delete": member,
  "thing.capture": member,
  "thing.suggestion.accept": member,
  "thing.field.confirm": member,
  "thing.photo.add": member,
  "thing.photo.remove": member,
  "thing.photo.cover": member,
  "inbox.accept": member,
  "inbox.dismiss": member,
  "inbox.merge": member,
  "type.create": admin,
  "type.update": admin,
  "type_field.create": admin,
  "type_field.update": admin,
  "type_field.archive": admin,
  "place_kind.create": admin,
  "place_kind.update": admin,
  "brand.create": admin,
  "tag.create": admin,
  "template.create": admin,
  "template.update": admin,
  "template.delete": admin,
  "meter.create": member,
  "meter.update": member,
  "meter.delete": member,
  "reading.capture": member,
  "boxcheck.record": member,
  "code.claim": member,
  "receipt.capture": member,
  "loan.create": member,
  "loan.return": member,
  "loan.update": member,
  "move.create": member,
  "move.update": member,
  "box.add": member,
  "box.update": member,
  "box.load": member,
  "box.unload": member,
  "box.unpack": member,
  "box.remove": member,
};

/** What a place or container still holds (live rows only), as whoever checks sees it. */
export interface Holdings {
  /** The location's Unplaced area, which is never deleted. */
  isUnplaced?: boolean;
  places: number;
  things: number;
}

/** Why an op is refused by a rule of this file: `reason` as a drop would say it (DR1), `rule` names the rule. */
export interface Refusal {
  reason: Extract<DropReason, "forbidden" | "conflict" | "invalid">;
  rule: "role" | "unplaced" | "holds_places" | "holds_things";
  message: string;
}

/** The role rule: answers the refusal when `role` (known) is below what `name` needs. */
export function roleRefusal(name: OpName, role: Role): Refusal | null {
  const needed = OP_MIN_ROLE[name];
  return roleAtLeast(role, needed) ? null : { reason: "forbidden", rule: "role", message: `Your role (${role}) cannot do "${name}" here.` };
}

/** The delete rule: only an empty place or container goes, so nothing is ever left without a place. */
export function deleteRefusal(what: "place" | "container", h: Holdings): Refusal | null {
  if (h.isUnplaced) return { reason: "invalid", rule: "unplaced", message: "The Unplaced area cannot be deleted." };
  if (h.places > 0) return { reason: "conflict", rule: "holds_places", message: "This place still holds other places; move or delete them first." };
  if (h.things > 0) return { reason: "conflict", rule: "holds_things", message: `This ${what} still holds things; move or delete them first.` };
  return null;
}

/** What the device knows when it checks an op: its role in the op's location (if it holds it), what a delete's target holds. */
export interface OpFacts {
  role: Role | undefined;
  holds?: Holdings | undefined;
}

/** The ops whose target must be empty. */
export const DELETE_HOLDS: Partial<Record<OpName, "place" | "container">> = { "place.delete": "place", "thing.delete": "container" };

/** The first rule of this file that refuses the op, or null. A role the device does not hold yet is not guessed at. */
export function opRefusal(name: OpName, facts: OpFacts): Refusal | null {
  const byRole = facts.role ? roleRefusal(name, facts.role) : null;
  if (byRole) return byRole;
  const what = DELETE_HOLDS[name];
  return what && facts.holds ? deleteRefusal(what, facts.holds) : null;
}

/** What the device knows about a dropped op now. */
export interface ReapplyFacts extends OpFacts {
  /** Every row the op names (its target unless it creates it, the places and things it refers to) is live on the device. */
  rowsLive: boolean;
}

/**
 * DR6: whether pushing a dropped op again can succeed, as far as the device can tell. `stale`: yes,
 * re-based on the version the device shows. Refused by a rule of this file (a role too low, a box
 * not empty, a location not visible): only once that has changed. A row that was missing or
 * deleted: only once the device holds it live again. Args the server could not read, an op it does
 * not know, and other conflicts: no, pushing the same op again meets the same answer.
 */
export function canReapply(name: OpName, reason: DropReason, facts: ReapplyFacts): boolean {
  if (facts.role === undefined || opRefusal(name, facts)) return false;
  switch (reason) {
    case "stale":
    case "forbidden":
    case "not_visible":
      return facts.rowsLive;
    case "conflict":
      return DELETE_HOLDS[name] !== undefined && facts.holds !== undefined && facts.rowsLive;
    case "not_found":
    case "deleted":
    case "depends_on_dropped":
      return facts.rowsLive;
    case "invalid":
    case "unknown_op":
      return false;
  }
}
