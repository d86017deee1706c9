/**
 * One Typst compiler for the process (loading the fonts is the slow part) and the one way every
 * PDF of the service is rendered: the document's text comes as data (`/data.json`), never spliced
 * into markup, and its images as in-memory files. Noto Sans comes first; Amiri sets the Arabic
 * Noto Sans lacks, shaped and right to left (Typst shapes it; test/db/reports/reports.test.ts reads an
 * Arabic report back).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { NodeCompiler } from "@myriaddreamin/typst-ts-node-compiler";
import QRCode from "qrcode";
import { codePath } from "../../shared/codes.js";

/** Typst's virtual workspace: the data and the images live in memory under it. */
const ROOT = "/doc";

const require = createRequire(import.meta.url);
const fontDir = (pkg: string) => join(dirname(require.resolve(`@expo-google-fonts/${pkg}/package.json`)), "400Regular");

let compiler: NodeCompiler | undefined;
function typst(): NodeCompiler {
  // Required with the first PDF, not at start: the native compiler costs resident memory in a
  // process that may never render one (docs/develop/performance.md, memory).
  const typstModule = require("@myriaddreamin/typst-ts-node-compiler") as typeof import("@myriaddreamin/typst-ts-node-compiler");
  compiler ??= typstModule.NodeCompiler.create({ workspace: ROOT, fontArgs: [{ fontPaths: [fontDir("noto-sans"), fontDir("amiri")] }] });
  return compiler;
}

/**
 * Renders `main` with `data` at `/data.json` and `files` at their paths (`/qr/X.svg`). The shadow
 * files and the render happen in one synchronous run: no other document's files can interleave.
 */
export function typstPdf(main: string, data: unknown, files: Record<string, Buffer> = {}): Buffer {
  const c = typst();
  c.resetShadow();
  c.mapShadow(`${ROOT}/data.json`, Buffer.from(JSON.stringify(data)));
  for (const [path, content] of Object.entries(files)) c.mapShadow(`${ROOT}${path}`, content);
  try {
    return c.pdf({ mainFileContent: main });
  } finally {
    c.resetShadow();
    c.evictCache(10);
  }
}

/** The QR code of each code's link (`{origin}/c/{code}`) as an SVG file at `/qr/{code}.svg`, for the documents' images. */
export async function codeQrFiles(origin: string, codes: string[]): Promise<Record<string, Buffer>> {
  const unique = [...new Set(codes)];
  const svgs = await Promise.all(unique.map((code) => QRCode.toString(`${origin}${codePath(code)}`, { type: "svg", margin: 0, errorCorrectionLevel: "M" })));
  return Object.fromEntries(unique.map((code, i) => [`/qr/${code}.svg`, Buffer.from(svgs[i]!)]));
}
