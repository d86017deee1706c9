/** A box's last checks, newest first: this device's waiting ones too, each with what it found and who made it. */
import { timeMs } from "../../ops/rows.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { useCheckers } from "./hooks.js";

const SHOWN_CHECKS = 20;

export function PastChecks({ boxId }: { boxId: string }) {
  const { t, dateTime, num } = useI18n();
  const { db, user } = useReady();
  const checks = useLive(async () => {
    const [rows, outbox] = await Promise.all([db.box_checks.where("containerId").equals(boxId).toArray(), db.outbox.toArray()]);
    const known = new Set(rows.map((r) => r.id));
    const mine = outbox.flatMap((e) =>
      e.state !== "rejected" && e.op.name === "boxcheck.record" && e.op.args.containerId === boxId && !known.has(e.op.args.id)
        ? [{ id: e.op.args.id, at: e.op.args.at, byUserId: user.id, pending: true, ...counts(e.op.args) }]
        : [],
    );
    const synced = rows.filter((r) => !r.deletedAt).map((r) => ({ id: r.id, at: r.at, byUserId: r.byUserId, pending: false, ...counts(r) }));
    return [...mine, ...synced].sort((a, b) => timeMs(b.at) - timeMs(a.at)).slice(0, SHOWN_CHECKS);
  }, [db, boxId, user.id]);
  const names = useCheckers(boxId, checks?.filter((c) => !c.pending).length ?? 0, SHOWN_CHECKS);
  if (!checks?.length) return null;
  return (
    <section aria-labelledby="checks-h">
      <h2 id="checks-h">{t("check.past")}</h2>
      <ol className="history">
        {checks.map((c) => (
          <li key={c.id}>
            <span>{t("check.summary", { seen: num(c.seen), notHere: num(c.notHere), split: num(c.split), movedIn: num(c.movedIn) })}</span>{" "}
            <span className="meta">{`${c.byUserId === user.id ? t("check.byYou") : names.has(c.id) ? t("check.by", { name: names.get(c.id)! }) : t("check.byOther")} · ${dateTime(c.at)}`}</span>
            {c.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function counts(a: { seen?: string[] | undefined; notHere?: string[] | undefined; split?: unknown[] | undefined; movedIn?: string[] | undefined }) {
  return { seen: a.seen?.length ?? 0, notHere: a.notHere?.length ?? 0, split: a.split?.length ?? 0, movedIn: a.movedIn?.length ?? 0 };
}
