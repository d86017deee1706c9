/**
 * What a device shows of its own answers to AI suggestions before the server has them: accepting
 * puts the suggestion's value in the field (a column or a custom field), marks it confirmed and
 * clears that field's suggestions; confirming marks an extracted value confirmed. Offline, the
 * value is there at once; a suggestion the device does not hold changes nothing.
 */
import { describe, expect, it } from "vitest";
import type { FieldStatus, Suggestion } from "../../../shared/extractions.js";
import type { Op } from "../../../sync/ops.js";
import type { ThingRow } from "../../../client/db/rows.js";
import { shapesOf } from "../../../client/ops/index.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { AT as at, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const THING = "0190a000-0000-7000-8000-0000000000aa";
const EX1 = "0190a000-0000-7000-8000-0000000000e1";
const EX2 = "0190a000-0000-7000-8000-0000000000e2";
const PHOTO = "0190a000-0000-7000-8000-0000000000f1";
let n = 0;
const opId = () => `0190a000-0000-7000-8000-${String(++n).padStart(12, "0")}`;

const suggestion = (field: string, value: unknown, extractionId = EX1, confidence = 0.8): Suggestion => ({
  field,
  value,
  confidence,
  source: { extractionId, attachmentId: PHOTO },
});
const server = (fieldStatus: FieldStatus, over: Partial<ThingRow> = {}): ThingRow =>
  thingRow({ id: THING, locationId: LOC, placeId: null }, { name: "Drill", rowVersion: 3, fieldStatus, ...over });
const accept = (field: string, extractionId = EX1): Op => ({
  id: opId(),
  at,
  name: "thing.suggestion.accept",
  locationId: LOC,
  args: { id: THING, field, extractionId },
});
const confirm = (field: string): Op => ({ id: opId(), at, name: "thing.field.confirm", locationId: LOC, args: { id: THING, field } });

describe("answers to AI suggestions on the device", () => {
  it("accepting a column's suggestion shows its value, confirmed, with that field's suggestions gone", () => {
    const row = server({
      model: { state: "manual", suggestions: [suggestion("model", "GSR 12V", EX1, 0.9), suggestion("model", "GSR 18V", EX2, 0.4)] },
      serial: { state: "manual", suggestions: [suggestion("serial", "SN-77")] },
    });
    const shown = overlay({ things: [row] }, [accept("model", EX2)]).things.get(THING);
    expect(shown).toMatchObject({ model: "GSR 18V", pending: true });
    expect(shown?.fieldStatus.model).toEqual({ state: "confirmed", confidence: 0.4 });
    // Another field's suggestions wait for their own answer.
    expect(shown?.fieldStatus.serial?.suggestions).toHaveLength(1);
    // The server's row is never edited.
    expect(row.model).toBeNull();
    expect(row.fieldStatus.model?.suggestions).toHaveLength(2);
  });

  it("accepting a custom field's suggestion merges it into fields by key; quantity becomes a decimal string", () => {
    const row = server(
      {
        "fields.voltage": { state: "manual", suggestions: [suggestion("fields.voltage", "12")] },
        quantity: { state: "manual", suggestions: [suggestion("quantity", 3)] },
      },
      { fields: { colour_code: "RAL 5015" } },
    );
    const shown = overlay({ things: [row] }, [accept("fields.voltage"), accept("quantity")]).things.get(THING);
    expect(shown?.fields).toEqual({ colour_code: "RAL 5015", voltage: "12" });
    expect(shown?.quantity).toBe("3");
    expect(shown?.fieldStatus["fields.voltage"]?.state).toBe("confirmed");
    expect(shown?.fieldStatus.quantity?.state).toBe("confirmed");
  });

  it("an accept of a suggestion the device does not hold leaves the values as they are", () => {
    const row = server({ model: { state: "manual", suggestions: [suggestion("model", "GSR 12V", EX1)] } }, { model: "Mine" });
    const shown = overlay({ things: [row] }, [accept("model", EX2)]).things.get(THING);
    expect(shown?.model).toBe("Mine");
    expect(shown?.fieldStatus).toEqual(row.fieldStatus);
    // Still marked as waiting for the server, whose row will say what became of it.
    expect(shown?.pending).toBe(true);
  });

  it("confirming marks an extracted value confirmed and keeps the value", () => {
    const row = server({ colour: { state: "extracted", confidence: 0.7 }, name: { state: "manual" } }, { colour: "green" });
    const shown = overlay({ things: [row] }, [confirm("colour"), confirm("name")]).things.get(THING);
    expect(shown?.colour).toBe("green");
    expect(shown?.fieldStatus.colour).toEqual({ state: "confirmed", confidence: 0.7 });
    // Only an extracted value is confirmed: a person's own stays manual.
    expect(shown?.fieldStatus.name).toEqual({ state: "manual" });
  });

  it("dropping the op brings the server's row back; both ops show up on the things shape", () => {
    const row = server({ model: { state: "manual", suggestions: [suggestion("model", "GSR 12V")] } });
    expect(overlay({ things: [row] }, []).things.get(THING)).toBe(row);
    expect(shapesOf(accept("model"))).toEqual(["things"]);
    expect(shapesOf(confirm("model"))).toEqual(["things"]);
  });
});
