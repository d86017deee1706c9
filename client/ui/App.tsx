/**
 * Routes, behind the session gate: signed-out people see the sign-in pages only. Each screen is
 * loaded on first use, its own chunk (lazy-screen.tsx), so the first screen downloads only its own code.
 */
import { lazy, useEffect } from "react";
import { I18nProvider, useI18n } from "./i18n/i18n.js";
import { rememberDestination } from "./after-sign-in.js";
import { match, navigate, useLocation } from "./router.js";
import { SessionProvider, useSession } from "./session.js";
import { Screens } from "./lazy-screen.js";
import { LanguageSwitch } from "./LanguageSwitch.js";

// One chunk per screen module, fetched when the screen is first drawn.
const CaptureScreen = lazy(() => import("../features/capture/Capture.js").then((m) => ({ default: m.CaptureScreen })));
const InboxScreen = lazy(() => import("../features/inbox/Inbox.js").then((m) => ({ default: m.InboxScreen })));
const HomeScreen = lazy(() => import("../features/locations/Locations.js").then((m) => ({ default: m.HomeScreen })));
const LocationsScreen = lazy(() => import("../features/locations/Locations.js").then((m) => ({ default: m.LocationsScreen })));
const MembersScreen = lazy(() => import("../features/members/Members.js").then((m) => ({ default: m.MembersScreen })));
const WebhooksScreen = lazy(() => import("../features/locations/Webhooks.js").then((m) => ({ default: m.WebhooksScreen })));
const MeterScreen = lazy(() => import("../features/meters/Meter.js").then((m) => ({ default: m.MeterScreen })));
const MoveScreen = lazy(() => import("../features/things/Move.js").then((m) => ({ default: m.MoveScreen })));
const PlacesScreen = lazy(() => import("../features/places/Places.js").then((m) => ({ default: m.PlacesScreen })));
const SettingsScreen = lazy(() => import("../features/settings/Settings.js").then((m) => ({ default: m.SettingsScreen })));
const SecurityScreen = lazy(() => import("../features/account/Security.js").then((m) => ({ default: m.SecurityScreen })));
const DevicesScreen = lazy(() => import("../features/account/Devices.js").then((m) => ({ default: m.DevicesScreen })));
const TokensScreen = lazy(() => import("../features/account/Tokens.js").then((m) => ({ default: m.TokensScreen })));
const SignInScreen = lazy(() => import("../features/account/SignIn.js").then((m) => ({ default: m.SignInScreen })));
const SignUpScreen = lazy(() => import("../features/account/SignUp.js").then((m) => ({ default: m.SignUpScreen })));
const SyncScreen = lazy(() => import("../features/sync/Sync.js").then((m) => ({ default: m.SyncScreen })));
const ThingDetailScreen = lazy(() => import("../features/things/ThingDetail.js").then((m) => ({ default: m.ThingDetailScreen })));
const ThingsScreen = lazy(() => import("../features/things/Things.js").then((m) => ({ default: m.ThingsScreen })));
const ConfirmEmailScreen = lazy(() => import("../features/account/TokenLinks.js").then((m) => ({ default: m.ConfirmEmailScreen })));
const InviteScreen = lazy(() => import("../features/members/Invite.js").then((m) => ({ default: m.InviteScreen })));
const MagicLinkScreen = lazy(() => import("../features/account/TokenLinks.js").then((m) => ({ default: m.MagicLinkScreen })));
const ResetPasswordScreen = lazy(() => import("../features/account/TokenLinks.js").then((m) => ({ default: m.ResetPasswordScreen })));
const TwoFactorScreen = lazy(() => import("../features/account/TwoFactor.js").then((m) => ({ default: m.TwoFactorScreen })));
const TypesScreen = lazy(() => import("../features/types/Types.js").then((m) => ({ default: m.TypesScreen })));
const BoxCheckScreen = lazy(() => import("../features/box-checks/BoxCheck.js").then((m) => ({ default: m.BoxCheckScreen })));
const LabelsScreen = lazy(() => import("../features/reports/Labels.js").then((m) => ({ default: m.LabelsScreen })));
const LoansScreen = lazy(() => import("../features/loans/Loans.js").then((m) => ({ default: m.LoansScreen })));
const CodeScreen = lazy(() => import("../features/scan/Scan.js").then((m) => ({ default: m.CodeScreen })));
const ScanScreen = lazy(() => import("../features/scan/Scan.js").then((m) => ({ default: m.ScanScreen })));
const MovesScreen = lazy(() => import("../features/moves/Moves.js").then((m) => ({ default: m.MovesScreen })));
const ReportScreen = lazy(() => import("../features/reports/Report.js").then((m) => ({ default: m.ReportScreen })));
const ExportScreen = lazy(() => import("../features/reports/Export.js").then((m) => ({ default: m.ExportScreen })));
const MoveDetailScreen = lazy(() => import("../features/moves/MoveDetail.js").then((m) => ({ default: m.MoveDetailScreen })));
const SharePreviewScreen = lazy(() => import("../features/share/SharePreview.js").then((m) => ({ default: m.SharePreviewScreen })));
const SetupScreen = lazy(() => import("../features/account/Setup.js").then((m) => ({ default: m.SetupScreen })));
const AdminScreen = lazy(() => import("../features/settings/Admin.js").then((m) => ({ default: m.AdminScreen })));
const LocationSettingsScreen = lazy(() => import("../features/locations/LocationSettings.js").then((m) => ({ default: m.LocationSettingsScreen })));

