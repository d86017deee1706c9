/**
 * The restore's incremental reader of a JSON list of rows (server/modules/exports/row-reader.ts):
 * whatever the chunking and the whitespace, it hands over exactly the rows JSON.parse sees, and it
 * refuses what is not a list of objects, a row past its limit, and bytes that are not UTF-8.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RowListReader } from "../../server/modules/exports/row-reader.js";
import { AppError } from "../../server/errors/classes.js";

/** The rows read from `bytes` fed in pieces cut at `cuts`. */
function read(bytes: Buffer, cuts: number[] = [], maxRow = 1 << 20): unknown[] {
  const out: unknown[] = [];
  const reader = new RowListReader("records/things.json", maxRow, (text, n) => {
    expect(n).toBe(out.length + 1);
    out.push(JSON.parse(text));
  });
  let from = 0;
  for (const at of [...cuts].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(from, at));
    from = at;
  }
  reader.push(bytes.subarray(from));
  expect(reader.end()).toBe(out.length);
  return out;
}

const refusal = (bytes: Buffer, maxRow?: number) => {
  try {
    read(bytes, [], maxRow);
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("not refused");
};

describe("the restore's row reader", () => {
  test("rows with braces, brackets, quotes and escapes inside strings, and multi-byte text cut anywhere", () => {
    const rows = [{ id: "a", name: 'brace } bracket ] quote " backslash \\ end', nested: { list: [1, { x: "}" }] } }, { id: "b", name: "عربي 😀 é" }, {}];
    const bytes = Buffer.from(`  [\n${rows.map((r) => JSON.stringify(r, null, 2)).join(" ,\n")}\n]\n `);
    for (let cut = 0; cut <= bytes.length; cut++) expect(read(bytes, [cut])).toEqual(rows);
  });

  test("whatever the rows, whitespace and chunking, it reads what JSON.parse reads", () => {
    const row = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), fc.nat(3), fc.array(fc.nat(), { maxLength: 6 }), (rows, indent, cuts) => {
        const bytes = Buffer.from(JSON.stringify(rows, null, indent));
        expect(
          read(
            bytes,
            cuts.map((c) => c % (bytes.length + 1)),
          ),
        ).toEqual(JSON.parse(bytes.toString()));
      }),
      { numRuns: 300 },
    );
  });

  test("an empty list is no rows; whitespace costs nothing however long", () => {
    expect(read(Buffer.from("[]"))).toEqual([]);
    const reader = new RowListReader("records/things.json", 16, () => undefined);
    reader.push(Buffer.from("["));
    for (let i = 0; i < 64; i++) reader.push(Buffer.alloc(1 << 20, 0x20));
    reader.push(Buffer.from("]"));
    expect(reader.end()).toBe(0);
  });

  test("refuses what is not a list of objects", () => {
    for (const text of ["", "{}", "[1]", '["x"]', "[{}", "[{},]", "[{}{}]", "[{}] []", "[,{}]", "x", "[{}}]", "\ufeff[]"])
      expect(refusal(Buffer.from(text)), text).toMatchObject({
        status: 400,
        message: expect.stringMatching(/^records\/things\.json in the zip is not a JSON list of rows/),
      });
  });

  test("refuses a row past its limit (413, naming it) and bytes that are not UTF-8", () => {
    expect(refusal(Buffer.from(`[{"a":"${"x".repeat(100)}"}]`), 64)).toMatchObject({
      status: 413,
      message: expect.stringMatching(/larger than 64 bytes \(row 1\)/),
    });
    for (const bad of [
      [0xff, 0xfe, 0xc3, 0x28],
      [0xed, 0xa0, 0x80],
    ])
      expect(refusal(Buffer.concat([Buffer.from('[{}, {"a":"'), Buffer.from(bad), Buffer.from('"}]')]))).toMatchObject({
        status: 400,
        message: "records/things.json, row 2: not UTF-8 text.",
      });
  });
});
