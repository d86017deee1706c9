/**
 * Loans: what is lent and borrowed, and a thing's loan.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const LoansScreen = lazy(() => import("./Loans.js").then((m) => ({ default: m.LoansScreen })));
