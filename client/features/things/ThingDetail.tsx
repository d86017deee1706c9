/**
 * One thing: what it is and where, editing (an op with the rowVersion seen, so a concurrent edit
 * of the same field becomes a sync_drop instead of silently winning), moving, deleting, its photos
 * (../photos/ThingPhotos.tsx), and its history with undo (history needs the network).
 */
import { useMemo, useState, type ReactNode } from "react";
import { useLive } from "../../ui/data.js";
import { formatFieldValue } from "../../ui/field-format.js";
import { fieldsPatch, toDraft, type FieldDraft, type FieldProblem } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { FieldInput, FieldLists, type FileChoice } from "../types/FieldInput.js";
import { ContainerContents } from "./ContainerContents.js";
import { ThingMeters } from "../meters/MeterList.js";
import { ThingLoan } from "../loans/ThingLoan.js";
import { DeleteThing } from "./DeleteThing.js";
import { ThingPhotos } from "../photos/ThingPhotos.js";
import { Notice } from "../../ui/Notice.js";
import { History } from "./ThingHistory.js";
import { ThingCodeAndChecks } from "./ThingCodeAndChecks.js";
import { ThingExtraction } from "../extraction/ThingExtraction.js";
import { SaveTemplate, SecretValue, ThingTags } from "./ThingExtras.js";
import { Shell } from "../../ui/Shell.js";
import { ShareLinks } from "../share/ShareLink.js";
import { usePeople } from "../../ui/people.js";
import { effectiveFields, useRegistries } from "../../ui/registries.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { fieldLabel, thingName, typeName, wherePath } from "../../ui/names.js";
import { queueThingUpdate, type ThingEdit } from "../../ops/things/thing.update.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";
import { useSecretsSet } from "./hooks.js";

/** The thing's photos (every device sees them: ../photos/ThingPhotos.tsx), which a file field may name. */
function thingFiles(thing: { photoFileIds?: string[] } | undefined, t: ReturnType<typeof useI18n>["t"]): FileChoice[] {
  return (thing?.photoFileIds ?? []).map((id, i) => ({ id, label: `${t("thing.photos")} ${i + 1}` }));
}

