/** A link to the Admin screen, shown only to instance admins (the server answers /admin/settings to them alone). */
import { useI18n } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";
import { useIsInstanceAdmin } from "./hooks.js";

export function AdminLink() {
  const { t } = useI18n();
  // 403 for everyone else, and offline there is nothing to administer: no link either way.
  const admin = useIsInstanceAdmin();
  return admin ? (
    <p>
      <Link to={paths.admin()}>{t("admin.link")}</Link>
    </p>
  ) : null;
}
