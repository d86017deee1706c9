/**
 * A box check: standing at an open box with the list of what should be in it, tick what is seen,
 * mark what is not here or only partly here, add things found that belong elsewhere. Saving is one
 * op (works with no network); the server keeps every check and rules what each thing becomes.
 */
import { useEffect, useState, type ReactNode } from "react";
import type { BoxCheck } from "../../../shared/box-checks.js";
import { classifyScan, formatCode, normalizeCode } from "../../../shared/codes.js";
import type { ThingRow } from "../../db/rows.js";
import { recordBoxCheck, type BoxFindings } from "../../ops/field/boxcheck.record.js";
import { resolveCodeLocally } from "../../sync/field-ops.js";
import { api } from "../../sync/api.js";
import { timeMs } from "../../ops/rows.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { BoxFinding, SeenState, type Mark } from "./BoxFinding.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { decodeImage } from "../scan/decode.js";
import { thingName } from "../../ui/names.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

const QUANTITY = /^\d{1,11}(\.\d{1,3})?$/;
const SHOWN_CHECKS = 20;

/** Who made each check, by check id: the server's list names people; the device's rows only hold ids. */
function useCheckers(boxId: string, known: number): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  useEffect(() => {
    let live = true;
    api<{ items: BoxCheck[] }>("GET", `/api/v1/things/${boxId}/box-checks?limit=${SHOWN_CHECKS}`).then(
      (r) => live && setNames(new Map(r.items.map((c) => [c.id, c.by.displayName]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [boxId, known]);
  return names;
}

function PastChecks({ boxId }: { boxId: string }) {
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
  const names = useCheckers(boxId, checks?.filter((c) => !c.pending).length ?? 0);
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

export function BoxCheckScreen({ locationId, boxId }: { locationId: string; boxId: string }) {
  const { t } = useI18n();
  const { db, engine } = useReady();
  const data = useLocationScreen(locationId);
  // Box checks are a caught-up shape, not a live one: opening a box's check brings in the checks
  // others made since (and pushes this device's waiting ops).
  useEffect(() => {
    if (navigator.onLine) engine.kick();
  }, [engine, boxId]);
  const [marks, setMarks] = useState<Record<string, Mark>>({});
  const [found, setFound] = useState<string[]>([]);
  const [search, setSearch] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const box = data.things.find((th) => th.id === boxId);
  const shell = (body: ReactNode) => (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      {body}
    </Shell>
  );
  if (!box || !box.isContainer) return shell(<p>{t("check.notABox")}</p>);
  const byName = (a: ThingRow, b: ThingRow) => thingName(a, t).localeCompare(thingName(b, t));
  const foundSet = new Set(found);
  const expected = data.things.filter((th) => th.containerId === box.id && !foundSet.has(th.id)).sort(byName);
  const inBox = new Set(expected.map((th) => th.id));
  const things = new Map(data.things.map((th) => [th.id, th]));
  const addable = (th: ThingRow) => th.id !== box.id && !inBox.has(th.id) && !foundSet.has(th.id);
  const q = search.trim().toLowerCase();
  const code = normalizeCode(search);
  const matches = q
    ? data.things
        .filter((th) => addable(th) && (th.shortCode === code || (th.name ?? "").toLowerCase().includes(q)))
        .sort(byName)
        .slice(0, 20)
    : [];

  const mark = (id: string, m: Mark | undefined) => {
    setNote(null);
    setMarks((all) => {
      const next = { ...all };
      if (m) next[id] = m;
      else delete next[id];
      return next;
    });
  };
  const addFound = (id: string) => {
    setFound((f) => (f.includes(id) ? f : [...f, id]));
    setSearch("");
    setNote(null);
  };
  const scanToAdd = async (file: File) => {
    setError(null);
    const d = await decodeImage(file);
    const read = d ? classifyScan(d.text, d.format) : null;
    const hit = read?.type === "code" ? await resolveCodeLocally(db, read.code) : null;
    const thing = hit?.outcome === "open" && hit.target.kind === "thing" ? things.get(hit.target.id) : undefined;
    if (!thing) return setError(d ? t("check.scanNoThing") : t("scan.nothingInPhoto"));
    if (inBox.has(thing.id)) return mark(thing.id, { kind: "seen" });
    if (addable(thing)) addFound(thing.id);
  };

  const save = async () => {
    setError(null);
    const findings: BoxFindings = { seen: [], notHere: [], split: [], movedIn: found };
    for (const th of expected) {
      const m = marks[th.id];
      if (m?.kind === "seen") findings.seen.push(th.id);
      else if (m?.kind === "notHere") findings.notHere.push(th.id);
      else if (m?.kind === "split") {
        const quantity = m.quantity.trim();
        if (!QUANTITY.test(quantity) || Number(quantity) <= 0) return setError(t("check.badQuantity", { name: thingName(th, t) }));
        findings.split.push({ thingId: th.id, quantity });
      }
    }
    if (!findings.seen.length && !findings.notHere.length && !findings.split.length && !findings.movedIn.length) return setError(t("check.nothingMarked"));
    await recordBoxCheck(db, locationId, box.id, findings);
    setMarks({});
    setFound([]);
    setNote(t("check.saved"));
  };

  return shell(
    <>
      <h1>{t("check.title", { name: thingName(box, t) })}</h1>
      <p className="meta">
        {box.shortCode ? `${t("code.label")}: ${formatCode(box.shortCode)} · ` : ""}
        <SeenState thing={box} />
      </p>
      {!data.canEdit ? <p className="hint">{t("thing.viewerNote")}</p> : null}
      <form
        className="stack"
        aria-label={t("check.form")}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2>{t("check.shouldBe", { count: expected.length })}</h2>
        {expected.length ? (
          <div className="actions">
            <button type="button" onClick={() => setMarks((all) => Object.fromEntries(expected.map((th) => [th.id, all[th.id] ?? { kind: "seen" as const }])))}>
              {t("check.allSeen")}
            </button>
          </div>
        ) : (
          <p className="hint">{t("check.empty")}</p>
        )}
        <ul className="findings">
          {expected.map((th) => (
            <BoxFinding key={th.id} thing={th} mark={marks[th.id]} onMark={(m) => mark(th.id, m)} />
          ))}
        </ul>
        <h2>{t("check.found")}</h2>
        {found.length ? (
          <ul className="findings">
            {found.map((id) => {
              const th = things.get(id);
              return th ? <BoxFinding key={id} thing={th} mark={undefined} movedIn onMark={() => setFound((f) => f.filter((x) => x !== id))} /> : null;
            })}
          </ul>
        ) : null}
        <label>
          {t("check.addFound")}
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("check.searchHint")} />
        </label>
        {matches.length ? (
          <ul className="list" aria-label={t("check.matches")}>
            {matches.map((th) => (
              <li key={th.id}>
                <button type="button" className="link" onClick={() => addFound(th.id)}>
                  {t("check.add", { name: thingName(th, t) })}
                </button>
              </li>
            ))}
          </ul>
        ) : q ? (
          <p className="meta">{t("check.noMatch")}</p>
        ) : null}
        <label className="file-button">
          {t("check.scanFound")}
          <input
            type="file"
            accept="image/*"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void scanToAdd(file);
            }}
          />
        </label>
        <Notice kind="error">{error}</Notice>
        <button type="submit" className="primary" disabled={!data.canEdit}>
          {t("check.save")}
        </button>
        <Notice>{note}</Notice>
      </form>
      <PastChecks boxId={box.id} />
      <p>
        <Link to={paths.thing({ locationId, thingId: box.id })}>{t("check.backToBox", { name: thingName(box, t) })}</Link>
      </p>
    </>,
  );
}
