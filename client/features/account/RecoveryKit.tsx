/**
 * The recovery kit download. The server wants a fresh re-authentication (403 reauth_required): the
 * password is asked for then (or a passkey, for an account without one), sent to
 * /me/reauthenticate, and the download tried again. The kit
 * is saved as a JSON file made on the device; it is never kept in the app.
 */
import { useState } from "react";
import { fetchRecoveryKit, reauthenticate } from "./hooks.js";
import { ApiError } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { Notice } from "../../ui/Notice.js";
import { PasskeyReauth } from "./PasskeyReauth.js";
import { PasswordPrompt } from "./PasswordPrompt.js";

function save(kit: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(kit, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "inventory-recovery-kit.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function RecoveryKit() {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    save(await fetchRecoveryKit());
    setNote(t("security.kit.downloaded"));
  };
  return (
    <div className="stack">
      <h3>{t("security.kit.title")}</h3>
      <p className="hint">{t("security.kit.help")}</p>
      {asking ? (
        <>
          <PasswordPrompt
            submitLabel={t("security.kit.download")}
            onCancel={() => setAsking(false)}
            onSubmit={async (password) => {
              await reauthenticate(password);
              await download();
              setAsking(false);
            }}
          />
          <PasskeyReauth
            then={async () => {
              await download();
              setAsking(false);
            }}
          />
        </>
      ) : (
        <button
          type="button"
          onClick={() => {
            setError(null);
            setNote(null);
            download().catch((err: unknown) => {
              if (err instanceof ApiError && err.code === "reauth_required") setAsking(true);
              else setError(t("security.failed", { message: errorText(err) }));
            });
          }}
        >
          {t("security.kit.download")}
        </button>
      )}
      <Notice>{note}</Notice>
      <Notice kind="error">{error}</Notice>
    </div>
  );
}
