/**
 * Pages opened from links: /magic#token= (sign in), /reset#token= (new password),
 * /confirm-email#token= (a new sign-in address); /invite#token= is Invite.tsx. Tokens
 * travel in the URL fragment, which browsers never send to a server; the page posts them and then
 * removes them from the address bar.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../../ui/refusal.js";
import { confirmEmailChange, resetPassword, verifyMagicLink } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { useSubmit } from "./useSubmit.js";
import { Link } from "../../ui/router.js";
import { useAfterSignIn } from "./useAfterSignIn.js";
import { paths } from "../../ui/routes.js";

function takeToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  if (token) history.replaceState(null, "", window.location.pathname);
  return token;
}

/**
 * Takes the link's token and redeems it, once (React's strict mode mounts twice, and a token
 * works once). Answers the error to show, if any.
 */
function useRedeemOnce(redeem: (token: string) => Promise<void>): string | null {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = takeToken();
    if (!token) return setError("no token");
    redeem(token).catch((err: unknown) => setError(errorText(err)));
  }, [redeem]);
  return error;
}

export function MagicLinkScreen() {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const error = useRedeemOnce(useCallback((token: string) => verifyMagicLink(token).then(after), [after]));
  return (
    <main id="main" className="auth">
      <h1>{t("auth.signIn")}</h1>
      {error ? <Notice kind="error">{t("auth.failed", { message: error })}</Notice> : <p role="status">{t("auth.checkingLink")}</p>}
      <Link to={paths.signIn()}>{t("auth.signIn")}</Link>
    </main>
  );
}

export function ResetPasswordScreen() {
  const { t } = useI18n();
  const [token] = useState(takeToken);
  const [password, setPassword] = useState("");
  const { done, error, submit } = useSubmit(() => resetPassword(token ?? "", password));
  return (
    <main id="main" className="auth">
      <h1>{t("auth.setPassword")}</h1>
      <form className="stack" onSubmit={submit}>
        <label>
          {t("auth.newPassword")}
          <input type="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="primary">
          {t("auth.setPassword")}
        </button>
      </form>
      <Notice>{done ? t("auth.passwordSet") : null}</Notice>
      <Notice kind="error">{error}</Notice>
      <Link to={paths.signIn()}>{t("auth.signIn")}</Link>
    </main>
  );
}

export function ConfirmEmailScreen() {
  const { t } = useI18n();
  const [email, setEmail] = useState<string | null>(null);
  const error = useRedeemOnce(useCallback((token: string) => confirmEmailChange(token).then((r) => setEmail(r.email)), []));
  return (
    <main id="main" className="auth">
      <h1>{t("auth.confirmEmail")}</h1>
      {error ? <Notice kind="error">{error}</Notice> : <p role="status">{email ? t("auth.emailChanged", { email }) : t("auth.checkingLink")}</p>}
      <Link to={paths.signIn()}>{t("auth.signIn")}</Link>
    </main>
  );
}
