/**
 * Loans as ops in the outbox (they work with no network) and as this device shows them: the
 * server's rows (shapes `loans`, `contacts`) with its own waiting loan ops on top, in push order,
 * the way optimistic.ts does for things. Lending part of a quantity names the split thing's id
 * here, so the split shows at once: the original keeps the rest, the new thing holds the part lent
 * (loan-split.ts, called by optimistic.ts). A return joins them back on the server; the device
 * shows the loan returned at once and the joined thing when the server's rows arrive.
 */
import { Decimal } from "decimal.js";
import { v7 as uuidv7 } from "uuid";
import type { LoanCreateArgs, LoanDirection, LoanUpdateArgs } from "../../shared/loans.js";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { ContactRow, LoanRow, ThingRow } from "../db/rows.js";
import { enqueue } from "./outbox.js";
import type { View } from "./optimistic.js";

export type PersonChoice = { userId: string } | { contactId: string } | { name: string };

export interface LendInput {
  direction: LoanDirection;
  person: PersonChoice;
  /** A decimal string; the whole quantity when absent. */
  quantity?: string | undefined;
  dueOn?: string | undefined;
  notes?: string | undefined;
}

export function queueLend(db: InventoryDb, thing: Pick<ThingRow, "id" | "locationId" | "quantity">, input: LendInput): Promise<Op> {
  const part = input.quantity !== undefined && new Decimal(input.quantity).lt(thing.quantity);
  const person = "name" in input.person ? { name: input.person.name.trim(), id: uuidv7() } : input.person;
  const args: LoanCreateArgs = {
    id: uuidv7(),
    thingId: thing.id,
    direction: input.direction,
    person,
    ...(input.quantity !== undefined ? { quantity: input.quantity } : {}),
    ...(part ? { splitThingId: uuidv7() } : {}),
    ...(input.dueOn ? { dueOn: input.dueOn } : {}),
    ...(input.notes?.trim() ? { notes: input.notes.trim() } : {}),
    startedAt: new Date().toISOString(),
  };
  return enqueue(db, { name: "loan.create", locationId: thing.locationId, args });
}

export function queueReturn(db: InventoryDb, loan: Pick<LoanRow, "id" | "locationId">, returnPlace?: { type: "place" | "thing"; id: string }): Promise<Op> {
  return enqueue(db, {
    name: "loan.return",
    locationId: loan.locationId,
    args: { id: loan.id, ...(returnPlace ? { returnPlace } : {}), at: new Date().toISOString() },
  });
}

export function queueLoanUpdate(db: InventoryDb, loan: Pick<LoanRow, "id" | "locationId" | "rowVersion">, patch: LoanUpdateArgs["patch"]): Promise<Op> {
  const base = loan.rowVersion > 0 ? { baseVersion: loan.rowVersion } : {};
  return enqueue(db, { name: "loan.update", locationId: loan.locationId, args: { id: loan.id, patch }, ...base });
}

export interface LoanState {
  loans: Map<string, View<LoanRow>>;
  contacts: Map<string, View<ContactRow>>;
}

/** Loans and contacts with this device's loan ops replayed; `memberName` names a member a loan is made to. */
export function overlayLoans(server: { loans: LoanRow[]; contacts: ContactRow[] }, ops: Op[], memberName: (userId: string) => string): LoanState {
  const state: LoanState = {
    loans: new Map(server.loans.map((l) => [l.id, l])),
    contacts: new Map(server.contacts.map((c) => [c.id, c])),
  };
  const stamps = (op: Op) => ({ rowVersion: 0, createdAt: op.at, updatedAt: op.at, deletedAt: null });
  for (const op of ops) {
    if (op.name === "loan.create") {
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
    } else if (op.name === "loan.return") {
      const l = state.loans.get(op.args.id);
      if (!l || l.returnedAt) continue;
      const to = op.args.returnPlace;
      state.loans.set(l.id, {
        ...l,
        returnedAt: op.args.at ?? op.at,
        ...(to ? { returnPlaceId: to.type === "place" ? to.id : null, returnContainerId: to.type === "thing" ? to.id : null } : {}),
        pending: true,
      });
    } else if (op.name === "loan.update") {
      const l = state.loans.get(op.args.id);
      if (!l) continue;
      const p = op.args.patch;
      state.loans.set(l.id, {
        ...l,
        ...(p.dueOn !== undefined ? { dueOn: p.dueOn } : {}),
        ...(p.notes !== undefined ? { notes: p.notes } : {}),
        pending: true,
      });
    }
  }
  return state;
}

/** The directions of each thing's open loans (what `lent` and `borrowed` derive from). */
export function openLoansByThing(loans: Iterable<LoanRow>): Map<string, Set<LoanDirection>> {
  const out = new Map<string, Set<LoanDirection>>();
  for (const l of loans) if (!l.returnedAt && !l.deletedAt) out.set(l.thingId, (out.get(l.thingId) ?? new Set()).add(l.direction));
  return out;
}
