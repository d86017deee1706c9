/**
 * Registries for routes (and later MCP tools): reads check the location first; each write is one
 * actor transaction that finds the row (and so its account), picks the location to act through,
 * runs the command and reads the answer back (server/modules/write.ts).
 */
import { actingLocation } from "../../access/acting.js";
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type {
  Brand,
  brandCreateBody,
  fieldArchiveBody,
  fieldBody,
  fieldPatchBody,
  PlaceKind,
  placeKindCreateBody,
  Tag,
  tagCreateBody,
  Type,
  typeCreateBody,
  TypeField,
  typePatchBody,
} from "../../../shared/registries.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import {
  accountOfLocation,
  brandRecord,
  brandsOfAccount,
  fieldRecord,
  findField,
  findPlaceKind,
  findType,
  placeKindRecord,
  placeKindsOfAccount,
  tagRecord,
  tagsOfAccount,
  typeRecord,
  typesOfAccount,
} from "./read.js";

const list =
  <T>(read: (tx: Tx, accountId: string) => Promise<T[]>) =>
  ({ db }: ServiceDeps, actor: Actor, locationId: string): Promise<T[]> =>
    withActor(db, actor, async (tx) => read(tx, await accountOfLocation(tx, locationId)));

/** The account's types (archived ones flagged), each with every field it sees. */
export const listTypes = list(typesOfAccount);
export const listPlaceKinds = list(placeKindsOfAccount);
export const listBrands = list(brandsOfAccount);
export const listTags = list(tagsOfAccount);

/** Runs a registry command through the location the actor acts in for the account of `locationId`. */
function createIn<B extends object, T>(
  name: string,
  read: (tx: Tx, id: string) => Promise<T>,
): (deps: ServiceDeps, actor: Actor, locationId: string, body: B & { id?: string | undefined }) => Promise<Written<T>> {
  return (deps, actor, locationId, body) => {
    const id = body.id ?? uuidv7();
    return writeOne(
      deps,
      actor,
      async (tx) => ({ name, locationId: await actingLocation(tx, await accountOfLocation(tx, locationId), [locationId]), args: { ...body, id } }),
      (tx) => read(tx, id),
    );
  };
}

export const createType = createIn<z.infer<typeof typeCreateBody>, Type>("type.create", typeRecord);
export const createPlaceKind = createIn<z.infer<typeof placeKindCreateBody>, PlaceKind>("place_kind.create", placeKindRecord);
export const createBrand = createIn<z.infer<typeof brandCreateBody>, Brand>("brand.create", brandRecord);
export const createTag = createIn<z.infer<typeof tagCreateBody>, Tag>("tag.create", tagRecord);

export function updateType(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof typePatchBody>): Promise<Written<Type>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({
      name: "type.update",
      locationId: await actingLocation(tx, (await findType(tx, id)).accountId),
      baseVersion: rowVersion,
      args: { id, patch },
    }),
    (tx) => typeRecord(tx, id),
  );
}

/** A new field of a type (`owner: "type"`) or of a place kind. */
export function createField(
  deps: ServiceDeps,
  actor: Actor,
  owner: "type" | "placeKind",
  ownerId: string,
  body: z.infer<typeof fieldBody>,
): Promise<Written<TypeField>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    async (tx) => {
      const accountId = owner === "type" ? (await findType(tx, ownerId)).accountId : (await findPlaceKind(tx, ownerId)).accountId;
      return {
        name: "type_field.create",
        locationId: await actingLocation(tx, accountId),
        args: { ...body, id, ...(owner === "type" ? { typeId: ownerId } : { placeKindId: ownerId }) },
      };
    },
    async (tx) => fieldRecord(await findField(tx, id)),
  );
}

export function updateField(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof fieldPatchBody>): Promise<Written<TypeField>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({
      name: "type_field.update",
      locationId: await actingLocation(tx, (await findField(tx, id)).accountId),
      ...(rowVersion !== undefined ? { baseVersion: rowVersion } : {}),
      args: { id, patch },
    }),
    async (tx) => fieldRecord(await findField(tx, id)),
  );
}

/** Archives a field: offered for no new value, the values entered are kept. */
export function archiveField(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof fieldArchiveBody>): Promise<Written<TypeField>> {
  return writeOne(
    deps,
    actor,
    async (tx) => ({
      name: "type_field.archive",
      locationId: await actingLocation(tx, (await findField(tx, id)).accountId),
      ...(body.rowVersion !== undefined ? { baseVersion: body.rowVersion } : {}),
      args: { id },
    }),
    async (tx) => fieldRecord(await findField(tx, id)),
  );
}
