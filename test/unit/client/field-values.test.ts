import { describe, expect, it } from "vitest";
import { fieldsForCreate, fieldsPatch, fromDraft, keyFromLabel, parseDecimal, parseOptions, toDraft, type FieldDef } from "../../../client/ui/field-values.js";
import { templatePrefill } from "../../../client/ui/template-prefill.js";

const def = (kind: FieldDef["kind"], over: Partial<FieldDef> = {}): FieldDef => ({
  key: "k",
  kind,
  options: null,
  repeatable: false,
  required: false,
  secret: false,
  unit: null,
  ...over,
});

describe("keyFromLabel", () => {
  it("makes a key the server accepts from any label", () => {
    expect(keyFromLabel("Serial number")).toBe("serial_number");
    expect(keyFromLabel("  Prix d'achat (€) ")).toBe("prix_d_achat");
    expect(keyFromLabel("Größe")).toBe("grosse");
    expect(keyFromLabel("2nd owner")).toBe("nd_owner");
    expect(keyFromLabel("رقم تسلسلي")).toBe("field");
    expect(keyFromLabel("")).toBe("field");
    for (const label of ["Serial number", "x".repeat(200), "A b c d e f g h i j k l m n o p q r s t u v w x y z", "9", "é"]) {
      expect(keyFromLabel(label)).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
    }
  });

  it("adds a number when the key is taken, staying within 40 characters", () => {
    expect(keyFromLabel("Serial", ["serial"])).toBe("serial_2");
    expect(keyFromLabel("Serial", ["serial", "serial_2"])).toBe("serial_3");
    const long = keyFromLabel("x".repeat(50), ["x".repeat(40)]);
    expect(long).toBe(`${"x".repeat(38)}_2`);
    expect(long.length).toBeLessThanOrEqual(40);
  });
});

describe("parseOptions", () => {
  it("reads one option a line, or commas on one line, trimmed and without repeats", () => {
    expect(parseOptions("red\n green \n\nred\nblue")).toEqual(["red", "green", "blue"]);
    expect(parseOptions("S, M, L")).toEqual(["S", "M", "L"]);
    expect(parseOptions("a\n".repeat(3) + Array.from({ length: 150 }, (_, i) => `o${i}`).join("\n"))).toHaveLength(100);
  });
});

