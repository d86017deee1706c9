/**
 * What a device shows of its own loan ops before the server answers: a partial loan splits the
 * thing (the original keeps the rest, the split thing holds the part lent), the loan row appears
 * with its person (a new contact too), a return marks it returned, a change its due date; and the
 * open loans give the things their `lent` / `borrowed` state.
 */
import { describe, expect, it } from "vitest";
import type { Op } from "../../../sync/ops.js";
import { openLoansByThing, overlayLoans } from "../../../client/sync/loan-ops.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const PLACE = "0190a000-0000-7000-8000-000000000002";
const id = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, "0")}`;
const chairs = thingRow({ id: id(10), locationId: LOC, placeId: PLACE }, { name: "Chair", quantity: "5.000", colour: "green", tagIds: [id(77)] });

const lend = (args: Partial<Extract<Op, { name: "loan.create" }>["args"]>, n = 1): Op => ({
  id: id(900 + n),
  name: "loan.create",
  locationId: LOC,
  at: AT,
  args: { id: id(500 + n), thingId: chairs.id, direction: "out", person: { name: "Sam", id: id(600 + n) }, ...args },
});

describe("loans on the device", () => {
  it("lending 3 of 5 splits the thing at once; the whole quantity does not", () => {
    const split = overlay({ things: [chairs] }, [lend({ quantity: "3", splitThingId: id(11) })]);
    expect(split.things.get(chairs.id)).toMatchObject({ quantity: "2", pending: true });
    expect(split.things.get(id(11))).toMatchObject({
      name: "Chair",
      quantity: "3",
      colour: "green",
      tagIds: [id(77)],
      placeId: PLACE,
      shortCode: null,
      pending: true,
    });
    const whole = overlay({ things: [chairs] }, [lend({})]);
    expect(whole.things.get(chairs.id)!.quantity).toBe("5.000");
    expect(whole.things.size).toBe(1);
  });

  it("the loan row appears with its new contact; a return and a change show at once", () => {
    const create = lend({ quantity: "3", splitThingId: id(11), dueOn: "2026-12-01" });
    const ret: Op = { id: id(950), name: "loan.return", locationId: LOC, at: "2026-11-23T10:00:00.000Z", args: { id: id(501) } };
    const upd: Op = { id: id(951), name: "loan.update", locationId: LOC, at: AT, args: { id: id(501), patch: { notes: "ring first" } }, baseVersion: 1 };
    const open = overlayLoans({ loans: [], contacts: [] }, [create, upd], () => "");
    const loan = open.loans.get(id(501))!;
    expect(loan).toMatchObject({
      thingId: id(11),
      splitFromThingId: chairs.id,
      personName: "Sam",
      contactId: id(601),
      quantity: "3",
      notes: "ring first",
      returnedAt: null,
    });
    expect(open.contacts.get(id(601))).toMatchObject({ name: "Sam", pending: true });
    expect(openLoansByThing(open.loans.values()).get(id(11))).toEqual(new Set(["out"]));
    const back = overlayLoans({ loans: [], contacts: [] }, [create, ret], () => "");
    expect(back.loans.get(id(501))!.returnedAt).toBe("2026-11-23T10:00:00.000Z");
    expect(openLoansByThing(back.loans.values()).size).toBe(0);
    // A member is named by the device's list of members; a contact by its row.
    const toMember = lend({ direction: "in", person: { userId: id(700) } }, 2);
    const member = overlayLoans({ loans: [], contacts: [] }, [toMember], (u) => (u === id(700) ? "Mona" : ""));
    expect(member.loans.get(id(502))).toMatchObject({ personName: "Mona", personUserId: id(700), contactId: null, direction: "in" });
    expect(openLoansByThing(member.loans.values()).get(chairs.id)).toEqual(new Set(["in"]));
  });
});
