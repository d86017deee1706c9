/**
 * Loans for routes: each write is one actor transaction that finds the thing or loan (404 when the
 * actor cannot see it), runs the same command a pushed op runs, and reads the loan back.
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { contactQuery, Loan, LoanList, LoanQuery, loanCreateBody, loanPatchBody, loanReturnBody } from "../../../shared/loans.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { writeOne } from "../write.js";
import { findLoan, findLoanRow, listContacts, listLoans } from "./read.js";

export function lend(deps: ServiceDeps, actor: Actor, thingId: string, body: z.infer<typeof loanCreateBody>): Promise<Written<Loan>> {
  const id = body.id ?? uuidv7();
  const person = "name" in body.person ? { name: body.person.name, id: body.person.id ?? uuidv7() } : body.person;
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "loan.create", locationId: (await findThing(tx, thingId)).locationId, args: { ...body, id, thingId, person } }),
    (tx) => findLoan(tx, id),
  );
}

export function returnLoan(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof loanReturnBody>): Promise<Written<Loan>> {
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "loan.return", locationId: (await findLoanRow(tx, id)).locationId, args: { ...body, id } }),
    (tx) => findLoan(tx, id),
  );
}

export function updateLoan(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof loanPatchBody>): Promise<Written<Loan>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "loan.update", locationId: (await findLoanRow(tx, id)).locationId, baseVersion: rowVersion, args: { id, patch } }),
    (tx) => findLoan(tx, id),
  );
}

export function getLoan({ db }: ServiceDeps, actor: Actor, id: string): Promise<Loan> {
  return withActor(db, actor, (tx) => findLoan(tx, id));
}

export function getLoans({ db }: ServiceDeps, actor: Actor, q: LoanQuery): Promise<LoanList> {
  return withActor(db, actor, (tx) => listLoans(tx, q));
}

export function getContacts({ db }: ServiceDeps, actor: Actor, query: z.infer<typeof contactQuery>) {
  return withActor(db, actor, (tx) => listContacts(tx, query));
}