/** Pages that work without a session. */
const PUBLIC = ["/sign-in", "/sign-up", "/two-factor", "/magic", "/reset", "/confirm-email", "/invite"];

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function Routes() {
  const { t } = useI18n();
  const { state } = useSession();
  const { path, query } = useLocation();
  const search = query.size ? `?${query.toString()}` : "";

  // A share link's page is public: its token is the only authority, whoever is (or is not) signed in.
  const shared = match("/s/:id", path);
  if (shared) return <SharePreviewScreen key={shared.id} id={shared.id!} />;
  if (path === "/magic") return <MagicLinkScreen />;
  if (path === "/reset") return <ResetPasswordScreen />;
  if (path === "/confirm-email") return <ConfirmEmailScreen />;
  if (path === "/invite") return <InviteScreen />;
  // First-run setup: its code is the only authority, whoever is (or is not) signed in.
  if (path === "/setup") return <SetupScreen />;
  if (state.kind === "loading") return <p role="status">{t("common.loading")}</p>;
  if (state.kind === "mfa") return path === "/two-factor" ? <TwoFactorScreen /> : <Redirect to="/two-factor" />;
  if (path === "/sign-up") return <SignUpScreen />;
  if (path === "/two-factor") return <TwoFactorScreen />;
  if (state.kind === "signed_out") {
    if (path === "/sign-in") return <SignInScreen />;
    rememberDestination(path, search);
    return <Redirect to="/sign-in" />;
  }
  // Signed in (or signed out with data kept on this device): sign-in stays reachable to renew the session.
  if (path === "/sign-in") return state.sessionLost ? <SignInScreen /> : <Redirect to="/" />;
  if (PUBLIC.includes(path)) return <Redirect to="/" />;

  let m: Record<string, string> | null;
  if (path === "/" || path === "") return <HomeScreen />;
  if (path === "/locations") return <LocationsScreen />;
  if (path === "/sync") return <SyncScreen />;
  if (path === "/settings") return <SettingsScreen />;
  if (path === "/settings/security") return <SecurityScreen />;
  if (path === "/settings/devices") return <DevicesScreen />;
  if (path === "/settings/tokens") return <TokensScreen />;
  if (path === "/admin") return <AdminScreen />;
  if ((m = match("/l/:loc", path)) || (m = match("/l/:loc/places", path))) return <PlacesScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/things", path))) return <ThingsScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/things/:id", path))) return <ThingDetailScreen key={m.id} locationId={m.loc!} thingId={m.id!} />;
  if ((m = match("/l/:loc/things/:id/move", path))) return <MoveScreen locationId={m.loc!} thingId={m.id!} />;
  if ((m = match("/l/:loc/meters/:id", path))) return <MeterScreen key={m.id} locationId={m.loc!} meterId={m.id!} />;
  if ((m = match("/l/:loc/capture", path))) return <CaptureScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/inbox", path))) return <InboxScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/members", path))) return <MembersScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/webhooks", path))) return <WebhooksScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/settings", path))) return <LocationSettingsScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/types", path))) return <TypesScreen locationId={m.loc!} />;
  if (path === "/scan") return <ScanScreen />;
  if ((m = match("/c/:code", path))) return <CodeScreen key={m.code} code={m.code!} />;
  if ((m = match("/l/:loc/things/:id/check", path))) return <BoxCheckScreen key={m.id} locationId={m.loc!} boxId={m.id!} />;
  if ((m = match("/l/:loc/labels", path))) return <LabelsScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/loans", path))) return <LoansScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/moves", path))) return <MovesScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/report", path))) return <ReportScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/export", path))) return <ExportScreen locationId={m.loc!} />;
  if ((m = match("/l/:loc/moves/:id", path))) return <MoveDetailScreen key={m.id} locationId={m.loc!} moveId={m.id!} />;
  return <Redirect to="/" />;
}

export function App() {
  return (
    <I18nProvider>
      <SessionProvider>
        <LanguageSwitch />
        <Screens>
          <Routes />
        </Screens>
      </SessionProvider>
    </I18nProvider>
  );
}
