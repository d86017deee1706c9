/**
 * A box check: standing at an open box with the list of what should be in it, tick what is seen,
 * mark what is not here or only partly here, add things found that belong elsewhere. Saving is one
 * op (works with no network); the server keeps every check and rules what each thing becomes.
 */
import { useEffect, useState, type ReactNode } from "react";
import { formatCode, normalizeCode } from "../../../shared/codes.js";
import type { ThingRow } from "../../db/rows.js";
import { recordBoxCheck } from "../../ops/field/queue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { BoxFinding, SeenState, type Mark } from "./BoxFinding.js";
import { findingsOf } from "./findings.js";
import { FoundThings } from "./FoundThings.js";
import { PastChecks } from "./PastChecks.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { scannedThing } from "./scan-thing.js";
import { thingName } from "../../ui/names.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

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
    const scanned = await scannedThing(db, file);
    const thing = "id" in scanned ? things.get(scanned.id) : undefined;
    if (!thing) return setError("missing" in scanned && scanned.missing === "unread" ? t("scan.nothingInPhoto") : t("check.scanNoThing"));
    if (inBox.has(thing.id)) return mark(thing.id, { kind: "seen" });
    if (addable(thing)) addFound(thing.id);
  };

  const save = async () => {
    setError(null);
    const made = findingsOf(expected, marks, found);
    if (made === "empty") return setError(t("check.nothingMarked"));
    if ("bad" in made) return setError(t("check.badQuantity", { name: thingName(made.bad, t) }));
    await recordBoxCheck(db, locationId, box.id, made.findings);
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
        <FoundThings
          found={found.flatMap((id) => things.get(id) ?? [])}
          matches={matches}
          search={search}
          onSearch={setSearch}
          onAdd={addFound}
          onRemove={(id) => setFound((f) => f.filter((x) => x !== id))}
          onScan={(file) => void scanToAdd(file)}
        />
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
