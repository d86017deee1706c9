/**
 * Settings → AI: who pays for reading photos. My own provider, my account's (it pays for everyone
 * in the account's locations; owners only, the server says so in place otherwise), and the
 * server's own if it has one (read-only), each with this month's spend. A key goes in and never
 * comes back: a stored one shows as a placeholder, and an empty key field keeps it. Online only
 * (GET/PUT/DELETE /api/v1/me/ai-settings and /api/v1/me/account/ai-settings).
 */
import { useEffect, useState } from "react";
import { PROVIDER_KINDS, type ProviderKind } from "../../../shared/ai.js";
import { aiAmountSchema, aiSettingsBody, type AiSettingsOverview, type AiSettingsView } from "../../../shared/ai-settings.js";
import { api, ApiError } from "../../sync/api.js";
import { aiMoney, providerName } from "../../ui/ai-format.js";
import { useLive } from "../../ui/data.js";
import { westernDigits } from "../../ui/field-values.js";
import { useI18n, type MessageKey } from "../../ui/i18n/i18n.js";
import { errorText } from "../account/SignIn.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { failure, useConnection } from "../../ui/OnlineOnly.js";
import "../../ui/ai.css";

type Scope = "user" | "account";

/** The provider's status when a save was refused for the key (details.reason key_refused), else null. */
function keyRefusedStatus(details: unknown): number | null {
  const d = details && typeof details === "object" ? (details as { reason?: unknown; providerStatus?: unknown }) : {};
  return d.reason === "key_refused" && typeof d.providerStatus === "number" ? d.providerStatus : null;
}
const PATHS: Record<Scope, string> = { user: "/api/v1/me/ai-settings", account: "/api/v1/me/account/ai-settings" };

function Spend({ view }: { view: AiSettingsView }) {
  const i18n = useI18n();
  const { t } = i18n;
  const spent = aiMoney(view.spentThisMonth, i18n);
  return (
    <p className="meta" data-spent="">
      {view.monthlyBudget ? t("ai.settings.spentOf", { spent, budget: aiMoney(view.monthlyBudget, i18n) }) : t("ai.settings.spent", { spent })}
      {view.enabled ? "" : ` · ${t("ai.settings.off")}`}
    </p>
  );
}

/** The form's fields as typed; the body is made from them on save. */
function draftOf(view: AiSettingsView | null) {
  return {
    kind: view?.providerKind ?? "provider_a",
    model: view?.model ?? "",
    apiKey: "",
    baseUrl: view?.baseUrl ?? "",
    amount: view?.monthlyBudget?.amount ?? "",
    currency: view?.monthlyBudget?.currency ?? "USD",
    enabled: view?.enabled ?? true,
  };
}

