/**
 * Share links: making and revoking them, and the public page a link opens.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const SharePreviewScreen = lazy(() => import("./SharePreview.js").then((m) => ({ default: m.SharePreviewScreen })));
