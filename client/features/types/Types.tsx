/**
 * The type and field editor, and the place-kind editor beside it: the owner account's registries,
 * shared by all its locations. Owners and admins create, rename, re-parent and archive types and
 * place kinds and manage their fields (secret fields: the owner only); everyone else sees the
 * list. Each change is an op in the outbox made through this location, so it works offline.
 */
import { useState, type ReactNode } from "react";
import { v7 as uuidv7 } from "uuid";
import type { PlaceKindRow, TypeRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { FieldEditor, type ListedField } from "./FieldEditor.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { navigate, useLocation } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { placeKindName, typeName } from "../../ui/names.js";
import { effectiveFields, placeKindFields, useRegistries } from "../../ui/registries.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { baseOf } from "./field-rules.js";

/** A name form: one input and one button (create or rename). */
function NameForm({ label, button, initial = "", onSubmit }: { label: string; button: string; initial?: string; onSubmit: (name: string) => void }) {
  const [name, setName] = useState(initial);
  return (
    <form
      className="row-form"
      onSubmit={(e) => {
        e.preventDefault();
        const n = name.trim();
        if (!n || n === initial) return;
        onSubmit(n);
        if (!initial) setName("");
      }}
    >
      <label>
        {label}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required />
      </label>
      <button type="submit">{button}</button>
    </form>
  );
}

export function TypesScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const reg = useRegistries(db, locationId);
  const { query, path } = useLocation();
  const [note, setNote] = useState<string | null>(null);
  const [icon, setIcon] = useState("");
  const [parentId, setParentId] = useState("");

  if (!data || !reg) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const canManage = data.canManage;
  const isOwner = data.role === "owner";
  const select = (param: "type" | "kind", id: string | null) => {
    const next = new URLSearchParams();
    if (id) next.set(param, id);
    const q = next.toString();
    navigate(`${path}${q ? `?${q}` : ""}`, { replace: true });
    setNote(null);
  };
  const byName = (a: View<TypeRow>, b: View<TypeRow>) => typeName(a, t).localeCompare(typeName(b, t));
  const active = reg.types.filter((ty) => !ty.archivedAt).sort(byName);
  const archivedTypes = reg.types.filter((ty) => ty.archivedAt).sort(byName);
  const kindName = (k: View<PlaceKindRow>) => placeKindName(k, t);
  const kinds = reg.placeKinds.filter((k) => !k.archivedAt).sort((a, b) => kindName(a).localeCompare(kindName(b)));
  const archivedKinds = reg.placeKinds.filter((k) => k.archivedAt);
  const type = reg.typesById.get(query.get("type") ?? "");
  const kind = reg.placeKinds.find((k) => k.id === query.get("kind"));

  const createType = (name: string) => {
    const id = uuidv7();
    void enqueueRegistry(db, {
      name: "type.create",
      locationId,
      args: { id, name, ...(icon.trim() ? { icon: icon.trim().slice(0, 40) } : {}), ...(parentId ? { parentId } : {}) },
    }).then(() => {
      setIcon("");
      setParentId("");
      select("type", id);
      setNote(t("types.created", { name }));
    });
  };

  const typePanel = (ty: View<TypeRow>): ReactNode => {
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
      void enqueueRegistry(db, { name: "type.update", locationId, args: { id: ty.id, patch }, ...baseOf(ty) }).then(() => setNote(done));
    return (
      <section className="panel stack" aria-label={name} key={ty.id}>
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
  };

  const kindPanel = (k: View<PlaceKindRow>): ReactNode => {
    const name = kindName(k);
    const update = (patch: { name?: string; archived?: boolean }, done: string) =>
      void enqueueRegistry(db, { name: "place_kind.update", locationId, args: { id: k.id, patch }, ...baseOf(k) }).then(() => setNote(done));
    return (
      <section className="panel stack" aria-label={name} key={k.id}>
        <h2>
          {name} {k.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
        </h2>
        {canManage ? (
          <>
            <NameForm
              key={`k-${k.id}`}
              label={t("types.newName")}
              button={t("places.rename")}
              initial={k.name ?? ""}
              onSubmit={(n) => update({ name: n }, t("thing.saved"))}
            />
            <div className="actions">
              <button type="button" className={k.archivedAt ? "" : "danger"} onClick={() => update({ archived: !k.archivedAt }, t("thing.saved"))}>
                {k.archivedAt ? t("types.restore") : t("types.archive")}
              </button>
            </div>
          </>
        ) : null}
        <FieldEditor
          locationId={locationId}
          owner={{ placeKindId: k.id }}
          fields={placeKindFields(k.id, reg.fields).map((f) => ({ field: f, via: "own" as const }))}
          archived={placeKindFields(k.id, reg.fields, true).filter((f) => f.archivedAt)}
          canManage={canManage}
          isOwner={isOwner}
        />
      </section>
    );
  };

  const fieldCount = (typeId: string) => effectiveFields(typeId, reg.typesById, reg.fields).length;

  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      <h1>{t("types.title")}</h1>
      <p className="hint">{canManage ? t("types.help") : t("types.readOnly")}</p>
      <Notice>{note}</Notice>

      <h2>{t("types.types")}</h2>
      <ul className="list pick-list" aria-label={t("types.types")}>
        {active.map((ty) => (
          <li key={ty.id}>
            <button
              type="button"
              className="pick"
              aria-current={type?.id === ty.id ? "true" : undefined}
              onClick={() => select("type", type?.id === ty.id ? null : ty.id)}
            >
              <strong>{typeName(ty, t)}</strong>
              <span className="meta">{t("types.fieldCount", { count: fieldCount(ty.id) })}</span>
              {ty.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {archivedTypes.length ? (
        <details>
          <summary>{t("types.archivedList", { count: archivedTypes.length })}</summary>
          <ul className="list pick-list">
            {archivedTypes.map((ty) => (
              <li key={ty.id}>
                <button type="button" className="pick" onClick={() => select("type", ty.id)}>
                  {typeName(ty, t)}
                </button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {type ? typePanel(type) : null}
      {canManage ? (
        <section className="stack inline" aria-label={t("types.create")}>
          <h3>{t("types.create")}</h3>
          <NameForm label={t("types.name")} button={t("types.createButton")} onSubmit={createType} />
          <label>
            {t("types.icon")}
            <input value={icon} onChange={(e) => setIcon(e.target.value)} maxLength={40} placeholder="🔧" />
          </label>
          <label>
            {t("types.parent")}
            <select aria-label={t("types.newParent")} value={parentId} onChange={(e) => setParentId(e.target.value)}>
              <option value="">{t("types.noParent")}</option>
              {active
                .filter((ty) => !ty.isGroup)
                .map((ty) => (
                  <option key={ty.id} value={ty.id}>
                    {typeName(ty, t)}
                  </option>
                ))}
            </select>
          </label>
        </section>
      ) : null}

      <h2>{t("kinds.title")}</h2>
      {kinds.length ? (
        <ul className="list pick-list" aria-label={t("kinds.title")}>
          {kinds.map((k) => (
            <li key={k.id}>
              <button
                type="button"
                className="pick"
                aria-current={kind?.id === k.id ? "true" : undefined}
                onClick={() => select("kind", kind?.id === k.id ? null : k.id)}
              >
                <strong>{kindName(k)}</strong>
                <span className="meta">{t("types.fieldCount", { count: placeKindFields(k.id, reg.fields).length })}</span>
                {k.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t("kinds.none")}</p>
      )}
      {archivedKinds.length ? <p className="meta">{t("types.archivedList", { count: archivedKinds.length })}</p> : null}
      {kind ? kindPanel(kind) : null}
      {canManage ? (
        <section className="stack inline" aria-label={t("kinds.create")}>
          <h3>{t("kinds.create")}</h3>
          <NameForm
            label={t("kinds.name")}
            button={t("kinds.createButton")}
            onSubmit={(name) => {
              const id = uuidv7();
              void enqueueRegistry(db, { name: "place_kind.create", locationId, args: { id, name } }).then(() => {
                select("kind", id);
                setNote(t("types.created", { name }));
              });
            }}
          />
        </section>
      ) : null}
    </Shell>
  );
}
