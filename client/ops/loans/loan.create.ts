/**
 * loan.create: lending or borrowing a thing, with no network; a loan to a new person makes a
 * contact inline. Lending part of a quantity names the split thing's id when it is queued
 * (queue.ts), so the split shows at once as the server makes it (server/modules/loans/split.ts):
 * the original keeps the rest, a new thing holds the part lent.
 */
import { Decimal } from "decimal.js";
import type { LoanDirection } from "../../../shared/loans.js";
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export type PersonChoice = { userId: string } | { contactId: string } | { name: string };

export interface LendInput {
  direction: LoanDirection;
  person: PersonChoice;
  /** A decimal string; the whole quantity when absent. */
  quantity?: string | undefined;
  dueOn?: string | undefined;
  notes?: string | undefined;
}

export const op = defineOp({
  name: "loan.create",
  shapes: ["loans", "contacts", "things"],
  apply: {
    local: (state, op) => {
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
    },
    loans: (state, op, { memberName }) => {
      const a = op.args;
      const p = a.person;
      if ("name" in p && !state.contacts.has(p.id))
        state.contacts.set(p.id, { id: p.id, accountId: "", name: p.name, createdBy: null, ...stamps(op), pending: true });
      const personName = "userId" in p ? memberName(p.userId) : "name" in p ? p.name : (state.contacts.get(p.contactId)?.name ?? "");
      state.loans.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        thingId: a.splitThingId ?? a.thingId,
        direction: a.direction,
        personUserId: "userId" in p ? p.userId : null,
        contactId: "contactId" in p ? p.contactId : "name" in p ? p.id : null,
        personName,
        quantity: a.quantity ?? "",
        splitFromThingId: a.splitThingId ? a.thingId : null,
        startedAt: a.startedAt ?? op.at,
        dueOn: a.dueOn ?? null,
        returnedAt: null,
        previousPlaceId: null,
        previousContainerId: null,
        returnPlaceId: null,
        returnContainerId: null,
        notes: a.notes ?? null,
        conditionOut: a.conditionOut ?? [],
        conditionIn: [],
        overdueNotifiedAt: null,
        createdBy: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.loan.create"),
});
