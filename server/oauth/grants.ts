/**
 * Grants and codes. A grant holds what the person chose on the consent page; a code is a
 * single-use, 60-second ticket to one access token for it, bound to client, redirect, PKCE
 * challenge and resource. The grant is re-read on every /mcp call.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { OAuthGrant, OAuthGrantList, OAuthScope } from "../../shared/oauth.js";
import type { PageQuery } from "../../shared/paging.js";
import { recordAudit, SYSTEM_AUDIT_ACTOR } from "../commands/audit.js";
import { type Actor, asSystem, withActor } from "../db/actor.js";
import type { Db } from "../db/client.js";
import { oauthCodes, oauthGrants, users } from "../db/schema/index.js";
import { NotFoundError } from "../errors/classes.js";
import { pageOfRows } from "../db/paging.js";
import { requireSession } from "../access/role.js";

export const CODE_SECONDS = 60;

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

export interface CodeBinding {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
}

/** Stores the grant and its code in one transaction; answers the code (shown only to the redirect). */
export async function grantAndCode(
  db: Db,
  grant: { userId: string; clientName: string; scopes: OAuthScope[]; locationIds: string[]; mfaProven: boolean },
  binding: CodeBinding,
  now = new Date(),
): Promise<string> {
  const code = randomBytes(32).toString("base64url");
  await asSystem(db, async (tx) => {
    const id = uuidv7();
    await tx.insert(oauthGrants).values({
      id,
      userId: grant.userId,
      clientId: binding.clientId,
      clientName: grant.clientName,
      scopes: grant.scopes,
      locationIds: grant.locationIds,
      mfaProven: grant.mfaProven,
      createdAt: now,
    });
    await tx.insert(oauthCodes).values({ codeHash: sha256(code), grantId: id, ...binding, expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000) });
    // Consent is given in the person's own session, on the consent page.
    await recordAudit(
      tx,
      { type: "user", userId: grant.userId },
      { action: "oauth_grant.created", userId: grant.userId, params: { client: grant.clientName } },
      now,
    );
  });
  return code;
}

export type Redeemed = { ok: true; grantId: string; userId: string; scopes: OAuthScope[] } | { ok: false; reason: string };

/** RFC 7636: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const a = Buffer.from(sha256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Spends a code. It is marked used before anything else is checked, so a wrong verifier also burns
 * it; a second use revokes the grant (the code may have leaked, RFC 9700 4.2.1).
 */
export async function redeemCode(
  db: Db,
  code: string,
  presented: Omit<CodeBinding, "codeChallenge"> & { codeVerifier: string },
  now = new Date(),
): Promise<Redeemed> {
  return asSystem(db, async (tx) => {
    const hash = sha256(code);
    const [row] = await tx
      .update(oauthCodes)
      .set({ usedAt: now })
      .where(and(eq(oauthCodes.codeHash, hash), isNull(oauthCodes.usedAt), gt(oauthCodes.expiresAt, now)))
      .returning();
    if (!row) {
      const [spent] = await tx.select({ grantId: oauthCodes.grantId, usedAt: oauthCodes.usedAt }).from(oauthCodes).where(eq(oauthCodes.codeHash, hash));
      if (spent?.usedAt) {
        const revoked = await tx
          .update(oauthGrants)
          .set({ revokedAt: now })
          .where(and(eq(oauthGrants.id, spent.grantId), isNull(oauthGrants.revokedAt)))
          .returning({ userId: oauthGrants.userId, client: oauthGrants.clientName });
        for (const g of revoked)
          await recordAudit(tx, SYSTEM_AUDIT_ACTOR, { action: "oauth_grant.revoked", userId: g.userId, params: { client: g.client } }, now);
      }
      return { ok: false, reason: spent?.usedAt ? "The code was already used; its grant is revoked." : "The code is unknown or expired." };
    }
    if (row.clientId !== presented.clientId || row.redirectUri !== presented.redirectUri)
      return { ok: false, reason: "The code was issued to another client or redirect URI." };
    if (row.resource !== presented.resource) return { ok: false, reason: "The code was issued for another resource." };
    if (!pkceMatches(presented.codeVerifier, row.codeChallenge)) return { ok: false, reason: "The code verifier does not match the challenge." };
    const [grant] = await tx
      .select()
      .from(oauthGrants)
      .where(and(eq(oauthGrants.id, row.grantId), isNull(oauthGrants.revokedAt)));
    if (!grant) return { ok: false, reason: "The grant was revoked." };
    return { ok: true, grantId: grant.id, userId: grant.userId, scopes: grant.scopes as OAuthScope[] };
  });
}

export interface LiveGrant {
  id: string;
  userId: string;
  userName: string;
  clientId: string;
  scopes: OAuthScope[];
  locationIds: string[];
  mfaProven: boolean;
}

/** The grant as it is now, or null when revoked or gone (checked on every /mcp call). */
export async function liveGrant(db: Db, id: string): Promise<LiveGrant | null> {
  return asSystem(db, async (tx) => {
    const [row] = await tx
      .select({ g: oauthGrants, name: users.name })
      .from(oauthGrants)
      .innerJoin(users, eq(users.id, oauthGrants.userId))
      .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)));
    if (!row || row.g.locationIds.length === 0) return null;
    const { g } = row;
    return {
      id: g.id,
      userId: g.userId,
      userName: row.name,
      clientId: g.clientId,
      scopes: g.scopes as OAuthScope[],
      locationIds: g.locationIds,
      mfaProven: g.mfaProven,
    };
  });
}

const grantOut = (g: typeof oauthGrants.$inferSelect): OAuthGrant => ({
  id: g.id,
  clientId: g.clientId,
  clientName: g.clientName,
  scopes: g.scopes as OAuthScope[],
  locationIds: g.locationIds,
  createdAt: g.createdAt.toISOString(),
  revokedAt: g.revokedAt?.toISOString() ?? null,
});

function sessionOnly(actor: Actor): void {
  requireSession(actor, "Connected apps are managed from a signed-in session only.");
}

/** A page of the actor's grants, newest first. */
export async function listGrants(db: Db, actor: Actor, query: PageQuery): Promise<OAuthGrantList> {
  sessionOnly(actor);
  return withActor(db, actor, async (tx) => {
    const page = await pageOfRows(tx, oauthGrants, oauthGrants.createdAt, [eq(oauthGrants.userId, actor.userId)], query);
    return { items: page.rows.map(grantOut), next_cursor: page.next_cursor };
  });
}

export async function revokeGrant(db: Db, actor: Actor, id: string, now = new Date()): Promise<OAuthGrant> {
  sessionOnly(actor);
  return withActor(db, actor, async (tx) => {
    const revoked = await tx
      .update(oauthGrants)
      .set({ revokedAt: now })
      .where(and(eq(oauthGrants.id, id), eq(oauthGrants.userId, actor.userId), isNull(oauthGrants.revokedAt)))
      .returning({ client: oauthGrants.clientName });
    for (const g of revoked) await recordAudit(tx, actor, { action: "oauth_grant.revoked", userId: actor.userId, params: { client: g.client } }, now);
    const [row] = await tx
      .select()
      .from(oauthGrants)
      .where(and(eq(oauthGrants.id, id), eq(oauthGrants.userId, actor.userId)));
    if (!row) throw new NotFoundError("grant");
    return grantOut(row);
  });
}
