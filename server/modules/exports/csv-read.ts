/**
 * Reading a CSV file a person sends: its bytes decoded as UTF-8 (strictly: a file saved in another
 * encoding is refused by line, never turned into replacement characters), then RFC 4180 rows with
 * the line each one starts on. Strict about quotes: a quote opened and never closed is named with
 * its line instead of swallowing the rest of the file into one cell.
 */

/** A problem that stops the whole file being read, with the (1-based) line it is on. */
export class CsvReadProblem extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

export interface CsvRow {
  /** The line of the file the row starts on (a quoted cell may run over several lines). */
  line: number;
  cells: string[];
}

const BOM = [0xef, 0xbb, 0xbf];
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no
 * overlong forms, no surrogates such as CESU-8's ED A0 80, nothing past U+10FFFF), or -1.
 * TextDecoder says only that the bytes are bad; this says where, so the problem can name a line.
 */
export function firstBadUtf8Byte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // overlong
      if (b === 0xf4) hi = 0x8f; // past U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** The file's text without a leading UTF-8 byte-order mark; refused with its line when it is not UTF-8. */
export function decodeCsv(bytes: Uint8Array): string {
  const start = BOM.every((b, i) => bytes[i] === b) ? BOM.length : 0;
  const body = bytes.subarray(start);
  try {
    return strictUtf8.decode(body);
  } catch {
    const at = firstBadUtf8Byte(body);
    let line = 1;
    // Line breaks as the parser counts them: LF, CRLF, or a lone CR.
    for (let i = 0; i < at; i++) if (body[i] === 0x0a || (body[i] === 0x0d && body[i + 1] !== 0x0a)) line++;
    throw new CsvReadProblem(line, "the text is not UTF-8; save the file as CSV UTF-8 and send it again");
  }
}

/**
 * Rows of cells; rows with nothing but empty cells are left out. A quote only opens a cell at the
 * cell's start (`12" ruler` is text as written); after a closing quote comes a comma or a line end.
 * `maxRows` stops reading early, so a file of a million empty-ish lines costs no more than the limit.
 */
export function parseCsv(text: string, maxRows = Infinity): CsvRow[] {
  const out: CsvRow[] = [];
  let row: string[] = [];
  let cur = "";
  let line = 1;
  let rowLine = 1;
  let cellStart = true;
  const endRow = () => {
    row.push(cur);
    if (row.some((c) => c.trim() !== "")) out.push({ line: rowLine, cells: row });
    row = [];
    cur = "";
    cellStart = true;
    rowLine = line;
  };
  for (let i = 0; i < text.length && out.length <= maxRows; i++) {
    const c = text[i]!;
    if (c === '"' && cellStart) {
      const opened = line;
      for (i++; ; i++) {
        if (i >= text.length) throw new CsvReadProblem(opened, 'a quote opened here is never closed; close it, or double it ("") inside a quoted cell');
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] !== '"') break;
          cur += '"';
          i++;
        } else {
          if (q === "\n" || (q === "\r" && text[i + 1] !== "\n")) line++;
          cur += q;
        }
      }
      const next = text[i + 1];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r")
        throw new CsvReadProblem(line, 'text follows a closing quote; put the whole cell in quotes and double the quotes inside it ("")');
      cellStart = false;
    } else if (c === ",") {
      row.push(cur);
      cur = "";
      cellStart = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      line++;
      endRow();
    } else {
      cur += c;
      cellStart = false;
    }
  }
  if (out.length <= maxRows && (cur !== "" || row.length)) endRow();
  return out;
}
