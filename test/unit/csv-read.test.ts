/**
 * Reading an imported CSV (server/modules/exports/csv-read.ts): strict UTF-8 with the line of the
 * first bad byte, strict quotes with the line a quote opened on, rows with the line they start on;
 * money cells as people write them (csv-money.ts); the export's formula escape and the import's
 * exact inverse (csv.ts).
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { csvLine, formulaSafe, readFormulaSafe } from "../../server/modules/exports/csv.js";
import { CsvReadProblem, decodeCsv, firstBadUtf8Byte, parseCsv } from "../../server/modules/exports/csv-read.js";
import { readMoney } from "../../server/modules/exports/csv-money.js";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
const problemOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof CsvReadProblem) return { line: err.line, reason: err.reason };
    throw err;
  }
  return null;
};

describe("decoding", () => {
  test("a UTF-8 BOM is dropped; text decodes as written", () => {
    expect(decodeCsv(bytes([0xef, 0xbb, 0xbf], "name\nكتاب\n"))).toBe("name\nكتاب\n");
  });

  test.each([
    ["a UTF-16 BOM and a bad pair (FF FE C3 28)", [0xff, 0xfe, 0xc3, 0x28]],
    ["CESU-8 surrogate (ED A0 80)", [0xed, 0xa0, 0x80]],
    ["an overlong slash (C0 AF)", [0xc0, 0xaf]],
    ["past U+10FFFF (F4 90 80 80)", [0xf4, 0x90, 0x80, 0x80]],
    ["a sequence cut short at the end", [0xe2, 0x82]],
  ])("%s is refused with the line it is on", (_, bad) => {
    expect(problemOf(() => decodeCsv(bytes("name\nok\n", bad, "\nafter\n")))).toEqual({
      line: 3,
      reason: expect.stringMatching(/^the text is not UTF-8/) as unknown,
    });
    expect(problemOf(() => decodeCsv(bytes(bad)))?.line).toBe(1);
    // Old Mac line ends (CR alone) count as the parser counts them.
    expect(problemOf(() => decodeCsv(bytes("name\rok\r\nx\r", bad)))?.line).toBe(4);
  });

  test("firstBadUtf8Byte agrees with a fatal TextDecoder on random bytes", () => {
    const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (b) => {
        let ok = true;
        try {
          strict.decode(b);
        } catch {
          ok = false;
        }
        const at = firstBadUtf8Byte(b);
        expect(at === -1).toBe(ok);
        if (!ok) expect(() => strict.decode(b.subarray(0, at))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parsing", () => {
  test("rows carry the line they start on; blank lines are skipped; quoted cells keep commas, quotes and line breaks", () => {
    const rows = parseCsv('name,note\r\n\r\n"Tent, big","two\nlines"\n"say ""hi""",x\n12" ruler,y');
    expect(rows).toEqual([
      { line: 1, cells: ["name", "note"] },
      { line: 3, cells: ["Tent, big", "two\nlines"] },
      { line: 5, cells: ['say "hi"', "x"] },
      { line: 6, cells: ['12" ruler', "y"] },
    ]);
  });

  test("a quote never closed is named at the line it opened on, not swallowed into a row", () => {
    expect(problemOf(() => parseCsv('name,q\n"Tent,1\nTowel,2\n'))).toEqual({
      line: 2,
      reason: expect.stringMatching(/quote opened here is never closed/) as unknown,
    });
    expect(problemOf(() => parseCsv('name\nok\nok\n"open'))?.line).toBe(4);
  });

  test("text after a closing quote is refused with its line", () => {
    expect(problemOf(() => parseCsv('name\n"a\nb"c,1\n'))).toEqual({ line: 3, reason: expect.stringMatching(/follows a closing quote/) as unknown });
  });

  test("reading stops after maxRows + 1 rows", () => {
    expect(parseCsv("a\nb\nc\nd\ne\n", 2)).toHaveLength(3);
  });
});

describe("formula leads (OWASP CSV injection)", () => {
  test.each(["=SUM(A1)", "+1", "-1+2", "@cmd", "\tx", "\rx", "\nx", "＝1", "＋1", "－1", "＠x", "'=x", "''-1"])("%j gets one apostrophe first", (s) => {
    expect(formulaSafe(s)).toBe(`'${s}`);
    expect(readFormulaSafe(formulaSafe(s))).toBe(s);
  });

  test.each(["plain", "'quoted", "1-2", "a=b", ""])("%j is written as it is", (s) => {
    expect(formulaSafe(s)).toBe(s);
    expect(readFormulaSafe(s)).toBe(s);
  });

  test("the writer and the reader give back any text", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "=", "+", "-", "@", "'", '"', ",", "\t", "\r", "\n", "＝", " ") }), { minLength: 1, maxLength: 4 }),
        (cells) => {
          const [row] = parseCsv(csvLine([...cells, "end"]));
          expect(row!.cells.slice(0, -1).map(readFormulaSafe)).toEqual(cells);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("money as people write it", () => {
  test.each([
    ["25 EUR", "EUR", { amount: "25", currency: "EUR" }],
    ["EUR 25", null, { amount: "25", currency: "EUR" }],
    ["eur 25", null, { amount: "25", currency: "EUR" }],
    ["€25", null, { amount: "25", currency: "EUR" }],
    ["25 €", null, { amount: "25", currency: "EUR" }],
    ["$25", "USD", { amount: "25", currency: "USD" }],
    ["$25", "CAD", { amount: "25", currency: "CAD" }],
    ["25.00", "GBP", { amount: "25.00", currency: "GBP" }],
    ["1,234.50", "USD", { amount: "1234.50", currency: "USD" }],
    ["1.234,50 €", null, { amount: "1234.50", currency: "EUR" }],
    ["25,50", "EUR", { amount: "25.50", currency: "EUR" }],
    ["1 234,50 EUR", null, { amount: "1234.50", currency: "EUR" }],
    ["1,234,567", "USD", { amount: "1234567", currency: "USD" }],
    ["0,125", "KWD", { amount: "0.125", currency: "KWD" }],
    ["-€25", null, { amount: "-25", currency: "EUR" }],
    ["£ 3.5", null, { amount: "3.5", currency: "GBP" }],
  ])("%j (location in %s) is %j", (cell, loc, value) => {
    expect(readMoney(cell, loc)).toEqual({ value });
  });

  test.each([
    ["1,234", "EUR", /could be 1234 or 1.234/],
    ["1.234", "EUR", /could be 1234 or 1.234/],
    ["25", null, /no currency/],
    ["$25", "EUR", /several currencies/],
    ["25 XYZ", null, /not a currency code/],
    ["EUR 25 USD", null, /currency twice/],
    ["1,23,4", "EUR", /do not make one amount/],
    ["1.234.5", "EUR", /do not make one amount/],
    ["abc", "EUR", /not an amount/],
    ["25.", "EUR", /not an amount/],
    ["1234567890123456", "EUR", /15 digits/],
    ["1.1234567", "EUR", /6 digits/],
    ["", "EUR", /not an amount/],
  ])("%j (location in %s) is refused", (cell, loc, why) => {
    const read = readMoney(cell, loc);
    expect("problem" in read ? read.problem : read).toMatch(why);
  });
});