function ProviderForm({ scope, view, onChange }: { scope: Scope; view: AiSettingsView | null; onChange: (v: AiSettingsView | null) => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [open, setOpen] = useState(!!view);
  const [d, setD] = useState(() => draftOf(view));
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const title = t(scope === "user" ? "ai.settings.mine" : "ai.settings.account");
  const id = `ai-${scope}`;
  // Set when the key check could not reach the provider: the person may save without it.
  const [unchecked, setUnchecked] = useState(false);
  const fail = (err: unknown) => setError(err instanceof ApiError && err.offline ? t("ai.settings.offline") : errorText(err));
  const failSave = (err: unknown) => {
    const refused = err instanceof ApiError ? keyRefusedStatus(err.details) : null;
    if (refused !== null) return setError(t("ai.settings.keyRefusedOnSave", { status: refused }));
    if (err instanceof ApiError && err.status === 503 && err.code === "unavailable") {
      setUnchecked(true);
      return setError(t("ai.settings.checkUnreachable"));
    }
    fail(err);
  };

  const save = (check: boolean) => {
    setNote(null);
    const amount = westernDigits(d.amount.trim());
    const currency = d.currency.trim().toUpperCase();
    const problem: MessageKey | null = !d.model.trim()
      ? "ai.settings.problem.model"
      : d.kind === "compatible_api" && !d.baseUrl.trim()
        ? "ai.settings.problem.baseUrl"
        : amount && !aiAmountSchema.safeParse(amount).success
          ? "ai.settings.problem.amount"
          : amount && !/^[A-Z]{3}$/.test(currency)
            ? "ai.settings.problem.currency"
            : null;
    if (problem) return setError(t(problem));
    const body = aiSettingsBody.safeParse({
      providerKind: d.kind,
      model: d.model.trim(),
      // Empty: keep the stored key (the server never sends it back).
      ...(d.apiKey ? { apiKey: d.apiKey } : {}),
      baseUrl: d.kind === "compatible_api" ? d.baseUrl.trim() : null,
      monthlyBudget: amount ? { amount, currency } : null,
      enabled: d.enabled,
      // A new key is asked about before it is stored (a refused one is a 400 that saves nothing).
      ...(d.apiKey && check ? { check: true } : {}),
    });
    if (!body.success) return setError(body.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    setError(null);
    setUnchecked(false);
    setBusy(true);
    api<AiSettingsView>("PUT", PATHS[scope], body.data)
      .then((saved) => {
        onChange(saved);
        setD({ ...draftOf(saved), apiKey: "" });
        setNote(t("ai.settings.saved"));
      }, failSave)
      .finally(() => setBusy(false));
  };

  const remove = () => {
    if (!window.confirm(t("ai.settings.removeConfirm"))) return;
    setBusy(true);
    api("DELETE", PATHS[scope])
      .then(() => {
        onChange(null);
        setD(draftOf(null));
        setOpen(false);
        setNote(t("ai.settings.removed"));
      }, fail)
      .finally(() => setBusy(false));
  };

  return (
    <fieldset className="ai-settings" aria-labelledby={`${id}-h`} aria-busy={busy}>
      <legend id={`${id}-h`}>{title}</legend>
      <p className="hint">{t(scope === "user" ? "ai.settings.mineExplain" : "ai.settings.accountExplain")}</p>
      {view ? (
        <>
          <p>
            {providerName(view.providerKind, t)} · <bdi>{view.model}</bdi>
          </p>
          <Spend view={view} />
          {view.keyRefused ? (
            <Notice kind="error">{t("ai.settings.keyRefused", { status: view.keyRefused.status, date: i18n.dateTime(view.keyRefused.at) })}</Notice>
          ) : null}
        </>
      ) : (
        <p className="meta">{t("ai.settings.none")}</p>
      )}
      {open ? (
        <form
          className="stack"
          aria-label={title}
          onSubmit={(e) => {
            e.preventDefault();
            save(true);
          }}
        >
          <label>
            {t("ai.settings.kind")}
            <select value={d.kind} onChange={(e) => setD({ ...d, kind: e.target.value as ProviderKind })}>
              {PROVIDER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {providerName(k, t)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("ai.settings.model")}
            <input value={d.model} dir="ltr" maxLength={200} autoComplete="off" onChange={(e) => setD({ ...d, model: e.target.value })} />
          </label>
          {d.kind === "compatible_api" ? (
            <label>
              {t("ai.settings.baseUrl")}
              <input type="url" dir="ltr" value={d.baseUrl} maxLength={500} placeholder="https://" onChange={(e) => setD({ ...d, baseUrl: e.target.value })} />
            </label>
          ) : null}
          <label>
            {t("ai.settings.key")}
            <input
              type="password"
              dir="ltr"
              value={d.apiKey}
              maxLength={500}
              // Never the sign-in password: a browser must not fill it in here.
              autoComplete="new-password"
              placeholder={view?.hasKey ? t("ai.settings.keyStored") : ""}
              onChange={(e) => setD({ ...d, apiKey: e.target.value })}
              aria-describedby={`${id}-key-hint`}
            />
          </label>
          <p className="hint" id={`${id}-key-hint`}>
            {t("ai.settings.keyCheckHint")}
          </p>
          <fieldset>
            <legend>{t("ai.settings.budget")}</legend>
            <div className="budget">
              <label>
                {t("ai.settings.amount")}
                <input inputMode="decimal" value={d.amount} onChange={(e) => setD({ ...d, amount: e.target.value })} />
              </label>
              <label>
                {t("ai.settings.currency")}
                <input value={d.currency} dir="ltr" maxLength={3} autoCapitalize="characters" onChange={(e) => setD({ ...d, currency: e.target.value })} />
              </label>
            </div>
            <p className="hint">{t("ai.settings.budgetHint")}</p>
          </fieldset>
          <label className="check">
            <input type="checkbox" checked={d.enabled} onChange={(e) => setD({ ...d, enabled: e.target.checked })} />
            {t("ai.settings.enabled")}
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t("ai.settings.save")}
            </button>
            {unchecked ? (
              <button type="button" disabled={busy} onClick={() => save(false)}>
                {t("ai.settings.saveUnchecked")}
              </button>
            ) : null}
            {view ? (
              <button type="button" className="danger" disabled={busy} onClick={remove}>
                {t("ai.settings.remove")}
              </button>
            ) : null}
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" aria-label={`${t("ai.settings.setUp")}: ${title}`} onClick={() => setOpen(true)}>
            {t("ai.settings.setUp")}
          </button>
        </div>
      )}
      <Notice>{note}</Notice>
      <Notice kind="error">{error}</Notice>
    </fieldset>
  );
}

export function AiSettings() {
  const i18n = useI18n();
  const { t } = i18n;
  const { db, user } = useReady();
  const { connected: online, lost } = useConnection();
  const [overview, setOverview] = useState<AiSettingsOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Owners set their account's provider; for anyone else the server's refusal would only confuse.
  const isOwner = useLive(async () => (await db.memberships.toArray()).some((m) => m.userId === user.id && m.role === "owner" && !m.deletedAt), [db, user.id]);

  useEffect(() => {
    if (!online) return setError(t("ai.settings.offline"));
    let live = true;
    api<AiSettingsOverview>("GET", PATHS.user).then(
      (o) => {
        if (!live) return;
        setOverview(o);
        setError(null);
      },
      (err: unknown) => live && failure(lost, setError)(err),
    );
    return () => {
      live = false;
    };
  }, [online]);

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
