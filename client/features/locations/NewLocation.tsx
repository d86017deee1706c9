/**
 * Creating a location from the Locations screen (POST /api/v1/locations: the person becomes its
 * owner). Online only, as the server makes the location and its first places; the new location
 * reaches this device through its shapes, which the engine asks for again with the wider scope.
 */
import { useState } from "react";
import { ApiError } from "../../sync/api.js";
import { useOnline } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { createLocation } from "./hooks.js";

export function NewLocation() {
  const { t } = useI18n();
  const { engine } = useReady();
  const online = useOnline();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="stack inline"
      aria-labelledby="new-location"
      onSubmit={(e) => {
        e.preventDefault();
        const trimmed = name.trim();
        if (!trimmed || busy) return;
        setBusy(true);
        setError(null);
        setSaved(null);
        createLocation(trimmed)
          .then(
            (made) => {
              setName("");
              setSaved(t("locations.created", { name: made.name }));
              // The shapes were asked for with the old scope: start again so the new location arrives.
              engine.restart();
            },
            (err: unknown) => setError(err instanceof ApiError && err.offline ? t("locations.offline") : errorText(err)),
          )
          .finally(() => setBusy(false));
      }}
    >
      <h2 id="new-location">{t("locations.new")}</h2>
      <label>
        {t("locations.newName")}
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} />
      </label>
      <button type="submit" disabled={busy || !online} aria-describedby={online ? undefined : "new-location-offline"}>
        {t("locations.create")}
      </button>
      {online ? null : (
        <p className="hint" id="new-location-offline">
          {t("locations.offline")}
        </p>
      )}
      <Notice>{saved}</Notice>
      <Notice kind="error">{error}</Notice>
    </form>
  );
}
