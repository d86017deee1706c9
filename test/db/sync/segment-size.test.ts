/**
 * Issue 31 finding 14: a segment's handler runs on the event loop between its queries, so the
 * executor hands it at most SEGMENT_MAX_OPS ops; a 1000-op push no longer holds /health for the
 * time of 1000 ops at once (test/bench: postgres.healthP99DuringPushMs).
 */
import { v7 as uuidv7 } from "uuid";
import { expect } from "vitest";
import { z } from "zod";
import { userActor } from "../../../server/db/actor.js";
import { createExecutor, SEGMENT_MAX_OPS } from "../../../server/commands/executor.js";
import { commandRegistryOf, defineCommand } from "../../../server/commands/types.js";
import { apiTest as test } from "../../support/fixtures.js";

test("a 1000-op batch of one command reaches its handler in segments of at most SEGMENT_MAX_OPS, in order", async ({ svc, loc, as }) => {
  const seen: string[][] = [];
  const noop = defineCommand<{ id: string }>({
    name: "test.noop",
    args: z.object({ id: z.uuid() }),
    minRole: "member",
    target: (a) => a.id,
    async run(ctx, ops) {
      seen.push(ops.map((o) => o.args.id));
      return ops.map((o) => ({ status: "applied" as const, entityId: o.args.id, rowVersion: 1, txid: ctx.txid, eventId: null }));
    },
  });
  const executor = createExecutor(commandRegistryOf([noop]));
  const ids = Array.from({ length: 1000 }, () => uuidv7());
  const actor = userActor({ id: as.member.userId, name: as.member.email }, { mfaProven: true });
  const verdicts = await executor.executeBatch(
    svc.database.db,
    actor,
    ids.map((id) => ({ name: "test.noop", locationId: loc, args: { id } })),
    { undoWindowMs: svc.config.undoWindowMs },
  );
  expect(verdicts.every((v) => v.status === "applied")).toBe(true);
  expect(SEGMENT_MAX_OPS).toBeLessThanOrEqual(250);
  expect(Math.max(...seen.map((s) => s.length))).toBeLessThanOrEqual(SEGMENT_MAX_OPS);
  expect(seen.length).toBe(Math.ceil(1000 / SEGMENT_MAX_OPS));
  expect(seen.flat()).toEqual(ids);
});
