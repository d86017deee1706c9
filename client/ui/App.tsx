/** Routes, behind the session gate: signed-out people see the sign-in pages only. */
import { useEffect } from "react";
import { I18nProvider, useI18n } from "./i18n/i18n.js";
import { rememberDestination } from "./after-sign-in.js";
import { match, navigate, useLocation } from "./router.js";
import { SessionProvider, useSession } from "./session.js";
import { CaptureScreen } from "./screens/Capture.js";
import { InboxScreen } from "./screens/Inbox.js";
import { HomeScreen, LocationsScreen } from "./screens/Locations.js";
import { MembersScreen } from "./screens/Members.js";
import { WebhooksScreen } from "./screens/Webhooks.js";
import { MeterScreen } from "./screens/Meter.js";
import { MoveScreen } from "./screens/Move.js";
import { PlacesScreen } from "./screens/Places.js";
import { SettingsScreen } from "./screens/Settings.js";
import { SecurityScreen } from "./screens/Security.js";
import { DevicesScreen } from "./screens/Devices.js";
import { TokensScreen } from "./screens/Tokens.js";
import { SignInScreen } from "./screens/SignIn.js";
import { SignUpScreen } from "./screens/SignUp.js";
import { SyncScreen } from "./screens/Sync.js";
import { ThingDetailScreen } from "./screens/ThingDetail.js";
import { ThingsScreen } from "./screens/Things.js";
import { InviteScreen } from "./screens/Invite.js";
import { ConfirmEmailScreen, MagicLinkScreen, ResetPasswordScreen } from "./screens/TokenLinks.js";
import { TwoFactorScreen } from "./screens/TwoFactor.js";
import { TypesScreen } from "./screens/Types.js";
import { BoxCheckScreen } from "./screens/BoxCheck.js";
import { LabelsScreen } from "./screens/Labels.js";
import { LoansScreen } from "./screens/Loans.js";
import { CodeScreen, ScanScreen } from "./screens/Scan.js";
import { MovesScreen } from "./screens/Moves.js";
import { ReportScreen } from "./screens/Report.js";
import { ExportScreen } from "./screens/Export.js";
import { MoveDetailScreen } from "./screens/MoveDetail.js";
import { SharePreviewScreen } from "./screens/SharePreview.js";
import { SetupScreen } from "./screens/Setup.js";
import { AdminScreen } from "./screens/Admin.js";
import { LocationSettingsScreen } from "./screens/LocationSettings.js";

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
        <Routes />
      </SessionProvider>
    </I18nProvider>
  );
}