describe("value forms by kind", () => {
  it("reads decimals as people type them, Arabic digits and comma included", () => {
    expect(parseDecimal(" 12 ")).toBe("12");
    expect(parseDecimal("1,5")).toBe("1.5");
    expect(parseDecimal("١٢٫٥٠")).toBe("12.5");
    expect(parseDecimal("007.100")).toBe("7.1");
    expect(parseDecimal("-0.5")).toBe("-0.5");
    expect(parseDecimal("12.1234567")).toBeNull();
    expect(parseDecimal("abc")).toBeNull();
  });

  it("turns each kind's input into the value the server checks", () => {
    expect(fromDraft(def("text"), " hello ")).toEqual({ ok: true, value: "hello" });
    expect(fromDraft(def("number"), "2,5")).toEqual({ ok: true, value: 2.5 });
    expect(fromDraft(def("number"), "two")).toEqual({ ok: false, error: "fields.problem.number" });
    expect(fromDraft(def("date"), "2026-11-24")).toEqual({ ok: true, value: "2026-11-24" });
    expect(fromDraft(def("date"), "24/11/2026")).toEqual({ ok: false, error: "fields.problem.date" });
    expect(fromDraft(def("boolean"), "false")).toEqual({ ok: true, value: false });
    expect(fromDraft(def("url"), "example.com/manual")).toEqual({ ok: true, value: "https://example.com/manual" });
    expect(fromDraft(def("url"), "ftp://example.com")).toEqual({ ok: false, error: "fields.problem.url" });
    expect(fromDraft(def("select", { options: ["S", "M"] }), "M")).toEqual({ ok: true, value: "M" });
    expect(fromDraft(def("select", { options: ["S", "M"] }), "XL")).toEqual({ ok: false, error: "fields.problem.option" });
    expect(fromDraft(def("multi_select", { options: ["a", "b"] }), ["b"])).toEqual({ ok: true, value: ["b"] });
    expect(fromDraft(def("money"), { amount: "12,5", currency: "eur" })).toEqual({ ok: true, value: { amount: "12.5", currency: "EUR" } });
    expect(fromDraft(def("money"), { amount: "12", currency: "" })).toEqual({ ok: false, error: "fields.problem.currency" });
    expect(fromDraft(def("person"), "Ada")).toEqual({ ok: true, value: "Ada" });
  });

  it("leaves an empty input without a value, and calls a required one a problem only when strict", () => {
    expect(fromDraft(def("text"), "  ")).toEqual({ ok: true, value: undefined });
    // A currency alone is no value (the currency may have been pre-filled).
    expect(fromDraft(def("money"), { amount: "", currency: "EUR" })).toEqual({ ok: true, value: undefined });
    expect(fromDraft(def("text", { required: true }), "")).toEqual({ ok: true, value: undefined });
    expect(fromDraft(def("text", { required: true }), "", true)).toEqual({ ok: false, error: "fields.problem.required" });
  });

  it("keeps a repeatable field's rows as a list, dropping empty rows", () => {
    const f = def("date", { repeatable: true });
    expect(fromDraft(f, ["2026-01-01", "", "2026-02-01"])).toEqual({ ok: true, value: ["2026-01-01", "2026-02-01"] });
    expect(fromDraft(f, [""])).toEqual({ ok: true, value: undefined });
    expect(toDraft(f, ["2026-01-01"])).toEqual(["2026-01-01"]);
    expect(toDraft(f, undefined)).toEqual([""]);
    // multi_select is a list already: repeatable does not wrap it again.
    expect(fromDraft(def("multi_select", { options: ["a"], repeatable: true }), ["a"])).toEqual({ ok: true, value: ["a"] });
  });

  it("round-trips stored values through the form", () => {
    const cases: [FieldDef, unknown][] = [
      [def("text"), "x"],
      [def("number"), 12.5],
      [def("date"), "2026-11-24"],
      [def("boolean"), true],
      [def("money"), { amount: "9.99", currency: "USD" }],
      [def("multi_select", { options: ["a", "b"] }), ["a", "b"]],
      [def("select", { options: ["a"] }), "a"],
      [def("url"), "https://example.com/"],
      [def("money", { repeatable: true }), [{ amount: "1", currency: "EUR" }]],
    ];
    for (const [f, v] of cases) expect(fromDraft(f, toDraft(f, v))).toEqual({ ok: true, value: v });
  });
});

describe("fields of a thing.update and a thing.create", () => {
  const defs = [def("text", { key: "serial" }), def("money", { key: "price" }), def("text", { key: "pin", secret: true }), def("date", { key: "bought" })];

  it("sends only the keys that changed, null for a cleared value, and leaves an untouched secret alone", () => {
    const before = { serial: "A1", price: { amount: "10", currency: "EUR" }, bought: "2026-01-01" };
    const drafts = { serial: "A1", price: { amount: "12", currency: "EUR" }, pin: "", bought: "" };
    expect(fieldsPatch(defs, before, drafts)).toEqual({ ok: true, patch: { price: { amount: "12", currency: "EUR" }, bought: null } });
    expect(fieldsPatch(defs, before, { pin: "1234" })).toEqual({ ok: true, patch: { pin: "1234" } });
    expect(fieldsPatch(defs, before, { bought: "soon" })).toEqual({ ok: false, key: "bought", error: "fields.problem.date" });
  });

  it("leaves empty inputs out of a new thing's values", () => {
    expect(fieldsForCreate(defs, { serial: "S-1", price: { amount: "", currency: "EUR" }, bought: "2026-11-24" })).toEqual({
      ok: true,
      fields: { serial: "S-1", bought: "2026-11-24" },
    });
  });
});

describe("templatePrefill", () => {
  it("reads field values under `fields` with the name beside them, or at the top level", () => {
    expect(templatePrefill({ name: "Drill", fields: { serial: "x" }, quantity: "1.000" })).toEqual({ name: "Drill", fields: { serial: "x" } });
    expect(templatePrefill({ warranty: "x", name: "Drill", tagIds: [] })).toEqual({ name: "Drill", fields: { warranty: "x" } });
    expect(templatePrefill(null)).toEqual({ fields: {} });
  });
});

describe("currencies", () => {
  it("takes ISO 4217 codes the runtime knows, as the server does", () => {
    expect(fromDraft(def("money"), { amount: "1", currency: "sar" })).toEqual({ ok: true, value: { amount: "1", currency: "SAR" } });
    expect(fromDraft(def("money"), { amount: "1", currency: "ABC" })).toEqual({ ok: false, error: "fields.problem.currency" });
  });
});
