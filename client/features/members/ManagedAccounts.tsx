/**
 * Managed accounts of a location (owners and admins): create one with a username and a display
 * name, reset one; each answers a one-time code shown once, to hand over. A location holds at most
 * MAX_MANAGED_ACCOUNTS: reaching it is explained, not just refused. Removing one is removing the
 * member (the Members list).
 */
import { useState } from "react";
import { MAX_MANAGED_ACCOUNTS } from "../../../shared/managed-accounts.js";
import type { Member } from "../../../shared/members.js";
import { ApiError } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { CopyField } from "../../ui/CopyField.js";
import { Notice } from "../../ui/Notice.js";
import { useConnectionLost } from "../../ui/OnlineOnly.js";
import { createManagedAccount, resetManagedAccount } from "./hooks.js";

/** `managed` is null until the members have loaded. */
export function ManagedAccounts({ locationId, managed: loaded, onChange }: { locationId: string; managed: Member[] | null; onChange: () => void }) {
  const { t } = useI18n();
  const [username, setUsername] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [code, setCode] = useState<{ name: string; code: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const managed = loaded ?? [];
  const full = managed.length >= MAX_MANAGED_ACCOUNTS;
  // A request that found no server: the members screen's OnlineOnly says it needs a connection.
  const lost = useConnectionLost();
  const explain = (err: unknown) =>
    err instanceof ApiError && err.offline
      ? lost()
      : setError(
          err instanceof ApiError && err.code === "conflict" && (err.details as { limit?: number } | undefined)?.limit
            ? t("managed.limit", { max: MAX_MANAGED_ACCOUNTS })
            : errorText(err),
        );

  return (
    <section aria-labelledby="managed-title">
      <h2 id="managed-title">{t("managed.title")}</h2>
      <p className="hint">{t("managed.intro")}</p>
      {loaded?.length === 0 ? <p className="hint">{t("managed.none")}</p> : null}
      <ul className="list">
        {managed.map((m) => (
          <li key={m.userId} className="member">
            <span>{m.displayName}</span>
            <button
              type="button"
              aria-label={t("managed.reset", { name: m.displayName })}
              onClick={() => {
                setError(null);
                // The old code stops working now: it leaves the screen too.
                setCode(null);
                void resetManagedAccount(locationId, m.userId).then((r) => setCode({ name: m.displayName, code: r.code }), explain);
              }}
            >
              {t("managed.reset", { name: "" }).trim()}
            </button>
          </li>
        ))}
      </ul>
      {code ? (
        <div className="stack">
          <CopyField label={t("managed.code", { name: code.name })} value={code.code} />
          <p className="hint">{t("managed.codeOnce")}</p>
          <button type="button" onClick={() => setCode(null)}>
            {t("common.done")}
          </button>
        </div>
      ) : null}
      {full ? <p className="hint">{t("managed.limit", { max: MAX_MANAGED_ACCOUNTS })}</p> : null}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          const name = displayName.trim();
          void createManagedAccount(locationId, { username: username.trim(), displayName: name }).then((r) => {
            setCode({ name, code: r.code });
            setUsername("");
            setDisplayName("");
            onChange();
          }, explain);
        }}
      >
        <label>
          {t("managed.username")}
          <input
            required
            minLength={3}
            maxLength={30}
            pattern="[A-Za-z0-9_.]+"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label>
          {t("managed.displayName")}
          <input required maxLength={120} value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
        </label>
        <button type="submit" disabled={full}>
          {t("managed.create")}
        </button>
      </form>
      <Notice kind="error">{error}</Notice>
    </section>
  );
}
