/**
 * Settings: language, notifications, AI, and the server admin's page.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const SettingsScreen = lazy(() => import("./Settings.js").then((m) => ({ default: m.SettingsScreen })));
export const AdminScreen = lazy(() => import("./Admin.js").then((m) => ({ default: m.AdminScreen })));
