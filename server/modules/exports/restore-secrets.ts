/**
 * Secret values come back only from an export the owner made with them (the export holds them
 * opened, since a sealed value is bound to its thing's id and its account's key): each is sealed
 * again for the restored thing or place, under the target account's key.
 */
import { rows, sql, type Tx } from "../../db/client.js";
import { ValidationError } from "../../errors/classes.js";
import { secretBox } from "../../db/secret-box.js";
import type { Scope } from "./restore-rows.js";
import { v7 as uuidv7 } from "uuid";

export interface ExportedSecret {
  id: string;
  thingId: string | null;
  placeId: string | null;
  fieldId: string;
  value: unknown;
}

export async function restoreSecrets(tx: Tx, scope: Scope, list: ExportedSecret[], ids: Map<string, string>, crossAccount: boolean): Promise<number> {
  const box = secretBox();
  let n = 0;
  for (const s of list) {
    if (s === null || typeof s !== "object" || s.value === null || s.value === undefined) continue; // not readable when exported
    const entity = s.thingId ? ("thing" as const) : ("place" as const);
    const entityId = ids.get(String(s.thingId ?? s.placeId));
    const fieldId = crossAccount ? ids.get(String(s.fieldId)) : String(s.fieldId);
    if (!entityId || !fieldId) throw new ValidationError("A secret value in the zip belongs to nothing the export holds.");
    // The thing or place was restored (it may have been left out) and the field is the account's.
    const [ok] = await rows<{ here: boolean; field: boolean }>(
      tx,
      sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(entity === "thing" ? "things" : "places")} WHERE id = ${entityId} AND location_id = ${scope.locationId}) AS here,
                 EXISTS (SELECT 1 FROM type_fields WHERE id = ${fieldId} AND account_id = ${scope.accountId}) AS field`,
    );
    if (!ok!.field) throw new ValidationError("A secret value in the zip is of a field outside this account.");
    if (!ok!.here) continue;
    const ciphertext = box.seal({ accountId: scope.accountId, entity, entityId, fieldId }, s.value);
    await tx.execute(
      sql`INSERT INTO secret_values (id, location_id, thing_id, place_id, field_id, ciphertext)
          VALUES (${uuidv7()}, ${scope.locationId}, ${entity === "thing" ? entityId : null}, ${entity === "place" ? entityId : null}, ${fieldId}, ${ciphertext})`,
    );
    n += 1;
  }
  return n;
}
