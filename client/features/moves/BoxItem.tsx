/**
 * One box of a move: its number, the container (hidden when not visible here), state, destination,
 * and, while the move is active, setting the destination or taking a packed box out.
 */
import { useState } from "react";
import { formatCode } from "../../../shared/codes.js";
import type { MoveBoxRow, MoveRow } from "../../db/rows.js";
import { queueBoxDestination, queueBoxRemove } from "../../ops/moves/queue.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { paths } from "../../ui/routes.js";

export function BoxItem({ move, box, places, editable }: { move: MoveRow; box: MoveBoxRow; places: { id: string; name: string }[]; editable: boolean }) {
  const { t, num, dateTime } = useI18n();
  const { db } = useReady();
  const thing = useLive(() => db.things.get(box.containerId), [db, box.containerId]);
  const [dest, setDest] = useState(box.destinationPlaceId ?? "");
  const visible = !!thing && !thing.deletedAt;
  const destination = box.destinationName ?? places.find((p) => p.id === box.destinationPlaceId)?.name ?? null;
  return (
    <li className="move-box" data-state={box.state}>
      <strong>{visible ? t("moves.boxNumber", { number: num(box.number) }) : t("moves.boxHidden", { number: num(box.number) })}</strong>
      {visible ? (
        <>
          {" "}
          <Link to={paths.thing({ locationId: thing.locationId, thingId: thing.id })}>{thingName(thing, t)}</Link>
          {thing.shortCode ? <span className="meta"> {formatCode(thing.shortCode)}</span> : null}
        </>
      ) : null}
      <div className="meta">
        <span className="box-state">{t(`moves.state.${box.state}`)}</span> · {dateTime(box.stateAt)}
        {` · ${t("moves.destination")}: ${destination ?? t("moves.destinationNone")}`}
        {"pending" in box && box.pending ? <span className="pending"> {t("common.notSynced")}</span> : null}
      </div>
      {editable && box.state !== "unpacked" && places.length ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const place = places.find((p) => p.id === dest);
            void queueBoxDestination(db, move, box, place ? { placeId: place.id, name: place.name } : null);
          }}
        >
          <label>
            {t("moves.destination")}
            <select value={dest} onChange={(e) => setDest(e.target.value)}>
              <option value="">{t("moves.destinationNone")}</option>
              {places.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{t("moves.setDestination")}</button>
          {box.state === "packed" ? (
            <button type="button" onClick={() => void queueBoxRemove(db, move, box)}>
              {t("moves.remove")}
            </button>
          ) : null}
        </form>
      ) : null}
    </li>
  );
}
