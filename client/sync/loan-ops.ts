/**
 * Loans as this device shows them: the server's rows (shapes `loans`, `contacts`) with its own
 * waiting loan ops on top, in push order, the way optimistic.ts does for things. Each op, how it
 * is queued and how it shows, is in its file (client/ops/loans/); a partial loan's split of the
 * thing shows on the things view (optimistic.ts).
 */
import type { LoanDirection } from "../../shared/loans.js";
import type { Op } from "../../sync/ops.js";
import type { ContactRow, LoanRow } from "../db/rows.js";
import { applierOf } from "../ops/index.js";
import type { LoanState } from "../ops/views.js";

export type { LoanState } from "../ops/views.js";

/** Loans and contacts with this device's loan ops replayed; `memberName` names a member a loan is made to. */
export function overlayLoans(server: { loans: LoanRow[]; contacts: ContactRow[] }, ops: Op[], memberName: (userId: string) => string): LoanState {
  const state: LoanState = {
    loans: new Map(server.loans.map((l) => [l.id, l])),
    contacts: new Map(server.contacts.map((c) => [c.id, c])),
  };
  for (const op of ops) applierOf(op, "loans")?.(state, op, { memberName });
  return state;
}

/** The directions of each thing's open loans (what `lent` and `borrowed` derive from). */
export function openLoansByThing(loans: Iterable<LoanRow>): Map<string, Set<LoanDirection>> {
  const out = new Map<string, Set<LoanDirection>>();
  for (const l of loans) if (!l.returnedAt && !l.deletedAt) out.set(l.thingId, (out.get(l.thingId) ?? new Set()).add(l.direction));
  return out;
}
