/**
 * How AI calls and extractions read: a call's cost in the person's digits with every decimal it
 * has, why a call has no cost, the outcome only when it did not end well, who paid ("you" for
 * one's own), an extraction's status in words, and which fields wait for a person, in order.
 */
import { describe, expect, it } from "vitest";
import type { AiCallRecord } from "../../../shared/ai.js";
import {
  aiCallParts,
  aiMoney,
  extractionStatusText,
  fieldKeyLabel,
  fieldKeyValue,
  fieldsToReview,
  percentText,
  type AiFmt,
} from "../../../client/ui/ai-format.js";
import { aiAr, aiEn } from "../../../client/ui/i18n/ai.js";
import { ar } from "../../../client/ui/i18n/ar.js";
import { en } from "../../../client/ui/i18n/en.js";
import { fieldAr, fieldEn } from "../../../client/ui/i18n/field.js";
import type { MessageKey } from "../../../client/ui/i18n/i18n.js";

/** The line without the Unicode isolates around names (they only matter to the bidi layout). */
const plain = (parts: string[]) => parts.map((p) => p.replace(/[\u2068\u2069]/g, ""));

/** The i18n context's formatting without React (the same rules as client/ui/i18n/i18n.tsx). */
function fmt(lang: "en" | "ar", digits: "latn" | "arab" = "latn"): AiFmt {
  const messages: Record<string, string> = lang === "en" ? { ...en, ...fieldEn, ...aiEn } : { ...ar, ...fieldAr, ...aiAr };
  const numbers = new Intl.NumberFormat(lang === "ar" ? `ar-u-nu-${digits}` : "en");
  const num = (n: number) => numbers.format(n);
  return {
    lang,
    digits,
    num,
    dateTime: (iso) => `<${iso}>`,
    t: (key: MessageKey, params?: Record<string, string | number>) =>
      (messages[key] ?? key).replace(/\{(\w+)\}/g, (_, p: string) => {
        const v = params?.[p];
        return v === undefined ? `{${p}}` : typeof v === "number" ? num(v) : v;
      }),
  };
}

const call = (over: Partial<AiCallRecord> = {}): AiCallRecord => ({
  model: "gpt-4o-mini",
  providerKind: "provider_a",
  tokens: 1234,
  images: 2,
  cost: { amount: "0.00420000", currency: "USD" },
  costSource: "provider",
  paidBy: { scope: "account", label: "Acme", mine: false },
  outcome: "ok",
  errorCode: null,
  ...over,
});

describe("AI call lines", () => {
  it("shows model, tokens, images, the cost with its decimals, and who paid", () => {
    expect(plain(aiCallParts({ ...call(), task: "extract_thing" }, fmt("en"))).join(" · ")).toBe(
      "Reading the photos · AI model gpt-4o-mini · tokens: 1,234 · images: 2 · cost $0.0042 · paid by Acme",
    );
  });

  it("says why there is no cost, the outcome when it went wrong, and 'you' for one's own key", () => {
    const later = plain(
      aiCallParts(call({ cost: undefined, costSource: "price_table_later", paidBy: { scope: "user", label: "Sam", mine: true } }), fmt("en")),
    );
    expect(later).toContain("priced later");
    expect(later).toContain("paid by you");
    expect(later.join()).not.toContain("ended");
    const notSent = plain(aiCallParts(call({ cost: undefined, costSource: "not_sent", outcome: "over_budget", tokens: 0, images: 0 }), fmt("en")));
    expect(notSent).toEqual(["AI model gpt-4o-mini", "tokens: 0", "images: 0", "not sent", "ended: over the budget", "paid by Acme"]);
    expect(plain(aiCallParts(call({ cost: undefined, costSource: "unknown" }), fmt("en")))).toContain("cost unknown");
  });

  it("an unknown task is left out rather than shown as a code", () => {
    expect(plain(aiCallParts({ ...call(), task: "something_new" }, fmt("en")))[0]).toBe("AI model gpt-4o-mini");
  });

  it("keeps a model's name and a payer's label apart from the sentence, for right-to-left lines", () => {
    const parts = aiCallParts(call(), fmt("ar"));
    expect(parts).toContain("نموذج الذكاء الاصطناعي \u2068gpt-4o-mini\u2069");
    expect(parts).toContain("دفعها \u2068Acme\u2069");
  });

  it("reads in Arabic with eastern digits when the person chose them", () => {
    const line = plain(aiCallParts(call({ tokens: 1234, images: 3 }), fmt("ar", "arab"))).join(" · ");
    expect(line).toContain("الرموز: ١٬٢٣٤");
    expect(line).toContain("الصور: ٣");
    expect(line).toContain("٠٫٠٠٤٢");
    expect(line).toContain("دفعها Acme");
    // No western digit outside the model's own name.
    expect(line.replace("gpt-4o-mini", "")).not.toMatch(/[0-9]/);
  });
});

