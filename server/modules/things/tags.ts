/**
 * Tags on things: `tagIds` of thing.create, thing.capture and thing.update name live tags of the
 * location's owner account. Read through RLS, so a tag of an account the actor cannot read is
 * simply absent ("404 tag", as for a type or a brand).
 */
import { and, isNull } from "drizzle-orm";
import { idIn } from "../../commands/bulk.js";
import type { Tx } from "../../db/client.js";
import { tags } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

/** Live tags by id, with their account. */
export type TagRefs = Map<string, string>;

export async function loadTags(tx: Tx, ids: Iterable<string | null | undefined>): Promise<TagRefs> {
  const want = [...new Set([...ids].filter((x): x is string => !!x))];
  if (!want.length) return new Map();
  const found = await tx
    .select({ id: tags.id, accountId: tags.accountId })
    .from(tags)
    .where(and(idIn(tags.id, want), isNull(tags.deletedAt)));
  return new Map(found.map((t) => [t.id, t.accountId]));
}

/** 404 tag when one of `tagIds` is not a live tag of `accountId`. */
export function tagsProblem(tagIds: readonly string[] | undefined, accountId: string | undefined, known: TagRefs): NotFoundError | null {
  if (!tagIds?.length) return null;
  return tagIds.every((id) => accountId !== undefined && known.get(id) === accountId) ? null : new NotFoundError("tag");
}
