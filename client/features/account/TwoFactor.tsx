/** The second step of signing in: an authenticator code, or one of the backup codes. */
import { destinationAfterSignIn } from "../../ui/after-sign-in.js";
import { useState } from "react";
import { errorText } from "../../ui/refusal.js";
import { passkeysSupported, signOut, verifyBackupCode, verifyTotp } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { navigate } from "../../ui/router.js";
import { useSession } from "../../ui/session.js";
import { PasskeyButton } from "./PasskeyButton.js";
import { paths } from "../../ui/routes.js";

export function TwoFactorScreen() {
  const { t } = useI18n();
  const { refresh } = useSession();
  const [backup, setBackup] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <main id="main" className="auth">
      <h1>{t("auth.twoFactor")}</h1>
      <p>{t("auth.twoFactorHelp")}</p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          void (backup ? verifyBackupCode(code) : verifyTotp(code)).then(
            async () => {
              await refresh();
              navigate(destinationAfterSignIn(), { replace: true });
            },
            (err: unknown) => setError(errorText(err)),
          );
        }}
      >
        <label>
          {backup ? t("auth.backupCode") : t("auth.totp")}
          <input autoComplete="one-time-code" inputMode={backup ? "text" : "numeric"} required value={code} onChange={(e) => setCode(e.target.value)} />
        </label>
        <button type="submit" className="primary">
          {t("auth.verify")}
        </button>
        <Notice kind="error">{error}</Notice>
      </form>
      {passkeysSupported() ? <PasskeyButton label="auth.usePasskey" /> : null}
      <button type="button" className="link" onClick={() => setBackup(!backup)}>
        {backup ? t("auth.useTotp") : t("auth.useBackup")}
      </button>
      <button type="button" className="link" onClick={() => void signOut().finally(() => navigate(paths.signIn(), { replace: true }))}>
        {t("common.cancel")}
      </button>
    </main>
  );
}
