/**
 * Locations: the home screen, the list of locations, a location's settings, trash and webhooks.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const HomeScreen = lazy(() => import("./Locations.js").then((m) => ({ default: m.HomeScreen })));
export const LocationsScreen = lazy(() => import("./Locations.js").then((m) => ({ default: m.LocationsScreen })));
export const LocationSettingsScreen = lazy(() => import("./LocationSettings.js").then((m) => ({ default: m.LocationSettingsScreen })));
export const WebhooksScreen = lazy(() => import("./Webhooks.js").then((m) => ({ default: m.WebhooksScreen })));
