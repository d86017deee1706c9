/**
 * Settings → AI cost of the current location, for its owners and admins: one month's calls by who
 * paid and model (GET /api/v1/locations/{id}/ai-costs?month=YYYY-MM, online only), with the
 * month's totals per currency and a month picker.
 */
import { useState } from "react";
import type { AiCostSummary } from "../../../shared/ai-settings.js";
import { roleAtLeast } from "../../../shared/roles.js";
import { aiMoney, isolate, providerName } from "../../ui/ai-format.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import "../../ui/ai.css";
import { useAiCosts } from "./hooks.js";

/** This month in UTC (budgets and summaries count calendar months in UTC). */
export const thisMonth = (now = new Date()) => now.toISOString().slice(0, 7);

function Summary({ summary }: { summary: AiCostSummary }) {
  const i18n = useI18n();
  const { t } = i18n;
  if (!summary.lines.length) return <p className="hint">{t("ai.costs.none")}</p>;
  return (
    <>
      <ul className="ai-costs">
        {summary.lines.map((l) => (
          <li key={`${l.scope}-${l.label}-${l.providerKind}-${l.model}`} data-scope={l.scope}>
            <strong>
              <bdi>{l.label}</bdi>
            </strong>{" "}
            <span className="meta">({t(`ai.scope.${l.scope}`)})</span>
            <span className="ai-line">
              {[
                `${providerName(l.providerKind, t)} · ${isolate(l.model)}`,
                t("ai.costs.calls", { count: l.calls }),
                t("ai.tokens", { count: l.tokens }),
                t("ai.images", { count: l.images }),
                ...(l.cost ? [aiMoney(l.cost, i18n)] : []),
                ...(l.uncosted ? [t("ai.costs.uncosted", { count: l.uncosted })] : []),
              ].join(" · ")}
            </span>
          </li>
        ))}
      </ul>
      {summary.totals.length ? <p>{t("ai.costs.total", { total: summary.totals.map((c) => aiMoney(c, i18n)).join(" + ") })}</p> : null}
    </>
  );
}

export function AiCosts({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db, user } = useReady();
  const [month, setMonth] = useState(thisMonth());
  const place = useLive(async () => {
    const [location, membership] = await Promise.all([
      db.locations.get(locationId),
      db.memberships.filter((m) => m.locationId === locationId && m.userId === user.id).first(),
    ]);
    return { name: location?.name ?? "", role: membership?.role };
  }, [db, locationId, user.id]);
  const allowed = !!place?.role && roleAtLeast(place.role, "admin");

  const { summary, error } = useAiCosts(locationId, month, allowed);

  if (!allowed) return null;
  return (
    <section className="ai-settings" aria-labelledby="ai-costs-h">
      <h2 id="ai-costs-h">{t("ai.costs.title", { location: place.name })}</h2>
      <label>
        {t("ai.costs.month")}
        <input type="month" value={month} max={thisMonth()} onChange={(e) => setMonth(e.target.value)} />
      </label>
      <Notice kind="error">{error}</Notice>
      {summary?.month === month ? <Summary summary={summary.summary} /> : null}
    </section>
  );
}
