/** loans: a thing of its own lent to a neighbour (the loan and its contact). */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const loanKinds: ModuleKinds = {
  loan: {
    table: "loans",
    make: async (t) => {
      const lent = await ok(t.owner.post(`/api/v1/locations/${t.location}/things`, { name: `${t.name} Ladder ${t.next()}` }), "thing to lend");
      const loan = await ok(t.owner.post(`/api/v1/things/${lent.id}/loans`, { direction: "out", person: { name: `${t.name} Neighbour ${t.next()}` } }), "loan");
      t.ids.loan = loan.id;
      t.ids.contact = loan.person.id;
    },
    alive: (ids) =>
      sql`EXISTS (SELECT 1 FROM loans l JOIN things t ON t.id = l.thing_id WHERE l.id = ${ids.loan} AND l.returned_at IS NULL AND t.deleted_at IS NULL)`,
  },
  contact: {
    madeWith: "loan",
    alive: (ids) => sql`EXISTS (SELECT 1 FROM contacts WHERE id = ${ids.contact} AND deleted_at IS NULL)`,
  },
};
