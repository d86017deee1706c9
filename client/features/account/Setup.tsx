/**
 * First-run setup: the server printed `/setup#code=…` at start (the code rides in the fragment, so
 * no request carries it until this form posts it). The account made here is the instance admin;
 * it is signed in and taken to the Admin screen to open sign-up.
 */
import { useState } from "react";
import { errorText } from "../../ui/refusal.js";
import { setupInstance, signInWithPassword } from "./hooks.js";
import { rememberDestination } from "../../ui/after-sign-in.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { NewAccountFields, type NewAccount } from "./NewAccountFields.js";
import { Notice } from "../../ui/Notice.js";
import { useAfterSignIn } from "./useAfterSignIn.js";
import { paths } from "../../ui/routes.js";

const codeFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get("code") ?? "";

export function SetupScreen() {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const [code, setCode] = useState(codeFromHash);
  const [account, setAccount] = useState<NewAccount>({ name: "", email: "", password: "" });
  const { name, email, password } = account;
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" className="auth">
      <h1>{t("setup.title")}</h1>
      <p>{t("setup.intro")}</p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          void (async () => {
            try {
              await setupInstance({ code, name, email, password });
              setDone(true);
              // The code is spent: it leaves the address bar and history.
              history.replaceState(null, "", paths.setup());
              rememberDestination(paths.admin(), "");
              await after(await signInWithPassword(email, password));
            } catch (err) {
              setError(errorText(err));
            } finally {
              setBusy(false);
            }
          })();
        }}
      >
        <label>
          {t("setup.code")}
          <input required autoComplete="off" value={code} onChange={(e) => setCode(e.target.value)} />
        </label>
        <NewAccountFields value={account} onChange={setAccount} />
        <button type="submit" className="primary" disabled={busy}>
          {t("setup.submit")}
        </button>
        <Notice>{done ? t("setup.done") : null}</Notice>
        <Notice kind="error">{error}</Notice>
      </form>
    </main>
  );
}
