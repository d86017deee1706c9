/** Signing in with an email (or a managed account's username) and password, and asking for a reset link. */
import { useState, type FormEvent } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { requestPasswordReset, signInWithPassword } from "./hooks.js";
import { useAfterSignIn } from "./useAfterSignIn.js";

export function PasswordForm() {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [resetSent, setResetSent] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await after(await signInWithPassword(login, password));
    } catch (err) {
      setError(t("auth.failed", { message: errorText(err) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <label>
          {t("auth.emailOrUsername")}
          <input name="login" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
        </label>
        <label>
          {t("auth.password")}
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {t("auth.signIn")}
        </button>
        <Notice kind="error">{error}</Notice>
      </form>
      <button type="button" className="link" aria-expanded={resetOpen} onClick={() => setResetOpen(!resetOpen)}>
        {t("auth.forgot")}
      </button>
      {resetOpen ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void requestPasswordReset(login).then(
              () => setResetSent(true),
              (err: unknown) => setError(errorText(err)),
            );
          }}
        >
          <label>
            {t("auth.email")}
            <input type="email" autoComplete="email" required value={login} onChange={(e) => setLogin(e.target.value)} />
          </label>
          <button type="submit">{t("auth.sendReset")}</button>
          <Notice>{resetSent ? t("auth.resetSent") : null}</Notice>
        </form>
      ) : null}
    </>
  );
}
