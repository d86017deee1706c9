/**
 * A money amount as people write it in a spreadsheet cell (`25 EUR`, `EUR 25`, `€25`, `25 €`,
 * `$25`, `25.00`, `1,234.50`, `1.234,50`, `25,50`), read into the value a money field takes
 * (server/modules/types/fields.ts): `{amount: decimal string, currency: ISO 4217}`. What could mean
 * two amounts (`1,234`: a thousand and more, or one and a bit?) or two currencies (`$` in a
 * location whose money is not in dollars) is refused with a text saying what to write instead.
 */
import { isCurrency } from "../types/fields.js";
import { readCurrency } from "../receipts/currency.js";

export type MoneyRead = { value: { amount: string; currency: string } } | { problem: string };

const GROUPED = (sep: string) => new RegExp(`^[1-9]\\d{0,2}(\\${sep}\\d{3})+$`);
const problem = (why: string) => ({ problem: why });

/** `whole` and `fraction` digits as the decimal string a money field keeps (at most 15 and 6 digits). */
function decimal(whole: string, fraction: string): { amount: string } | { problem: string } {
  const w = whole.replace(/^0+(?=\d)/, "");
  if (w.length > 15) return problem("has more than 15 digits before the decimal mark");
  if (fraction.length > 6) return problem("has more than 6 digits after the decimal mark");
  return { amount: fraction ? `${w}.${fraction}` : w };
}

/** The digits of an amount (no currency, no sign) as a decimal string with a point, or a problem. */
function readAmount(text: string): { amount: string } | { problem: string } {
  const s = text.replace(/[\s\u00a0\u202f]+/g, " ").trim();
  if (s.includes(" ")) {
    // Spaces group thousands (1 234 567,89); the one mark left is the decimal mark.
    const m = /^([1-9]\d{0,2}(?: \d{3})+)(?:[.,](\d+))?$/.exec(s);
    return m ? decimal(m[1]!.replace(/ /g, ""), m[2] ?? "") : problem("has spaces in places that do not make one amount");
  }
  if (!/^\d[\d.,]*$/.test(s) || /[.,]$/.test(s)) return problem("is not an amount");
  const dot = s.lastIndexOf(".");
  const comma = s.lastIndexOf(",");
  if (dot >= 0 && comma >= 0) {
    // Both: the later one is the decimal mark, the other groups thousands (1,234.50 or 1.234,50).
    const at = Math.max(dot, comma);
    const group = at === dot ? "," : ".";
    const whole = s.slice(0, at);
    const fraction = s.slice(at + 1);
    if (!GROUPED(group).test(whole) || !/^\d+$/.test(fraction)) return problem(`has "," and "." in places that do not make one amount`);
    return decimal(whole.split(group).join(""), fraction);
  }
  if (dot < 0 && comma < 0) return decimal(s, "");
  const mark = dot >= 0 ? "." : ",";
  const parts = s.split(mark);
  // 1,234,567 or 1.234.567: only groups of thousands repeat.
  if (parts.length > 2) return GROUPED(mark).test(s) ? decimal(parts.join(""), "") : problem(`has "${mark}" in places that do not make one amount`);
  const [whole, fraction] = parts as [string, string];
  // One mark before exactly three digits, after what could be a first group of thousands: 1,234
  // is 1234 in one country and one and a bit in another. Asked, not guessed.
  if (fraction.length === 3 && /^[1-9]\d{0,2}$/.test(whole))
    return problem(`could be ${whole}${fraction} or ${whole}.${fraction}; write ${whole}${fraction} or ${whole}.${fraction}0`);
  return decimal(whole, fraction);
}

/** The code a currency text means, the location's currency settling a symbol several currencies share. */
function currencyOf(seen: string, locationCurrency: string | null): { code: string } | { problem: string } {
  const read = readCurrency(seen);
  if (read && "code" in read)
    return isCurrency(read.code) ? { code: read.code } : { problem: `"${seen}" is not a currency code (ISO 4217, such as EUR or USD)` };
  const options = read?.options ?? [];
  if (locationCurrency && options.includes(locationCurrency)) return { code: locationCurrency };
  return {
    problem: `"${seen}" could be one of several currencies (${options.slice(0, 4).join(", ")}, ...); write the code, such as "25 ${options[0] ?? "EUR"}"`,
  };
}

/**
 * Reads one cell. `locationCurrency` is the currency the location's money is kept in (the one most
 * of its money values use), taken when the cell writes none; null when the location has none yet.
 */
export function readMoney(cell: string, locationCurrency: string | null): MoneyRead {
  const text = cell.trim();
  const m = /^(-?)\s*([^\d\s.,-]*?)\s*(-?)\s*([\d.,\s\u00a0\u202f]*\d[\d.,]*)\s*([^\d\s.,-]*)$/u.exec(text);
  if (!m) return { problem: `"${cell}" is not an amount of money; write it like 25.00 EUR` };
  const [, sign1, before, sign2, digits, after] = m as unknown as [string, string, string, string, string, string];
  if (before && after) return { problem: `"${cell}" names a currency twice; write it like 25.00 EUR` };
  if (sign1 && sign2) return { problem: `"${cell}" is not an amount of money; write it like -25.00 EUR` };
  const amount = readAmount(digits);
  if ("problem" in amount) return { problem: `"${cell}" ${amount.problem}` };
  const seen = before || after;
  let currency: string;
  if (seen) {
    const c = currencyOf(seen, locationCurrency);
    if ("problem" in c) return c;
    currency = c.code;
  } else if (locationCurrency) currency = locationCurrency;
  else return { problem: `"${cell}" has no currency, and the location keeps no money yet to take one from; write it like ${amount.amount} EUR` };
  return { value: { amount: `${sign1 || sign2 ? "-" : ""}${amount.amount}`, currency } };
}
