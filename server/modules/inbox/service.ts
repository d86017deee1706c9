/**
 * The inbox for routes and MCP tools alike: the open items, and review (accept, dismiss, merge),
 * each one actor transaction: find the item's location, run the command, read the item back.
 */
import type { InboxItem } from "../../../shared/inbox.js";
import type { InboxAcceptArgs } from "../../../shared/inbox-actions.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import { findItem, inboxOut, listInbox, type InboxQuery } from "./read.js";

export type Review = ({ verb: "accept" } & Omit<InboxAcceptArgs, "id">) | { verb: "dismiss" } | { verb: "merge"; into: string };

/** Open items of the visible locations, or of one (404 when it is not visible). */
export function openItems({ db }: ServiceDeps, actor: Actor, query: InboxQuery): Promise<{ items: InboxItem[]; next_cursor: string | null }> {
  return withActor(db, actor, async (tx) => {
    if (query.locationId) await locationAccess(tx, query.locationId);
    return listInbox(tx, query);
  });
}

/** Runs a review command on an item and answers the item as it is afterwards. */
export function reviewItem(deps: ServiceDeps, actor: Actor, id: string, review: Review): Promise<Written<{ item: InboxItem }>> {
  const { verb, ...args } = review;
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: `inbox.${verb}`, locationId: (await findItem(tx, id)).locationId, args: { id, ...args } }),
    async (tx) => ({ item: (await inboxOut(tx, [await findItem(tx, id)]))[0]! }),
  );
}
