/**
 * The SQL of personal tokens: a person's token rows, read and written on an open transaction.
 * No access checks here; service.ts makes them before it calls these.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { PageQuery } from "../../../shared/paging.js";
import type { Token, TokenList } from "../../../shared/tokens.js";
import type { Tx } from "../../db/client.js";
import { timeIdPaging } from "../../db/paging.js";
import { personalTokens, users } from "../../db/schema/index.js";
import { displayPrefix } from "./secret.js";

/** Everything but the HMAC, which app_role cannot read. */
const listed = {
  id: personalTokens.id,
  name: personalTokens.name,
  lookup: personalTokens.lookup,
  scope: personalTokens.scope,
  locationIds: personalTokens.locationIds,
  expiresAt: personalTokens.expiresAt,
  createdAt: personalTokens.createdAt,
  lastUsedAt: personalTokens.lastUsedAt,
  revokedAt: personalTokens.revokedAt,
};

type Listed = Omit<typeof personalTokens.$inferSelect, "userId" | "hmac" | "keyVersion" | "mfaProven">;

function tokenOut(row: Listed): Token {
  return {
    id: row.id,
    name: row.name,
    prefix: displayPrefix(row.lookup),
    scope: row.scope,
    locationIds: row.locationIds,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export type TokenRow = typeof personalTokens.$inferInsert;

/** Stores a new token (its HMAC, never the secret) and answers it as listed. */
export async function insertToken(tx: Tx, values: TokenRow): Promise<Token> {
  const [row] = await tx.insert(personalTokens).values(values).returning(listed);
  return tokenOut(row!);
}

/** A page of a person's tokens, newest first. */
export async function tokensPage(tx: Tx, userId: string, query: PageQuery): Promise<TokenList> {
  const paging = timeIdPaging(personalTokens.createdAt, personalTokens.id, query);
  const found = await tx
    .select({ row: listed, key: paging.key })
    .from(personalTokens)
    .where(and(eq(personalTokens.userId, userId), paging.after))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  const page = paging.page(found, (r) => r.row.id);
  return { items: page.rows.map((r) => tokenOut(r.row)), next_cursor: page.next_cursor };
}

/** Revokes a person's live token; answers its name, or null when there was none live to revoke. */
export async function revokeOwnToken(tx: Tx, userId: string, id: string, now: Date): Promise<string | null> {
  const [revoked] = await tx
    .update(personalTokens)
    .set({ revokedAt: now })
    .where(and(eq(personalTokens.id, id), eq(personalTokens.userId, userId), isNull(personalTokens.revokedAt)))
    .returning({ name: personalTokens.name });
  return revoked?.name ?? null;
}

/** One of a person's tokens, revoked or not; null when it is not theirs or does not exist. */
export async function findOwnToken(tx: Tx, userId: string, id: string): Promise<Token | null> {
  const [row] = await tx
    .select(listed)
    .from(personalTokens)
    .where(and(eq(personalTokens.id, id), eq(personalTokens.userId, userId)));
  return row ? tokenOut(row) : null;
}

/** The whole token row a lookup names, with its creator's name (the service's authority: it holds the HMAC). */
export async function tokenByLookup(tx: Tx, lookup: string): Promise<{ t: typeof personalTokens.$inferSelect; name: string } | undefined> {
  const [found] = await tx
    .select({ t: personalTokens, name: users.name })
    .from(personalTokens)
    .innerJoin(users, eq(users.id, personalTokens.userId))
    .where(eq(personalTokens.lookup, lookup));
  return found;
}

export async function touchToken(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.update(personalTokens).set({ lastUsedAt: now }).where(eq(personalTokens.id, id));
}
