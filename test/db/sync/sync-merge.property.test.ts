/**
 * VE2-VE4 against a model: random sequences of pushed updates, each from a device that last saw
 * some earlier version, must leave the thing exactly as the model says (fast-check).
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
  changed: Set<Field>[] = [new Set()]; // changed[v - 1]: fields version v changed
  apply(base: number | undefined, patch: Partial<Record<Field, string>>): boolean {
    const fields = Object.keys(patch) as Field[];
    if (base !== undefined && base !== this.version) {
      if (base > this.version) return false;
      for (let v = base + 1; v <= this.version; v++) if (fields.some((f) => this.changed[v - 1]!.has(f))) return false;
    }
    Object.assign(this.state, patch);
    this.version++;
    this.changed.push(new Set(fields));
    return true;
  }
}

const edit = fc.record({
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

test("VE2 VE3 VE4 pushed updates merge field by field exactly as the model says", async ({ loc, as }) => {
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
      const id = uuidv7();
      const model = new Model();
      await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, ...model.state } })]);
      for (const e of edits) {
        const base = e.lag === undefined ? undefined : Math.max(1, model.version - e.lag);
        const res = await push(as.member, [
          op({ name: "thing.update", locationId: loc, args: { id, patch: e.patch }, ...(base !== undefined ? { baseVersion: base } : {}) }),
        ]);
        const expected = model.apply(base, e.patch);
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
