/**
 * Bringing data in, on the export screen (owners and admins, online): restoring an export's zip
 * into this location when it is empty, and importing things from a spreadsheet's CSV with a
 * preview first (a dry run that writes nothing and lists each row's problem), since people come
 * from spreadsheets and from other inventory apps.
 */
import { useI18n } from "../../ui/i18n/i18n.js";
import { ImportCsv } from "./ImportCsv.js";
import { RestoreZip } from "./RestoreZip.js";

export function ImportData({ locationId, online }: { locationId: string; online: boolean }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="import-h" className="stack">
      <h2 id="import-h">{t("import.title")}</h2>
      {!online ? <p className="notice info">{t("import.offline")}</p> : null}
      <RestoreZip locationId={locationId} online={online} />
      <ImportCsv locationId={locationId} online={online} />
    </section>
  );
}
