/**
 * Who may undo a history event: the one rule the server's history.undo command enforces and the
 * app asks before it offers an Undo button. Pure, so both sides run the same code.
 */
import { roleAtLeast, type Role } from "./roles.js";

/** What the rule needs of an event (the history row on the server, the entry in the app). */
export interface UndoableEvent {
  /** The person behind the change (for a token or an MCP grant: the person who made it). */
  actorUserId: string | null;
  /** The token that made the change, when a token did. */
  actorTokenId?: string | null;
  undoableUntil: Date | string | null;
  undoneAt?: Date | string | null;
}

/** Who asks, with their role in the event's location (undefined: not a member). */
export interface UndoReader {
  type: "user" | "token" | "mcp" | "system";
  userId: string;
  tokenId?: string | undefined;
  role: Role | undefined;
}

/**
 * `ok`, or why not: `role` (a viewer, or no member, can change nothing), `not_yours` (only the
 * person who made a change, or an admin signed in as a person, undoes it; a token only its own
 * changes: spec "Personal tokens" 6), `expired` (the window closed, or it was undone already).
 */
export type UndoVerdict = "ok" | "role" | "not_yours" | "expired";

export function undoVerdict(event: UndoableEvent, reader: UndoReader, now: Date): UndoVerdict {
  if (!reader.role || !roleAtLeast(reader.role, "member")) return "role";
  const own = event.actorUserId === reader.userId && (reader.type !== "token" || event.actorTokenId === reader.tokenId);
  if (!own && !(reader.type === "user" && roleAtLeast(reader.role, "admin"))) return "not_yours";
  const until = event.undoableUntil === null ? null : new Date(event.undoableUntil);
  if (!until || event.undoneAt || until.getTime() <= now.getTime()) return "expired";
  return "ok";
}
