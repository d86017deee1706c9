/** A passkey on this device (or a phone nearby) signs in without a password. */
import type { MessageKey } from "../../ui/i18n/i18n.js";
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { signInWithPasskey } from "./hooks.js";
import { useAfterSignIn } from "./useAfterSignIn.js";

export function PasskeyButton({ label }: { label: MessageKey }) {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="stack">
      <button
        type="button"
        className="primary"
        onClick={() => void signInWithPasskey().then(after, (err: unknown) => setError(t("auth.failed", { message: errorText(err) })))}
      >
        {t(label)}
      </button>
      <Notice kind="error">{error}</Notice>
    </div>
  );
}
