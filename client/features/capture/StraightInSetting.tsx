/**
 * "My own captures go straight in": the person's own setting in this location (members and up,
 * who capture). Changing it needs a connection; the device keeps the last value it read, so an
 * offline capture shows as it will be (client/sync/capture-settings.ts).
 */
import { useEffect, useState } from "react";
import { getMeta } from "../../db/database.js";
import { putCaptureSettings, refreshCaptureSettings } from "../../sync/capture-settings.js";
import { useLive, useOnline } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { errorText } from "../../ui/refusal.js";
import { Notice } from "../../ui/Notice.js";

export function StraightInSetting({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const online = useOnline();
  const kept = useLive(async () => (await getMeta<Record<string, boolean>>(db, "captureStraightIn"))?.[locationId] ?? false, [db, locationId]);
  const [note, setNote] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  // What the person just chose, shown while the server is asked; then what the device keeps.
  const [asked, setAsked] = useState<boolean | null>(null);
  // Another device may have changed it: read it again whenever there is a connection.
  useEffect(() => {
    if (online) refreshCaptureSettings(db, locationId).catch(() => undefined);
  }, [db, locationId, online]);
  const helpId = `straight-in-help-${locationId}`;
  return (
    <div className="stack">
      <label className="check">
        <input
          type="checkbox"
          checked={asked ?? kept ?? false}
          disabled={!online || asked !== null || kept === undefined}
          aria-describedby={helpId}
          onChange={(e) => {
            const straightIn = e.target.checked;
            setAsked(straightIn);
            setNote(null);
            putCaptureSettings(db, locationId, { straightIn })
              .then(
                () => setNote({ kind: "info", text: t("capture.straightInSaved") }),
                (err: unknown) => setNote({ kind: "error", text: t("capture.straightInFailed", { message: errorText(err) }) }),
              )
              .finally(() => setAsked(null));
          }}
        />
        {t("capture.straightIn")}
      </label>
      <p className="hint" id={helpId}>
        {online ? t("capture.straightInHelp") : `${t("capture.straightInHelp")} ${t("capture.straightInOffline")}`}
      </p>
      <Notice kind={note?.kind ?? "info"}>{note?.text}</Notice>
    </div>
  );
}
