/**
 * The currency a receipt printed, as an ISO 4217 code when it names one, or the codes it may mean.
 * The table is kept small on purpose: the symbols receipts commonly print. A three-letter code is
 * taken as it is; a symbol meaning one currency is that currency; a symbol several currencies
 * share raises a `currency` inbox item with its options; anything else raises one with COMMON.
 */

/** Symbols that name one currency (compared case-sensitively after trimming; "kr" and "Kr" both listed where seen). */
const ONE: Record<string, string> = {
  "€": "EUR",
  "£": "GBP",
  "₹": "INR",
  "₩": "KRW",
  "₽": "RUB",
  "₺": "TRY",
  "₪": "ILS",
  "₫": "VND",
  "₴": "UAH",
  "฿": "THB",
  "₱": "PHP",
  zł: "PLN",
  Kč: "CZK",
  Ft: "HUF",
  R$: "BRL",
  US$: "USD",
  C$: "CAD",
  CA$: "CAD",
  A$: "AUD",
  AU$: "AUD",
  NZ$: "NZD",
  HK$: "HKD",
  S$: "SGD",
  MX$: "MXN",
  円: "JPY",
  元: "CNY",
  "د.إ": "AED",
};

/** Symbols several currencies print, their options in a fixed order (the location's own history reorders them). */
const SHARED: Record<string, string[]> = {
  $: ["USD", "CAD", "AUD", "NZD", "MXN", "SGD", "HKD"],
  "¥": ["JPY", "CNY"],
  kr: ["SEK", "NOK", "DKK", "ISK"],
  "kr.": ["DKK", "ISK", "SEK", "NOK"],
  R: ["ZAR", "BRL"],
  Fr: ["CHF", "XOF", "XAF"],
  "﷼": ["SAR", "IRR", "OMR", "QAR", "YER"],
};

/** Offered when the printed currency is nothing the table knows. */
const COMMON = ["USD", "EUR", "GBP", "JPY", "CNY", "CAD", "AUD", "CHF", "INR"];

export type SeenCurrency = { code: string } | { options: string[] } | null;

/** What a printed currency means: a code, the options to ask about, or null when nothing was printed. */
export function readCurrency(seen: string | null | undefined): SeenCurrency {
  const s = seen?.trim();
  if (!s) return null;
  if (/^[A-Za-z]{3}$/.test(s) && !SHARED[s]) return { code: s.toUpperCase() };
  const one = ONE[s];
  if (one) return { code: one };
  const shared = SHARED[s] ?? SHARED[s.toLowerCase()];
  return { options: shared ? [...shared] : [...COMMON] };
}

/** The options with the currencies the location already bought in first, most used first. */
export function likeliestFirst(options: string[], used: { currency: string; n: number }[]): string[] {
  const rank = new Map(used.map((u, i) => [u.currency, i]));
  return [...options].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || options.indexOf(a) - options.indexOf(b));
}
