/**
 * The locations and owner accounts the actor can read, as app_readable_locations() and
 * app_readable_accounts() answer inside its transaction: what shapes proxy and where a dropped op's
 * inbox item may land.
 */
import { type Tx, rows, sql } from "../db/client.js";

/** Locations the actor can read in this transaction (membership, two-factor gate, token scope). */
export async function readableLocations(tx: Tx): Promise<string[]> {
  const [r] = await rows<{ ids: string[] }>(tx, sql`SELECT app_readable_locations()::text[] AS ids`);
  return r?.ids ?? [];
}

/** Owner accounts whose registries the actor reads: those of the readable locations. */
export async function readableAccounts(tx: Tx): Promise<string[]> {
  const [r] = await rows<{ ids: string[] }>(tx, sql`SELECT app_readable_accounts()::text[] AS ids`);
  return r?.ids ?? [];
}
