/**
 * How search text is compared: both what a person types and what a thing holds pass through
 * `foldForSearch`, so that a search ignores what people do not mean to distinguish.
 *
 * - case: "Drill" finds "drill";
 * - accents and Arabic short vowels (harakat, shadda, sukun, superscript alef): every combining
 *   mark goes after a compatibility decomposition (NFKD), so "éclair" finds "Eclair" and "مِثْقَب"
 *   finds "مثقب"; NFKD also undoes Arabic presentation forms and full-width letters;
 * - Arabic letter forms people write interchangeably: hamza on alef, waw or yeh (أ إ آ ؤ ئ, which
 *   NFKD splits into the letter and a mark), alef wasla (ٱ), alef maksura (ى -> ي), ta marbuta
 *   (ة -> ه), Persian kaf and yeh (ک ی), and the tatweel stretch (ـ);
 * - digits: Arabic-Indic (٠١٢) and Persian (۰۱۲) digits are the Western ones;
 * - invisible format characters (bidi marks, zero-width joiners) and runs of spaces.
 */

/** Single letters folded to another; the rest of the text is left as NFKD and lower case made it. */
const LETTERS: Record<string, string> = {
  "\u0671": "\u0627", // ٱ alef wasla -> ا
  "\u0649": "\u064A", // ى alef maksura -> ي
  "\u0629": "\u0647", // ة ta marbuta -> ه
  "\u06CC": "\u064A", // ی Persian yeh -> ي
  "\u06A9": "\u0643", // ک Persian kaf -> ك
  "\u0640": "", // ـ tatweel
};

const LETTER_RE = /[\u0671\u0649\u0629\u06CC\u06A9\u0640]/g;
/** Arabic-Indic U+0660-0669 and extended (Persian) U+06F0-06F9. */
const DIGIT_RE = /[\u0660-\u0669\u06F0-\u06F9]/g;

export function foldForSearch(text: string): string {
  // Most of what a thing holds is ASCII: only lower case and spaces matter for it.
  if (!/[^ -~]/.test(text)) return text.toLowerCase().replace(/\s+/g, " ").trim();
  return text
    .normalize("NFKD")
    .replace(/[\p{M}\p{Cf}]+/gu, "")
    .replace(LETTER_RE, (c) => LETTERS[c] ?? c)
    .replace(DIGIT_RE, (d) => String((d.codePointAt(0)! - 0x0660) % 0x90))
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** The words of a search, folded; a thing matches when it holds every one (in any field, any order). */
export function searchTerms(q: string): string[] {
  const folded = foldForSearch(q);
  return folded ? [...new Set(folded.split(" "))] : [];
}

/** Whether a folded text holds every term. */
export const holdsAll = (haystack: string, terms: readonly string[]): boolean => terms.every((term) => haystack.includes(term));
