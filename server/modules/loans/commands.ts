/**
 * loan.create: a thing goes out on loan (or comes in, borrowed). Members and above. The person is
 * a member of the location, a contact of the owner account, or a new contact made here (its id
 * device-made, so the op works offline). A thing already on an open loan cannot go out again.
 * Lending part of the quantity splits the thing (split.ts); the loan remembers where the thing was,
 * so the return can offer it.
 */
import { Decimal } from "decimal.js";
import { v7 as uuidv7 } from "uuid";
import { loanCreateArgs, utcDay, type LoanCreateArgs } from "../../../shared/loans.js";
import { lockRows } from "../../commands/bulk.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand, type Op } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { contacts, loans, things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import type { ThingRow } from "../things/values.js";
import { loadPeople, type People } from "./people.js";
import { qty, splitOff } from "./split.js";

type LoanRow = typeof loans.$inferSelect;
/** As the write path answers a taken primary key: a row B cannot see answers as B's own would. */
const TAKEN = "A record with this id or code already exists.";

const personRefs = (a: LoanCreateArgs) => ("contactId" in a.person ? [a.person.contactId] : "userId" in a.person ? [a.person.userId] : []);

interface Person {
  userId: string | null;
  contactId: string | null;
  name: string;
  /** A contact made by this op. */
  create?: { id: string; name: string };
}

/** Who the op names, or why not. Contacts made earlier in the segment count as existing. */
function personOf(op: Op<LoanCreateArgs>, account: string | undefined, people: People): Person | AppError {
  const p = op.args.person;
  if ("userId" in p) {
    const name = people.members.get(`${op.input.locationId}:${p.userId.toLowerCase()}`);
    return name === undefined ? new NotFoundError("member") : { userId: p.userId.toLowerCase(), contactId: null, name };
  }
  if ("contactId" in p) {
    const c = people.contacts.get(p.contactId.toLowerCase());
    return !c || c.accountId !== account ? new NotFoundError("contact") : { userId: null, contactId: p.contactId.toLowerCase(), name: c.name };
  }
  const id = p.id.toLowerCase();
  const known = people.contacts.get(id);
  // The same new contact named again (a second loan made offline before the first was pushed) is that contact.
  if (known) return known.accountId === account ? { userId: null, contactId: id, name: known.name } : new ConflictError("That contact id is taken.");
  return { userId: null, contactId: id, name: p.name, create: { id, name: p.name } };
}

