/**
 * Review actions on inbox items: accept (a draft becomes an active thing), dismiss (a draft is
 * discarded, undoably), merge (a draft folds into an existing thing). Each marks the item resolved,
 * so it leaves the inbox shape. A segment of reviews locks its items, then the things they touch,
 * in one statement each, works in memory and writes once.
 */
import type { z } from "zod";
import { THING_PHOTOS_MAX } from "../../../shared/thing-photos.js";
import { inboxAcceptArgs, inboxActArgs, inboxMergeArgs, type InboxAcceptArgs, type InboxActArgs, type InboxMergeArgs } from "../../../shared/inbox-actions.js";
import { lockRows } from "../../commands/bulk.js";
import { SegmentChanges } from "../../commands/segment.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { inboxItems, things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { raiseDuplicates } from "../duplicates/raise.js";
import { changeThing } from "../things/changes.js";
import { TARGET_KEYS, writeValues, type ThingRow, type ThingTarget } from "../things/values.js";
import { ITEM_KEYS, type Item, type KindReview } from "../../commands/inbox-review.js";
import { KIND_REVIEWS } from "./kinds.js";

/** Attributes a merge copies from the draft where the target has none. */
const FILLABLE = ["description", "brandId", "model", "colour", "serial", "condition"] as const;

/** Whatever a review reads or writes of a thing: the segment's one update sets the union. */
const THING_KEYS = [...TARGET_KEYS, "lifecycle", "fields", "photoFileIds", "coverFileId", ...FILLABLE] as const;

type Status = Item["status"];
type Thing = ThingTarget & Pick<ThingRow, (typeof THING_KEYS)[number]>;

/** What the reviews of one segment share: the things as earlier reviews left them, and the writes. */
class Review {
  constructor(
    private readonly ctx: CommandContext,
    private readonly things: Map<string, Thing>,
    readonly changes: SegmentChanges,
    /** What each kind's review loaded for this segment (kinds.ts). */
    private readonly kindStates: Map<string, unknown> = new Map(),
  ) {}

  /** Drafts this segment accepted: checked for duplicates once written. */
  readonly accepted: string[] = [];

  /**
   * Runs the item's kind review (kinds.ts), if its kind has one: answers false when it refused the
   * op (already answered), else true and the event id of its effect.
   */
  kindEffect(item: Item, how: "accept" | "dismiss", args: InboxAcceptArgs): { ok: false } | { ok: true; eventId: string | null } {
    const review = KIND_REVIEWS[item.kind] as KindReview | undefined;
    if (!review) return { ok: true, eventId: null };
    const state = this.kindStates.get(item.kind);
    const out = how === "accept" ? review.accept(this.ctx, this.changes, item, state, args) : review.dismiss(this.ctx, this.changes, item, state);
    if ("eventId" in out) return { ok: true, eventId: out.eventId };
    this.changes.refuse(out);
    return { ok: false };
  }

  /** The time of the batch, as history values carry it. */
  now(): string {
    return this.ctx.now.toISOString();
  }

  /** The thing, if it is live in the location (a dropped or deleted thing is not reviewed). */
  live(id: string | null | undefined, locationId: string): Thing | null {
    const t = id ? this.things.get(id) : undefined;
    return t && t.locationId === locationId && !t.deletedAt ? t : null;
  }

  /** Writes `values` into a thing with one history entry; answers the entry's id. */
  change(t: Thing, values: Record<string, unknown>, action: string, summaryKey: string, summaryParams: Record<string, string> = {}): string {
    const next = { ...writeValues(t, values), rowVersion: t.rowVersion + 1, updatedAt: this.ctx.now };
    this.things.set(t.id, next);
    return changeThing(this.changes, t, next, { action, keys: Object.keys(values), summaryKey, summaryParams });
  }

  /** Marks the item resolved and answers the op. */
  resolve(item: Item, status: Status, payload: Record<string, unknown> = {}, undoEventId: string | null = null): void {
    const { ctx } = this;
    const rowVersion = item.rowVersion + 1;
    const next = {
      id: item.id,
      status,
      resolvedAt: ctx.now,
      resolvedBy: ctx.actor.userId,
      rowVersion,
      updatedAt: ctx.now,
      payload: { ...item.payload, ...payload },
      undoEventId,
    };
    this.changes.update(inboxItems, next, ["status", "resolvedAt", "resolvedBy", "rowVersion", "updatedAt", "payload", "undoEventId"]);
    this.changes.applied(item.id, rowVersion, undoEventId);
  }
}

const reviewed = (item: Item) => (item.status === "open" ? null : new ConflictError(`This item was already reviewed (${item.status}).`));

/**
 * A review command: each op's item must be open in the op's location; `touches` names the things
 * the review may change (locked with the items), `review` answers the op through `r`.
 */
