/**
 * Things: the list, a thing's page (contents, history, extras, code and checks) and moving it.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const ThingsScreen = lazy(() => import("./Things.js").then((m) => ({ default: m.ThingsScreen })));
export const ThingDetailScreen = lazy(() => import("./ThingDetail.js").then((m) => ({ default: m.ThingDetailScreen })));
export const MoveScreen = lazy(() => import("./Move.js").then((m) => ({ default: m.MoveScreen })));
