/**
 * The one writer of audit entries (shared/audit.ts, migrations/0038_audit_entries.sql). Every
 * security-relevant settings change calls it inside the transaction that makes the change, so the
 * entry exists exactly when the change committed. Params are names only, under the closed list of
 * keys; the location's name is looked up here, at the time of the change, and the people's names, so the
 * entry still reads in words after the location is renamed or purged.
 */
import { eq } from "drizzle-orm";
import type { AuditAction, AuditParams } from "../../shared/audit.js";
import type { Actor } from "../db/actor.js";
import type { Tx } from "../db/client.js";
import { auditEntries, locations, users } from "../db/schema/index.js";
import { newId } from "./ids.js";

/** Who acted: a person (through a session, token or grant), or the service itself (no user). */
export type AuditActor = Pick<Actor, "type" | "tokenId"> & { userId: string | null };

export interface AuditDraft {
  action: AuditAction;
  /** The account the change concerns (its owner reads it in their own activity). */
  userId?: string | null;
  /** The location it concerns (its owner and admins read it there). */
  locationId?: string | null;
  params?: AuditParams;
  /** People the entry names, by user id: their names at the time of the change go into params. */
  people?: Partial<Record<"to" | "member", string>>;
}

/** The service acting on its own (a leaked OAuth code revoking its grant). */
export const SYSTEM_AUDIT_ACTOR: AuditActor = { type: "system", userId: null };

export async function recordAudit(tx: Tx, actor: AuditActor, entry: AuditDraft, now = new Date()): Promise<void> {
  const params: AuditParams = { ...entry.params };
  if (entry.locationId && params.location === undefined) {
    const [loc] = await tx.select({ name: locations.name }).from(locations).where(eq(locations.id, entry.locationId));
    if (loc) params.location = loc.name;
  }
  for (const [key, userId] of Object.entries(entry.people ?? {}) as ["to" | "member", string][]) {
    const [person] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
    params[key] = person?.name ?? "";
  }
  await tx.insert(auditEntries).values({
    id: newId(),
    userId: entry.userId ?? null,
    locationId: entry.locationId ?? null,
    actorType: actor.type,
    actorUserId: actor.userId,
    actorTokenId: actor.tokenId ?? null,
    action: entry.action,
    params,
    at: now,
  });
}
