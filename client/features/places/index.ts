/**
 * Places: a location's tree of places and the place editor.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const PlacesScreen = lazy(() => import("./Places.js").then((m) => ({ default: m.PlacesScreen })));
