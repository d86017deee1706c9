/** Reads of things: the list with filters and keyset paging, and the summary/detail shapes. */
import { fileUrl, thumbUrl } from "../files/read.js";
import { eq, inArray, sql } from "drizzle-orm";
import type { ThingDetail, ThingSummary } from "../../../shared/things.js";
import { type Actor, actorArgs } from "../../db/actor.js";
import { type Queryable, type Tx, namedRows, uuidArray } from "../../db/client.js";
import { THUMBNAIL_MIMES } from "../../../shared/files.js";
import { brands, files, things } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { decodeCursor, pageFrom, textIdKey } from "../../db/paging.js";
import type { EffectiveField } from "../types/fields.js";
import { seesMoney } from "../../access/money.js";
import { visibleMembership } from "../../access/visible.js";
import type { Role } from "../../../shared/roles.js";
import { secretsOut } from "../secrets/read.js";
import { loadRefs } from "./refs.js";
import { thingPaths } from "./paths.js";
import type { ThingRow } from "./values.js";

/** What a summary is made of: lists select only these columns (mapping every column of a page cost more than reading it). */
export const summaryColumns = {
  id: things.id,
  locationId: things.locationId,
  shortCode: things.shortCode,
  name: things.name,
  typeId: things.typeId,
  quantity: things.quantity,
  lifecycle: things.lifecycle,
  missingSince: things.missingSince,
  containerId: things.containerId,
  coverFileId: things.coverFileId,
  lastSeenAt: things.lastSeenAt,
  isContainer: things.isContainer,
  tagIds: things.tagIds,
  rowVersion: things.rowVersion,
};
export type SummaryRow = Pick<ThingRow, keyof typeof summaryColumns>;

/** `loans`: the directions of the thing's open loans (`lent` when one goes out, `borrowed` when it came in). */
export function derivedState(t: Pick<ThingRow, "missingSince" | "lifecycle">, loans: ReadonlySet<string> = new Set()): ThingSummary["derivedState"] {
  const out: ThingSummary["derivedState"] = [];
  if (t.missingSince) out.push("uncertain");
  if (t.lifecycle === "draft") out.push("draft");
  if (t.lifecycle === "ended") out.push("ended");
  if (loans.has("out")) out.push("lent");
  if (loans.has("in")) out.push("borrowed");
  if (t.lifecycle === "in_repair") out.push("in_repair");
  return out;
}

/** The directions of the open loans of these things, in one query for a page. */
async function openLoans(tx: Tx, ids: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!ids.length) return out;
  const found = await namedRows<{ thing_id: string; direction: string }>(
    tx,
    "summary_open_loans",
    sql`SELECT DISTINCT thing_id::text AS thing_id, direction FROM loans WHERE thing_id = ANY(${uuidArray(ids)}) AND returned_at IS NULL AND deleted_at IS NULL`,
  );
  for (const r of found) out.set(r.thing_id, (out.get(r.thing_id) ?? new Set()).add(r.direction));
  return out;
}

type TypeRef = ThingSummary["type"];

/** `knownTypes`: types the caller already read (the list joins them), so they are not read again. */
export async function summaries(tx: Tx, rowsIn: SummaryRow[], knownTypes?: Map<string, TypeRef>): Promise<ThingSummary[]> {
  const ids = rowsIn.map((t) => t.id);
  const [paths, loans] = await Promise.all([thingPaths(tx, ids), openLoans(tx, ids)]);
  const typeIds = [...new Set(rowsIn.map((t) => t.typeId))].filter((id) => !knownTypes?.has(id));
  // Named statements with one array parameter: the same text (and plan) whatever the page holds.
  const typeRows: TypeRef[] = typeIds.length
    ? await namedRows<{ id: string; icon: string; name: string | null; builtinKey: string | null }>(
        tx,
        "summary_types",
        sql`SELECT id, icon, name, builtin_key AS "builtinKey" FROM types WHERE id = ANY(${uuidArray(typeIds)})`,
      )
    : [];
  const typeById = new Map([...(knownTypes ?? []), ...typeRows.map((t) => [t.id, t] as const)]);
  // A thing in a box shows the box's photo too (the spec's containerThumbUrl).
  const containerIds = [...new Set(rowsIn.map((t) => t.containerId).filter((x): x is string => !!x))];
  const containerCover = new Map(
    containerIds.length
      ? (
          await namedRows<{ id: string; cover: string | null }>(
            tx,
            "summary_container_covers",
            sql`SELECT id, cover_file_id AS cover FROM things WHERE id = ANY(${uuidArray(containerIds)})`,
          )
        ).map((c) => [c.id, c.cover])
      : [],
  );
  return rowsIn.map((t) =>
    summaryOf(t, {
      type: typeById.get(t.typeId),
      path: paths.get(t.id) ?? [],
      loans: loans.get(t.id),
      containerCover: t.containerId ? containerCover.get(t.containerId) : null,
    }),
  );
}

