/** Move a thing into a place or into a container (another thing that holds things). */
import { useState } from "react";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Shell } from "../../ui/Shell.js";
import { navigate } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { placeName, thingName } from "../../ui/names.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

export function MoveScreen({ locationId, thingId }: { locationId: string; thingId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const [kind, setKind] = useState<"place" | "container">("place");
  const [target, setTarget] = useState("");
  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const thing = data.things.find((th) => th.id === thingId);
  if (!thing) return <Shell locationId={locationId}>{t("thing.notFound")}</Shell>;
  const containers = data.things.filter((th) => th.isContainer && th.id !== thingId);
  const options =
    kind === "place" ? data.places.map((p) => ({ id: p.id, label: placeName(p, t) })) : containers.map((c) => ({ id: c.id, label: thingName(c, t) }));
  const chosen = target || options[0]?.id || "";
  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("move.title", { name: thingName(thing, t) })}</h1>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen) return;
          const dest = kind === "place" ? { placeId: chosen } : { containerId: chosen };
          void enqueue(db, {
            name: "thing.move",
            locationId,
            args: { id: thing.id, ...dest },
            ...(thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {}),
          }).then(() => navigate(paths.thing({ locationId, thingId: thing.id })));
        }}
      >
        <fieldset>
          <legend>{t("move.to")}</legend>
          <label>
            <input type="radio" name="kind" checked={kind === "place"} onChange={() => (setKind("place"), setTarget(""))} />
            {t("move.intoPlace")}
          </label>
          <label>
            <input
              type="radio"
              name="kind"
              checked={kind === "container"}
              disabled={!containers.length}
              onChange={() => (setKind("container"), setTarget(""))}
            />
            {t("move.intoContainer")}
          </label>
        </fieldset>
        <label>
          {kind === "place" ? t("thing.place") : t("thing.container")}
          <select aria-label={kind === "place" ? t("thing.place") : t("thing.container")} value={chosen} onChange={(e) => setTarget(e.target.value)}>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={!data.canEdit}>
          {t("thing.move")}
        </button>
      </form>
    </Shell>
  );
}
