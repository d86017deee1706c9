/**
 * Reads a QR code or barcode from a camera frame or a photo: the browser's BarcodeDetector where it
 * has one (Chrome on Android, Safari), zxing-wasm otherwise (desktop Chromium on Linux, Firefox).
 * The WebAssembly file is part of our build and served from our origin: the device may have no
 * network, and a scanner that fetched its decoder from a CDN would fail exactly there.
 */
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

export interface Decoded {
  text: string;
  /** In BarcodeDetector's spelling (`qr_code`, `ean_13`), which classifyScan understands. */
  format: string;
}

interface DetectedBarcode {
  rawValue: string;
  format: string;
}
interface BarcodeDetectorLike {
  detect(source: ImageBitmapSource): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = (new (opts?: { formats?: string[] }) => BarcodeDetectorLike) & { getSupportedFormats(): Promise<string[]> };

let native: Promise<BarcodeDetectorLike | null> | undefined;

/** The browser's detector if it reads QR codes here (some ship the class with no formats). */
function nativeDetector(): Promise<BarcodeDetectorLike | null> {
  native ??= (async () => {
    const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
    if (!Detector) return null;
    try {
      const formats = await Detector.getSupportedFormats();
      return formats.includes("qr_code") ? new Detector({ formats }) : null;
    } catch {
      return null;
    }
  })();
  return native;
}

type ZxingReader = typeof import("zxing-wasm/reader");
let zxing: Promise<ZxingReader> | undefined;

/** zxing-wasm, loaded on first use (it is large, and most screens never scan). */
function zxingReader(): Promise<ZxingReader> {
  zxing ??= import("zxing-wasm/reader").then((mod) => {
    mod.prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) } });
    return mod;
  });
  return zxing;
}

const ZXING_FORMATS: Record<string, string> = { EAN13: "ean_13", EAN8: "ean_8", UPCA: "upc_a", UPCE: "upc_e", QRCode: "qr_code" };

/** Decodes the first code in an image (a photo file, or one camera frame); null if there is none. */
export async function decodeImage(image: Blob | ImageData): Promise<Decoded | null> {
  const detector = await nativeDetector();
  if (detector) {
    const source = image instanceof Blob ? await createImageBitmap(image) : image;
    const [found] = await detector.detect(source);
    if (found?.rawValue) return { text: found.rawValue, format: found.format };
    return null;
  }
  const { readBarcodes } = await zxingReader();
  const [found] = (await readBarcodes(image, { tryHarder: true, maxNumberOfSymbols: 1 })).filter((r) => r.isValid && r.text);
  return found ? { text: found.text, format: ZXING_FORMATS[found.format] ?? found.format.toLowerCase() } : null;
}
