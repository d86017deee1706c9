/**
 * Exporting a location (owners and admins): pick what goes in, start it, follow its progress
 * (polled while it runs), download the zip or cancel; below, restoring an export and importing a
 * CSV (ImportData.tsx). Exports are built by the server, so the
 * screen needs a connection and says so offline.
 */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { ExportItem } from "./ExportItem.js";
import { cancelExport, startExport, useExports } from "./hooks.js";
import { ImportData } from "./ImportData.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { useLocationScreen } from "../../ui/use-location.js";

const OPTIONS = ["readable", "pdf", "ended", "trashed", "history", "aiCalls"] as const;
type Option = (typeof OPTIONS)[number];
export function ExportScreen({ locationId }: { locationId: string }) {
  const { t, lang, digits } = useI18n();
  const data = useLocationScreen(locationId);
  const [chosen, setChosen] = useState<Record<Option, boolean>>({ readable: true, pdf: false, ended: false, trashed: false, history: false, aiCalls: false });
  const { online, items, setItems, error, setError, fail } = useExports(locationId, !!data?.canManage);
  const [busy, setBusy] = useState(false);

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("export.title")}</h1>
      <p className="hint">{t("export.hint")}</p>
      {!data.canManage ? (
        <p className="hint">{t("export.adminsOnly")}</p>
      ) : (
        <>
          {!online ? <p className="notice info">{t("export.offline")}</p> : null}
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              setBusy(true);
              setError(null);
              startExport({
                scope: "location",
                locationId,
                options: chosen,
                locale: lang,
                digits: lang === "ar" && digits === "arab" ? "eastern" : "western",
              })
                .then((made) => setItems((old) => [made, ...old]), fail)
                .finally(() => setBusy(false));
            }}
          >
            <fieldset>
              <legend>{t("export.options")}</legend>
              {OPTIONS.map((o) => (
                <label key={o}>
                  <input type="checkbox" name={o} checked={chosen[o]} onChange={(e) => setChosen({ ...chosen, [o]: e.target.checked })} />
                  {t(`export.opt.${o}`)}
                </label>
              ))}
            </fieldset>
            <button type="submit" className="primary" disabled={!online || busy}>
              {t("export.start")}
            </button>
          </form>
          <Notice kind="error">{error}</Notice>
          {items.length ? (
            <section aria-labelledby="exports-h">
              <h2 id="exports-h">{t("export.past")}</h2>
              <ul className="list">
                {items.map((item) => (
                  <ExportItem
                    key={item.id}
                    item={item}
                    online={online}
                    onCancel={() => void cancelExport(item.id).then((c) => setItems((old) => old.map((x) => (x.id === c.id ? c : x))), fail)}
                  />
                ))}
              </ul>
            </section>
          ) : null}
          <ImportData locationId={locationId} online={online} />
        </>
      )}
    </Shell>
  );
}
