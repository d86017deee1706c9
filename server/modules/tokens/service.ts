/**
 * Creating, listing and revoking personal tokens (from a signed-in session only; the routes check
 * that), and resolving a presented token to the actor it acts as.
 */
import { v7 as uuidv7 } from "uuid";
import type { PageQuery } from "../../../shared/paging.js";
import type { Token, TokenCreate, TokenCreated, TokenList } from "../../../shared/tokens.js";
import { visibleRoles } from "../../access/visible.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { LocationNotVisibleError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { findOwnToken, insertToken, revokeOwnToken, tokenByLookup, tokensPage, touchToken } from "./repository.js";
import { KEY_VERSION, newToken, parseToken, TokenHasher } from "./secret.js";
import { requireRole, requireSession } from "../../access/role.js";

/** Only a person's own session manages tokens: never a token, never an MCP grant. */
function sessionOnly(actor: Actor): void {
  requireSession(actor, "Personal tokens are managed from a signed-in session only.");
}

export async function createToken(db: Db, hasher: TokenHasher, actor: Actor, input: TokenCreate, now = new Date()): Promise<TokenCreated> {
  sessionOnly(actor);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw new ValidationError("body.expiresAt: must be in the future");
  return withActor(db, actor, async (tx) => {
    const roles = await visibleRoles(tx);
    const locationIds = input.locationIds.map((id) => id.toLowerCase());
    for (const id of locationIds) {
      const role = roles.get(id);
      if (!role) throw new LocationNotVisibleError();
      // The state table would take the location away at once; refuse instead of creating a dead grant.
      if (input.scope === "write")
        requireRole(role, "member", "You are a viewer in one of these locations; a write token cannot include it.", { locationId: id, role });
    }
    const { lookup, secret, token } = newToken();
    const row = await insertToken(tx, {
      id: uuidv7(),
      userId: actor.userId,
      name: input.name,
      lookup,
      hmac: hasher.hash(lookup, secret),
      keyVersion: KEY_VERSION,
      scope: input.scope,
      locationIds,
      mfaProven: actor.mfaProven,
      expiresAt,
      createdAt: now,
    });
    await recordAudit(tx, actor, { action: "token.created", userId: actor.userId, params: { name: input.name, scope: input.scope } }, now);
    return { ...row, secret: token };
  });
}

/** A page of the actor's tokens, newest first. */
export async function listTokens(db: Db, actor: Actor, query: PageQuery): Promise<TokenList> {
  sessionOnly(actor);
  return withActor(db, actor, (tx) => tokensPage(tx, actor.userId, query));
}

export async function revokeToken(db: Db, actor: Actor, id: string, now = new Date()): Promise<Token> {
  sessionOnly(actor);
  return withActor(db, actor, async (tx) => {
    const revoked = await revokeOwnToken(tx, actor.userId, id, now);
    // Revoking a revoked token changes nothing, and is not recorded again.
    if (revoked !== null) await recordAudit(tx, actor, { action: "token.revoked", userId: actor.userId, params: { name: revoked } }, now);
    const row = await findOwnToken(tx, actor.userId, id);
    if (!row) throw new NotFoundError("token");
    return row;
  });
}

/** last_used_at is written at most this often per token, so reads do not each cost a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The actor a presented `svt_` token acts as, or null for anything that is not a live token:
 * malformed, unknown, wrong secret, revoked, expired or left without locations. The caller answers
 * all of these alike, so nobody learns which.
 */
export async function actorForToken(db: Db, hasher: TokenHasher, presented: string, now = new Date()): Promise<Actor | null> {
  const parsed = parseToken(presented);
  if (!parsed) return null;
  return asSystem(db, async (tx) => {
    const found = await tokenByLookup(tx, parsed.lookup);
    const stored = found && found.t.keyVersion === KEY_VERSION ? found.t.hmac : null;
    if (!hasher.matches(parsed.lookup, parsed.secret, stored) || !found) return null;
    const { t } = found;
    if (t.revokedAt || (t.expiresAt && t.expiresAt.getTime() <= now.getTime()) || t.locationIds.length === 0) return null;
    if (!t.lastUsedAt || now.getTime() - t.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) await touchToken(tx, t.id, now);
    return {
      type: "token",
      userId: t.userId,
      displayName: found.name,
      tokenId: t.id,
      mfaProven: t.mfaProven,
      // RLS intersects this with the creator's live memberships on every statement.
      locationScope: t.locationIds,
      canWrite: t.scope === "write",
    } satisfies Actor;
  });
}
