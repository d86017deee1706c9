/**
 * One AI provider of Settings → AI (this person's own, or their account's): what is stored with
 * this month's spend, and the form that sets it up, changes or removes it. A key goes in and never
 * comes back: a stored one shows as a placeholder, and an empty key field keeps it.
 */
import { useState } from "react";
import type { AiSettingsView } from "../../../shared/ai-settings.js";
import { ApiError } from "../../sync/api.js";
import { aiMoney, providerName } from "../../ui/ai-format.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { draftBody, draftOf, keyRefusedStatus } from "./ai-draft.js";
import { removeAiSettings, saveAiSettings, type AiScope } from "./hooks.js";
import { ProviderFields } from "./ProviderFields.js";
import "../../ui/ai.css";

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

export function ProviderForm({ scope, view, onChange }: { scope: AiScope; view: AiSettingsView | null; onChange: (v: AiSettingsView | null) => void }) {
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
    const made = draftBody(d, check);
    if ("problem" in made) return setError(t(made.problem));
    if ("invalid" in made) return setError(made.invalid);
    setError(null);
    setUnchecked(false);
    setBusy(true);
    saveAiSettings(scope, made.body)
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
    removeAiSettings(scope)
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
          <ProviderFields id={id} d={d} setD={setD} hasKey={!!view?.hasKey} />
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
