/**
 * loan.return and loan.update. A return puts the thing back where it was when it went out (the
 * loan's previousPlace) unless the person says elsewhere; a split thing joins its original again
 * (split.ts), or simply stays if the original was deleted meanwhile. Returning twice is refused
 * (409); the same pushed op twice is a duplicate through the write path's idempotency.
 */
import { Decimal } from "decimal.js";
import { loanReturnArgs, loanUpdateArgs, utcDay, type LoanReturnArgs, type LoanUpdateArgs } from "../../../shared/loans.js";
import { lockRows } from "../../commands/bulk.js";
import { pick } from "../../commands/history.js";
import { eachOp, onTargets } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { loans, things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { changeThing } from "../things/changes.js";
import { containerAncestors, loadRefs } from "../things/refs.js";
import type { ThingRow } from "../things/values.js";
import { joinBack } from "./split.js";

type LoanRow = typeof loans.$inferSelect;
const LOAN_KEYS = [
  "locationId",
  "thingId",
  "personName",
  "quantity",
  "splitFromThingId",
  "startedAt",
  "dueOn",
  "notes",
  "returnedAt",
  "previousPlaceId",
  "previousContainerId",
  "returnPlaceId",
  "returnContainerId",
  "conditionIn",
  "rowVersion",
  "deletedAt",
] as const;
type Loan = Pick<LoanRow, (typeof LOAN_KEYS)[number] | "id">;

const lockLoans = (ctx: CommandContext, ops: Op<{ id: string }>[]) => lockTargets(ctx, loans, { entity: "loan", entityType: "loan" }, ops, LOAN_KEYS);

export const loanReturn = defineCommand<LoanReturnArgs>({
  name: "loan.return",
  args: loanReturnArgs,
  minRole: "member",
  refs: (a) => [a.returnPlace?.id],
  async run(ctx, ops) {
    const targets = await lockLoans(ctx, ops);
    const loaded = [...targets.values()];
    const thingIds = [...new Set(loaded.flatMap((l) => [l.thingId, l.splitFromThingId ?? ""]).filter(Boolean))].sort();
    const locked = (await lockRows(ctx.tx, things, thingIds)) as ThingRow[];
    const found = new Map(locked.map((t) => [t.id, t]));
    const asked = ops.map((o) => o.args.returnPlace);
    const containerIds = [...asked.filter((p) => p?.type === "thing").map((p) => p!.id), ...loaded.map((l) => l.previousContainerId)].filter(
      (x): x is string => !!x,
    );
    const placeIds = [...asked.filter((p) => p?.type === "place").map((p) => p!.id), ...loaded.map((l) => l.previousPlaceId), ...locked.map((t) => t.placeId)];
    const [refs, ancestors] = await Promise.all([
      loadRefs(ctx.tx, {
        locationIds: ops.map((o) => o.input.locationId),
        placeIds,
        containerIds: [...containerIds, ...locked.map((t) => t.containerId)],
      }),
      containerAncestors(ctx.tx, containerIds),
    ]);
    const nameOf = (placeId: string | null, containerId: string | null) =>
      (containerId ? refs.containers.get(containerId)?.name : refs.places.get(placeId ?? "")?.name) ?? "";
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const loc = input.locationId;
      const loan = targets.get(args.id);
      let problem: AppError | null = targets.problem(op, loan, {
        fields: "all",
        also: (l) => (l.returnedAt ? new ConflictError("This loan was already returned.") : null),
      });
      const thing = loan ? found.get(loan.thingId) : undefined;
      if (!problem && (!thing || thing.deletedAt)) problem = new ConflictError("The thing on this loan was deleted; there is nothing to return.");
      // Where it goes: where the person says, else where it was when it went out (if that is still there).
      let to: { placeId: string | null; containerId: string | null } | null = null;
      const p = args.returnPlace;
      if (!problem && p?.type === "place") {
        if (refs.places.get(p.id.toLowerCase())?.locationId !== loc) problem = new NotFoundError("place");
        else to = { placeId: p.id.toLowerCase(), containerId: null };
      } else if (!problem && p?.type === "thing") {
        const c = refs.containers.get(p.id.toLowerCase());
        if (c?.locationId !== loc) problem = new NotFoundError("container");
        else if (!c.isContainer) problem = new ValidationError("returnPlace: that thing is not a container.", { field: "returnPlace" });
        else if (c.id === thing?.id || ancestors.get(c.id)?.has(thing?.id ?? ""))
          problem = new ConflictError("A container cannot go inside itself or inside something it holds.");
        else to = { placeId: null, containerId: c.id };
      } else if (!problem && loan) {
        if (loan.previousContainerId && refs.containers.get(loan.previousContainerId)?.locationId === loc)
          to = { placeId: null, containerId: loan.previousContainerId };
        else if (loan.previousPlaceId && refs.places.get(loan.previousPlaceId)?.locationId === loc) to = { placeId: loan.previousPlaceId, containerId: null };
      }
      if (problem || !loan || !thing) return changes.refuse(problem!);
      const original = loan.splitFromThingId ? found.get(loan.splitFromThingId) : undefined;
      let home: ThingRow = thing;
      if (original && !original.deletedAt && original.locationId === loc) {
        home = joinBack(changes, ctx.now, thing, original, loan.quantity);
        found.set(home.id, home);
        found.set(thing.id, { ...thing, deletedAt: ctx.now });
        to = { placeId: home.placeId, containerId: home.containerId };
      } else if (to && (to.placeId !== thing.placeId || to.containerId !== thing.containerId)) {
        const next: ThingRow = { ...thing, ...to, lastSeenAt: ctx.now, rowVersion: thing.rowVersion + 1, updatedAt: ctx.now };
        changeThing(changes, thing, next, {
          action: "thing.moved",
          keys: ["placeId", "containerId"],
          summaryParams: { from: nameOf(thing.placeId, thing.containerId), to: nameOf(next.placeId, next.containerId) },
          touches: ["lastSeenAt"],
        });
        found.set(next.id, (home = next));
      }
      const returnedAt = args.at ? new Date(args.at) : ctx.now;
      const dest = to ?? { placeId: home.placeId, containerId: home.containerId };
      const next: Loan = {
        ...loan,
        returnedAt,
        returnPlaceId: dest.containerId ? null : dest.placeId,
        returnContainerId: dest.containerId,
        conditionIn: args.conditionIn ?? [],
        rowVersion: loan.rowVersion + 1,
      };
      targets.set(next);
      changes.update(loans, { ...next, updatedAt: ctx.now }, ["returnedAt", "returnPlaceId", "returnContainerId", "conditionIn", "rowVersion", "updatedAt"]);
      const eventId = changes.record({
        locationId: loc,
        entityType: "thing",
        entityId: home.id,
        entityName: home.name,
        action: "loan.returned",
        before: {},
        after: { loanId: loan.id, returnedAt: returnedAt.toISOString() },
        summaryKey: "loan.returned",
        summaryParams: { name: home.name ?? "", person: loan.personName, quantity: new Decimal(loan.quantity).toString() },
        rowVersionAfter: home.rowVersion,
        undoable: false,
      });
      changes.applied(loan.id, next.rowVersion, eventId);
    });
  },
});

