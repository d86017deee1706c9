/**
 * VE2-VE4 and VE8 against a model: random sequences of pushed updates, each from one of three
 * devices of the same person that last saw some earlier version, must leave the thing exactly as
 * the model says (fast-check). A device's own changes after its base never make its op stale.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { apiTest as test } from "../../support/fixtures.js";
import { op, push } from "../../support/push.js";

const FIELDS = ["name", "colour", "model", "serial"] as const;
type Field = (typeof FIELDS)[number];

/** The merge rule as a model: versions and the fields each version changed. */
class Model {
  state: Record<Field, string> = { name: "start", colour: "start", model: "start", serial: "start" };
  version = 1;
  /** changed[v - 1]: the fields version v changed, and the device that made it. */
  changed: { fields: Set<Field>; device: string }[] = [{ fields: new Set(), device: "" }];
  apply(base: number | undefined, patch: Partial<Record<Field, string>>, device: string): boolean {
    const fields = Object.keys(patch) as Field[];
    if (base !== undefined && base !== this.version) {
      if (base > this.version) return false;
      const since = this.changed.slice(base).filter((c) => c.device !== device);
      if (since.some((c) => fields.some((f) => c.fields.has(f)))) return false;
    }
    Object.assign(this.state, patch);
    this.version++;
    this.changed.push({ fields: new Set(fields), device });
    return true;
  }
}

const edit = fc.record({
  device: fc.constantFrom("phone", "tablet", "laptop"),
  // How far behind the device is (0 = up to date), or no baseVersion at all.
  lag: fc.option(fc.nat({ max: 4 }), { nil: undefined }),
  patch: fc
    .subarray([...FIELDS], { minLength: 1, maxLength: 3 })
    .chain((fields) =>
      fc
        .tuple(...fields.map((f) => fc.constant(f)), ...fields.map(() => fc.stringMatching(/^[a-z]{1,6}$/)))
        .map((xs) => Object.fromEntries(fields.map((f, i) => [f, xs[fields.length + i] as string])) as Partial<Record<Field, string>>),
    ),
});

test("VE2 VE3 VE4 VE8 pushed updates merge field by field exactly as the model says", async ({ loc, as }) => {
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
      const id = uuidv7();
      const model = new Model();
      await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, ...model.state } })], "creator");
      for (const e of edits) {
        const base = e.lag === undefined ? undefined : Math.max(1, model.version - e.lag);
        const res = await push(
          as.member,
          [op({ name: "thing.update", locationId: loc, args: { id, patch: e.patch }, ...(base !== undefined ? { baseVersion: base } : {}) })],
          e.device,
        );
        const expected = model.apply(base, e.patch, e.device);
        expect(res.body.results[0].status).toBe(expected ? "applied" : "dropped");
        if (!expected) expect(res.body.results[0].reason).toBe("stale");
      }
      const now = (await as.member.get(`/api/v1/things/${id}`)).body;
      expect({ name: now.name, colour: now.colour, model: now.model, serial: now.serial, rowVersion: now.rowVersion }).toEqual({
        ...model.state,
        rowVersion: model.version,
      });
    }),
    { numRuns: 25 },
  );
});
