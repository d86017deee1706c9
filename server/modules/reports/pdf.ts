/**
 * The inventory report as a Typst PDF (server/pdf/typst.ts, as the move printouts): a cover with the
 * location, the date and the totals, then the things grouped by place path, each with its type,
 * quantity, custom fields and, when asked, a photo thumbnail and the QR code of its short code.
 *
 * Text reaches Typst as data, never as markup. Arabic is set with `lang: "ar"` (shaped, right to
 * left); every number this file prints goes through `num`, which writes eastern digits when asked.
 */
import { formatCode } from "../../../shared/codes.js";
import { easternDigits, type ReportParams } from "../../../shared/reports.js";
import { trimDecimal } from "../../../shared/ids.js";
import { codeQrFiles, typstPdf } from "../../pdf/typst.js";
import { loadSharp } from "../files/sharp.js";
import type { BlobStore } from "../files/storage.js";
import type { ReportData, ReportField, ReportThing } from "./data.js";
import { REPORT_WORDS, type Words } from "./words.js";

const MAIN = `
#let d = json("/data.json")
#set page(paper: "a4", margin: 16mm, footer: context align(center, text(size: 8pt, fill: luma(120), d.location + " · " + d.date)))
#set text(font: ("Noto Sans", "Amiri"), size: if d.lang == "ar" { 11pt } else { 9.5pt }, lang: d.lang)
#block(width: 100%, inset: (bottom: 6mm), stroke: (bottom: 1pt + luma(120)), stack(
  spacing: 4mm,
  text(size: 11pt, fill: luma(90), d.w.title),
  text(size: 24pt, weight: "bold", d.location),
  text(size: 11pt, d.date),
  table(
    columns: (auto, auto),
    stroke: none,
    inset: (x: 0pt, y: 3pt),
    column-gutter: 6mm,
    ..d.totals.map(t => (text(fill: luma(90), t.label), strong(t.value))).flatten(),
  ),
))
#for g in d.groups {
  v(5mm)
  block(sticky: true, width: 100%, inset: (bottom: 2mm), stroke: (bottom: 0.6pt + luma(150)), text(size: 13pt, weight: "bold", g.path))
  for t in g.things {
    block(breakable: false, width: 100%, inset: (y: 2.5mm), stroke: (bottom: 0.3pt + luma(210)), grid(
      columns: (if d.photos { 22mm } else { 0mm }, 1fr, if d.qr { 20mm } else { 0mm }),
      column-gutter: 3mm,
      if t.photo != none { image(t.photo, width: 22mm) },
      stack(
        spacing: 1.6mm,
        text(size: 11pt, weight: "bold", t.name),
        text(fill: luma(80), t.type + "  ·  " + d.w.quantity + ": " + t.quantity + if t.code != none { "  ·  " + t.code } else { "" }),
        ..t.fields.map(f => text(size: 9pt, f.label + ": " + f.value)),
      ),
      if t.qr != none { image(t.qr, width: 20mm) },
    ))
  }
}
#if d.groups.len() == 0 { v(5mm); text(style: "italic", d.w.none) }
`;

const PHOTO_PX = 240;

/** "2.000" -> "2": quantities and amounts as a person writes them. */

function fieldText(f: ReportField, w: Words, num: (s: string) => string): string {
  const v = f.value;
  const one = (x: unknown): string => {
    if (f.kind === "money" && x && typeof x === "object" && "amount" in x) {
      const m = x as { amount: string; currency?: string };
      return `${num(trimDecimal(String(m.amount)))} ${m.currency ?? ""}`.trim();
    }
    if (typeof x === "boolean") return x ? w.yes : w.no;
    if (typeof x === "number") return num(String(x));
    if (typeof x === "string") return f.kind === "number" || f.kind === "date" ? num(x) : x;
    return JSON.stringify(x);
  };
  return Array.isArray(v) ? v.map(one).join(", ") : one(v);
}

