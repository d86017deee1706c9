/**
 * code.claim: a printed label stuck on a thing or a place. A free label becomes the target's code;
 * a label someone else claimed first (two phones offline, one sheet) is never lost nor dropped:
 * the op is applied as a `label_claim` inbox item for a person to decide (review.ts).
 */
import { newInboxItem } from "../../commands/inbox-items.js";
import { codeClaimArgs, normalizeCode, type CodeClaimArgs } from "../../../shared/codes.js";
import { newId } from "../../commands/ids.js";
import { SegmentChanges } from "../../commands/segment.js";
import { defineCommand } from "../../commands/types.js";
import { inboxItems } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { give, holderOf, loadHolders } from "./holders.js";

export const codeClaim = defineCommand({
  name: "code.claim",
  args: codeClaimArgs,
  minRole: "member",
  // Two claims of one code never share a segment: the second sees what the first did.
  target: (a: CodeClaimArgs) => `code:${normalizeCode(a.code) ?? a.code}`,
  refs: (a) => [a.id],
  async run(ctx, ops) {
    const wanted = ops.map((o) => normalizeCode(o.args.code));
    const st = await loadHolders(
      ctx,
      wanted.filter((c): c is string => !!c),
      ops.map((o) => ({ kind: o.args.kind, id: o.args.id })),
    );
    const changes = new SegmentChanges(ctx);
    ops.forEach((op, i) => {
      const code = wanted[i];
      const loc = op.input.locationId;
      if (!code) return changes.refuse(new ValidationError("code: not a short code (six letters and digits, no 0, O, 1, I, L or U)."));
      const row = st.codes.get(code);
      // A code of a location the actor cannot see was never read: the same answer as an unknown one.
      if (!row || row.locationId !== loc || row.deletedAt) return changes.refuse(new NotFoundError("code"));
      const target = st.holders.get(op.args.id);
      if (!target || target.kind !== op.args.kind || target.locationId !== loc || target.deletedAt) return changes.refuse(new NotFoundError(op.args.kind));
      const held = holderOf(row);
      if (held?.id === target.id) return changes.applied(target.id, target.rowVersion, null);
      if (!held) {
        give(ctx, changes, st, row, target);
        return changes.applied(target.id, st.holders.get(target.id)!.rowVersion, null);
      }
      const holder = st.holders.get(held.id);
      const item = newInboxItem(
        {
          id: newId(),
          locationId: loc,
          kind: "label_claim",
          thingId: target.kind === "thing" ? target.id : null,
          capturedAt: op.input.at ? new Date(op.input.at) : ctx.now,
          createdBy: ctx.actor.userId,
          payload: {
            placePath: [],
            claim: {
              code,
              claimedFor: { kind: target.kind, id: target.id, name: target.name },
              heldBy: { kind: held.kind, id: held.id, name: holder?.name ?? "" },
            },
          },
        },
        ctx.now,
      );
      changes.insert(inboxItems, item);
      changes.applied(item.id, 1, null);
    });
    return changes.write();
  },
});
