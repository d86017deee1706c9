/**
 * One type's panel on the types screen: what it is, its rename, parent and archive controls for
 * those who manage the registries, and its fields.
 */
import type { TypeRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { typeName } from "../../ui/names.js";
import { effectiveFields, type Registries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { baseOf } from "./field-rules.js";
import { FieldEditor, type ListedField } from "./FieldEditor.js";
import { NameForm } from "./NameForm.js";

interface Props {
  ty: View<TypeRow>;
  reg: Registries;
  /** The active types, sorted by name: the parents to choose from. */
  active: View<TypeRow>[];
  locationId: string;
  canManage: boolean;
  isOwner: boolean;
  onNote: (note: string) => void;
}

export function TypePanel({ ty, reg, active, locationId, canManage, isOwner, onNote }: Props) {
  const { t } = useI18n();
  const { db } = useReady();
  const name = typeName(ty, t);
  const listed: ListedField[] = effectiveFields(ty.id, reg.typesById, reg.fields).map((e) => ({
    field: e.field,
    via: e.via,
    ...(e.via !== "own" ? { from: typeName(reg.typesById.get(e.sourceId), t) } : {}),
  }));
  const archivedOwn = reg.fields.filter((f) => f.typeId === ty.id && f.archivedAt);
  // Not itself, nor a type below it (no loops), nor a group.
  const below = new Set([ty.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const o of reg.types)
      if (o.parentId && below.has(o.parentId) && !below.has(o.id)) {
        below.add(o.id);
        grew = true;
      }
  }
  const parents = active.filter((o) => !below.has(o.id) && !o.isGroup);
  const update = (patch: { name?: string; parentId?: string | null; archived?: boolean }, done: string) =>
    void enqueueRegistry(db, { name: "type.update", locationId, args: { id: ty.id, patch }, ...baseOf(ty) }).then(() => onNote(done));
  return (
    <section className="panel stack" aria-label={name}>
      <h2>
        {name} {ty.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
      </h2>
      <p className="meta">
        {[
          ty.builtinKey ? t("types.builtin") : null,
          ty.isGroup ? t("types.group") : null,
          ty.parentId ? t("types.parentIs", { name: typeName(reg.typesById.get(ty.parentId), t) }) : null,
          ty.groupIds.length ? t("types.inGroups", { names: ty.groupIds.map((g) => typeName(reg.typesById.get(g), t)).join(", ") }) : null,
          ty.archivedAt ? t("types.archivedMark") : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
      {canManage ? (
        <>
          {!ty.builtinKey ? (
            <NameForm
              key={`n-${ty.id}`}
              label={t("types.newName")}
              button={t("places.rename")}
              initial={ty.name ?? ""}
              onSubmit={(n) => update({ name: n }, t("thing.saved"))}
            />
          ) : null}
          {!ty.isGroup ? (
            <form
              className="row-form"
              onSubmit={(e) => {
                e.preventDefault();
                const value = new FormData(e.currentTarget).get("parent") as string;
                if (value === (ty.parentId ?? "")) return;
                update({ parentId: value || null }, t("thing.saved"));
              }}
            >
              <label>
                {t("types.parent")}
                <select name="parent" aria-label={t("types.parent")} defaultValue={ty.parentId ?? ""} key={`p-${ty.id}-${ty.parentId ?? ""}`}>
                  <option value="">{t("types.noParent")}</option>
                  {parents.map((p) => (
                    <option key={p.id} value={p.id}>
                      {typeName(p, t)}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit">{t("common.save")}</button>
            </form>
          ) : null}
          <div className="actions">
            {ty.archivedAt ? (
              <button type="button" onClick={() => update({ archived: false }, t("types.restored", { name }))}>
                {t("types.restore")}
              </button>
            ) : (
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (!window.confirm(t("types.archiveConfirm", { name }))) return;
                  update({ archived: true }, t("types.archived", { name }));
                }}
              >
                {t("types.archive")}
              </button>
            )}
          </div>
        </>
      ) : null}
      <FieldEditor locationId={locationId} owner={{ typeId: ty.id }} fields={listed} archived={archivedOwn} canManage={canManage} isOwner={isOwner} />
    </section>
  );
}
