/**
 * The people loans name: members of a location (by user id) and contacts of an owner account. Read
 * in one query each for a segment, through the actor's row-level security.
 */
import { rows, sql, uuidArray, type Tx } from "../../db/client.js";

export interface People {
  /** `${locationId}:${userId}` of live memberships, with the member's display name. */
  members: Map<string, string>;
  /** Contacts by id: their account and name (tombstoned ones left out). */
  contacts: Map<string, { accountId: string; name: string }>;
}

export async function loadPeople(tx: Tx, want: { locationIds: string[]; userIds: string[]; contactIds: string[] }): Promise<People> {
  const [members, contacts] = await Promise.all([
    want.userIds.length
      ? rows<{ location_id: string; user_id: string; name: string | null }>(
          tx,
          sql`SELECT m.location_id::text AS location_id, m.user_id::text AS user_id, u.name FROM memberships m JOIN users u ON u.id = m.user_id
              WHERE m.location_id = ANY(${uuidArray(want.locationIds)}) AND m.user_id = ANY(${uuidArray(want.userIds)}) AND m.deleted_at IS NULL`,
        )
      : [],
    want.contactIds.length
      ? rows<{ id: string; account_id: string; name: string }>(
          tx,
          sql`SELECT id::text AS id, account_id::text AS account_id, name FROM contacts WHERE id = ANY(${uuidArray(want.contactIds)}) AND deleted_at IS NULL`,
        )
      : [],
  ]);
  return {
    members: new Map(members.map((m) => [`${m.location_id}:${m.user_id}`, m.name ?? ""])),
    contacts: new Map(contacts.map((c) => [c.id, { accountId: c.account_id, name: c.name }])),
  };
}
