/**
 * Personal tokens (make one, its secret shown once with Copy; list; revoke) and the assistants
 * connected over OAuth (their scopes and locations; disconnect). Both lists page on the server;
 * the screen reads every page.
 */
import { useState } from "react";
import type { TokenCreated } from "../../../shared/tokens.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { revokeGrant, revokeToken, useTokens } from "./hooks.js";
import { CopyOnce } from "./PasswordPrompt.js";
import { TokenForm } from "./TokenForm.js";
import { AccountScreen } from "./Security.js";

export function TokensScreen() {
  const { t } = useI18n();
  return (
    <AccountScreen title={t("tokens.title")}>
      <Tokens />
    </AccountScreen>
  );
}

function Tokens() {
  const { t, dateTime } = useI18n();
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const {
    locations,
    tokens,
    grants,
    error,
    setError,
    fail,
    reloadTokens: loadTokens,
    reloadGrants: loadGrants,
  } = useTokens((message) => t("security.failed", { message }));
  const placeNames = (ids: string[]) => ids.map((id) => locations?.find((l) => l.id === id)?.name ?? "…").join(", ");

  return (
    <>
      <p className="hint">{t("tokens.help")}</p>
      {/* Served by the server itself (not a screen of the app), so a full page load. */}
      <p>
        <a href="/api/v1/reference" target="_blank" rel="noopener">
          {t("tokens.reference")}
        </a>
      </p>
      <Notice kind="error">{error}</Notice>
      {tokens && tokens.length === 0 ? <p className="hint">{t("tokens.none")}</p> : null}
      <ul className="list">
        {(tokens ?? []).map((tok) => (
          <li key={tok.id}>
            <div className="member">
              <span>
                <bdi>{tok.name}</bdi> · {t(`tokens.scope.${tok.scope}`)}
              </span>
              {tok.revokedAt ? null : (
                <button
                  className="icon-close"
                  type="button"
                  aria-label={t("tokens.revoke", { name: tok.name })}
                  onClick={() => void revokeToken(tok.id).then(loadTokens, fail)}
                />
              )}
            </div>
            <span className="meta">
              <bdi dir="ltr">{tok.prefix}…</bdi> · <bdi>{placeNames(tok.locationIds)}</bdi> ·{" "}
              {tok.revokedAt
                ? t("tokens.revoked", { date: dateTime(tok.revokedAt) })
                : tok.expiresAt
                  ? t("tokens.expires", { date: dateTime(tok.expiresAt) })
                  : t("tokens.noExpiry")}{" "}
              · {tok.lastUsedAt ? t("security.lastUsed", { date: dateTime(tok.lastUsedAt) }) : t("security.neverUsed")}
            </span>
          </li>
        ))}
      </ul>
      {created ? (
        <section className="stack inline" aria-labelledby="token-secret-h">
          <h2 id="token-secret-h">{t("tokens.secret")}</h2>
          <p className="hint">{t("tokens.secretOnce")}</p>
          <CopyOnce label={t("tokens.secret")} value={created.secret} />
          <button type="button" onClick={() => setCreated(null)}>
            {t("security.done")}
          </button>
        </section>
      ) : locations ? (
        <TokenForm
          locations={locations}
          onError={fail}
          onCreated={(made) => {
            setError(null);
            setCreated(made);
            void loadTokens();
          }}
        />
      ) : null}

      <section className="stack" aria-labelledby="assistants-h">
        <h2 id="assistants-h">{t("assistants.title")}</h2>
        <p className="hint">{t("assistants.help")}</p>
        {grants && grants.filter((g) => !g.revokedAt).length === 0 ? <p className="hint">{t("assistants.none")}</p> : null}
        <ul className="list">
          {(grants ?? [])
            .filter((g) => !g.revokedAt)
            .map((g) => (
              <li key={g.id}>
                <div className="member">
                  <bdi>{g.clientName}</bdi>
                  <button
                    className="icon-close"
                    type="button"
                    aria-label={t("assistants.revoke", { name: g.clientName })}
                    onClick={() => void revokeGrant(g.id).then(loadGrants, fail)}
                  />
                </div>
                <span className="meta">
                  {g.scopes.map((s) => t(`assistants.scope.${s}`)).join(", ")} · <bdi>{placeNames(g.locationIds)}</bdi> ·{" "}
                  {t("security.created", { date: dateTime(g.createdAt) })}
                </span>
              </li>
            ))}
        </ul>
      </section>
    </>
  );
}
