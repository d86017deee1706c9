/** A link to the Admin screen, shown only to instance admins (the server answers /admin/settings to them alone). */
import { useEffect, useState } from "react";
import { api } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";

export function AdminLink() {
  const { t } = useI18n();
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    let live = true;
    // 403 for everyone else, and offline there is nothing to administer: no link either way.
    void api("GET", "/api/v1/admin/settings").then(
      () => live && setAdmin(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return admin ? (
    <p>
      <Link to={paths.admin()}>{t("admin.link")}</Link>
    </p>
  ) : null;
}
