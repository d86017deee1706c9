/**
 * The end of a location's time in the trash (trash.ts): TRASH_DAYS after it was deleted, every row
 * of it is removed for good, then the photos no other record names, then its change-log entries.
 *
 * Which tables hold a location's rows, and the order they must go in, come from the database's own
 * catalog (every public table with a `location_id`, and the foreign keys between them), so a table
 * added by a later migration is purged with no list here that could fall behind the schema. The
 * foreign keys are NO ACTION, checked at the end of each statement, so a table goes only after every
 * table that points at it (self-references go in one statement). A reference from another location
 * into this one (a move's destination, a box's destination place) is cut to NULL; one that cannot
 * be cut stops the purge with an error rather than deleting someone else's rows.
 *
 * Managed accounts made in the location exist only for it: once it is gone, a managed user left
 * with no membership anywhere is deleted too (its sessions, passkeys and tokens go with it).
 */
import type { Logger } from "pino";
import { TRASH_DAYS } from "../../../shared/locations.js";
import { asSystem } from "../../db/actor.js";
import { type Db, rows, sql, type Tx } from "../../db/client.js";
import type { BlobStore } from "../files/storage.js";

interface Fk {
  table: string;
  column: string;
  ref: string;
  notNull: boolean;
}

/** Public tables with a `location_id` column, and every single-column foreign key into them or into `locations`. */
async function locationCatalog(tx: Tx): Promise<{ tables: string[]; fks: Fk[] }> {
  const tables = (
    await rows<{ t: string }>(
      tx,
      sql`SELECT c.relname AS t FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'locations' AND a.attname = 'location_id' AND NOT a.attisdropped
          ORDER BY 1`,
    )
  ).map((r) => r.t);
  const fks = await rows<Fk>(
    tx,
    sql`SELECT c.relname AS "table", a.attname AS "column", r.relname AS "ref", a.attnotnull AS "notNull" FROM pg_constraint k
          JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
        WHERE k.contype = 'f' AND n.nspname = 'public' AND cardinality(k.conkey) = 1
          AND (r.relname = 'locations' OR r.relname IN (SELECT c2.relname FROM pg_attribute a2 JOIN pg_class c2 ON c2.oid = a2.attrelid
                 JOIN pg_namespace n2 ON n2.oid = c2.relnamespace WHERE n2.nspname = 'public' AND a2.attname = 'location_id'))
        ORDER BY 1, 2`,
  );
  return { tables, fks };
}

const id = (name: string) => sql.identifier(name);

/** The rows of `ref` that belong to the location (for `locations` itself: the location). */
const inLocation = (ref: string, locationId: string) =>
  ref === "locations" ? sql`SELECT ${locationId}::uuid` : sql`SELECT x.id FROM ${id(ref)} x WHERE x.location_id = ${locationId}::uuid`;

/** Cuts references from rows of other locations (or of no location) into this one. */
async function cutOutsideReferences(tx: Tx, locationId: string, tables: Set<string>, fks: Fk[]): Promise<void> {
  for (const fk of fks) {
    if (fk.column === "location_id") continue;
    const outside = tables.has(fk.table) ? sql`t.location_id IS DISTINCT FROM ${locationId}::uuid` : sql`true`;
    const pointing = sql`${outside} AND t.${id(fk.column)} IN (${inLocation(fk.ref, locationId)})`;
    if (!fk.notNull) {
      await tx.execute(sql`UPDATE ${id(fk.table)} t SET ${id(fk.column)} = NULL WHERE ${pointing}`);
      continue;
    }
    const [held] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${id(fk.table)} t WHERE ${pointing}`);
    if (held?.n) throw new Error(`Purge refused: ${held.n} row(s) of ${fk.table}.${fk.column} elsewhere need this location's rows.`);
  }
}

/**
 * The location's tables in an order each can be deleted in: a table only once no table still to
 * go points at it. A loop of references is broken by emptying one of its optional references.
 */
