/**
 * Sync: what this device holds and what waits to be sent.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const SyncScreen = lazy(() => import("./Sync.js").then((m) => ({ default: m.SyncScreen })));
