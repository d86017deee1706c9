/** loan.update: a loan's due date or notes, with the rowVersion the device saw. */
import type { LoanUpdateArgs } from "../../../shared/loans.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { LoanRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";

export function queueLoanUpdate(db: InventoryDb, loan: Pick<LoanRow, "id" | "locationId" | "rowVersion">, patch: LoanUpdateArgs["patch"]): Promise<Op> {
  const base = loan.rowVersion > 0 ? { baseVersion: loan.rowVersion } : {};
  return enqueue(db, { name: "loan.update", locationId: loan.locationId, args: { id: loan.id, patch }, ...base });
}

export const op = defineOp({
  name: "loan.update",
  shapes: ["loans"],
  apply: {
    loans: (state, op) => {
      const l = state.loans.get(op.args.id);
      if (!l) return;
      const p = op.args.patch;
      state.loans.set(l.id, {
        ...l,
        ...(p.dueOn !== undefined ? { dueOn: p.dueOn } : {}),
        ...(p.notes !== undefined ? { notes: p.notes } : {}),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.loan.update"),
});
