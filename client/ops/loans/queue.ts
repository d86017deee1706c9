/**
 * What the screens call to queue the loan ops (loan.create.ts, loan.return.ts, loan.update.ts). They sit beside the op files, not in them: queueing goes
 * through the outbox, whose checks replay every op through the op table (client/ops/index.ts), so
 * an op file that imported the outbox would be imported by what it imports.
 */
import { v7 as uuidv7 } from "uuid";
import { Decimal } from "decimal.js";
import type { LoanCreateArgs, LoanUpdateArgs } from "../../../shared/loans.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { LoanRow, ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import type { LendInput } from "./loan.create.js";

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
