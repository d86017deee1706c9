/**
 * The screens of a signed-in person (or one signed out with data kept on this device), each drawn
 * from its route's parameters. Keys make a screen start afresh when its thing, meter, box, move or
 * code changes under the same route.
 */
import type { ReactElement } from "react";
import { routes, type Params, type Route } from "./routes.js";
import { DevicesScreen, SecurityScreen, TokensScreen } from "../features/account/index.js";
import { BoxCheckScreen } from "../features/box-checks/index.js";
import { CaptureScreen } from "../features/capture/index.js";
import { InboxScreen } from "../features/inbox/index.js";
import { LoansScreen } from "../features/loans/index.js";
import { HomeScreen, LocationSettingsScreen, LocationsScreen, WebhooksScreen } from "../features/locations/index.js";
import { MembersScreen } from "../features/members/index.js";
import { MeterScreen } from "../features/meters/index.js";
import { MoveDetailScreen, MovesScreen } from "../features/moves/index.js";
import { PlacesScreen } from "../features/places/index.js";
import { ExportScreen, LabelsScreen, ReportScreen } from "../features/reports/index.js";
import { CodeScreen, ScanScreen } from "../features/scan/index.js";
import { AdminScreen, SettingsScreen } from "../features/settings/index.js";
import { SyncScreen } from "../features/sync/index.js";
import { MoveScreen, ThingDetailScreen, ThingsScreen } from "../features/things/index.js";
import { TypesScreen } from "../features/types/index.js";

/** A route and how its screen is drawn from the route's own (typed) parameters. */
const at =
  <P extends string>(route: Route<P>, draw: (params: Params<P>) => ReactElement) =>
  (path: string): ReactElement | null => {
    const params = route.match(path);
    return params ? draw(params) : null;
  };

const screens = [
  at(routes.home, () => <HomeScreen />),
  at(routes.locations, () => <LocationsScreen />),
  at(routes.sync, () => <SyncScreen />),
  at(routes.settings, () => <SettingsScreen />),
  at(routes.security, () => <SecurityScreen />),
  at(routes.devices, () => <DevicesScreen />),
  at(routes.tokens, () => <TokensScreen />),
  at(routes.admin, () => <AdminScreen />),
  at(routes.location, (p) => <PlacesScreen locationId={p.locationId} />),
  at(routes.places, (p) => <PlacesScreen locationId={p.locationId} />),
  at(routes.things, (p) => <ThingsScreen locationId={p.locationId} />),
  at(routes.thing, (p) => <ThingDetailScreen key={p.thingId} locationId={p.locationId} thingId={p.thingId} />),
  at(routes.moveThing, (p) => <MoveScreen locationId={p.locationId} thingId={p.thingId} />),
  at(routes.meter, (p) => <MeterScreen key={p.meterId} locationId={p.locationId} meterId={p.meterId} />),
  at(routes.capture, (p) => <CaptureScreen locationId={p.locationId} />),
  at(routes.inbox, (p) => <InboxScreen locationId={p.locationId} />),
  at(routes.members, (p) => <MembersScreen locationId={p.locationId} />),
  at(routes.webhooks, (p) => <WebhooksScreen locationId={p.locationId} />),
  at(routes.locationSettings, (p) => <LocationSettingsScreen locationId={p.locationId} />),
  at(routes.types, (p) => <TypesScreen locationId={p.locationId} />),
  at(routes.scan, () => <ScanScreen />),
  at(routes.code, (p) => <CodeScreen key={p.code} code={p.code} />),
  at(routes.boxCheck, (p) => <BoxCheckScreen key={p.thingId} locationId={p.locationId} boxId={p.thingId} />),
  at(routes.labels, (p) => <LabelsScreen locationId={p.locationId} />),
  at(routes.loans, (p) => <LoansScreen locationId={p.locationId} />),
  at(routes.moves, (p) => <MovesScreen locationId={p.locationId} />),
  at(routes.report, (p) => <ReportScreen locationId={p.locationId} />),
  at(routes.export, (p) => <ExportScreen locationId={p.locationId} />),
  at(routes.move, (p) => <MoveDetailScreen key={p.moveId} locationId={p.locationId} moveId={p.moveId} />),
];

/** The screen `path` names, or null when it names none (the app then goes home). */
export function signedInScreen(path: string): ReactElement | null {
  for (const screen of screens) {
    const drawn = screen(path);
    if (drawn) return drawn;
  }
  return null;
}
