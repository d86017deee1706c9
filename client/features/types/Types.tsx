/**
 * The type and field editor, and the place-kind editor beside it: the owner account's registries,
 * shared by all its locations. Owners and admins create, rename, re-parent and archive types and
 * place kinds and manage their fields (secret fields: the owner only); everyone else sees the
 * list. Each change is an op in the outbox made through this location, so it works offline.
 */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import type { TypeRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { Shell } from "../../ui/Shell.js";
import { navigate, useLocation } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { typeName } from "../../ui/names.js";
import { effectiveFields, useRegistries } from "../../ui/registries.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { NameForm } from "./NameForm.js";
import { PlaceKinds } from "./PlaceKinds.js";
import { TypePanel } from "./TypePanel.js";

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
  const type = reg.typesById.get(query.get("type") ?? "");

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
      {type ? (
        <TypePanel key={type.id} ty={type} reg={reg} active={active} locationId={locationId} canManage={canManage} isOwner={isOwner} onNote={setNote} />
      ) : null}
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

      <PlaceKinds
        reg={reg}
        locationId={locationId}
        canManage={canManage}
        isOwner={isOwner}
        kindId={query.get("kind")}
        onSelect={(id) => select("kind", id)}
        onNote={setNote}
      />
    </Shell>
  );
}
