/**
 * A move's printed pages, typeset with Typst like the label sheets (server/modules/codes/pdf.ts):
 *
 * - box labels: four A6 labels to an A4 page, one per box, with the box's number large enough to
 *   read across a room, where it goes, and the QR code of its short code (scanning it in the truck
 *   opens the box; the move screen's scan box takes the printed code too);
 * - packing lists: one page per box, what it holds, containers in containers indented.
 *
 * Text reaches Typst as data (a JSON file), never spliced into markup, so a name cannot change the
 * document. English or Arabic (Typst shapes Arabic and sets it right to left with `lang: "ar"`).
 */
import { formatCode } from "../../../shared/codes.js";
import { trimDecimal } from "../../../shared/ids.js";
import { codeQrFiles, typstPdf } from "../../pdf/typst.js";
import type { PrintedMove } from "./print-data.js";

export const PRINT_LOCALES = ["en", "ar"] as const;
export type PrintLocale = (typeof PRINT_LOCALES)[number];

const WORDS: Record<PrintLocale, Record<string, string>> = {
  en: {
    box: "Box",
    to: "To",
    from: "From",
    item: "Item",
    type: "Type",
    quantity: "Qty",
    code: "Code",
    empty: "Nothing recorded in this box.",
    list: "Packing list",
    unnamed: "Unnamed",
    arrow: "→",
  },
  ar: {
    box: "صندوق",
    to: "إلى",
    from: "من",
    item: "الغرض",
    type: "النوع",
    quantity: "الكمية",
    code: "الرمز",
    empty: "لا شيء مسجل في هذا الصندوق.",
    list: "قائمة التعبئة",
    unnamed: "بلا اسم",
    arrow: "←",
  },
};

const LABELS = `
#let d = json("/data.json")
#set page(paper: "a4", margin: 0pt)
#set text(font: ("Noto Sans", "Amiri"), size: 12pt, lang: d.lang)
#for (i, page) in d.pages.enumerate() {
  if i > 0 { pagebreak() }
  grid(
    columns: (105mm,) * 2,
    rows: (148.5mm,) * 2,
    ..page.map(b => box(width: 100%, height: 100%, inset: 8mm, stroke: 0.3pt + luma(180), stack(
      spacing: 4mm,
      text(size: 11pt, d.move),
      text(size: 72pt, weight: "bold", d.w.box + " " + str(b.number)),
      if b.destination != none { text(size: 22pt, d.w.to + ": " + b.destination) },
      if b.name != none { text(size: 12pt, b.name) },
      if b.code != none { align(center, stack(spacing: 2mm, image("/qr/" + b.code + ".svg", width: 42mm), text(size: 16pt, b.printed))) },
    ))),
  )
}
`;

const PACKING = `
#let d = json("/data.json")
#set page(paper: "a4", margin: 18mm)
#set text(font: ("Noto Sans", "Amiri"), size: 10pt, lang: d.lang)
#for (i, b) in d.boxes.enumerate() {
  if i > 0 { pagebreak() }
  grid(
    columns: (1fr, 30mm),
    stack(
      spacing: 3mm,
      text(size: 9pt, d.w.list + " · " + d.move),
      text(size: 26pt, weight: "bold", d.w.box + " " + str(b.number)),
      if b.destination != none { text(size: 14pt, d.w.to + ": " + b.destination) },
      if b.name != none { text(size: 11pt, b.name) },
      text(size: 9pt, d.w.from + ": " + d.from + if d.to != none { "  " + d.w.arrow + "  " + d.to } else { "" }),
    ),
    if b.code != none { stack(spacing: 1mm, image("/qr/" + b.code + ".svg", width: 30mm), align(center, text(size: 9pt, b.printed))) },
  )
  v(6mm)
  if b.contents.len() == 0 { text(style: "italic", d.w.empty) } else {
    table(
      columns: (1fr, auto, auto, auto),
      stroke: 0.3pt + luma(160),
      inset: 5pt,
      table.header(strong(d.w.item), strong(d.w.type), strong(d.w.quantity), strong(d.w.code)),
      ..b.contents.map(t => (
        { h((t.depth - 1) * 5mm); t.name },
        t.type,
        t.quantity,
        t.code,
      )).flatten(),
    )
  }
}
`;

export async function boxLabelsPdf(move: PrintedMove, origin: string, locale: PrintLocale): Promise<Buffer> {
  const w = WORDS[locale];
  const boxes = move.boxes.map((b) => ({
    number: b.number,
    destination: b.destination,
    name: b.name,
    code: b.code,
    printed: b.code ? formatCode(b.code) : null,
  }));
  const pages: (typeof boxes)[] = [];
  boxes.forEach((b, i) => (i % 4 === 0 ? pages.push([b]) : pages.at(-1)!.push(b)));
  const data = { lang: locale, w, move: move.name, pages };
  return typstPdf(
    LABELS,
    data,
    await codeQrFiles(
      origin,
      boxes.flatMap((b) => (b.code ? [b.code] : [])),
    ),
  );
}

export async function packingListPdf(move: PrintedMove, origin: string, locale: PrintLocale): Promise<Buffer> {
  const w = WORDS[locale];
  const data = {
    lang: locale,
    w,
    move: move.name,
    from: move.from,
    to: move.to,
    boxes: move.boxes.map((b) => ({
      number: b.number,
      destination: b.destination,
      name: b.name,
      code: b.code,
      printed: b.code ? formatCode(b.code) : null,
      contents: b.contents.map((t) => ({
        name: t.name ?? w.unnamed,
        type: t.type ?? "",
        quantity: trimDecimal(t.quantity),
        code: t.code ? formatCode(t.code) : "",
        depth: t.depth,
      })),
    })),
  };
  return typstPdf(
    PACKING,
    data,
    await codeQrFiles(
      origin,
      move.boxes.flatMap((b) => (b.code ? [b.code] : [])),
    ),
  );
}
