/**
 * Types and fields: a location's thing types, their fields, and the field inputs every form draws.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const TypesScreen = lazy(() => import("./Types.js").then((m) => ({ default: m.TypesScreen })));