describe("AI money", () => {
  it("keeps the decimals a call cost has, at least the currency's usual ones", () => {
    expect(aiMoney({ amount: "0.00000120", currency: "USD" }, fmt("en"))).toBe("$0.0000012");
    expect(aiMoney({ amount: "12.5", currency: "EUR" }, fmt("en"))).toBe("€12.50");
    expect(aiMoney({ amount: "3", currency: "JPY" }, fmt("en"))).toBe("¥3");
    expect(aiMoney({ amount: "1234.5", currency: "USD" }, fmt("ar", "latn"))).toMatch(/1,234\.50/);
  });
});

describe("extraction status", () => {
  it("puts each status in words, with the date a budget pause ends and a failure's reason", () => {
    const f = fmt("en");
    expect(extractionStatusText({ status: "queued" }, f)).toBe("Waiting to read the photos.");
    expect(extractionStatusText({ status: "paused_budget", pausedUntil: "2026-12-01T00:00:00Z" }, f)).toBe(
      "Paused: the AI budget is used up until <2026-12-01T00:00:00Z>.",
    );
    expect(extractionStatusText({ status: "failed", statusReason: "timeout" }, f)).toBe("Reading the photos failed: the provider took too long.");
    expect(extractionStatusText({ status: "failed", statusReason: "bad_image" }, f)).toBe("Reading the photos failed: \u2068bad_image\u2069.");
    expect(extractionStatusText({ status: "failed", statusReason: null }, f)).toBe("Reading the photos failed.");
    expect(extractionStatusText({ status: "no_provider" }, f)).toMatch(/No AI provider/);
    expect(extractionStatusText({ status: "superseded" }, fmt("ar"))).toBe("حلّت محلها قراءة أحدث.");
  });

  it("says whose key the provider refused, and that it is not tried again, in English and Arabic", () => {
    const refused = (reason: string, lang: "en" | "ar") => extractionStatusText({ status: "failed", statusReason: reason }, fmt(lang));
    expect(refused("key_refused:account:401", "en")).toBe(
      "Reading the photos failed: the AI provider refused the API key set for the account (HTTP \u2068401\u2069); its owner can enter a new one in Settings, under AI.",
    );
    expect(refused("key_refused:user:403", "en")).toMatch(/refused the API key in the AI settings of the person who asked \(HTTP \u2068403\u2069\)/);
    expect(refused("key_refused:instance:401", "en")).toMatch(/this server's API key .*whoever runs the server must replace it\.$/);
    expect(refused("key_refused:account:401", "ar")).toContain("رفض مزوّد الذكاء الاصطناعي مفتاح API المضبوط للحساب");
    expect(refused("key_refused:user:401", "ar")).not.toContain("key_refused");
    expect(refused("key_refused:instance:401", "ar")).not.toContain("key_refused");
  });
});

describe("suggested fields", () => {
  const defs = [
    { key: "voltage", kind: "number" as const, label: "Voltage", labelKey: null, options: null, repeatable: false, required: false, secret: false, unit: "V" },
    { key: "bought", kind: "date" as const, label: null, labelKey: null, options: null, repeatable: false, required: false, secret: false, unit: null },
  ];

  it("lists fields with suggestions or unconfirmed values: columns first, then custom fields in the type's order", () => {
    const s = { source: { extractionId: "e", attachmentId: "a" }, confidence: 0.5 };
    const keys = fieldsToReview(
      {
        "fields.bought": { state: "manual", suggestions: [{ ...s, field: "fields.bought", value: "2026-01-02" }] },
        "fields.voltage": { state: "extracted" },
        serial: { state: "manual", suggestions: [{ ...s, field: "serial", value: "X" }] },
        name: { state: "confirmed" },
        model: { state: "manual", suggestions: [] },
      },
      defs,
    );
    expect(keys).toEqual(["serial", "fields.voltage", "fields.bought"]);
  });

  it("labels and values: columns by name, custom fields as their type says, quantity and percentages in the person's digits", () => {
    const f = fmt("en");
    expect(fieldKeyLabel("serial", defs, f.t)).toBe("Serial number");
    expect(fieldKeyLabel("fields.voltage", defs, f.t)).toBe("Voltage");
    expect(fieldKeyLabel("fields.bought", defs, f.t)).toBe("bought");
    expect(fieldKeyValue("fields.voltage", "12", defs, f)).toBe("12 V");
    expect(fieldKeyValue("quantity", "1200.000", defs, fmt("ar", "arab"))).toBe("١٬٢٠٠");
    expect(fieldKeyValue("model", null, defs, f)).toBe("");
    expect(percentText(0.87, f)).toBe("87%");
  });
});
