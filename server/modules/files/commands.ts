/** file.create: records an uploaded blob as a file of a location (the bytes are stored first). */
import { inArray } from "drizzle-orm";
import { fileCreateArgs, type FileCreateArgs } from "../../../shared/files.js";
import { bulkInsert } from "../../commands/bulk.js";
import { applied, defineCommand, rejected, type Verdict } from "../../commands/types.js";
import { files } from "../../db/schema/index.js";
import { ConflictError } from "../../errors/classes.js";

export const fileCreate = defineCommand<FileCreateArgs>({
  name: "file.create",
  args: fileCreateArgs,
  minRole: "member",
  creates: true,
  async run(ctx, ops) {
    const existing = new Map(
      (
        await ctx.tx
          .select()
          .from(files)
          .where(
            inArray(
              files.id,
              ops.map((o) => o.args.id),
            ),
          )
      ).map((f) => [f.id, f]),
    );
    const verdicts: Verdict[] = [];
    const inserts: (typeof files.$inferSelect)[] = [];
    for (const { args, input } of ops) {
      const found = existing.get(args.id);
      // The same upload again (a retry after a lost answer) is fine; another blob under that id is not.
      if (found) {
        verdicts.push(
          found.sha256 === args.sha256 && found.locationId === input.locationId
            ? applied(ctx, found.id, found.rowVersion, null)
            : rejected(new ConflictError("A record with this id or code already exists.")),
        );
        continue;
      }
      inserts.push({
        id: args.id,
        locationId: input.locationId,
        sha256: args.sha256,
        size: args.size,
        mime: args.mime,
        width: null,
        height: null,
        thumbSha256: null,
        createdBy: ctx.actor.userId,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      });
      verdicts.push(applied(ctx, args.id, 1, null));
    }
    await bulkInsert(ctx.tx, files, inserts);
    return verdicts;
  },
});
