/**
 * A partial loan's split on the things the device holds, as the server makes it
 * (server/modules/loans/split.ts): the original keeps the rest, a new thing with the device-made
 * `splitThingId` holds the part lent. Kept apart from loan-ops.ts so optimistic.ts can call it
 * without importing back what imports it.
 */
import { Decimal } from "decimal.js";
import type { Op } from "../../sync/ops.js";
import type { ThingRow } from "../db/rows.js";

/** The split of a partial loan, on the things the device holds (as server/modules/loans/split.ts does it). */
export function applyLoanCreate(state: { things: Map<string, ThingRow & { pending?: boolean }> }, op: Op & { name: "loan.create" }): void {
  const { thingId, splitThingId, quantity } = op.args;
  const t = state.things.get(thingId);
  if (!t || !splitThingId || !quantity || !new Decimal(quantity).lt(t.quantity)) return;
  state.things.set(t.id, { ...t, quantity: new Decimal(t.quantity).minus(quantity).toString(), updatedAt: op.at, pending: true });
  state.things.set(splitThingId, {
    ...t,
    id: splitThingId,
    quantity: new Decimal(quantity).toString(),
    shortCode: null,
    fieldStatus: {},
    rowVersion: 0,
    createdAt: op.at,
    updatedAt: op.at,
    pending: true,
  });
}
