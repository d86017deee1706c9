/** Helpers of the moves tests (test/db/moves/): a target location, moves, boxes and scans. */
import { v7 as uuidv7 } from "uuid";
import { expect } from "vitest";
import { memberships } from "../../server/db/schema/index.js";
import { apiTest } from "./fixtures.js";
import type { Client } from "./members.js";
import { op, push } from "./push.js";

/** The file's fixtures, plus a second location of the owner's account (the target) where the member is a member too. */
export const test = apiTest.extend("target", { scope: "file" }, async ({ svc, as }) => {
  const made = await as.owner.post("/api/v1/locations", { name: "New flat" });
  expect(made.status).toBe(201);
  const id = made.body.id as string;
  await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: id, userId: as.member.userId, role: "member" });
  const kitchen = await as.owner.post(`/api/v1/locations/${id}/places`, { name: "Kitchen" });
  return { id, kitchen: kitchen.body.id as string };
});

export const make = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; shortCode: string };
};

export const newMove = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/moves`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; rowVersion: number };
};

export const addBox = async (c: Client, moveId: string, containerId: string, destination?: unknown) => {
  const res = await c.post(`/api/v1/moves/${moveId}/boxes`, { containerId, ...(destination !== undefined ? { destination } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { number: number; rowVersion: number };
};

export const scan = (name: string, loc: string, moveId: string, containerId: string, at = new Date().toISOString()) =>
  op({ name, locationId: loc, args: { moveId, containerId, at } });

export const results = async (c: Client, ops: ReturnType<typeof op>[], device = "phone") => {
  const res = await push(c, ops, device);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as { status: string; reason?: string }[];
};

/** A box holding a drill and a small box with a screw in it. */
export async function packedBox(c: Client, loc: string, name = "Box") {
  const box = await make(c, loc, { name, isContainer: true });
  const drill = await make(c, loc, { name: `${name} drill`, containerId: box.id });
  const inner = await make(c, loc, { name: `${name} inner`, containerId: box.id, isContainer: true });
  const screw = await make(c, loc, { name: `${name} screw`, containerId: inner.id });
  return { box, drill, inner, screw, all: [box.id, drill.id, inner.id, screw.id] };
}

/** Every id the things shape gives `c` from `from` on, by operation. */
export async function shapeFrom(c: Client, from?: { offset: string; handle: string }) {
  let offset = from?.offset ?? "-1";
  let handle = from?.handle;
  const seen: { op: string; id: string }[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await c.get(`/api/v1/sync/shape/things?offset=${offset}${handle ? `&handle=${handle}` : ""}`);
    expect(res.status).toBe(200);
    for (const m of res.body as { headers?: { operation?: string }; value?: { id: string }; key?: string }[])
      if (m.headers?.operation) seen.push({ op: m.headers.operation, id: m.value?.id ?? m.key ?? "" });
    offset = res.headers.get("electric-offset")!;
    handle = res.headers.get("electric-handle")!;
    if (res.headers.has("electric-up-to-date")) break;
  }
  return { seen, at: { offset, handle: handle! } };
}
