/**
 * Moves of boxes between locations (spec "Move and box", POST /locations/{id}/moves): a household
 * moving house, a mover with a truck. Boxes are containers given a number per move; each is packed,
 * loaded (`in_transit`) and unpacked in the target location, by scanning its code, offline too.
 */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
export const MOVE_STATUSES = ["active", "finished", "cancelled"] as const;
export type MoveStatus = (typeof MOVE_STATUSES)[number];

export const BOX_STATES = ["packed", "in_transit", "unpacked"] as const;
export type BoxState = (typeof BOX_STATES)[number];

export const MOVE_NAME_MAX = 120;
export const DESTINATION_NAME_MAX = 120;

const moveName = z.string().trim().min(1).max(MOVE_NAME_MAX);
const at = z.iso.datetime({ offset: true });

/**
 * Where a box goes: a place (of the target location, or of the move's own when it has no target)
 * and/or a name written on the box ("kitchen") until such a place exists. Null clears it.
 */
export const destinationInput = z
  .object({
    placeId: uuidSchema.nullable().optional(),
    name: z.string().trim().min(1).max(DESTINATION_NAME_MAX).optional(),
  })
  .strict()
  .refine((d) => !!d.placeId || !!d.name, "destination needs a placeId or a name")
  .nullable();
export type DestinationInput = z.infer<typeof destinationInput>;

export const moveCreateArgs = z.object({ id: uuidSchema, name: moveName, toLocationId: uuidSchema.nullable().optional() }).strict();
export type MoveCreateArgs = z.infer<typeof moveCreateArgs>;
/** REST POST /locations/{id}/moves: the server makes the id when the client does not. */
export const moveCreateBody = moveCreateArgs.partial({ id: true });

const movePatchShape = z
  .object({ name: moveName, toLocationId: uuidSchema.nullable(), status: z.enum(["finished", "cancelled"]) })
  .partial()
  .strict();
export const moveUpdateArgs = z
  .object({ id: uuidSchema, patch: movePatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field") })
  .strict();
export type MoveUpdateArgs = z.infer<typeof moveUpdateArgs>;
export const movePatchBody = movePatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field");

/** A box of a move is named by the move and the container (one live box per container and move). */
const boxRef = { moveId: uuidSchema, containerId: uuidSchema };

export const boxAddArgs = z.object({ id: uuidSchema, ...boxRef, destination: destinationInput.optional(), at: at.optional() }).strict();
export type BoxAddArgs = z.infer<typeof boxAddArgs>;
export const boxAddBody = z.object({ id: uuidSchema.optional(), containerId: uuidSchema, destination: destinationInput.optional() }).strict();

/** An op that names neither changes nothing (REST's PATCH asks for one of them). */
export const boxUpdateArgs = z
  .object({ ...boxRef, destination: destinationInput.optional(), state: z.enum(BOX_STATES).optional(), at: at.optional() })
  .strict();
export type BoxUpdateArgs = z.infer<typeof boxUpdateArgs>;
export const boxPatchBody = z
  .object({ destination: destinationInput.optional(), state: z.enum(BOX_STATES).optional(), rowVersion: z.number().int().min(1).optional() })
  .strict()
  .refine((a) => a.destination !== undefined || a.state !== undefined, "give a destination or a state");

/** A scan in the truck: `at` is the device's time (the box's stateAt). */
export const boxScanArgs = z.object({ ...boxRef, at }).strict();
export type BoxScanArgs = z.infer<typeof boxScanArgs>;

export const boxRemoveArgs = z.object(boxRef).strict();
export type BoxRemoveArgs = z.infer<typeof boxRemoveArgs>;

/** The state each scan op leads to. */
export const SCAN_STATES = { "box.load": "in_transit", "box.unload": "packed", "box.unpack": "unpacked" } as const satisfies Record<string, BoxState>;

/**
 * Whether a box in `from` may go to `to`: unpacked is final; `same` when it is already there
 * (the same scan twice changes nothing and is no error).
 */
export function boxTransition(from: BoxState, to: BoxState): "same" | "ok" | "refused" {
  if (from === to) return "same";
  if (from === "unpacked") return "refused";
  return "ok";
}

export const moveListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  cursor: z.string().max(2048).optional(),
});

export const destinationSchema = z.object({ placeId: uuidSchema.nullable(), name: z.string() }).nullable();

export const boxSchema = z
  .object({
    moveId: uuidSchema,
    containerId: uuidSchema,
    number: z.number().int(),
    state: z.string(),
    stateAt: timestampSchema,
    visible: z.boolean(),
    name: z.string().nullable(),
    shortCode: z.string().nullable(),
    where: z.string().nullable(),
    contents: z.number().int(),
    destination: destinationSchema,
    rowVersion: z.number().int(),
  })
  .meta({ id: "MoveBox" });
export type MoveBox = z.infer<typeof boxSchema>;

export const moveSchema = z
  .object({
    id: uuidSchema,
    locationId: uuidSchema,
    toLocationName: z.string().nullable(),
    name: z.string(),
    status: z.string(),
    createdBy: z.object({ displayName: z.string() }),
    createdAt: timestampSchema,
    finishedAt: timestampSchema.nullable(),
    counts: z.object({ packed: z.number().int(), in_transit: z.number().int(), unpacked: z.number().int(), total: z.number().int() }),
    rowVersion: z.number().int(),
    boxes: z.array(boxSchema),
  })
  .meta({ id: "Move" });
export type Move = z.infer<typeof moveSchema>;
