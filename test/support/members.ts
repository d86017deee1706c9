/** Test fixtures: a location with one signed-in client per role. */
import { v7 as uuidv7 } from "uuid";
import type { Role } from "../../shared/roles.js";
import { memberships } from "../../server/db/schema/index.js";
import type { HttpClient, TestService } from "./app.js";

export type Client = HttpClient & { email: string; userId: string };

/** The owner's personal location, with a member of every other role added directly in the database. */
export async function locationWithRoles(svc: TestService): Promise<{ locationId: string; as: Record<Role | "outsider", Client> }> {
  const owner = await svc.signedIn("Olive Owner");
  const me = await owner.get("/api/v1/me");
  const locationId = me.body.locations[0].id as string;
  const as = { owner } as Record<Role | "outsider", Client>;
  for (const role of ["admin", "member", "viewer"] as const) {
    const c = await svc.signedIn(`${role[0]!.toUpperCase()}${role.slice(1)} Person`);
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId, userId: c.userId, role });
    as[role] = c;
  }
  as.outsider = await svc.signedIn("Otto Outsider");
  return { locationId, as };
}
