/**
 * The money rule (spec "Roles"): owners, admins and members see money custom fields; a viewer sees
 * them only where the location lets viewers see money. Reads, history diffs and shape scopes all
 * ask this one function, so the rule cannot drift between them.
 */
import type { Role } from "../../shared/roles.js";

export function seesMoney(role: Role, viewersSeeMoney: boolean): boolean {
  return role !== "viewer" || viewersSeeMoney;
}
