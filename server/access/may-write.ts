/**
 * Whether an actor may write in a location with its role there. A read-only actor (a read token, a
 * grant without svc:write) is refused for its scope before its role is looked at: the role is its
 * creator's and is not why the write failed.
 */
import { roleAtLeast, type Role } from "../../shared/roles.js";
import { ForbiddenError, ReadOnlyScopeError } from "../errors/classes.js";

/** What of an actor (server/db/actor.ts) the rule reads. */
interface Writer {
  type: string;
  canWrite: boolean;
}

/** The read-only refusal for this actor, or null when it may write. `doing`: "do \"thing.create\"", "ask for photos to be read". */
export function readOnlyRefusal(actor: Writer, doing: string): ReadOnlyScopeError | null {
  if (actor.canWrite) return null;
  return new ReadOnlyScopeError(actor.type === "token" ? "token" : actor.type === "mcp" ? "mcp" : "session", doing);
}

/** The refusal of a write needing `needed` in a location where the actor holds `role`, or null. */
export function writeRefusal(actor: Writer, role: Role, needed: Role, doing: string): ForbiddenError | null {
  const scope = readOnlyRefusal(actor, doing);
  if (scope) return scope;
  return roleAtLeast(role, needed) ? null : new ForbiddenError(`Your role (${role}) cannot ${doing} here.`, { role, needed });
}