export const loanUpdate = defineCommand<LoanUpdateArgs>({
  name: "loan.update",
  args: loanUpdateArgs,
  minRole: "member",
  run: onTargets(lockLoans, (changes, op, loan, targets, ctx) => {
    const { args, input } = op;
    const keys = Object.keys(args.patch) as ("dueOn" | "notes")[];
    let problem = targets.problem(op, loan, { fields: keys });
    if (!problem && loan && args.patch.dueOn && args.patch.dueOn < utcDay(loan.startedAt))
      problem = new ValidationError("dueOn: not before the day the loan started.", { field: "dueOn" });
    if (changes.refused(problem, loan)) return;
    const next: Loan = {
      ...loan,
      ...(args.patch.dueOn !== undefined ? { dueOn: args.patch.dueOn } : {}),
      ...(args.patch.notes !== undefined ? { notes: args.patch.notes } : {}),
      rowVersion: loan.rowVersion + 1,
    };
    targets.set(next);
    changes.changed(loans, { ...next, updatedAt: ctx.now }, [...keys, "rowVersion", "updatedAt"], {
      locationId: input.locationId,
      entityType: "loan",
      entityId: loan.id,
      entityName: loan.personName,
      action: "loan.updated",
      before: pick(loan, keys),
      after: pick(next, keys),
      summaryParams: { person: loan.personName },
      undoable: false,
    });
  }),
});
