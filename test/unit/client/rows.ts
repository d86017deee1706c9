/** Client row fixtures shared by the unit tests: a thing with every column, as the things shape stores it. */
import type { ThingRow } from "../../../client/db/rows.js";

export const AT = "2026-11-22T10:00:00.000Z";

/** A live thing; a test gives its id, location and place and overrides what it is about. */
export function thingRow(base: Pick<ThingRow, "id" | "locationId" | "placeId">, over: Partial<ThingRow> = {}): ThingRow {
  return {
    ...base,
    containerId: null,
    typeId: null,
    name: "Thing",
    description: null,
    quantity: "1.000",
    lifecycle: "active",
    condition: null,
    brandId: null,
    tagIds: [],
    model: null,
    colour: null,
    serial: null,
    fields: {},
    fieldStatus: {},
    shortCode: null,
    isContainer: false,
    coverFileId: null,
    photoFileIds: [],
    lastSeenAt: AT,
    missingSince: null,
    createdBy: null,
    rowVersion: 1,
    createdAt: AT,
    updatedAt: AT,
    deletedAt: null,
    ...over,
  };
}
