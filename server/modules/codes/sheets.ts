/**
 * labelsheet.create: an admin prints a sheet of codes nobody holds yet. The codes are drawn by the
 * database (app_short_code(), the alphabet of every code) and registered in `codes` with the
 * sheet's id; a draw that meets a taken code is simply drawn again, so a sheet always has its size.
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { LABEL_SHEET_MAX } from "../../../shared/codes.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { rows, sql } from "../../db/client.js";
import { labelSheets } from "../../db/schema/index.js";

export const labelSheetCreateArgs = z.object({ id: uuidSchema, count: z.number().int().min(1).max(LABEL_SHEET_MAX) }).strict();

/** Rounds of drawing before giving up: with a million codes taken out of 729 million, one round almost always fills a sheet. */
const MAX_ROUNDS = 20;

export const labelSheetCreate = defineCommand({
  name: "labelsheet.create",
  args: labelSheetCreateArgs,
  minRole: "admin",
  creates: true,
  run: (ctx, ops) =>
    eachOp(ctx, ops, async (changes, { args, input }) => {
      let missing = args.count;
      for (let round = 0; missing > 0; round++) {
        if (round === MAX_ROUNDS) throw new Error("could not draw free codes for a label sheet");
        const made = await rows<{ code: string }>(
          ctx.tx,
          sql`INSERT INTO codes (id, location_id, code, sheet_id)
              SELECT gen_random_uuid(), ${input.locationId}::uuid, app_short_code(), ${args.id}::uuid FROM generate_series(1, ${missing}::int)
              ON CONFLICT (code) DO NOTHING RETURNING code`,
        );
        missing -= made.length;
      }
      changes.insert(labelSheets, { id: args.id, locationId: input.locationId, size: args.count, createdBy: ctx.actor.userId, createdAt: ctx.now });
      changes.applied(args.id, 1, null);
    }),
});