export const loanCreate = defineCommand<LoanCreateArgs>({
  name: "loan.create",
  args: loanCreateArgs,
  minRole: "member",
  refs: (a) => [a.thingId, ...personRefs(a)],
  creates: true,
  async run(ctx, ops) {
    const thingIds = [...new Set(ops.flatMap((o) => [o.args.thingId, o.args.splitThingId ?? ""]).filter(Boolean))].map((x) => x.toLowerCase()).sort();
    const [locked, open, taken, splitTaken, people] = await Promise.all([
      lockRows(ctx.tx, things, thingIds) as Promise<ThingRow[]>,
      rows<{ thing_id: string }>(
        ctx.tx,
        sql`SELECT thing_id::text AS thing_id FROM loans WHERE thing_id = ANY(${uuidArray(thingIds)}) AND returned_at IS NULL AND deleted_at IS NULL`,
      ),
      rows<{ id: string }>(ctx.tx, sql`SELECT id::text AS id FROM loans WHERE id = ANY(${uuidArray(ops.map((o) => o.args.id))})`),
      rows<{ id: string }>(
        ctx.tx,
        sql`SELECT unnest(app_things_taken(${uuidArray(ops.flatMap((o) => (o.args.splitThingId ? [o.args.splitThingId] : [])))}))::text AS id`,
      ),
      loadPeople(ctx.tx, {
        locationIds: ops.map((o) => o.input.locationId),
        userIds: ops.flatMap((o) => ("userId" in o.args.person ? [o.args.person.userId] : [])),
        contactIds: ops.flatMap((o) => ("contactId" in o.args.person ? [o.args.person.contactId] : "name" in o.args.person ? [o.args.person.id] : [])),
      }),
    ]);
    const found = new Map(locked.map((t) => [t.id, t]));
    const onLoan = new Set(open.map((r) => r.thing_id));
    const recorded = new Set(taken.map((r) => r.id));
    const idsTaken = new Set(splitTaken.map((r) => r.id));
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const loc = input.locationId;
      const account = ctx.accounts.get(loc);
      const thing = found.get(args.thingId.toLowerCase());
      const startedAt = args.startedAt ? new Date(args.startedAt) : ctx.now;
      const person = personOf(op, account, people);
      let problem: AppError | null = null;
      if (recorded.has(args.id.toLowerCase())) problem = new ConflictError(TAKEN);
      else if (!thing || thing.locationId !== loc || thing.deletedAt) problem = new NotFoundError("thing");
      else if (onLoan.has(thing.id)) problem = new ConflictError("This thing is already on an open loan; return it first.");
      else if (person instanceof Error) problem = person;
      else if (args.quantity && new Decimal(args.quantity).gt(thing.quantity))
        problem = new ValidationError(`quantity: at most the thing's quantity (${new Decimal(thing.quantity).toString()}).`, { field: "quantity" });
      else if (args.dueOn && args.dueOn < utcDay(startedAt)) problem = new ValidationError("dueOn: not before the day the loan starts.", { field: "dueOn" });
      // Taken whether or not a split turns out to be needed: the answer does not depend on the thing's quantity.
      else if (args.splitThingId && idsTaken.has(args.splitThingId.toLowerCase())) problem = new ConflictError(TAKEN);
      if (problem || !thing || person instanceof Error) return changes.refuse(problem!);
      if (person.create) {
        changes.insert(contacts, {
          id: person.create.id,
          accountId: account!,
          name: person.create.name,
          createdBy: ctx.actor.userId,
          rowVersion: 1,
          createdAt: ctx.now,
          updatedAt: ctx.now,
          deletedAt: null,
        });
        people.contacts.set(person.create.id, { accountId: account!, name: person.create.name });
      }
      const quantity = qty(args.quantity ?? thing.quantity);
      let lent = thing;
      let splitFrom: string | null = null;
      if (new Decimal(quantity).lt(thing.quantity)) {
        const splitId = (args.splitThingId ?? uuidv7()).toLowerCase();
        const parts = splitOff(changes, ctx.now, ctx.actor.userId, thing, splitId, quantity, person.name);
        found.set(thing.id, parts.original);
        found.set(splitId, parts.split);
        lent = parts.split;
        splitFrom = thing.id;
      }
      onLoan.add(lent.id);
      recorded.add(args.id.toLowerCase());
      const row: LoanRow = {
        id: args.id.toLowerCase(),
        locationId: loc,
        thingId: lent.id,
        direction: args.direction,
        personUserId: person.userId,
        contactId: person.contactId,
        personName: person.name,
        quantity,
        splitFromThingId: splitFrom,
        startedAt,
        dueOn: args.dueOn ?? null,
        returnedAt: null,
        previousPlaceId: lent.containerId ? null : lent.placeId,
        previousContainerId: lent.containerId,
        returnPlaceId: null,
        returnContainerId: null,
        notes: args.notes ?? null,
        conditionOut: args.conditionOut ?? [],
        conditionIn: [],
        overdueNotifiedAt: null,
        createdBy: ctx.actor.userId,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      // The history entry is the thing's: its page shows when it went out and to whom.
      changes.insert(loans, row);
      const action = args.direction === "out" ? "loan.lent" : "loan.borrowed";
      const eventId = changes.record({
        locationId: loc,
        entityType: "thing",
        entityId: lent.id,
        entityName: lent.name,
        action,
        before: {},
        after: { loanId: row.id, quantity, person: person.name, dueOn: row.dueOn },
        summaryKey: action,
        summaryParams: { name: lent.name ?? "", person: person.name, quantity: new Decimal(quantity).toString() },
        rowVersionAfter: lent.rowVersion,
        undoable: false,
      });
      changes.applied(row.id, 1, eventId);
    });
  },
});
