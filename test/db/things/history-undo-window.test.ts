/**
 * Undo is offered where it would succeed: the history read shows no undo window for an event whose
 * change no longer stands (a later change of its fields), and the window comes back when that later
 * change is undone. Who may undo (shared/undo.ts) is the same rule the command applies: the author
 * or an admin, never a viewer.
 */
import { describe, expect } from "vitest";
import type { HistoryEntry } from "../../../shared/history.js";
import { undoVerdict } from "../../../shared/undo.js";
import type { Client } from "../../support/members.js";
import { apiTest as test } from "../../support/fixtures.js";

async function entries(c: Client, thingId: string): Promise<HistoryEntry[]> {
  const res = await c.get(`/api/v1/things/${thingId}/history`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as HistoryEntry[];
}

describe("undo windows in the history read", () => {
  test("a later change of the same field closes the earlier event's window; undoing the later one opens it again", async ({ loc, as }) => {
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" });
    const thing = made.body.id as string;
    await as.member.patch(`/api/v1/things/${thing}`, { rowVersion: 1, name: "Long ladder" });
    const [renamed] = await entries(as.member, thing);
    expect(renamed!.undoable_until).not.toBeNull();

    // A change of another field leaves the rename undoable.
    await as.member.patch(`/api/v1/things/${thing}`, { rowVersion: 2, colour: "grey" });
    expect((await entries(as.member, thing)).find((e) => e.id === renamed!.id)!.undoable_until).not.toBeNull();

    // A change of the same field closes it: undo would be refused.
    await as.admin.patch(`/api/v1/things/${thing}`, { rowVersion: 3, name: "Step ladder" });
    const after = await entries(as.member, thing);
    expect(after.find((e) => e.id === renamed!.id)!.undoable_until).toBeNull();
    const refused = await as.member.post(`/api/v1/history/${renamed!.id}/undo`);
    expect(refused.status).toBe(409);

    // The admin undoes the later change: the rename stands again and can be undone.
    const later = after.find((e) => e.actor.displayName === "Admin Person")!;
    expect((await as.admin.post(`/api/v1/history/${later.id}/undo`)).status).toBe(200);
    const again = (await entries(as.member, thing)).find((e) => e.id === renamed!.id)!;
    expect(again.undoable_until).not.toBeNull();
    expect((await as.member.post(`/api/v1/history/${renamed!.id}/undo`)).status).toBe(200);
    expect((await as.member.get(`/api/v1/things/${thing}`)).body.name).toBe("Ladder");
  });

  test("the shared rule answers as the command does: another member is refused, an admin and the author are not, a viewer never", async ({ loc, as }) => {
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Rope" });
    const thing = made.body.id as string;
    await as.member.patch(`/api/v1/things/${thing}`, { rowVersion: 1, name: "Blue rope" });
    const [event] = await entries(as.viewer, thing);
    const rule = (who: Client, role: "owner" | "admin" | "member" | "viewer") =>
      undoVerdict({ actorUserId: event!.actor.id, undoableUntil: event!.undoable_until }, { type: "user", userId: who.userId, role }, new Date());
    expect(rule(as.viewer, "viewer")).toBe("role");
    expect(rule(as.owner, "member")).toBe("not_yours");
    expect(rule(as.admin, "admin")).toBe("ok");
    expect(rule(as.member, "member")).toBe("ok");
    expect((await as.viewer.post(`/api/v1/history/${event!.id}/undo`)).status).toBe(403);
    expect((await as.outsider.post(`/api/v1/history/${event!.id}/undo`)).status).toBe(404);
    expect((await as.member.get(`/api/v1/things/${thing}`)).body.name).toBe("Blue rope");
    expect((await as.admin.post(`/api/v1/history/${event!.id}/undo`)).status).toBe(200);
  });
});
