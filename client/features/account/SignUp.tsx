/** Create an account (open sign-up, or with an invitation's token), then sign in with it. */
import { useState } from "react";
import { errorText } from "../../ui/refusal.js";
import { signInWithPassword, signUp } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { NewAccountFields, type NewAccount } from "./NewAccountFields.js";
import { Notice } from "../../ui/Notice.js";
import { Link } from "../../ui/router.js";
import { useAfterSignIn } from "./useAfterSignIn.js";
import { paths } from "../../ui/routes.js";

export function SignUpScreen() {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const [account, setAccount] = useState<NewAccount>({ name: "", email: "", password: "" });
  const { name, email, password } = account;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const invite = sessionStorage.getItem("pendingInvite") ?? undefined;
  return (
    <main id="main" className="auth">
      <h1>{t("auth.signUp")}</h1>
      {invite ? <p>{t("auth.invite")}</p> : null}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          void (async () => {
            try {
              await signUp({ name, email, password, ...(invite ? { invite } : {}) });
              // The invite was used by sign-up itself.
              sessionStorage.removeItem("pendingInvite");
              await after(await signInWithPassword(email, password));
            } catch (err) {
              setError(errorText(err));
            } finally {
              setBusy(false);
            }
          })();
        }}
      >
        <NewAccountFields value={account} onChange={setAccount} />
        <button type="submit" className="primary" disabled={busy}>
          {t("auth.signUp")}
        </button>
        <Notice kind="error">{error}</Notice>
      </form>
      <p>
        {t("auth.haveAccount")} <Link to={paths.signIn()}>{t("auth.signIn")}</Link>
      </p>
    </main>
  );
}
