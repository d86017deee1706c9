/**
 * Scanning: the camera, the decoder, the scan screen and where a label's code lands.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const ScanScreen = lazy(() => import("./Scan.js").then((m) => ({ default: m.ScanScreen })));
export const CodeScreen = lazy(() => import("./Scan.js").then((m) => ({ default: m.CodeScreen })));
