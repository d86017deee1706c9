/**
 * What accepting or dismissing a `receipt` or `currency` item does (kinds.ts calls these).
 *
 * Accepting a receipt decides each line: `create` makes a thing of it (name = description,
 * quantity, in the receipt's place; through thing.create, so it has its history entry and meets
 * the duplicate check), `link` ties it to an existing thing of the location, `skip` leaves it;
 * lines not named are created. The purchase keeps, per line, what was decided and which thing it
 * became (`lines[i].action`, `lines[i].thingId`): that is the link between a thing and what it
 * cost. No money is copied onto the things. Everything is checked before anything is written; a
 * bad decision refuses the whole op.
 *
 * Accepting a currency item takes `currency`, one of its options, as the purchase's currency (and
 * its receipt item shows it). Dismissing either leaves the purchase as it was read.
 */
import { eq, inArray } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { InboxAcceptArgs } from "../../../shared/inbox-actions.js";
import type { InboxCurrency, ReceiptLineDecision } from "../../../shared/receipts.js";
import { thingCreateArgs, type ThingCreateArgs } from "../../../shared/things.js";
import { lockRows } from "../../commands/bulk.js";
import type { CommandContext } from "../../commands/types.js";
import { places, purchases, things, type PurchaseLine } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import type { Item, KindReview } from "../../commands/inbox-review.js";
import { thingCreate } from "../things/create.js";
import { mirrorReceipt } from "./mirror.js";

type Purchase = typeof purchases.$inferSelect;

interface ReceiptPlan {
  purchase: Purchase;
  status: "accepted" | "dismissed";
  lines: PurchaseLine[];
  creates: ThingCreateArgs[];
}

interface ReceiptState {
  purchases: Map<string, Purchase>;
  /** Things the ops link, as far as this actor sees them. */
  things: Map<string, { locationId: string; deletedAt: Date | null }>;
  /** The receipts' places that are still there (a line's thing goes unplaced otherwise). */
  livePlaces: Set<string>;
  plans: ReceiptPlan[];
}

const purchaseIdOf = (item: Item) =>
  (item.payload as { purchaseId?: string; receipt?: { purchaseId?: string } }).receipt?.purchaseId ?? (item.payload as { purchaseId?: string }).purchaseId;

async function lockPurchases(ctx: CommandContext, items: Item[]): Promise<Map<string, Purchase>> {
  const ids = [...new Set(items.map(purchaseIdOf).filter((x): x is string => !!x))];
  if (!ids.length) return new Map();
  const found = await ctx.tx.select().from(purchases).where(inArray(purchases.id, ids)).orderBy(purchases.id).for("update");
  return new Map(found.map((p) => [p.id, p]));
}

/** The decided lines and the things to create, or why the decisions cannot be taken. */
function decide(purchase: Purchase, decisions: ReceiptLineDecision[], state: ReceiptState, item: Item): ValidationError | NotFoundError | ReceiptPlan {
  const byIndex = new Map<number, ReceiptLineDecision>();
  for (const d of decisions) {
    if (!purchase.lines.some((l) => l.index === d.index)) return new ValidationError(`lines: this receipt has no line ${d.index}.`, { field: "lines" });
    if (byIndex.has(d.index)) return new ValidationError(`lines: line ${d.index} is decided twice.`, { field: "lines" });
    if (d.thingId) {
      const t = state.things.get(d.thingId);
      if (!t || t.deletedAt || t.locationId !== item.locationId) return new NotFoundError("thing");
    }
    byIndex.set(d.index, d);
  }
  const creates: ThingCreateArgs[] = [];
  const lines = purchase.lines.map((l): PurchaseLine => {
    const d = byIndex.get(l.index) ?? { index: l.index, action: "create" as const };
    if (d.action !== "create") return { ...l, action: d.action, ...(d.thingId ? { thingId: d.thingId } : {}) };
    const id = uuidv7();
    const placeId = purchase.placeId && state.livePlaces.has(purchase.placeId) ? purchase.placeId : undefined;
    creates.push(thingCreateArgs.parse({ id, name: l.description, quantity: l.quantity, lifecycle: "active", ...(placeId ? { placeId } : {}) }));
    return { ...l, action: "create", thingId: id };
  });
  return { purchase, status: "accepted", lines, creates };
}

