/**
 * Asks for the current password before a sensitive change (turning two-factor on or off, new
 * backup codes, re-authentication for the recovery kit). The password is held only while the form
 * is open and is never stored.
 */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";

export function PasswordPrompt(props: { submitLabel: string; onSubmit: (password: string) => Promise<void>; onCancel: () => void }) {
  const { t } = useI18n();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="stack inline"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        props.onSubmit(password).then(
          () => setBusy(false),
          (err: unknown) => {
            setBusy(false);
            setError(t("security.failed", { message: errorText(err) }));
          },
        );
      }}
    >
      <p className="hint">{t("security.passwordFor")}</p>
      <label>
        {t("security.password")}
        <input type="password" autoComplete="current-password" required autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <div className="checks">
        <button type="submit" className="primary" disabled={busy}>
          {props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("security.cancel")}
        </button>
      </div>
      <Notice kind="error">{error}</Notice>
    </form>
  );
}

/** A secret shown once (a token, backup codes), selectable and with a Copy button. */
export function CopyOnce(props: { label: string; value: string; multiline?: boolean }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const common = { readOnly: true, dir: "ltr" as const, "aria-label": props.label, value: props.value };
  return (
    <div className="stack">
      {props.multiline ? (
        <textarea {...common} rows={props.value.split("\n").length} onFocus={(e) => e.target.select()} />
      ) : (
        <input {...common} onFocus={(e) => e.target.select()} />
      )}
      <button type="button" onClick={() => void navigator.clipboard?.writeText(props.value).then(() => setCopied(true))}>
        {copied ? t("security.copied") : t("security.copy")}
      </button>
    </div>
  );
}
