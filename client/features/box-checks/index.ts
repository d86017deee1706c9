/**
 * Box checks: checking a box's contents against what is found in it.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const BoxCheckScreen = lazy(() => import("./BoxCheck.js").then((m) => ({ default: m.BoxCheckScreen })));
