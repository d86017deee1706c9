/**
 * A secret field's value on the thing page, revealed on request only: online, and with the password
 * again when the server asks for fresh re-authentication.
 */
import { useState } from "react";
import { ApiError } from "../../sync/api.js";
import { formatFieldValue } from "../../ui/field-format.js";
import type { FieldDef } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { Notice } from "../../ui/Notice.js";
import { reauthenticate, revealSecret } from "./hooks.js";

/** The answer of a reveal: the value (its shape is the field kind's). */
const revealedValue = (r: unknown) => (r && typeof r === "object" && "value" in r ? r.value : r);

export function SecretValue({ thingId, def, label }: { thingId: string; def: FieldDef; label: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [shown, setShown] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  const reveal = async () => {
    setError(null);
    if (!navigator.onLine) return setError(t("fields.revealOffline"));
    try {
      const r = await revealSecret(thingId, def.key);
      const v = revealedValue(r);
      setShown(v === null || v === undefined ? t("fields.notSet") : formatFieldValue(def, v, i18n));
      setAsking(false);
    } catch (err) {
      if (err instanceof ApiError && err.code === "reauth_required") setAsking(true);
      else if (err instanceof ApiError && err.offline) setError(t("fields.revealOffline"));
      else setError(errorText(err));
    }
  };

  return (
    <span className="secret">
      {shown !== null ? (
        <>
          <span className="secret-value">{shown}</span>{" "}
          <button type="button" className="link" onClick={() => setShown(null)}>
            {t("fields.hide")}
          </button>
        </>
      ) : (
        <>
          <span className="meta">{t("fields.hidden")}</span>{" "}
          <button type="button" className="link" aria-label={t("fields.revealLabel", { label })} onClick={() => void reveal()}>
            {t("fields.reveal")}
          </button>
        </>
      )}
      {asking ? (
        <form
          className="row-form"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            void reauthenticate(password).then(
              () => {
                setPassword("");
                return reveal();
              },
              (err: unknown) => setError(err instanceof ApiError && err.offline ? t("fields.revealOffline") : errorText(err)),
            );
          }}
        >
          <label>
            {t("fields.reauth")}
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          </label>
          <button type="submit">{t("fields.reauthButton")}</button>
        </form>
      ) : null}
      <Notice kind="error">{error}</Notice>
    </span>
  );
}