/** What a summary shows beside the thing's own columns (read by summaries() or by app_things_page). */
interface SummaryExtras {
  type: TypeRef | undefined;
  path: ThingSummary["path"];
  loans: ReadonlySet<string> | undefined;
  containerCover: string | null | undefined;
}

/** The thing's own columns a summary needs, as summaries() reads them or app_things_page sends them. */
type SummaryOwn = Omit<SummaryRow, "missingSince" | "lastSeenAt" | "quantity"> & {
  quantity: string | number;
  missingSince: unknown;
  lastSeenAt: Date | string | null;
};

/** One summary, the same whichever read gathered its parts. */
function summaryOf(t: SummaryOwn, x: SummaryExtras): ThingSummary {
  const thumb = (id: string | null | undefined) => (id ? thumbUrl(id) : null);
  return {
    id: t.id,
    locationId: t.locationId,
    shortCode: t.shortCode,
    name: t.name,
    type: x.type ?? { id: t.typeId, icon: "thing", name: null, builtinKey: null },
    quantity: Number(t.quantity),
    lifecycle: t.lifecycle,
    derivedState: derivedState({ missingSince: t.missingSince ? new Date(0) : null, lifecycle: t.lifecycle }, x.loans),
    path: x.path,
    containerThumbUrl: thumb(x.containerCover),
    thumbUrl: thumb(t.coverFileId),
    lastSeenAt: t.lastSeenAt instanceof Date ? t.lastSeenAt.toISOString() : t.lastSeenAt,
    isContainer: t.isContainer,
    tagIds: t.tagIds,
    rowVersion: t.rowVersion,
  };
}

/**
 * The actor's standing in the thing's location (server/access/location.ts) and the thing's secret
 * fields with whether each is set (server/modules/secrets/read.ts), in one named statement: a
 * round trip fewer for every detail, and so for every REST write that answers one.
 */
async function accessAndSecrets(tx: Tx, t: ThingRow): Promise<{ seesMoney: boolean; secretStates: Map<string, boolean> }> {
  const [row] = await namedRows<{ role: Role; viewers_see_money: boolean; secrets: Record<string, boolean> | null }>(
    tx,
    "thing_detail_access",
    sql`SELECT m.role, l.viewers_see_money,
          (SELECT jsonb_object_agg(f.id, coalesce(sv.ciphertext <> '', false))
           FROM type_fields f LEFT JOIN secret_values sv ON sv.field_id = f.id AND sv.thing_id = ${t.id}
           WHERE f.account_id = l.account_id AND f.secret AND f.archived_at IS NULL AND f.deleted_at IS NULL) AS secrets
        FROM memberships m JOIN locations l ON l.id = m.location_id
        WHERE m.location_id = ${t.locationId} AND ${visibleMembership}`,
  );
  if (!row) throw new NotFoundError("location");
  return { seesMoney: seesMoney(row.role, row.viewers_see_money), secretStates: new Map(Object.entries(row.secrets ?? {})) };
}

