/**
 * Meters: a meter's page, its readings, chart and proofs, and the meters of a thing.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const MeterScreen = lazy(() => import("./Meter.js").then((m) => ({ default: m.MeterScreen })));
