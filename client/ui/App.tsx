/**
 * Routes, behind the session gate: signed-out people see the sign-in pages only. Each screen is
 * loaded on first use, its own chunk (lazy-screen.tsx and each feature's index.ts), so the first
 * screen downloads only its own code. The paths are the route table's (routes.ts).
 */
import { useEffect } from "react";
import { I18nProvider, useI18n } from "./i18n/i18n.js";
import { rememberDestination } from "./after-sign-in.js";
import { navigate, useLocation } from "./router.js";
import { paths, routes } from "./routes.js";
import { preloadSignedIn, SessionProvider, useSession } from "./session.js";
import { Screens } from "./lazy-screen.js";
import { LanguageSwitch } from "./LanguageSwitch.js";
import { signedInScreen } from "./app-screens.js";
import {
  ConfirmEmailScreen,
  MagicLinkScreen,
  ResetPasswordScreen,
  SetupScreen,
  SignInScreen,
  SignUpScreen,
  TwoFactorScreen,
} from "../features/account/index.js";
import { InviteScreen } from "../features/members/index.js";
import { SharePreviewScreen } from "../features/share/index.js";

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/**
 * A person typing on a signed-out page (their password, a sign-up form) is about to be signed in:
 * the sync engine and Dexie are fetched meanwhile, so the first screen after signing in does not
 * wait for them. Drawing the page alone fetches neither.
 */
function PreloadWhileTyping() {
  const { state } = useSession();
  const signingIn = state.kind === "signed_out" || state.kind === "mfa";
  useEffect(() => {
    if (!signingIn) return;
    const preload = () => void preloadSignedIn().catch(() => undefined);
    document.addEventListener("input", preload, { once: true });
    return () => document.removeEventListener("input", preload);
  }, [signingIn]);
  return null;
}

function Routes() {
  const { t } = useI18n();
  const { state } = useSession();
  const { path, query } = useLocation();
  const search = query.size ? `?${query.toString()}` : "";
  const is = (route: { match: (path: string) => unknown }) => route.match(path) !== null;

  // A share link's page is public: its token is the only authority, whoever is (or is not) signed in.
  const shared = routes.share.match(path);
  if (shared) return <SharePreviewScreen key={shared.shareId} id={shared.shareId} />;
  if (is(routes.magicLink)) return <MagicLinkScreen />;
  if (is(routes.resetPassword)) return <ResetPasswordScreen />;
  if (is(routes.confirmEmail)) return <ConfirmEmailScreen />;
  if (is(routes.invite)) return <InviteScreen />;
  // First-run setup: its code is the only authority, whoever is (or is not) signed in.
  if (is(routes.setup)) return <SetupScreen />;
  // The sign-in form is drawn while the session is checked (GET /me), not after its answer: on a
  // phone's network that is a round trip the form need not wait for. Someone found signed in is
  // sent on below, as before.
  if (state.kind === "loading" && is(routes.signIn)) return <SignInScreen />;
  if (state.kind === "loading")
    return (
      <p role="status" className="screen-loading">
        {t("common.loading")}
      </p>
    );
  if (state.kind === "mfa") return is(routes.twoFactor) ? <TwoFactorScreen /> : <Redirect to={paths.twoFactor()} />;
  if (is(routes.signUp)) return <SignUpScreen />;
  if (is(routes.twoFactor)) return <TwoFactorScreen />;
  if (state.kind === "signed_out") {
    if (is(routes.signIn)) return <SignInScreen />;
    rememberDestination(path, search);
    return <Redirect to={paths.signIn()} />;
  }
  // Signed in (or signed out with data kept on this device): sign-in stays reachable to renew the session.
  if (is(routes.signIn)) return state.sessionLost ? <SignInScreen /> : <Redirect to={paths.home()} />;
  return signedInScreen(path) ?? <Redirect to={paths.home()} />;
}

export function App() {
  return (
    <I18nProvider>
      <SessionProvider>
        <LanguageSwitch />
        <PreloadWhileTyping />
        <Screens>
          <Routes />
        </Screens>
      </SessionProvider>
    </I18nProvider>
  );
}
