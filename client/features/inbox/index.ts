/**
 * Inbox: what waits for review (suggestions, claims, duplicates, currencies, receipts, readings).
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const InboxScreen = lazy(() => import("./Inbox.js").then((m) => ({ default: m.InboxScreen })));