export function ThingDetailScreen({ locationId, thingId }: { locationId: string; thingId: string }) {
  const i18n = useI18n();
  const { t, num } = i18n;
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const reg = useRegistries(db, locationId);
  const locations = useLive(() => db.locations.toArray(), [db]);
  const people = usePeople(db, locationId);
  const thing = data?.things.find((th) => th.id === thingId);
  const files = thingFiles(thing, t);
  const [draft, setDraft] = useState<{ name: string; quantity: string; typeId: string; fields: Record<string, FieldDraft> } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ key: string; error: FieldProblem } | null>(null);
  const hasSecrets = !!reg && !!thing && effectiveFields(thing.typeId, reg.typesById, reg.fields, true).some((e) => e.field.secret);
  const secretsSet = useSecretsSet(thingId, thing?.rowVersion ?? 0, hasSecrets && (thing?.rowVersion ?? 0) > 0);

  const where = useMemo(() => {
    if (!data || !thing) return "";
    return wherePath(thing, new Map(data.places.map((p) => [p.id, p])), new Map(data.things.map((th) => [th.id, th])), t, true);
  }, [data, thing, t]);

  if (!data || !reg) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const shell = (body: ReactNode) => (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      {body}
    </Shell>
  );
  if (!thing) return shell(<p>{t("thing.notFound")}</p>);
  const type = data.types.find((ty) => ty.id === thing.typeId);
  const values = thing.fields ?? {};
  // Every field of the type, and archived ones only where the thing still has a value.
  const shownFields = effectiveFields(thing.typeId, reg.typesById, reg.fields, true).filter(
    (e) => !e.field.archivedAt || values[e.field.key] !== undefined || e.field.secret,
  );
  const fileName = (id: string) => files.find((f) => f.id === id)?.label;
  // Quantities are decimal strings ("1.000" from the server); people type "1".
  const form = draft ?? { name: thing.name ?? "", quantity: String(Number(thing.quantity)), typeId: thing.typeId ?? "", fields: {} };
  const editFields = effectiveFields(form.typeId || thing.typeId, reg.typesById, reg.fields);
  const fieldDraft = (key: string): FieldDraft => {
    const def = editFields.find((e) => e.field.key === key)!.field;
    return form.fields[key] ?? (def.secret ? "" : toDraft(def, values[key]));
  };
  const accountLocations = (locations ?? []).filter((l) => l.accountId === data.location?.accountId && !l.deletedAt);

  const save = async () => {
    const patch: ThingEdit = {};
    if (form.name.trim() !== (thing.name ?? "")) patch.name = form.name.trim() || null;
    if (Number(form.quantity) !== Number(thing.quantity) && Number(form.quantity) > 0) patch.quantity = form.quantity;
    if (form.typeId && form.typeId !== thing.typeId) patch.typeId = form.typeId;
    // Required fields hold back a save once the thing is past its draft (a capture is completed later).
    const fields = fieldsPatch(
      editFields.map((e) => e.field),
      values,
      form.fields,
      thing.lifecycle !== "draft",
    );
    if (!fields.ok) return setProblem({ key: fields.key, error: fields.error });
    setProblem(null);
    if (Object.keys(fields.patch).length) patch.fields = fields.patch;
    if (!Object.keys(patch).length) return;
    await queueThingUpdate(db, locationId, thing, patch);
    setDraft(null);
    setNote(t("thing.saved"));
  };

  return shell(
    <>
      <h1>{thingName(thing, t)}</h1>
      {thing.pending ? <p className="pending">{t("common.notSynced")}</p> : null}
      <dl className="facts">
        <dt>{t("thing.type")}</dt>
        <dd>{typeName(type, t)}</dd>
        <dt>{t("thing.quantity")}</dt>
        <dd>{num(Number(thing.quantity))}</dd>
        <dt>{t("thing.where")}</dt>
        <dd>{where}</dd>
        <dt>{t("thing.lifecycle")}</dt>
        <dd>{t(`lifecycle.${thing.lifecycle}`)}</dd>
        {shownFields.map(({ field: f }) => {
          const label = fieldLabel(f, t);
          return (
            <div className="fact" key={f.id}>
              <dt>
                {label}
                {f.required ? (
                  <span className="required" aria-hidden="true">
                    {" *"}
                  </span>
                ) : null}
              </dt>
              <dd>
                {f.secret ? (
                  secretsSet && !secretsSet[f.key] ? (
                    <span className="meta">{t("fields.notSet")}</span>
                  ) : (
                    <SecretValue thingId={thing.id} def={f} label={label} />
                  )
                ) : (
                  formatFieldValue(f, values[f.key], i18n, fileName) || <span className="meta">{t("fields.empty")}</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <ContainerContents locationId={locationId} container={thing} things={data.things} types={data.types} />
      <ThingExtraction
        thing={thing}
        defs={effectiveFields(thing.typeId, reg.typesById, reg.fields, true).map((e) => e.field)}
        canEdit={data.canEdit}
        extraction={data.inbox.find((i) => i.thingId === thing.id && i.payload.extraction)?.payload.extraction}
      />
      <ThingCodeAndChecks locationId={locationId} thing={thing} canEdit={data.canEdit} />
      <ThingPhotos thing={thing} role={data.role} />
      <ThingMeters locationId={locationId} thingId={thing.id} canEdit={data.canEdit} />
      <ThingLoan locationId={locationId} thing={thing} canEdit={data.canEdit} places={data.places} things={data.things} />
      <ThingTags locationId={locationId} thing={thing} tags={reg.tags} canEdit={data.canEdit} />
      <ShareLinks locationId={locationId} scope="thing" targetId={thing.id} canShare={data.canEdit} />
      {data.canEdit ? (
        <>
          <form
            className="stack"
            aria-label={t("thing.edit")}
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <h2>{t("thing.edit")}</h2>
            <FieldLists personListId="people" people={people} />
            <label>
              {t("thing.name")}
              <input value={form.name} onChange={(e) => setDraft({ ...form, name: e.target.value })} />
            </label>
            <label>
              {t("thing.quantity")}
              <input inputMode="decimal" value={form.quantity} onChange={(e) => setDraft({ ...form, quantity: e.target.value })} />
            </label>
            <label>
              {t("thing.type")}
              <select aria-label={t("thing.type")} value={form.typeId} onChange={(e) => setDraft({ ...form, typeId: e.target.value })}>
                {data.types
                  .filter((ty) => (!ty.archivedAt && !ty.isGroup) || ty.id === thing.typeId)
                  .map((ty) => (
                    <option key={ty.id} value={ty.id}>
                      {typeName(ty, t)}
                    </option>
                  ))}
              </select>
            </label>
            {editFields.map(({ field: f }) => (
              <FieldInput
                key={f.id}
                def={f}
                draft={fieldDraft(f.key)}
                onChange={(d) => setDraft({ ...form, fields: { ...form.fields, [f.key]: d } })}
                personListId="people"
                files={files}
                problem={problem?.key === f.key ? t(problem.error) : null}
              />
            ))}
            <button type="submit" className="primary">
              {t("thing.saveChanges")}
            </button>
            <Notice>{note}</Notice>
          </form>
          <div className="actions">
            <Link to={paths.moveThing({ locationId, thingId: thing.id })} className="button">
              {t("thing.move")}
            </Link>
            <DeleteThing locationId={locationId} thing={thing} />
          </div>
          {data.canManage ? <SaveTemplate locationId={locationId} thing={thing} locations={accountLocations} /> : null}
        </>
      ) : (
        <p className="hint">{t("thing.viewerNote")}</p>
      )}
      <History thingId={thing.id} version={thing.rowVersion} canEdit={data.canEdit} />
    </>,
  );
}