export async function detail(tx: Tx, userId: string, t: ThingRow): Promise<ThingDetail> {
  const [summary] = await summaries(tx, [t]);
  const { seesMoney: viewerSeesMoney, secretStates } = await accessAndSecrets(tx, t);
  // Field definitions only matter when the thing has custom values or the account has secret fields (most have neither).
  const defs =
    Object.keys(t.fields).length || secretStates.size
      ? (await loadRefs(tx, { locationIds: [t.locationId] })).fieldsOf(t.typeId)
      : new Map<string, EffectiveField>();
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t.fields)) {
    const f = defs.get(k)?.field;
    if (f?.secret) continue;
    if (f?.kind === "money" && !viewerSeesMoney) continue;
    fields[k] = v;
  }
  const [brand] = t.brandId ? await tx.select({ id: brands.id, name: brands.name }).from(brands).where(eq(brands.id, t.brandId)) : [];
  const mimes = t.photoFileIds.length
    ? new Map((await tx.select({ id: files.id, mime: files.mime }).from(files).where(inArray(files.id, t.photoFileIds))).map((f) => [f.id, f.mime]))
    : new Map<string, string>();
  return {
    ...summary!,
    placeId: t.placeId,
    containerId: t.containerId,
    description: t.description,
    condition: t.condition,
    brand: brand ?? null,
    model: t.model,
    colour: t.colour,
    serial: t.serial,
    fields,
    secrets: secretsOut(defs, secretStates),
    photos: t.photoFileIds.map((fileId) => ({
      fileId,
      url: fileUrl(fileId),
      thumbUrl: THUMBNAIL_MIMES.includes(mimes.get(fileId) as (typeof THUMBNAIL_MIMES)[number]) ? thumbUrl(fileId) : null,
      isCover: fileId === t.coverFileId,
    })),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** A visible, live thing, or 404 whether it is absent, deleted or in a location the actor cannot see. */
export async function findThing(tx: Tx, id: string, opts: { includeDeleted?: boolean } = {}): Promise<ThingRow> {
  const [row] = await tx.select().from(things).where(eq(things.id, id));
  if (!row || (row.deletedAt && !opts.includeDeleted)) throw new NotFoundError("thing");
  return row;
}

export interface ListQuery {
  q?: string | undefined;
  placeId?: string | undefined;
  typeId?: string | undefined;
  tagId?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A row of app_things_page's answer: a summary's parts, and the sort key the cursor carries. */
type PageRow = Omit<SummaryOwn, "missingSince"> & {
  missing: boolean;
  type: TypeRef | null;
  k: string;
  loans: string[] | null;
  containerCover: string | null;
  path: ThingSummary["path"] | null;
};

/**
 * Things of a location, by name then id; `placeId` includes sub-places and everything in containers.
 * One statement (app_things_page, migrations/0036_one_trip_reads.sql) that applies the actor's
 * settings itself, checks the location (404 when not visible) and answers the page as JSON: on `db`
 * it is the whole read in one round trip; in an actor transaction it runs as part of it.
 */
export async function listThings(
  q: Queryable,
  actor: Actor,
  locationId: string,
  query: ListQuery,
): Promise<{ items: ThingSummary[]; next_cursor: string | null }> {
  const like = query.q ? `%${query.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const [afterKey, afterId] = query.cursor ? decodeCursor(query.cursor, textIdKey) : [null, null];
  const [row] = await namedRows<{ page: PageRow[] | string | null }>(
    q,
    "things_page",
    sql`SELECT app_things_page(${actorArgs(actor)}, ${locationId}, ${query.limit + 1}, ${query.typeId ?? null}, ${query.tagId ?? null}, ${like},
                               ${query.placeId ?? null}, ${afterKey}, ${afterId}) AS page`,
  );
  if (!row?.page) throw new NotFoundError("location");
  const page: PageRow[] = typeof row.page === "string" ? (JSON.parse(row.page) as PageRow[]) : row.page;
  // The sort key comes from the database, so the cursor compares exactly as the ORDER BY does.
  const { rows: items, next_cursor } = pageFrom(page, query.limit, (r) => [r.k, r.id]);
  return {
    items: items.map((r) =>
      summaryOf(
        { ...r, missingSince: r.missing },
        { type: r.type ?? undefined, path: r.path ?? [], loans: r.loans ? new Set(r.loans) : undefined, containerCover: r.containerCover },
      ),
    ),
    next_cursor,
  };
}
