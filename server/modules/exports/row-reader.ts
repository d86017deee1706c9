/**
 * An incremental reader of a JSON array of objects (an export's records/*.json), fed the bytes as
 * they inflate: it hands over each row's own text as soon as its closing brace arrives and keeps
 * nothing between rows, so whitespace or a row that never ends costs no memory past `maxRowBytes`.
 * Only the array's frame is read here (brackets, commas, where each object starts and ends,
 * strings and their escapes, so a brace inside a string is not mistaken for the object's end);
 * each row's text is then parsed by JSON.parse, which refuses anything else that is not JSON.
 */
import { PayloadTooLargeError, ValidationError } from "../../errors/classes.js";

type State = "start" | "first" | "next" | "after" | "row" | "done";

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const [OPEN_LIST, CLOSE_LIST, OPEN, CLOSE, COMMA, QUOTE, BACKSLASH] = [0x5b, 0x5d, 0x7b, 0x7d, 0x2c, 0x22, 0x5c];

export class RowListReader {
  private state: State = "start";
  private depth = 0;
  private inString = false;
  private escaped = false;
  private pieces: Buffer[] = [];
  private size = 0;
  private rows = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  /**
   * @param name the record file's name, for messages ("records/things.json")
   * @param onRow called with each row's text and its number (from 1), in order
   */
  constructor(
    private readonly name: string,
    private readonly maxRowBytes: number,
    private readonly onRow: (text: string, n: number) => void,
  ) {}

  private notList(): never {
    throw new ValidationError(`${this.name} in the zip is not a JSON list of rows (at row ${this.rows + 1}).`);
  }

  push(chunk: Buffer): void {
    let from = 0; // where the current row's bytes start in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.state === "row") {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (b === BACKSLASH) this.escaped = true;
          else if (b === QUOTE) this.inString = false;
        } else if (b === QUOTE) this.inString = true;
        else if (b === OPEN || b === OPEN_LIST) this.depth++;
        else if (b === CLOSE || b === CLOSE_LIST) {
          this.depth--;
          if (this.depth === 0) {
            this.take(chunk.subarray(from, i + 1));
            this.finishRow();
            this.state = "after";
          }
        }
        continue;
      }
      if (SPACE.has(b)) continue;
      if (this.state === "start" && b === OPEN_LIST) this.state = "first";
      else if ((this.state === "first" || this.state === "next") && b === OPEN) {
        this.state = "row";
        this.depth = 1;
        from = i;
      } else if ((this.state === "first" || this.state === "after") && b === CLOSE_LIST) this.state = "done";
      else if (this.state === "after" && b === COMMA) this.state = "next";
      else this.notList();
    }
    if (this.state === "row") this.take(chunk.subarray(from));
  }

  /** The end of the bytes: the list must have been closed. */
  end(): number {
    if (this.state !== "done") this.notList();
    return this.rows;
  }

  private take(bytes: Buffer): void {
    this.size += bytes.length;
    if (this.size > this.maxRowBytes)
      throw new PayloadTooLargeError(
        this.maxRowBytes,
        { entry: this.name, row: this.rows + 1 },
        `${this.name} in the zip has a row larger than ${this.maxRowBytes} bytes (row ${this.rows + 1}), the most a restore reads of one row.`,
      );
    this.pieces.push(bytes);
  }

  private finishRow(): void {
    const bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    this.size = 0;
    this.rows += 1;
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      throw new ValidationError(`${this.name}, row ${this.rows}: not UTF-8 text.`);
    }
    this.onRow(text, this.rows);
  }
}
