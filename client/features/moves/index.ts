/**
 * Moves: a location's moves, one move's progress and its scanner.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const MovesScreen = lazy(() => import("./Moves.js").then((m) => ({ default: m.MovesScreen })));
export const MoveDetailScreen = lazy(() => import("./MoveDetail.js").then((m) => ({ default: m.MoveDetailScreen })));