const receipt: KindReview<ReceiptState> = {
  async load(ctx, items, args) {
    const bought = await lockPurchases(ctx, items);
    const linked = [...new Set(items.flatMap((i) => (args.get(i.id)?.lines ?? []).flatMap((l) => (l.thingId ? [l.thingId] : []))))];
    const placeIds = [...new Set([...bought.values()].flatMap((p) => (p.placeId ? [p.placeId] : [])))];
    const [found, foundPlaces] = await Promise.all([
      lockRows(ctx.tx, things, linked, ["locationId", "deletedAt"]),
      placeIds.length ? ctx.tx.select({ id: places.id, deletedAt: places.deletedAt }).from(places).where(inArray(places.id, placeIds)) : [],
    ]);
    return {
      purchases: bought,
      things: new Map(found.map((t) => [t.id, t])),
      livePlaces: new Set(foundPlaces.filter((p) => !p.deletedAt).map((p) => p.id)),
      plans: [],
    };
  },
  accept(_ctx, _changes, item, state, args: InboxAcceptArgs) {
    const purchase = state.purchases.get(purchaseIdOf(item) ?? "");
    if (!purchase || purchase.deletedAt) return new NotFoundError("purchase");
    if (args.currency) return new ValidationError("currency: a receipt takes its currency through its currency item.", { field: "currency" });
    const plan = decide(purchase, args.lines ?? [], state, item);
    if (!("purchase" in plan)) return plan;
    state.plans.push(plan);
    return { eventId: null };
  },
  dismiss(_ctx, _changes, item, state) {
    const purchase = state.purchases.get(purchaseIdOf(item) ?? "");
    if (purchase) state.plans.push({ purchase, status: "dismissed", lines: purchase.lines, creates: [] });
    return { eventId: null };
  },
  async after(ctx, state) {
    for (const plan of state.plans) {
      const loc = plan.purchase.locationId;
      if (plan.creates.length) {
        const made = await thingCreate.run(
          ctx,
          plan.creates.map((args) => ({ input: { name: "thing.create", locationId: loc, args }, args })),
        );
        // Every line was checked by thing.create's own rules when it was decided.
        const refused = made.find((v) => v.status === "rejected");
        if (refused?.status === "rejected") throw refused.error;
      }
      await ctx.tx
        .update(purchases)
        .set({ status: plan.status, lines: plan.lines, rowVersion: plan.purchase.rowVersion + 1, updatedAt: ctx.now })
        .where(eq(purchases.id, plan.purchase.id));
    }
  },
};

interface CurrencyState {
  purchases: Map<string, Purchase>;
  picks: { purchase: Purchase; currency: string }[];
}

const currency: KindReview<CurrencyState> = {
  async load(ctx, items) {
    return { purchases: await lockPurchases(ctx, items), picks: [] };
  },
  accept(_ctx, _changes, item, state, args) {
    const asked = (item.payload as { currency?: InboxCurrency }).currency;
    const purchase = state.purchases.get(purchaseIdOf(item) ?? "");
    if (!asked || !purchase || purchase.deletedAt) return new NotFoundError("purchase");
    if (args.lines) return new ValidationError("lines: a currency item has no lines.", { field: "lines" });
    if (!args.currency || !asked.options.includes(args.currency))
      return new ValidationError(`currency: pick one of ${asked.options.join(", ")}.`, { field: "currency", options: asked.options });
    state.picks.push({ purchase, currency: args.currency });
    return { eventId: null };
  },
  dismiss: () => ({ eventId: null }),
  async after(ctx, state) {
    for (const { purchase, currency: code } of state.picks) {
      const [next] = await ctx.tx
        .update(purchases)
        .set({ currency: code, rowVersion: purchase.rowVersion + 1, updatedAt: ctx.now })
        .where(eq(purchases.id, purchase.id))
        .returning();
      await mirrorReceipt(ctx.tx, next!, ctx.now);
    }
  },
};

/** As KIND_REVIEWS holds them: the inbox hands each kind back the state its own load made. */
export const receiptReview = receipt as unknown as KindReview<never>;
export const currencyReview = currency as unknown as KindReview<never>;