/** Sums of the money fields shown, per currency (amounts kept as strings until summed in cents). */
function moneyTotals(things: ReportThing[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of things)
    for (const f of t.fields) {
      if (f.kind !== "money") continue;
      for (const m of Array.isArray(f.value) ? f.value : [f.value]) {
        const { amount, currency } = (m ?? {}) as { amount?: string; currency?: string };
        const n = Number(amount);
        if (!currency || !Number.isFinite(n)) continue;
        out.set(currency, (out.get(currency) ?? 0) + Math.round(n * 10_000));
      }
    }
  return out;
}

async function thumbnail(store: BlobStore, sha256: string): Promise<Buffer | null> {
  const sharp = await loadSharp();
  try {
    const chunks: Buffer[] = [];
    for await (const c of (await store.open(sha256)) as AsyncIterable<Buffer>) chunks.push(c);
    return await sharp(Buffer.concat(chunks), { limitInputPixels: 100_000_000 })
      .autoOrient()
      .resize(PHOTO_PX, PHOTO_PX, { fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 70 })
      .toBuffer();
  } catch {
    // A photo that cannot be read (a HEIC without its codec, a missing blob) is left out, not fatal.
    return null;
  }
}

export async function reportPdf(data: ReportData, params: ReportParams, deps: { store: BlobStore; origin: string; now: Date }): Promise<Buffer> {
  const w = REPORT_WORDS[params.locale];
  const num = (s: string) => (params.digits === "eastern" ? easternDigits(s) : s);
  const files: Record<string, Buffer> = {};
  const groups = new Map<string, unknown[]>();
  const sorted = [...data.things].sort((a, b) => a.path.join("\u0000").localeCompare(b.path.join("\u0000")));
  for (const t of sorted) {
    let photo: string | null = null;
    if (t.cover) {
      const bytes = await thumbnail(deps.store, t.cover.sha256);
      if (bytes) files[(photo = `/photo/${t.cover.sha256}.jpg`)] = bytes;
    }
    let qr: string | null = null;
    if (params.include.qr && t.shortCode) {
      qr = `/qr/${t.shortCode}.svg`;
      Object.assign(files, await codeQrFiles(deps.origin, [t.shortCode]));
    }
    const key = t.path.length ? t.path.join(` ${w.pathSep} `) : w.noPlace;
    const type = t.type.name ?? (t.type.builtinKey ? (w.builtin[t.type.builtinKey] ?? t.type.builtinKey) : "");
    const marks = [t.lifecycle === "ended" ? w.ended : null, t.trashed ? w.trashed : null].filter(Boolean).join(", ");
    const entry = {
      name: (t.name ?? w.unnamed) + (marks ? ` (${marks})` : ""),
      type,
      quantity: num(trimDecimal(t.quantity)),
      // A short code is a label to type or scan: its digits stay as printed on the label.
      code: t.shortCode ? formatCode(t.shortCode) : null,
      fields: t.fields.map((f) => ({ label: f.label, value: fieldText(f, w, num) })),
      photo,
      qr,
    };
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const quantity = data.things.reduce((s, t) => s + Math.round(Number(t.quantity) * 1000), 0) / 1000;
  const totals = [
    { label: w.things, value: num(String(data.things.length)) },
    { label: w.quantitySum, value: num(String(quantity)) },
  ];
  if (data.showsMoney)
    for (const [currency, tenThousandths] of [...moneyTotals(data.things)].sort())
      totals.push({ label: w.value, value: `${num((tenThousandths / 10_000).toFixed(2))} ${currency}` });
  const doc = {
    lang: params.locale,
    w,
    location: data.location.name,
    date: num(deps.now.toISOString().slice(0, 10)),
    totals,
    photos: params.include.photos,
    qr: params.include.qr,
    groups: [...groups].map(([path, things]) => ({ path, things })),
  };
  return typstPdf(MAIN, doc, files);
}
