/**
 * "Confirm with a passkey instead": re-authentication without the password, for the recovery kit
 * and an email change. The passkey ceremony runs on this signed-in session, and a passkey that
 * verified the person (PIN or biometric) marks the session re-authenticated on the server
 * (server/auth/passkeys.ts) — the way in for an account that has no password at all. Shown only
 * where the browser can use passkeys.
 */
import { useState } from "react";
import { passkeysSupported, signInWithPasskey } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { Notice } from "../../ui/Notice.js";

export function PasskeyReauth({ then }: { then: () => Promise<void> }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!passkeysSupported()) return null;
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          signInWithPasskey()
            .then(then)
            .catch((err: unknown) => setError(t("security.failed", { message: errorText(err) })))
            .finally(() => setBusy(false));
        }}
      >
        {t("security.reauthPasskey")}
      </button>
      <Notice kind="error">{error}</Notice>
    </>
  );
}
