/** Passkeys on the Security screen: add one (named) on this device, list them, rename, remove. */
import { useState } from "react";
import { passkeysSupported, registerPasskey, removePasskey, renamePasskey, usePasskeys, type Passkey } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { Notice } from "../../ui/Notice.js";

export function PasskeySettings() {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (err: unknown) => setError(t("security.failed", { message: errorText(err) }));
  const { keys, reload: load } = usePasskeys(fail);
  const supported = passkeysSupported() && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";

  return (
    <section className="stack" aria-labelledby="sec-passkeys-h">
      <h2 id="sec-passkeys-h">{t("security.passkeys.title")}</h2>
      <p className="hint">{t("security.passkeys.help")}</p>
      {keys && keys.length === 0 ? <p className="hint">{t("security.passkeys.none")}</p> : null}
      <ul className="list">
        {(keys ?? []).map((k) => (
          <PasskeyItem key={k.id} passkey={k} onChanged={() => void load()} onError={fail} />
        ))}
      </ul>
      {supported ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            setNote(null);
            registerPasskey(name).then(() => {
              setName("");
              setNote(t("security.passkeys.added"));
              return load();
            }, fail);
          }}
        >
          <label>
            {t("security.passkeys.name")}
            <input required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit">{t("security.passkeys.add")}</button>
        </form>
      ) : (
        <p className="hint">{t("security.passkeys.unsupported")}</p>
      )}
      <Notice>{note}</Notice>
      <Notice kind="error">{error}</Notice>
    </section>
  );
}

function PasskeyItem({ passkey, onChanged, onError }: { passkey: Passkey; onChanged: () => void; onError: (err: unknown) => void }) {
  const { t, dateTime } = useI18n();
  const [editing, setEditing] = useState(false);
  const label = passkey.name ?? t("security.passkeys.unnamed");
  const [name, setName] = useState(label);
  return (
    <li>
      <div className="member">
        <span>{label}</span>
        <button type="button" aria-expanded={editing} aria-label={t("security.passkeys.rename", { name: label })} onClick={() => setEditing(!editing)}>
          ✎
        </button>
        <button
          className="icon-close"
          type="button"
          aria-label={t("security.passkeys.remove", { name: label })}
          onClick={() => void removePasskey(passkey.id).then(onChanged, onError)}
        />
      </div>
      <span className="meta">
        {t("security.created", { date: dateTime(passkey.createdAt) })} ·{" "}
        {passkey.lastUsedAt ? t("security.lastUsed", { date: dateTime(passkey.lastUsedAt) }) : t("security.neverUsed")}
      </span>
      {editing ? (
        <form
          className="checks"
          onSubmit={(e) => {
            e.preventDefault();
            void renamePasskey(passkey.id, name).then(() => {
              setEditing(false);
              onChanged();
            }, onError);
          }}
        >
          <input aria-label={t("security.passkeys.newName", { name: label })} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit">{t("security.passkeys.save")}</button>
        </form>
      ) : null}
    </li>
  );
}
