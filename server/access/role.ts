/**
 * The role questions every module asks, answered once: whether a person acts at all (not a token,
 * an MCP grant or the system), whether it is a person's own signed-in session, and whether a role
 * in a location reaches the one an act needs. The refusal stays each module's own words (clients
 * and tests read them): only the question is shared. Every refusal is 403 forbidden.
 */
import { roleAtLeast, type Role } from "../../shared/roles.js";
import type { Actor } from "../db/actor.js";
import { ForbiddenError } from "../errors/classes.js";

/** The actor when a person acts; otherwise 403 with `refusal`. */
export function requirePerson(actor: Actor, refusal: string): Actor {
  if (actor.type !== "user") throw new ForbiddenError(refusal);
  return actor;
}

/** The actor when it is a person's own signed-in session (never a token or grant); otherwise 403 with `refusal`. */
export function requireSession(actor: Actor, refusal: string): Actor & { sessionId: string } {
  if (actor.type !== "user" || !actor.sessionId) throw new ForbiddenError(refusal);
  return actor as Actor & { sessionId: string };
}

/** 403 with `refusal` (and `details`, when the client is told the role and the one needed) unless `role` reaches `needed`. */
export function requireRole(role: Role, needed: Role, refusal: string, details?: unknown): void {
  if (!roleAtLeast(role, needed)) throw new ForbiddenError(refusal, details);
}

/** As requireRole, and refused alike when the actor may only read (a read token, an svc:read grant). */
export function requireWriteRole(actor: Pick<Actor, "canWrite">, role: Role, needed: Role, refusal: string, details?: unknown): void {
  if (!actor.canWrite) throw new ForbiddenError(refusal, details);
  requireRole(role, needed, refusal, details);
}
