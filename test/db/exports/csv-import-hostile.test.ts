/**
 * Hostile CSV files against POST /api/v1/locations/{id}/imports/csv (issue 31, "the hostile suites
 * cover ... CSV routes"): bytes that are not UTF-8, unbalanced quotes, huge cells and files, too
 * many rows, formula leads where a number or a column name goes, NUL, garbage in a money cell,
 * deep JSON. Each, dry run and real run, is refused (4xx) or answered with its problems by line,
 * and the whole database is unchanged after it. Prints how many cases were tried.
 */
import { describe, expect } from "vitest";
import { CSV_IMPORT_MAX_BYTES, CSV_IMPORT_MAX_ROWS } from "../../../shared/exports.js";
import { apiTest as test } from "../../support/fixtures.js";
import { delta, sendRaw, snapshotter } from "../../support/hostile.js";
import { typeWithFields } from "../../support/secrets.js";

const b = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

/** name, body, and what the answer must be: a 4xx status, or the lines its problems are on. */
const CASES: [string, Buffer, number | number[]][] = [
  ["invalid UTF-8 FF FE C3 28", b("name\nTowel\n", [0xff, 0xfe, 0xc3, 0x28], "\n"), [3]],
  ["CESU-8 surrogate ED A0 80", b("name\n", [0xed, 0xa0, 0x80], "\n"), [2]],
  ["a lone continuation byte", b("name\nA\nB\n", [0x80], "x\n"), [4]],
  ["an overlong encoding C0 AF", b("name\n", [0xc0, 0xaf], "\n"), [2]],
  ["Latin-1 text (a spreadsheet's other encoding)", b("name\nCaf", [0xe9], "\n"), [2]],
  ["UTF-16 with its BOM", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("name\r\nTowel\r\n", "utf16le")]), [1]],
  ["a quote never closed", b('name,quantity\nTowel,1\n"Tent,1\nSoap,2\n'), [3]],
  ["a quote never closed at the very end", b('name\nTowel\n"'), [3]],
  ["text after a closing quote", b('name\n"Tent" big\n'), [2]],
  ["a huge name cell", b(`name\n${"x".repeat(20_000)}\n`), [2]],
  ["a 4 MB quoted cell", b(`name\n"${"x,\n".repeat(1_300_000)}"\n`), [2]],
  ["a huge field cell", b(`name,type,note\nTowel,Gear,${"n".repeat(10_001)}\n`), [2]],
  ["a text value past the field's limit (the write core refuses it)", b(`name,type,note\nTowel,Gear,${"n".repeat(4001)}\nSoap,Gear,ok\n`), [2]],
  ["a file past the size limit", b(`name\n${"x".repeat(CSV_IMPORT_MAX_BYTES)}\n`), 413],
  ["one row past the row limit", b(`name\n${"T\n".repeat(CSV_IMPORT_MAX_ROWS + 1)}`), 400],
  ["a million blank-ish lines", b(`name\n${",\n".repeat(1_000_000)}Towel\n`), 200],
  ["a formula lead as the quantity", b("name,quantity\nTowel,=1+1\nSoap,@SUM(1)\n"), [2, 3]],
  ["a formula lead as a column name", b("name,=cmd|' /C calc'!A0\nTowel,x\n"), [2]],
  ["a formula lead as a type", b('name,type\nTowel,=HYPERLINK("http://x")\n'), [2]],
  ["NUL in a name", b("name\nTow\u0000el\nSoap\n"), [2]],
  ["NUL in a column name", b("name,no\u0000te\nTowel,x\n"), 400],
  ["NUL in a place", b("name,place\nTowel,Sh\u0000ed\n"), [2]],
  [
    "garbage in a money cell",
    b(
      'name,type,price\nA,Gear,12 EUR; DROP TABLE things\nB,Gear,NaN EUR\nC,Gear,Infinity EUR\nD,Gear,1e5 EUR\nE,Gear,0x10 EUR\nF,Gear,９９ EUR\nG,Gear,"1,2,3 EUR"\nH,Gear,EUR EUR\n',
    ),
    [2, 3, 4, 5, 6, 7, 8, 9],
  ],
  ["an amount with too many digits", b("name,type,price\nA,Gear,99999999999999999 EUR\n"), [2]],
  ["an unknown currency", b("name,type,price\nA,Gear,12 ZZZ\n"), [2]],
  ["deep JSON in the fields column", b(`name,fields\nA,"${"[".repeat(50_000)}"\n`), [2]],
  ["a fields column that is not an object", b('name,type,fields\nA,Gear,"[1,2]"\nB,Gear,"{""note"":{""deep"":1}}"\n'), [2, 3]],
  ["5,000 unknown columns", b(`name,${Array.from({ length: 5000 }, (_, i) => `c${i}`).join(",")}\nA,${"x,".repeat(4999)}x\n`), [2]],
  ["more cells than column names", b("name\nA,B,C\n"), [2]],
  ["a value under a column with no name", b("name,,\nA,,x\nB,,\n"), [2]],
  ["a column named twice", b("name,name\nA,B\n"), 400],
  ["no name column", b("title\nA\n"), 400],
  ["an empty body", b(""), 400],
  ["a secret field", b("name,type,pin\nA,Gear,1234\n"), [2]],
  ["a place name past its limit", b(`name,place\nA,Hall / ${"p".repeat(121)}\n`), [2]],
  ["a bad row among many good ones", b(`name,quantity\n${"Good,1\n".repeat(999)}Bad,-1\n`), [1001]],
];

describe("hostile CSV files", () => {
  test("each is refused or answered by line, dry run and real run, and the database is unchanged", async ({ svc, loc, as }) => {
    await typeWithFields(svc.database.db, loc, "Gear", [
      { key: "price", kind: "money" },
      { key: "note", kind: "text" },
      { key: "pin", kind: "text", secret: true },
    ]);
    const snapshot = await snapshotter(svc.database.db);
    let tried = 0;
    for (const [name, body, want] of CASES)
      for (const dryRun of [true, false]) {
        const before = await snapshot();
        const res = await sendRaw(svc, {
          method: "POST",
          path: `/api/v1/locations/${loc}/imports/csv?dryRun=${dryRun}`,
          headers: { "content-type": "text/csv" },
          body,
          cookies: as.member.cookies,
        });
        tried++;
        const what = `${name} (dryRun=${dryRun}): ${res.text.slice(0, 300)}`;
        if (typeof want === "number") {
          expect(res.status, what).toBe(want);
          if (want >= 400) expect((res.body as { error?: { message?: string } }).error?.message ?? res.text, what).toBeTruthy();
        } else {
          expect(res.status, what).toBe(200);
          const result = res.body as { created: number; errors: { line: number; reason: string }[] };
          expect(
            result.errors.map((e) => e.line),
            what,
          ).toEqual(want);
          expect(result.created, what).toBe(0);
          for (const e of result.errors) expect(e.reason.length, what).toBeLessThan(2000);
        }
        // "a million blank-ish lines" holds one good row: its real run writes it, and only then.
        if (name === "a million blank-ish lines" && !dryRun) continue;
        expect(delta(before, await snapshot()), what).toEqual({});
      }
    console.log(
      `CSV import hostile suite: ${tried} requests (${CASES.length} cases, dry run and real run), each refused or reported by line with nothing written`,
    );
  });
});
