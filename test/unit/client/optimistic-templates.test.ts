import { describe, expect, it } from "vitest";
import type { Op } from "../../../sync/ops.js";
import type { TemplateShapeRow } from "../../../sync/shape-rows.js";
import { shapesOf } from "../../../client/ops/index.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { AT as at } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const OTHER = "0190a000-0000-7000-8000-000000000009";
const TEMPLATE = "0190a000-0000-7000-8000-0000000000cc";
const TAG = "0190a000-0000-7000-8000-0000000000dd";
const TYPE = "0190a000-0000-7000-8000-0000000000ee";
let n = 0;
const op = <T extends Op>(o: Omit<T, "id" | "at">): T => ({ ...o, id: `0190a000-0000-7000-8000-${String(++n).padStart(12, "0")}`, at }) as T;

const template: TemplateShapeRow = {
  id: TEMPLATE,
  accountId: "0190a000-0000-7000-8000-0000000000ff",
  name: "Drill kit",
  typeId: TYPE,
  payload: { typeId: TYPE, model: "DX-18", colour: "yellow", quantity: "2.000", tagIds: [TAG], fields: { warranty: "2 years", voltage: "18" } },
  locationIds: [LOC],
  rowVersion: 1,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
};

describe("optimistic apply of a thing from a template", () => {
  it("fills what the args leave out from the template the device holds; the args win, fields merge key by key", () => {
    const create = op<Extract<Op, { name: "thing.create" }>>({
      name: "thing.create",
      locationId: LOC,
      args: { id: "0190a000-0000-7000-8000-0000000000bb", name: "Second drill", templateId: TEMPLATE, colour: null, fields: { voltage: "20" } },
    });
    expect(overlay({ templates: [template] }, [create]).things.get(create.args.id)).toMatchObject({
      name: "Second drill",
      typeId: TYPE,
      model: "DX-18",
      colour: null,
      quantity: "2.000",
      tagIds: [TAG],
      fields: { warranty: "2 years", voltage: "20" },
      pending: true,
    });
  });

  it("a capture takes the template too; only the args when the template is not on the device or not offered in the location", () => {
    const capture = (locationId: string) =>
      op<Extract<Op, { name: "thing.capture" }>>({
        name: "thing.capture",
        locationId,
        args: { id: "0190a000-0000-7000-8000-0000000000b1", templateId: TEMPLATE, tagIds: [TAG] },
      });
    expect(overlay({}, [capture(LOC)]).things.get("0190a000-0000-7000-8000-0000000000b1")).toMatchObject({ model: null, tagIds: [TAG] });
    expect(overlay({ templates: [template] }, [capture(LOC)]).things.get("0190a000-0000-7000-8000-0000000000b1")).toMatchObject({
      model: "DX-18",
      lifecycle: "draft",
      fields: { warranty: "2 years" },
    });
    expect(overlay({ templates: [template] }, [capture(OTHER)]).things.get("0190a000-0000-7000-8000-0000000000b1")).toMatchObject({ model: null });
  });

  it("template ops rename and delete the device's copy", () => {
    const rename = op<Extract<Op, { name: "template.update" }>>({ name: "template.update", locationId: LOC, args: { id: TEMPLATE, patch: { name: "Kit" } } });
    expect(overlay({ templates: [template] }, [rename]).templates.get(TEMPLATE)).toMatchObject({ name: "Kit", pending: true });
    const del = op<Extract<Op, { name: "template.delete" }>>({ name: "template.delete", locationId: LOC, args: { id: TEMPLATE } });
    expect(overlay({ templates: [template] }, [del]).templates.has(TEMPLATE)).toBe(false);
    // Its txid arrives on the templates shape, which the app follows.
    expect(shapesOf(del)).toEqual(["templates"]);
  });
});
