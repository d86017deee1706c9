/**
 * A label sheet as a PDF, typeset with Typst: A4, 3 by 8 labels a page (70 by 37 mm, the common
 * self-adhesive sheet), each with the QR code of its link, the code as it is read aloud and the
 * location's name. Text goes to Typst as data (a JSON file), never spliced into markup, so a name
 * cannot change the document. Noto Sans comes first; Amiri sets the Arabic names Noto Sans lacks.
 */
import { formatCode } from "../../../shared/codes.js";
import { codeQrFiles, typstPdf } from "../../pdf/typst.js";

const LABELS_PER_PAGE = 24;

const MAIN = `
#let d = json("/data.json")
#set page(paper: "a4", margin: 0pt)
#set text(font: ("Noto Sans", "Amiri"), size: 9pt)
#for (i, page) in d.pages.enumerate() {
  if i > 0 { pagebreak() }
  grid(
    columns: (70mm,) * 3,
    rows: 37.1mm,
    ..page.map(l => box(width: 100%, height: 100%, inset: 4mm, clip: true, grid(
      columns: (26mm, 1fr),
      column-gutter: 3mm,
      align: horizon,
      image("/qr/" + l.code + ".svg", width: 26mm),
      stack(spacing: 2.5mm, text(size: 15pt, l.printed), text(size: 8pt, d.location)),
    ))),
  )
}
`;

export interface SheetContent {
  /** Where the QR codes point: `{origin}/c/{code}`. */
  origin: string;
  locationName: string;
  codes: string[];
}

export async function labelSheetPdf({ origin, locationName, codes }: SheetContent): Promise<Buffer> {
  const pages: { code: string; printed: string }[][] = [];
  codes.forEach((code, i) => {
    if (i % LABELS_PER_PAGE === 0) pages.push([]);
    pages.at(-1)!.push({ code, printed: formatCode(code) });
  });
  return typstPdf(MAIN, { location: locationName, pages }, await codeQrFiles(origin, codes));
}
