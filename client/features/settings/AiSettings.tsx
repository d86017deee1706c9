/**
 * Settings → AI: who pays for reading photos. My own provider, my account's (it pays for everyone
 * in the account's locations; owners only, the server says so in place otherwise), and the
 * server's own if it has one (read-only), each with this month's spend. Online only
 * (GET/PUT/DELETE /api/v1/me/ai-settings and /api/v1/me/account/ai-settings).
 */
import { aiMoney, providerName } from "../../ui/ai-format.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { useAiSettings } from "./hooks.js";
import { ProviderForm } from "./ProviderForm.js";
import "../../ui/ai.css";

export function AiSettings() {
  const i18n = useI18n();
  const { t } = i18n;
  const { db, user } = useReady();
  const { overview, setOverview, error } = useAiSettings();
  // Owners set their account's provider; for anyone else the server's refusal would only confuse.
  const isOwner = useLive(async () => (await db.memberships.toArray()).some((m) => m.userId === user.id && m.role === "owner" && !m.deletedAt), [db, user.id]);

  return (
    <section className="ai-settings" aria-labelledby="ai-settings-h">
      <h2 id="ai-settings-h">{t("ai.settings.title")}</h2>
      <p className="hint">{t("ai.settings.explain")}</p>
      <Notice kind="error">{error}</Notice>
      {overview ? (
        <>
          <ProviderForm scope="user" view={overview.user} onChange={(user) => setOverview({ ...overview, user })} />
          {overview.account || isOwner ? (
            <ProviderForm scope="account" view={overview.account} onChange={(account) => setOverview({ ...overview, account })} />
          ) : null}
          {overview.instance ? (
            <fieldset className="ai-settings" aria-labelledby="ai-instance-h">
              <legend id="ai-instance-h">{t("ai.settings.instance")}</legend>
              <p className="hint">{t("ai.settings.instanceExplain")}</p>
              <p>
                {providerName(overview.instance.providerKind, t)} · <bdi>{overview.instance.model}</bdi>
              </p>
              <p className="meta">
                {t("ai.settings.budget")}: {overview.instance.monthlyBudget ? aiMoney(overview.instance.monthlyBudget, i18n) : t("ai.settings.noBudget")}
              </p>
            </fieldset>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
