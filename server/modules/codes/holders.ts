/**
 * Who holds which code, as a claim or a label_claim review reads and changes it within a segment:
 * the codes named (locked), the things and places that hold or want them (locked), and each
 * holder's other codes. `give` moves one code to a new holder the same way for both.
 */
import type { CodeKind } from "../../../shared/codes.js";
import { lockRows } from "../../commands/bulk.js";
import type { SegmentChanges } from "../../commands/segment.js";
import type { CommandContext } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { codes, places, things } from "../../db/schema/index.js";

export type CodeRow = Pick<
  typeof codes.$inferSelect,
  "id" | "locationId" | "code" | "thingId" | "placeId" | "sheetId" | "claimedAt" | "claimedBy" | "rowVersion" | "deletedAt"
>;

export interface Holder {
  kind: CodeKind;
  id: string;
  locationId: string;
  name: string;
  shortCode: string | null;
  rowVersion: number;
  deletedAt: Date | null;
}

export interface Holders {
  /** By code. */
  codes: Map<string, CodeRow>;
  /** Things and places by id (their ids never collide). */
  holders: Map<string, Holder>;
  /** Each holder's codes, most recently claimed first. */
  owned: Map<string, string[]>;
}

export const holderOf = (c: CodeRow): { kind: CodeKind; id: string } | null =>
  c.thingId ? { kind: "thing", id: c.thingId } : c.placeId ? { kind: "place", id: c.placeId } : null;

/** A text[] parameter of normalized codes (letters and digits only, so the literal needs no quoting). */
export const codeArray = (list: readonly string[]) => sql`${`{${[...new Set(list)].join(",")}}`}::text[]`;

const CODE_KEYS = ["id", "locationId", "code", "thingId", "placeId", "sheetId", "claimedAt", "claimedBy", "rowVersion", "deletedAt"] as const;
const HOLDER_KEYS = ["id", "locationId", "name", "shortCode", "rowVersion", "deletedAt"] as const;

/** Locks the codes named and the things and places that hold or want them (want: ids by kind). */
export async function loadHolders(ctx: CommandContext, codeList: string[], want: { kind: CodeKind; id: string }[]): Promise<Holders> {
  const found = codeList.length ? await rows<{ id: string }>(ctx.tx, sql`SELECT id FROM codes WHERE code = ANY(${codeArray(codeList)}) ORDER BY id`) : [];
  const codeRows = (await lockRows(
    ctx.tx,
    codes,
    found.map((r) => r.id),
    CODE_KEYS,
  )) as CodeRow[];
  const all = [...want, ...codeRows.map(holderOf).filter((h): h is { kind: CodeKind; id: string } => !!h)];
  const ids = (kind: CodeKind) => [...new Set(all.filter((h) => h.kind === kind).map((h) => h.id))].sort();
  const [thingRows, placeRows] = await Promise.all([lockRows(ctx.tx, things, ids("thing"), HOLDER_KEYS), lockRows(ctx.tx, places, ids("place"), HOLDER_KEYS)]);
  const holders = new Map<string, Holder>();
  for (const t of thingRows) holders.set(t.id, { kind: "thing", ...t, name: t.name ?? "" });
  for (const p of placeRows) holders.set(p.id, { kind: "place", ...p });
  const holderIds = [...holders.keys()];
  const ownedRows = holderIds.length
    ? await rows<{ owner: string; code: string }>(
        ctx.tx,
        sql`SELECT coalesce(thing_id, place_id) AS owner, code FROM codes
            WHERE (thing_id = ANY(${uuidArray(holderIds)}) OR place_id = ANY(${uuidArray(holderIds)})) AND deleted_at IS NULL
            ORDER BY claimed_at DESC NULLS LAST, created_at DESC, code`,
      )
    : [];
  const owned = new Map<string, string[]>();
  for (const r of ownedRows) owned.set(r.owner, [...(owned.get(r.owner) ?? []), r.code]);
  return { codes: new Map(codeRows.map((c) => [c.code, c])), holders, owned };
}

/** Sets a holder's short code, with a history entry; answers the entry's id. */
function setShortCode(ctx: CommandContext, changes: SegmentChanges, st: Holders, h: Holder, code: string | null, action: string): string {
  const next = { ...h, shortCode: code, rowVersion: h.rowVersion + 1 };
  st.holders.set(h.id, next);
  changes.update(h.kind === "thing" ? things : places, { id: h.id, shortCode: code, rowVersion: next.rowVersion, updatedAt: ctx.now }, [
    "shortCode",
    "rowVersion",
    "updatedAt",
  ]);
  return changes.record({
    locationId: h.locationId,
    entityType: h.kind,
    entityId: h.id,
    entityName: h.name,
    action,
    before: { shortCode: h.shortCode },
    after: { shortCode: code },
    summaryKey: action,
    summaryParams: { name: h.name, code: code ?? "" },
    rowVersionAfter: next.rowVersion,
    // The code table moved too: restoring only the column would leave the two disagreeing.
    undoable: false,
  });
}

/**
 * Gives `code` to `to`: the code now answers for it and becomes its short code (its old codes stay
 * its own and keep answering). A previous holder keeps its other codes; if this one was its short
 * code, its most recently claimed other code takes over. Answers the event of `to`'s change.
 */
export function give(ctx: CommandContext, changes: SegmentChanges, st: Holders, c: CodeRow, to: Holder): string {
  const next: CodeRow = {
    ...c,
    thingId: to.kind === "thing" ? to.id : null,
    placeId: to.kind === "place" ? to.id : null,
    claimedAt: ctx.now,
    claimedBy: ctx.actor.userId,
    rowVersion: c.rowVersion + 1,
  };
  st.codes.set(c.code, next);
  changes.update(codes, { ...next, updatedAt: ctx.now }, ["thingId", "placeId", "claimedAt", "claimedBy", "rowVersion", "updatedAt"]);
  const prev = holderOf(c);
  const before = prev ? st.holders.get(prev.id) : undefined;
  if (prev && before) {
    const rest = (st.owned.get(prev.id) ?? []).filter((x) => x !== c.code);
    st.owned.set(prev.id, rest);
    if (before.shortCode === c.code) setShortCode(ctx, changes, st, before, rest[0] ?? null, "code.released");
  }
  st.owned.set(to.id, [c.code, ...(st.owned.get(to.id) ?? []).filter((x) => x !== c.code)]);
  return setShortCode(ctx, changes, st, st.holders.get(to.id) ?? to, c.code, "code.claimed");
}
