/**
 * What a container holds, on its page: the things directly in it, by name, each a link (a box in
 * the box opens its own page with its own contents). Read from the location's things this device
 * sees, waiting ops included, so it is current offline.
 */
import type { ThingRow, TypeRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName, typeName } from "../../ui/names.js";
import { Link } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";

export function ContainerContents({
  locationId,
  container,
  things,
  types,
}: {
  locationId: string;
  container: ThingRow;
  things: View<ThingRow>[];
  types: TypeRow[];
}) {
  const { t } = useI18n();
  const inside = things.filter((th) => th.containerId === container.id).sort((a, b) => thingName(a, t).localeCompare(thingName(b, t)));
  // A thing that is not a container shows nothing, unless something still sits in it.
  if (!container.isContainer && !inside.length) return null;
  const typeOf = new Map(types.map((ty) => [ty.id, ty]));
  return (
    <section aria-labelledby={`contents-${container.id}`}>
      <h2 id={`contents-${container.id}`}>{t("contents.title")}</h2>
      {inside.length ? (
        <ul className="list" aria-label={t("contents.title")}>
          {inside.map((th) => (
            <li key={th.id}>
              <Link to={paths.thing({ locationId, thingId: th.id })}>
                <strong>{thingName(th, t)}</strong>
                <span className="meta">{typeName(th.typeId ? typeOf.get(th.typeId) : undefined, t)}</span>
                {th.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="meta">{t("contents.empty")}</p>
      )}
    </section>
  );
}
