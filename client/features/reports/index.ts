/**
 * Reports and exports: the report, exports and imports, and label sheets.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const ReportScreen = lazy(() => import("./Report.js").then((m) => ({ default: m.ReportScreen })));
export const ExportScreen = lazy(() => import("./Export.js").then((m) => ({ default: m.ExportScreen })));
export const LabelsScreen = lazy(() => import("./Labels.js").then((m) => ({ default: m.LabelsScreen })));