async function deleteInOrder(tx: Tx, locationId: string, tables: string[], fks: Fk[]): Promise<void> {
  const left = new Set(tables);
  let edges = fks.filter((f) => f.table !== f.ref && left.has(f.table) && left.has(f.ref));
  while (left.size) {
    const free = [...left].filter((t) => !edges.some((e) => e.ref === t && left.has(e.table)));
    if (!free.length) {
      const cut = edges.find((e) => !e.notNull && left.has(e.table) && left.has(e.ref));
      if (!cut) throw new Error(`Purge refused: the tables ${[...left].join(", ")} reference each other with required columns.`);
      await tx.execute(sql`UPDATE ${id(cut.table)} SET ${id(cut.column)} = NULL WHERE location_id = ${locationId}::uuid AND ${id(cut.column)} IS NOT NULL`);
      edges = edges.filter((e) => e !== cut);
      continue;
    }
    for (const t of free) {
      await tx.execute(sql`DELETE FROM ${id(t)} WHERE location_id = ${locationId}::uuid`);
      left.delete(t);
    }
  }
}

/** Removes one trashed location's rows; answers the blob hashes its files named. */
export async function purgeLocation(db: Db, locationId: string, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - TRASH_DAYS * 86_400_000);
  const shas = await asSystem(db, async (tx) => {
    const [due] = await rows<{ id: string }>(
      tx,
      sql`SELECT id::text AS id FROM locations WHERE id = ${locationId}::uuid AND deleted_at <= ${cutoff.toISOString()}::timestamptz FOR UPDATE`,
    );
    if (!due) return null;
    const { tables, fks } = await locationCatalog(tx);
    const blobs = await rows<{ sha: string }>(
      tx,
      sql`SELECT DISTINCT s.sha FROM files f, LATERAL (VALUES (f.sha256), (f.thumb_sha256)) s(sha) WHERE f.location_id = ${locationId}::uuid AND s.sha IS NOT NULL`,
    );
    const managed = await rows<{ user_id: string }>(tx, sql`SELECT user_id::text AS user_id FROM managed_accounts WHERE location_id = ${locationId}::uuid`);
    await cutOutsideReferences(tx, locationId, new Set(tables), fks);
    await deleteInOrder(tx, locationId, tables, fks);
    await tx.execute(sql`DELETE FROM locations WHERE id = ${locationId}::uuid`);
    if (managed.length) {
      await tx.execute(sql`DELETE FROM users u WHERE u.id = ANY(${`{${managed.map((m) => m.user_id).join(",")}}`}::uuid[])
        AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.owner_user_id = u.id)`);
    }
    return blobs.map((b) => b.sha);
  });
  if (!shas) return [];
  // The change log is written when a transaction commits (migration 0015), so the purge's own
  // delete entries, which carry the rows, are there only now: they go in a second transaction.
  await asSystem(db, (tx) => tx.execute(sql`DELETE FROM sync_log WHERE location_id = ${locationId}::uuid`));
  return shas;
}

/**
 * Removes the blobs no file record names any more. The store is shared by every location (the
 * same photo in two locations is stored once), so each is checked again just before it goes.
 */
export async function dropUnusedBlobs(db: Db, store: BlobStore, shas: readonly string[]): Promise<number> {
  let dropped = 0;
  for (const sha of shas) {
    const [used] = await rows<{ one: number }>(db, sql`SELECT 1 AS one FROM files WHERE sha256 = ${sha} OR thumb_sha256 = ${sha} LIMIT 1`);
    if (used) continue;
    await store.remove(sha);
    dropped++;
  }
  return dropped;
}

/** Purges every location whose time in the trash is over (the hourly job). */
export async function purgeDueLocations(deps: { db: Db; store: BlobStore; logger: Logger }, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_DAYS * 86_400_000);
  const due = await rows<{ id: string }>(
    deps.db,
    sql`SELECT id::text AS id FROM locations WHERE deleted_at <= ${cutoff.toISOString()}::timestamptz ORDER BY deleted_at LIMIT 20`,
  );
  let purged = 0;
  for (const { id: locationId } of due) {
    try {
      const shas = await purgeLocation(deps.db, locationId, now);
      const blobs = await dropUnusedBlobs(deps.db, deps.store, shas);
      deps.logger.info({ locationId, blobs }, "trashed location purged");
      purged++;
    } catch (err) {
      deps.logger.error({ err, locationId }, "purging a trashed location failed");
    }
  }
  return purged;
}
