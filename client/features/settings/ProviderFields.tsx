/** The fields of an AI provider's form: kind, model, address (a compatible API's), key, monthly budget, on or off. */
import { PROVIDER_KINDS, type ProviderKind } from "../../../shared/ai.js";
import { providerName } from "../../ui/ai-format.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import type { Draft } from "./ai-draft.js";

export function ProviderFields({ id, d, setD, hasKey }: { id: string; d: Draft; setD: (d: Draft) => void; hasKey: boolean }) {
  const { t } = useI18n();
  return (
    <>
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
          placeholder={hasKey ? t("ai.settings.keyStored") : ""}
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
    </>
  );
}
