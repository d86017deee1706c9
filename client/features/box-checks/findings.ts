/** A box check's marks made into the findings one op records, or why they cannot be saved yet. */
import type { ThingRow } from "../../db/rows.js";
import type { BoxFindings } from "../../ops/field/boxcheck.record.js";
import type { Mark } from "./BoxFinding.js";

const QUANTITY = /^\d{1,11}(\.\d{1,3})?$/;

/** `bad`: a thing partly here whose count is not a positive number; `empty`: nothing was marked or found. */
export function findingsOf(expected: ThingRow[], marks: Record<string, Mark>, found: string[]): { findings: BoxFindings } | { bad: ThingRow } | "empty" {
  const findings: BoxFindings = { seen: [], notHere: [], split: [], movedIn: found };
  for (const th of expected) {
    const m = marks[th.id];
    if (m?.kind === "seen") findings.seen.push(th.id);
    else if (m?.kind === "notHere") findings.notHere.push(th.id);
    else if (m?.kind === "split") {
      const quantity = m.quantity.trim();
      if (!QUANTITY.test(quantity) || Number(quantity) <= 0) return { bad: th };
      findings.split.push({ thingId: th.id, quantity });
    }
  }
  if (!findings.seen.length && !findings.notHere.length && !findings.split.length && !findings.movedIn.length) return "empty";
  return { findings };
}
