/**
 * Reads of codes under the actor's row-level security: a code's holder, what a scan is, and label
 * sheets. A code of a location the actor cannot see is simply not read, so it answers exactly as
 * an unknown one: there is no second query, and no branch, that could tell them apart.
 */
import { asc, desc, eq } from "drizzle-orm";
import { classifyScan, normalizeCode, type CodeKind, type LabelSheet, type ScanResult } from "../../../shared/codes.js";
import { roleAtLeast } from "../../../shared/roles.js";
import { visibleRoles } from "../../access/visible.js";
import { type Tx, rows, sql } from "../../db/client.js";
import { codes, labelSheets, locations } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

/** A barcode found on more things than this answers the first ones (by location, then name). */
export const CANDIDATES_MAX = 20;

interface CodeHit {
  kind: CodeKind | null;
  id: string | null;
  locationId: string;
}

/** The visible code and its live holder (kind and id null when nobody, or nobody live, holds it). */
async function readCode(tx: Tx, code: string): Promise<CodeHit | null> {
  const [hit] = await rows<{ thing: string | null; place: string | null; locationId: string }>(
    tx,
    sql`SELECT t.id AS thing, p.id AS place, c.location_id AS "locationId" FROM codes c
        LEFT JOIN things t ON t.id = c.thing_id AND t.deleted_at IS NULL
        LEFT JOIN places p ON p.id = c.place_id AND p.deleted_at IS NULL
        WHERE c.code = ${code} AND c.deleted_at IS NULL`,
  );
  if (!hit) return null;
  return { kind: hit.thing ? "thing" : hit.place ? "place" : null, id: hit.thing ?? hit.place, locationId: hit.locationId };
}

/** GET /codes/{code}: 404 alike for a code that is malformed, unknown, free, or of a location the actor cannot see. */
export async function lookupCode(tx: Tx, raw: string): Promise<{ kind: CodeKind; id: string }> {
  const code = normalizeCode(raw);
  const hit = code ? await readCode(tx, code) : null;
  if (!hit?.kind || !hit.id) throw new NotFoundError("code");
  return { kind: hit.kind, id: hit.id };
}

/** Live things in the actor's locations whose serial, or a field's value, is the barcode. */
async function barcodeMatches(tx: Tx, code: string) {
  return rows<{ id: string; name: string | null; locationId: string; locationName: string }>(
    tx,
    sql`SELECT t.id, t.name, t.location_id AS "locationId", l.name AS "locationName"
        FROM things t JOIN locations l ON l.id = t.location_id
        WHERE t.deleted_at IS NULL AND (t.serial = ${code} OR EXISTS (
          -- Secret values are never in fields (they are kept encrypted elsewhere), and a money value
          -- is an object {amount, currency}, never a string or number: no match tells a reader
          -- what a thing cost.
          SELECT 1 FROM jsonb_each(t.fields) f WHERE jsonb_typeof(f.value) IN ('string', 'number') AND f.value #>> '{}' = ${code}))
        ORDER BY l.name, t.name, t.id LIMIT ${CANDIDATES_MAX + 1}`,
  );
}

/** `canWrite`: false for a read-only token, which is never offered a label to claim. */
export async function resolveScan(tx: Tx, canWrite: boolean, text: string, format?: string): Promise<ScanResult> {
  const scan = classifyScan(text, format);
  const notFound: ScanResult = { outcome: "not_found" };
  switch (scan.type) {
    case "code": {
      const hit = await readCode(tx, scan.code);
      if (!hit) return notFound;
      if (hit.kind && hit.id) return { outcome: "open", target: { kind: hit.kind, id: hit.id, locationId: hit.locationId } };
      const role = (await visibleRoles(tx)).get(hit.locationId);
      // A free label is offered for claiming only to those who could claim it.
      return canWrite && role && roleAtLeast(role, "member") ? { outcome: "claim", locationId: hit.locationId, code: scan.code } : notFound;
    }
    case "location":
      return (await visibleRoles(tx)).has(scan.locationId) ? { outcome: "switch_location", locationId: scan.locationId } : notFound;
    case "barcode": {
      const found = await barcodeMatches(tx, scan.code);
      if (found.length === 1) return { outcome: "open", target: { kind: "thing", id: found[0]!.id, locationId: found[0]!.locationId } };
      if (found.length > 1)
        return {
          outcome: "candidates",
          candidates: found
            .slice(0, CANDIDATES_MAX)
            .map((t) => ({ locationName: t.locationName, locationId: t.locationId, name: t.name ?? "", kind: "thing" as const, id: t.id })),
        };
      // No product lookup service is set up on this instance: the app offers to capture the thing by hand.
      return { outcome: "barcode", barcode: { code: scan.code, lookupEnabled: false } };
    }
    case "text":
      return { outcome: "text", text: scan.text };
  }
}

/** The newest sheets a list shows: older ones are printed and stuck on boxes long ago. */
export const SHEETS_LISTED = 100;

type SheetRow = typeof labelSheets.$inferSelect;

async function sheetsOut(tx: Tx, sheets: SheetRow[]): Promise<LabelSheet[]> {
  if (!sheets.length) return [];
  const codeRows = await rows<{ sheetId: string; code: string }>(
    tx,
    sql`SELECT sheet_id AS "sheetId", code FROM codes WHERE sheet_id = ANY(${sql`${`{${sheets.map((s) => s.id).join(",")}}`}::uuid[]`}) ORDER BY created_at, code`,
  );
  const bySheet = new Map<string, string[]>();
  for (const r of codeRows) bySheet.set(r.sheetId, [...(bySheet.get(r.sheetId) ?? []), r.code]);
  return sheets.map((s) => ({
    id: s.id,
    locationId: s.locationId,
    size: s.size,
    createdAt: s.createdAt.toISOString(),
    codes: bySheet.get(s.id) ?? [],
    pdfUrl: `/api/v1/label-sheets/${s.id}/pdf`,
  }));
}

/** A visible sheet, or 404. */
export async function findSheet(tx: Tx, id: string): Promise<LabelSheet> {
  const [row] = await tx.select().from(labelSheets).where(eq(labelSheets.id, id));
  if (!row) throw new NotFoundError("label sheet");
  return (await sheetsOut(tx, [row]))[0]!;
}

export async function sheetsOf(tx: Tx, locationId: string): Promise<LabelSheet[]> {
  return sheetsOut(
    tx,
    await tx
      .select()
      .from(labelSheets)
      .where(eq(labelSheets.locationId, locationId))
      .orderBy(desc(labelSheets.createdAt), asc(labelSheets.id))
      .limit(SHEETS_LISTED),
  );
}

/** The location of a visible code (a claim acts through it), or 404 as for an unknown code. */
export async function codeLocation(tx: Tx, code: string): Promise<string> {
  const [row] = await tx.select({ locationId: codes.locationId }).from(codes).where(eq(codes.code, code));
  if (!row) throw new NotFoundError("code");
  return row.locationId;
}

/** A location's name, as its label sheets print it (empty when the actor cannot read it). */
export async function locationName(tx: Tx, locationId: string): Promise<string> {
  const [loc] = await tx.select({ name: locations.name }).from(locations).where(eq(locations.id, locationId));
  return loc?.name ?? "";
}
