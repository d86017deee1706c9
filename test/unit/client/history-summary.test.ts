/**
 * History summaries read in the reader's language from the stored key and params (issue 19,
 * point 9): every key the server writes has a message in the app, roles are translated, quantities
 * take the reader's digits, an empty param reads as a word, and an unknown key falls back to the
 * server's English.
 */
import { describe, expect, test } from "vitest";
import { SUMMARY_KEYS } from "../../../server/modules/history/read.js";
import { historyActor, historySummary } from "../../../client/ui/history-summary.js";
import { formatting, isMessageKey } from "../../../client/ui/i18n/i18n.js";

const en = formatting("en", "latn");
const ar = formatting("ar", "arab");
const entry = (summaryKey: string, summaryParams: Record<string, string>) => ({ summary: "server English", summaryKey, summaryParams });

test("every summary key the server writes has a message in the app", () => {
  expect(SUMMARY_KEYS.filter((k) => !isMessageKey(`history.summary.${k}`))).toEqual([]);
});

describe("a summary", () => {
  test("is written in Arabic for an Arabic reader", () => {
    expect(historySummary(entry("thing.updated", { name: "مثقاب" }), ar)).toBe("عُدِّل مثقاب");
    expect(historySummary(entry("thing.updated", { name: "Drill" }), en)).toBe("Changed Drill");
  });

  test("translates role names", () => {
    const e = entry("member.role_changed", { name: "Sam", from: "viewer", to: "admin" });
    expect(historySummary(e, en)).toBe("Sam’s role changed from Viewer to Admin");
    expect(historySummary(e, ar)).toBe(`تغيّر دور Sam من ${ar.t("role.viewer")} إلى ${ar.t("role.admin")}`);
  });

  test("writes quantities in the reader's digits", () => {
    const e = entry("loan.lent", { name: "Chairs", quantity: "12", person: "Sam" });
    expect(historySummary(e, en)).toBe("Lent 12 Chairs to Sam");
    expect(historySummary(e, ar)).toBe("أُعير ١٢ Chairs إلى Sam");
  });

  test("reads an empty or missing param as a word, never as a placeholder", () => {
    expect(historySummary(entry("thing.created", { name: "" }), en)).toBe("Added a thing");
    expect(historySummary(entry("thing.moved", { name: "Drill" }), ar)).toBe("نُقل Drill من ؟ إلى ؟");
  });

  test("of a key the app does not know is the server's text", () => {
    expect(historySummary(entry("thing.teleported", { name: "Drill" }), ar)).toBe("server English");
  });
});

test("the service's own entries are by “System” in the reader's language", () => {
  expect(historyActor({ actor: { type: "system", id: null, displayName: "System" } }, ar)).toBe("النظام");
  expect(historyActor({ actor: { type: "user", id: null, displayName: "Sam" } }, ar)).toBe("Sam");
});

test("plural messages choose Arabic's six forms and keep the reader's digits", () => {
  const rows = [0, 1, 2, 3, 11, 100].map((n) => ar.t("sync.shape", { name: "x", rows: n }));
  expect(rows).toEqual(["x: لا صفوف", "x: صف واحد", "x: صفّان", "x: ٣ صفوف", "x: ١١ صفًا", "x: ١٠٠ صف"]);
  expect(formatting("ar", "latn").t("sync.shape", { name: "x", rows: 11 })).toBe("x: 11 صفًا");
  expect([1, 2].map((n) => en.t("things.count", { count: n }))).toEqual(["1 thing", "2 things"]);
  // A plain placeholder given a number takes the digits too.
  expect(ar.t("export.status.running", { done: 3, total: 12 })).toBe("جارٍ التصدير: ٣ من ١٢");
});
