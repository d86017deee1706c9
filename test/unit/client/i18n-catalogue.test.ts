/**
 * The whole message catalogue, both languages: the same keys, every message valid ICU
 * MessageFormat with the same parameters in English and Arabic, each plural with every form its
 * language has (Arabic six: zero, one, two, few, many, other), and every message formats.
 */
import { isPluralElement, isSelectElement, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, test } from "vitest";
import { argumentsOf, messageFormatter, parseMessage } from "../../../client/ui/i18n/format.js";
import { isMessageKey, MESSAGES } from "../../../client/ui/i18n/i18n.js";
import { OP_NAMES } from "../../../sync/ops.js";

const FORMS = { en: ["one", "other"], ar: ["zero", "one", "two", "few", "many", "other"] } as const;

/** Every plural in a message (nested ones too), with the forms it gives. */
function plurals(ast: MessageFormatElement[], found: { name: string; forms: string[] }[] = []) {
  for (const el of ast) {
    if (isPluralElement(el)) found.push({ name: el.value, forms: Object.keys(el.options) });
    if (isPluralElement(el) || isSelectElement(el)) for (const o of Object.values(el.options)) plurals(o.value, found);
  }
  return found;
}

const keys = Object.keys(MESSAGES.en).sort();

test("English and Arabic have the same keys", () => {
  expect(Object.keys(MESSAGES.ar).sort()).toEqual(keys);
});

describe.each(["en", "ar"] as const)("every %s message", (lang) => {
  test("parses as ICU MessageFormat", () => {
    const broken = keys.flatMap((k) => {
      try {
        parseMessage(MESSAGES[lang][k as keyof typeof MESSAGES.en]);
        return [];
      } catch (e) {
        return [`${k}: ${(e as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });

  test("has no ASCII apostrophe before a brace or #, which ICU reads as quoting", () => {
    // "'{name}'" would print the words {name}, not the name: write ‘ ’ or “ ” instead.
    expect(keys.filter((k) => /'[{}#]/.test(MESSAGES[lang][k as keyof typeof MESSAGES.en]))).toEqual([]);
  });

  test("with no parameter reads exactly as written (ICU quoting never eats a character)", () => {
    const format = messageFormatter(MESSAGES[lang], "en", String);
    const changed = keys.filter((k) => {
      const text = MESSAGES[lang][k as keyof typeof MESSAGES.en];
      return argumentsOf(parseMessage(text)).size === 0 && format(k) !== text;
    });
    expect(changed).toEqual([]);
  });

  test(`gives each plural every form ${lang === "ar" ? "Arabic" : "English"} has`, () => {
    const missing = keys.flatMap((k) =>
      plurals(parseMessage(MESSAGES[lang][k as keyof typeof MESSAGES.en]))
        .filter((p) => FORMS[lang].some((f) => !p.forms.includes(f)))
        .map((p) => `${k} (${p.name}): ${p.forms.join(" ")}`),
    );
    expect(missing).toEqual([]);
  });

  test("formats with numbers 0, 1, 2, 3, 11 and 100 and leaves no placeholder", () => {
    const locale = lang === "ar" ? "ar-u-nu-arab" : "en";
    const format = messageFormatter(MESSAGES[lang], locale, (n) => new Intl.NumberFormat(locale).format(n));
    const left = keys.flatMap((k) => {
      const names = argumentsOf(parseMessage(MESSAGES[lang][k as keyof typeof MESSAGES.en]));
      return [0, 1, 2, 3, 11, 100].flatMap((n) => {
        const out = format(k, Object.fromEntries([...names].map((name) => [name, n])));
        return /[{}]/.test(out) ? [`${k} (${n}): ${out}`] : [];
      });
    });
    expect(left).toEqual([]);
  });
});

test("English and Arabic messages read the same parameters", () => {
  const differ = keys.filter((k) => {
    const key = k as keyof typeof MESSAGES.en;
    const [en, ar] = [MESSAGES.en[key], MESSAGES.ar[key]].map((text) => [...argumentsOf(parseMessage(text))].sort().join(","));
    return en !== ar;
  });
  expect(differ).toEqual([]);
});

test("every op has a name in words for the Sync screen and the inbox", () => {
  expect(OP_NAMES.filter((name) => !isMessageKey(`op.${name}`))).toEqual([]);
});
