/**
 * Capture: adding things fast, receipts included, and the straight-in setting.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const CaptureScreen = lazy(() => import("./Capture.js").then((m) => ({ default: m.CaptureScreen })));
