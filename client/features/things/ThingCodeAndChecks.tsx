/** On a thing's page: its short code as printed on labels, when it was last seen, and for a box, its check. */
import { formatCode } from "../../../shared/codes.js";
import type { ThingRow } from "../../db/rows.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { SeenState } from "../box-checks/BoxFinding.js";
import { paths } from "../../ui/routes.js";

export function ThingCodeAndChecks({ locationId, thing, canEdit }: { locationId: string; thing: ThingRow; canEdit: boolean }) {
  const { t } = useI18n();
  return (
    <section className="code-and-checks" aria-label={t("code.section")}>
      <dl className="facts">
        <dt>{t("code.label")}</dt>
        <dd className="code">{thing.shortCode ? formatCode(thing.shortCode) : <span className="meta">{t("code.afterSync")}</span>}</dd>
        <dt>{t("check.seenTitle")}</dt>
        <dd>
          <SeenState thing={thing} bare />
        </dd>
      </dl>
      {thing.isContainer && canEdit ? (
        <div className="actions">
          <Link to={paths.boxCheck({ locationId, thingId: thing.id })} className="button">
            {t("check.start")}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