function reviewCommand<A extends InboxActArgs>(
  name: string,
  args: z.ZodType<A>,
  touches: (item: Item, args: A) => (string | null | undefined)[],
  review: (r: Review, item: Item, args: A, locationId: string) => void,
  refs?: (a: A) => (string | null | undefined)[],
) {
  return defineCommand<A>({
    name,
    args,
    minRole: "member",
    // Said, not defaulted: the default cannot see that every A has an id.
    target: (a) => a.id,
    ...(refs ? { refs } : {}),
    async run(ctx, ops) {
      const items = await lockTargets(ctx, inboxItems, { entity: "inbox item", tombstone: "not-found" }, ops, ITEM_KEYS);
      const problems = ops.map((op) => items.problem(op, items.get(op.args.id), { also: reviewed }));
      const thingIds = new Set<string>();
      ops.forEach((op, i) => {
        if (problems[i]) return;
        for (const id of touches(items.get(op.args.id)!, op.args)) if (id) thingIds.add(id);
      });
      const byKind = new Map<string, Item[]>();
      const argsOf = new Map<string, InboxAcceptArgs>();
      ops.forEach((op, i) => {
        const item = items.get(op.args.id);
        if (problems[i] || !item || !KIND_REVIEWS[item.kind]) return;
        byKind.set(item.kind, [...(byKind.get(item.kind) ?? []), item]);
        argsOf.set(item.id, op.args);
      });
      const [found, ...states] = await Promise.all([
        lockRows(ctx.tx, things, [...thingIds], THING_KEYS) as Promise<Thing[]>,
        ...[...byKind].map(([kind, list]) => (KIND_REVIEWS[kind as Item["kind"]] as KindReview).load(ctx, list, argsOf)),
      ]);
      const kindStates = new Map([...byKind.keys()].map((kind, i) => [kind, states[i]]));
      const r = new Review(ctx, new Map(found.map((t) => [t.id, t])), new SegmentChanges(ctx), kindStates);
      ops.forEach((op: Op<A>, i) => {
        const problem = problems[i];
        if (problem) r.changes.refuse(problem);
        else review(r, items.get(op.args.id)!, op.args, op.input.locationId);
      });
      const verdicts = await r.changes.write();
      for (const [kind, state] of kindStates) await (KIND_REVIEWS[kind as Item["kind"]] as KindReview).after?.(ctx, state);
      await raiseDuplicates(ctx, r.accepted);
      return verdicts;
    },
  });
}

export const inboxAccept = reviewCommand<InboxAcceptArgs>(
  "inbox.accept",
  inboxAcceptArgs,
  (item) => [item.thingId],
  (r, item, args, loc) => {
    const effect = r.kindEffect(item, "accept", args);
    if (!effect.ok) return;
    const t = item.kind === "draft" ? r.live(item.thingId, loc) : null;
    const draft = t?.lifecycle === "draft" ? t : null;
    const eventId = draft ? r.change(draft, { lifecycle: "active" }, "thing.updated", "thing.accepted") : effect.eventId;
    if (draft) r.accepted.push(draft.id);
    r.resolve(item, "accepted", {}, eventId);
  },
  // A receipt's line may link a thing made earlier in the same push.
  (a) => (a.lines ?? []).map((l) => l.thingId),
);

export const inboxDismiss = reviewCommand<InboxActArgs>(
  "inbox.dismiss",
  inboxActArgs,
  (item) => (item.kind === "draft" ? [item.thingId] : []),
  (r, item, _args, loc) => {
    // A dismissed draft is discarded as a tombstone, undoable from its history like any delete.
    const effect = r.kindEffect(item, "dismiss", { id: item.id });
    if (!effect.ok) return;
    const t = item.kind === "draft" ? r.live(item.thingId, loc) : null;
    const eventId = t?.lifecycle === "draft" ? r.change(t, { deletedAt: r.now() }, "thing.deleted", "thing.deleted") : effect.eventId;
    r.resolve(item, "dismissed", {}, eventId);
  },
);

export const inboxMerge = reviewCommand<InboxMergeArgs>(
  "inbox.merge",
  inboxMergeArgs,
  (item, args) => [item.thingId, args.into],
  (r, item, args, loc) => {
    const draft = r.live(item.thingId, loc);
    const target = r.live(args.into, loc);
    let problem: AppError | null = null;
    if (!draft) problem = new ValidationError("Only an item with a captured thing can be merged.");
    else if (!target) problem = new NotFoundError("thing to merge into");
    else if (target.id === draft.id) problem = new ValidationError("into: a thing cannot be merged into itself.");
    if (problem || !draft || !target) return r.changes.refuse(problem!);
    const values: Record<string, unknown> = {};
    for (const k of FILLABLE) if (target[k] === null && draft[k] !== null) values[k] = draft[k];
    for (const [k, v] of Object.entries(draft.fields)) if (!(k in target.fields)) values[`fields.${k}`] = v;
    // The capture's photos join the thing's (server/modules/things/photos.ts), as many as it may hold.
    const photos = [...new Set([...target.photoFileIds, ...draft.photoFileIds])].slice(0, Math.max(THING_PHOTOS_MAX, target.photoFileIds.length));
    if (photos.length > target.photoFileIds.length) {
      values.photoFileIds = photos;
      if (!target.coverFileId) values.coverFileId = draft.coverFileId ?? photos[0];
    }
    const merged = r.change(target, values, "thing.merged", "thing.merged", { mergedFromId: draft.id, mergedFromName: draft.name ?? "" });
    r.change(draft, { deletedAt: r.now() }, "thing.deleted", "thing.merged_away", { into: target.name ?? "" });
    r.resolve(item, "merged", { mergedInto: target.id }, merged);
  },
  (a) => [a.into],
);
