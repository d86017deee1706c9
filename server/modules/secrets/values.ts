/**
 * Secret field values on the write path. A thing's `fields` may carry the value of a secret field
 * (create, update); the command splits it off (splitSecretFields), never lets it into the row's
 * `fields` (which syncs) nor into history (the entry marks the field changed and hidden), and
 * writes it encrypted into `secret_values` once the segment's rows are written (writeSecretValues).
 *
 * Clearing (a null value) keeps the row with an empty ciphertext: app_role has no DELETE on
 * `secret_values` (nothing in this schema is hard-deleted by a request), and an empty text is
 * never a sealed value (that is at least 28 bytes), so "set" is `ciphertext <> ''`.
 */
import type { CommandContext } from "../../commands/types.js";
import { ForbiddenError } from "../../errors/classes.js";
import { rows, sql } from "../../db/client.js";
import { newId } from "../../commands/ids.js";
import type { EffectiveField } from "../types/fields.js";
import { secretBox } from "../../db/secret-box.js";

/** A secret value to store: `value` null clears it. */
export interface SecretWrite {
  key: string;
  fieldId: string;
  value: unknown;
}

/** One row of `secret_values` to write, for a thing or a place. */
export interface SecretRowWrite extends SecretWrite {
  locationId: string;
  accountId: string;
  entity: "thing" | "place";
  entityId: string;
}

/**
 * Custom field values (keys without `fields.`) split by the owner's effective fields: plain values
 * stay for the row's `fields`, secret ones go to `secret_values`. A key the fields do not know
 * stays plain (the caller's check refuses it).
 */
export function splitSecretFields(
  defs: ReadonlyMap<string, EffectiveField>,
  fields: Record<string, unknown> | undefined,
): { plain: Record<string, unknown> | undefined; secret: SecretWrite[] } {
  if (!fields) return { plain: undefined, secret: [] };
  const plain: Record<string, unknown> = {};
  const secret: SecretWrite[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const f = defs.get(key)?.field;
    if (f?.secret) secret.push({ key, fieldId: f.id, value });
    else plain[key] = value;
  }
  return { plain, secret };
}

/** Tokens and MCP never reach secrets (spec "Personal tokens" 5): writing one is a signed-in person's. */
export function secretWriteProblem(ctx: CommandContext, secret: readonly SecretWrite[]): ForbiddenError | null {
  return secret.length && ctx.actor.type !== "user" ? new ForbiddenError("Secret values are written only by a signed-in person, never by a token.") : null;
}

/** History keys of secret writes (`fields.<key>`), each changed: diffed as hidden, never with values. */
export const secretHistoryKeys = (secret: readonly SecretWrite[]): Record<string, boolean> => Object.fromEntries(secret.map((s) => [`fields.${s.key}`, true]));

/** The stored text of a value: sealed for its row and field, or empty for a cleared one. */
export function sealFor(w: Pick<SecretRowWrite, "accountId" | "entity" | "entityId" | "fieldId" | "value">): string {
  if (w.value === null) return "";
  return secretBox().seal({ accountId: w.accountId, entity: w.entity, entityId: w.entityId, fieldId: w.fieldId }, w.value);
}

/**
 * Upserts the rows in one statement per owner kind (thing, place). Call it after the segment's
 * own rows are written: a new thing must exist before its secret row can name it.
 */
export async function writeSecretValues(ctx: CommandContext, writes: readonly SecretRowWrite[]): Promise<void> {
  for (const entity of ["thing", "place"] as const) {
    // The last write of one row and field wins (a segment never holds one target twice, but be sure).
    const byRow = new Map<string, SecretRowWrite>();
    for (const w of writes) if (w.entity === entity) byRow.set(`${w.entityId}:${w.fieldId}`, w);
    if (!byRow.size) continue;
    const payload = JSON.stringify([...byRow.values()].map((w) => [newId(), w.locationId, w.entityId, w.fieldId, sealFor(w)]));
    const column = sql.raw(entity === "thing" ? "thing_id" : "place_id");
    await rows(
      ctx.tx,
      sql`INSERT INTO secret_values (id, location_id, ${column}, field_id, ciphertext, row_version, created_at, updated_at)
          SELECT (e->>0)::uuid, (e->>1)::uuid, (e->>2)::uuid, (e->>3)::uuid, e->>4, 1, ${ctx.now.toISOString()}::timestamptz, ${ctx.now.toISOString()}::timestamptz
          FROM jsonb_array_elements(${payload}::jsonb) AS e
          ON CONFLICT (${column}, field_id) WHERE ${column} IS NOT NULL
          DO UPDATE SET ciphertext = excluded.ciphertext, row_version = secret_values.row_version + 1, updated_at = excluded.updated_at`,
    );
  }
}

/** The rows to write for `secret` on one thing or place of `locationId` (its owner account's key). */
export function secretRowsFor(
  ctx: CommandContext,
  locationId: string,
  entity: "thing" | "place",
  entityId: string,
  secret: readonly SecretWrite[],
): SecretRowWrite[] {
  const accountId = ctx.accounts.get(locationId);
  if (!accountId) throw new Error(`no owner account for location ${locationId}`);
  return secret.map((s) => ({ ...s, locationId, accountId, entity, entityId }));
}
