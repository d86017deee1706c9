/**
 * Dropped ops become sync_drop inbox items (sync/SPEC.md DR1-DR3): the reason a device can act on,
 * a message a person can read, and the whole op so nothing captured is lost.
 */
import { and, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { UUID_PATTERN } from "../../../shared/ids.js";
import { toWellFormed, wellFormedText } from "../../../shared/text.js";
import type { PushOp } from "../../../sync/protocol.js";
import type { Actor } from "../../db/actor.js";
import { idIn } from "../../commands/bulk.js";
import type { Tx } from "../../db/client.js";
import { readableLocations } from "../../access/readable.js";
import { accounts, locations, places, things } from "../../db/schema/index.js";
import { dropReason } from "../../errors/drop-reason.js";
import { insertInboxItems, newInboxItem } from "../../commands/inbox-items.js";
import { withholdSecrets } from "../secrets/drops.js";
import type { Drop } from "../../sync/push.js";

/** The row a dropped op names: its args were never parsed (they may be what made it drop), so the id is read here as uuidSchema would. */
const targetId = (op: PushOp): string | null => {
  const a = op.args as { id?: unknown } | null;
  return a && typeof a.id === "string" && UUID_PATTERN.test(a.id) ? a.id.toLowerCase() : null;
};

/** Names of the rows the dropped ops were about, for the item's `entity`. */
async function entityNames(tx: Tx, ops: PushOp[]): Promise<Map<string, string>> {
  const ids = ops.map(targetId).filter((x): x is string => !!x);
  if (!ids.length) return new Map();
  const [t, p] = await Promise.all([
    tx.select({ id: things.id, name: things.name }).from(things).where(idIn(things.id, ids)),
    tx.select({ id: places.id, name: places.name }).from(places).where(idIn(places.id, ids)),
  ]);
  return new Map([...t, ...p].map((r) => [r.id, r.name ?? ""]));
}

/**
 * Writes one sync_drop item per drop, in the op's location when readable, else the personal one.
 * Push (server/sync/push.ts) knows no domain: the route table hands it this writer.
 */
export async function recordDrops(tx: Tx, actor: Actor, drops: Drop[], now: Date): Promise<void> {
  if (!drops.length) return;
  const visible = new Set(await readableLocations(tx));
  let personal: string | undefined;
  if (drops.some((d) => !visible.has(d.op.locationId))) {
    const [row] = await tx
      .select({ id: locations.id })
      .from(locations)
      .innerJoin(accounts, eq(accounts.id, locations.accountId))
      .where(and(eq(accounts.ownerUserId, actor.userId), eq(locations.isPersonal, true)));
    personal = row?.id;
  }
  const names = await entityNames(
    tx,
    drops.map((d) => d.op),
  );
  // Secret field values never ride along in plain text (server/modules/secrets/drops.ts).
  const safe = await withholdSecrets(
    tx,
    drops.map((d) => d.op),
  );
  const batchByLocation = new Map<string, string>();
  const items = [];
  for (const [i, dropped] of drops.entries()) {
    const { op, withheld } = safe[i]!;
    const d = { ...dropped, op };
    const locationId = visible.has(d.op.locationId) ? d.op.locationId : personal;
    if (!locationId) throw new Error("no readable location to record a dropped op in");
    let batchId = batchByLocation.get(locationId);
    if (!batchId) batchByLocation.set(locationId, (batchId = uuidv7()));
    const id = targetId(d.op);
    const args = d.op.args as { name?: unknown; patch?: { name?: unknown } } | null;
    const name = names.get(id ?? "") ?? (typeof args?.name === "string" ? args.name : typeof args?.patch?.name === "string" ? args.patch.name : "");
    items.push(
      newInboxItem(
        {
          id: d.inboxItemId,
          locationId,
          kind: "sync_drop",
          thingId: null,
          batchId,
          capturedAt: new Date(d.op.at),
          createdBy: actor.userId,
          payload: {
            placePath: [],
            // Kept whatever it holds (DR2): text the database cannot store becomes U+FFFD.
            syncDrop: {
              op: toWellFormed(d.op) as PushOp,
              reason: dropReason(d.error),
              message: wellFormedText(withheld.length ? `${d.error.message} (secret values were not kept: ${withheld.join(", ")})` : d.error.message),
              ...(id ? { entity: { type: wellFormedText(d.op.name.split(".")[0] ?? "thing"), id, name: wellFormedText(name) } } : {}),
              by: { displayName: actor.displayName },
            },
          },
        },
        now,
      ),
    );
  }
  await insertInboxItems(tx, items);
}
