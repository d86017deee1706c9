/**
 * One move, for the mover: its boxes by number with their state and destination, the progress,
 * a scan box (load, unload, unpack), adding the location's containers as boxes, and finishing or
 * cancelling the move. Everything reads from the device and writes through the outbox.
 */
import { useState, type ReactNode } from "react";
import { queueBoxAdd, queueMoveUpdate } from "../../ops/moves/queue.js";
import { boxesOf, readMoves } from "../../sync/move-ops.js";
import { useLive, useOnline } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";
import { MoveProgress } from "./MoveProgress.js";
import { MoveScan } from "./MoveScan.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";
import { BoxItem } from "./BoxItem.js";

export function MoveDetailScreen({ locationId, moveId }: { locationId: string; moveId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const online = useOnline();
  const data = useLocationScreen(locationId);
  const state = useLive(() => readMoves(db, locationId), [db, locationId]);
  const move = state?.moves.get(moveId);
  const goesTo = move?.toLocationId ?? locationId;
  const places = useLive(
    async () => (await db.places.where("locationId").equals(goesTo).toArray()).filter((p) => !p.deletedAt).sort((a, b) => a.name.localeCompare(b.name)),
    [db, goesTo],
  );
  // A move started on this device names its target only once the server's row arrives.
  const targetRow = useLive(async () => (move?.toLocationId ? db.locations.get(move.toLocationId) : undefined), [db, move?.toLocationId]);
  const [container, setContainer] = useState("");
  const shell = (body: ReactNode) => (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""} inboxCount={data?.inbox.length ?? 0}>
      {body}
    </Shell>
  );
  if (!state || !data) return shell(<p role="status">{t("common.loading")}</p>);
  if (!move) return shell(<Notice kind="error">{t("moves.notFound")}</Notice>);
  const boxes = boxesOf(state, move.id);
  const active = move.status === "active";
  const editable = active && data.canEdit;
  const inMoves = new Set([...state.boxes.values()].map((b) => b.containerId));
  const containers = data.things
    .filter((th) => th.isContainer && !th.deletedAt && !inMoves.has(th.id))
    .sort((a, b) => thingName(a, t).localeCompare(thingName(b, t)));
  const targetName = move.toLocationName ?? targetRow?.name ?? null;

  return shell(
    <>
      <p>
        <Link to={paths.moves({ locationId })}>{t("moves.title")}</Link>
      </p>
      <h1>{move.name}</h1>
      <p className="meta">
        {t(`moves.status.${move.status}`)}
        {targetName ? ` · ${t("moves.toName", { name: targetName })}` : ""}
      </p>
      <MoveProgress boxes={boxes} />
      {!active ? <Notice>{t("moves.closed", { status: t(`moves.status.${move.status}`) })}</Notice> : null}
      {editable ? <MoveScan move={move} boxes={boxes} /> : null}
      {editable && targetName ? <p className="hint">{t("moves.unpackNote", { name: targetName })}</p> : null}
      <section aria-labelledby="move-boxes-h">
        <h2 id="move-boxes-h">{t("moves.boxes")}</h2>
        {boxes.length ? (
          <ul className="move-boxes">
            {boxes.map((b) => (
              <BoxItem key={b.containerId} move={move} box={b} places={places ?? []} editable={editable} />
            ))}
          </ul>
        ) : (
          <p className="hint">{t("moves.noBoxes")}</p>
        )}
      </section>
      {editable ? (
        <form
          className="stack"
          aria-label={t("moves.addBox")}
          onSubmit={(e) => {
            e.preventDefault();
            if (!container) return;
            // Cleared now, not when the op is queued: a container picked meanwhile must not be cleared with it.
            setContainer("");
            void queueBoxAdd(db, move, container);
          }}
        >
          <h2>{t("moves.addBox")}</h2>
          {containers.length ? (
            <label>
              {t("moves.container")}
              <select value={container} onChange={(e) => setContainer(e.target.value)} required>
                <option value="">{t("moves.pickContainer")}</option>
                {containers.map((c) => (
                  <option key={c.id} value={c.id}>
                    {thingName(c, t)}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <p className="hint">{t("moves.noContainers")}</p>
          )}
          <div className="actions">
            <button type="submit" disabled={!containers.length}>
              {t("moves.add")}
            </button>
          </div>
        </form>
      ) : null}
      <section aria-labelledby="move-print-h">
        <h2 id="move-print-h">{t("moves.print")}</h2>
        {online && move.rowVersion > 0 ? (
          <p className="actions">
            <a href={`/api/v1/moves/${move.id}/labels.pdf`} target="_blank" rel="noreferrer">
              {t("moves.printLabels")}
            </a>{" "}
            <a href={`/api/v1/moves/${move.id}/packing-list.pdf`} target="_blank" rel="noreferrer">
              {t("moves.packingList")}
            </a>
          </p>
        ) : (
          <p className="hint">{t("moves.printOffline")}</p>
        )}
      </section>
      {editable ? (
        <div className="actions">
          <button type="button" className="primary" onClick={() => void queueMoveUpdate(db, move, { status: "finished" })}>
            {t("moves.finish")}
          </button>
          <button
            type="button"
            onClick={() => {
              if (confirm(t("moves.cancelConfirm", { name: move.name }))) void queueMoveUpdate(db, move, { status: "cancelled" });
            }}
          >
            {t("moves.cancel")}
          </button>
        </div>
      ) : null}
    </>,
  );
}
