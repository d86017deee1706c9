/**
 * How the hostile suites make a live row of each kind of id: one file per module (named as its
 * folder under server/modules/), holding exactly the kinds its manifest's `idKinds` names.
 */
import type { SQL } from "drizzle-orm";
import type { Db } from "../../../../server/db/client.js";
import type { HttpClient, TestService } from "../../app.js";
import type { IdKind } from "../ids.js";

export type Client = HttpClient & { email: string; userId: string };

/** What a maker works with: the tenant's service, owner, location and the ids made so far. */
export interface MakerContext {
  svc: TestService;
  db: Db;
  /** The tenant's name, in every name it gives a row (so one tenant's rows are told from another's). */
  name: string;
  owner: Client;
  location: string;
  ids: Record<IdKind, string>;
  scope: { locationIds: string[]; userIds: string[] };
  /** A new number for each row's name. */
  next(): number;
  /** Makes a row of another kind (a template needs a thing). */
  make(kind: IdKind): Promise<void>;
}

export interface KindDef {
  /** Makes a live row of this kind and sets its id (and the ids of the kinds it brings along). */
  make?: (t: MakerContext) => Promise<void>;
  /** Made by that kind's maker (a thing brings its history event), never on its own. */
  madeWith?: IdKind;
  /** Whether the current row can still be acted on; absent: always (never deleted, or reusable). */
  alive?: (ids: Record<IdKind, string>, location: string) => SQL;
  /** The table whose row_version a write to this kind must carry (by the row's id). */
  table?: string;
  /** The row_version a write must carry, where the id is not the row's own (a member is named by user). */
  rowVersion?: (db: Db, id: string) => Promise<number>;
}

/** A module's kinds, in the order they are made when the tenant is seeded. */
export type ModuleKinds = Partial<Record<IdKind, KindDef>>;

/** The answer's body, or a thrown error naming what failed (a seed that half works makes suites lie). */
export async function ok<T = any>(res: Promise<{ status: number; body: T }>, what: string, expected = [200, 201]): Promise<T> {
  const r = await res;
  if (!expected.includes(r.status)) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}
