/**
 * The place-kind half of the types screen: the kinds, the chosen kind's panel (rename, archive, its
 * fields) and the create form. Place kinds have no parents or groups, so this half is simpler.
 */
import { v7 as uuidv7 } from "uuid";
import type { PlaceKindRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { placeKindName } from "../../ui/names.js";
import { placeKindFields, type Registries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { baseOf } from "./field-rules.js";
import { FieldEditor } from "./FieldEditor.js";
import { NameForm } from "./NameForm.js";

interface Props {
  reg: Registries;
  locationId: string;
  canManage: boolean;
  isOwner: boolean;
  /** The kind chosen in the address (?kind=), if any. */
  kindId: string | null;
  onSelect: (id: string | null) => void;
  onNote: (note: string) => void;
}

function KindPanel({ k, reg, locationId, canManage, isOwner, onNote }: Omit<Props, "kindId" | "onSelect"> & { k: View<PlaceKindRow> }) {
  const { t } = useI18n();
  const { db } = useReady();
  const name = placeKindName(k, t);
  const update = (patch: { name?: string; archived?: boolean }, done: string) =>
    void enqueueRegistry(db, { name: "place_kind.update", locationId, args: { id: k.id, patch }, ...baseOf(k) }).then(() => onNote(done));
  return (
    <section className="panel stack" aria-label={name}>
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
}

export function PlaceKinds(props: Props) {
  const { reg, locationId, canManage, kindId, onSelect, onNote } = props;
  const { t } = useI18n();
  const { db } = useReady();
  const kindName = (k: View<PlaceKindRow>) => placeKindName(k, t);
  const kinds = reg.placeKinds.filter((k) => !k.archivedAt).sort((a, b) => kindName(a).localeCompare(kindName(b)));
  const archivedKinds = reg.placeKinds.filter((k) => k.archivedAt);
  const kind = reg.placeKinds.find((k) => k.id === kindId);
  return (
    <>
      <h2>{t("kinds.title")}</h2>
      {kinds.length ? (
        <ul className="list pick-list" aria-label={t("kinds.title")}>
          {kinds.map((k) => (
            <li key={k.id}>
              <button
                type="button"
                className="pick"
                aria-current={kind?.id === k.id ? "true" : undefined}
                onClick={() => onSelect(kind?.id === k.id ? null : k.id)}
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
      {kind ? <KindPanel key={kind.id} {...props} k={kind} /> : null}
      {canManage ? (
        <section className="stack inline" aria-label={t("kinds.create")}>
          <h3>{t("kinds.create")}</h3>
          <NameForm
            label={t("kinds.name")}
            button={t("kinds.createButton")}
            onSubmit={(name) => {
              const id = uuidv7();
              void enqueueRegistry(db, { name: "place_kind.create", locationId, args: { id, name } }).then(() => {
                onSelect(id);
                onNote(t("types.created", { name }));
              });
            }}
          />
        </section>
      ) : null}
    </>
  );
}
