/**
 * A create probes for duplicates only when the new thing could match (server/modules/duplicates/
 * raise.ts mayDuplicate): the check must agree with the probe's SQL, where btrim() trims spaces
 * only, or a thing that is a duplicate would go unreported.
 */
import { expect, test } from "vitest";
import { mayDuplicate } from "../../server/modules/duplicates/raise.js";

test("a serial, or a brand with a model, other than spaces, is probed", () => {
  expect(mayDuplicate({ serial: "SN-1" })).toBe(true);
  expect(mayDuplicate({ serial: " sn-77 " })).toBe(true);
  expect(mayDuplicate({ brandId: "b", model: "X-200" })).toBe(true);
  // btrim() leaves a tab or a no-break space in place, so the probe would still run on them.
  expect(mayDuplicate({ serial: "\t" })).toBe(true);
  expect(mayDuplicate({ brandId: "b", model: "\u00a0" })).toBe(true);
});

test("no serial and no brand-and-model costs no probe", () => {
  expect(mayDuplicate({})).toBe(false);
  expect(mayDuplicate({ serial: null, brandId: null, model: null })).toBe(false);
  expect(mayDuplicate({ serial: "   " })).toBe(false);
  expect(mayDuplicate({ serial: "" })).toBe(false);
  expect(mayDuplicate({ model: "X-200" })).toBe(false);
  expect(mayDuplicate({ brandId: "b", model: "  " })).toBe(false);
  expect(mayDuplicate({ brandId: "b" })).toBe(false);
});
