/**
 * A thing's Delete button. A container that still holds things is refused at once, on the device
 * and offline too (client/sync/checks.ts), saying why, instead of seeming to go and coming back.
 */
import { useState } from "react";
import type { ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { refusalText } from "../../ui/refusal.js";
import { navigate } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";
import { paths } from "../../ui/routes.js";

export function DeleteThing({ locationId, thing }: { locationId: string; thing: Pick<ThingRow, "id" | "rowVersion"> }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [refused, setRefused] = useState<string | null>(null);
  // Only server rows have a version; a thing created on this device pushes without one (VE4).
  const base = thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {};
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          if (!window.confirm(t("thing.deleteConfirm"))) return;
          setRefused(null);
          enqueue(db, { name: "thing.delete", locationId, args: { id: thing.id }, ...base }).then(
            () => navigate(paths.things({ locationId })),
            (err: unknown) => setRefused(refusalText(t, err)),
          );
        }}
      >
        {t("thing.delete")}
      </button>
      <Notice kind="error">{refused}</Notice>
    </>
  );
}
