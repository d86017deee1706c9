/**
 * A location's moves (boxes going to another location of the same owner, or rearranged within
 * this one): the list with each move's progress, and starting a new one. Read from the device and
 * written through the outbox, so it works with no network.
 */
import { useState } from "react";
import { navigate } from "../../ui/router.js";
import { queueMoveCreate } from "../../ops/moves/queue.js";
import { readMoves, boxesOf } from "../../sync/move-ops.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { roleAtLeast } from "../../../shared/roles.js";
import { MOVE_NAME_MAX } from "../../../shared/moves.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { MoveProgress } from "./MoveProgress.js";
import { paths } from "../../ui/routes.js";

export function MovesScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db, user } = useReady();
  const data = useLocationScreen(locationId);
  const state = useLive(() => readMoves(db, locationId), [db, locationId]);
  // Targets: the other locations of the same owner account where this person may write.
  const targets = useLive(async () => {
    const [locations, memberships] = await Promise.all([db.locations.toArray(), db.memberships.toArray()]);
    const here = locations.find((l) => l.id === locationId);
    const mine = new Set(memberships.filter((m) => m.userId === user.id && !m.deletedAt && roleAtLeast(m.role, "member")).map((m) => m.locationId));
    return locations.filter((l) => l.id !== locationId && !l.deletedAt && l.accountId === here?.accountId && mine.has(l.id));
  }, [db, locationId, user.id]);
  const [name, setName] = useState("");
  const [to, setTo] = useState("");

  const moves = state ? [...state.moves.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)) : [];
  const locationName = (id: string | null) => targets?.find((l) => l.id === id)?.name ?? null;
  return (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""} inboxCount={data?.inbox.length ?? 0}>
      <h1>{t("moves.title")}</h1>
      {moves.length ? (
        <ul className="moves">
          {moves.map((m) => {
            const target = m.toLocationName ?? locationName(m.toLocationId);
            return (
              <li key={m.id}>
                <Link to={paths.move({ locationId, moveId: m.id })}>{m.name}</Link>{" "}
                <span className="meta">
                  {t(`moves.status.${m.status}`)}
                  {target ? ` · ${t("moves.toName", { name: target })}` : ""}
                </span>
                <MoveProgress boxes={boxesOf(state!, m.id)} />
                {m.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="hint">{t("moves.none")}</p>
      )}
      {data?.canEdit ? (
        <form
          className="stack"
          aria-label={t("moves.new")}
          onSubmit={(e) => {
            e.preventDefault();
            const trimmed = name.trim();
            if (!trimmed) return;
            void queueMoveCreate(db, locationId, trimmed, to || null).then((id) => navigate(paths.move({ locationId, moveId: id })));
          }}
        >
          <h2>{t("moves.new")}</h2>
          <label>
            {t("moves.name")}
            <input value={name} maxLength={MOVE_NAME_MAX} onChange={(e) => setName(e.target.value)} required />
          </label>
          <label>
            {t("moves.to")}
            <select value={to} onChange={(e) => setTo(e.target.value)}>
              <option value="">{t("moves.toNone")}</option>
              {(targets ?? []).map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <div className="actions">
            <button type="submit" className="primary">
              {t("moves.create")}
            </button>
          </div>
        </form>
      ) : null}
      {!state ? <Notice>{t("common.loading")}</Notice> : null}
    </Shell>
  );
}
