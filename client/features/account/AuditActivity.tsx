/**
 * Activity: the audit entries of the reader's account (Settings → Security) or of a location (its
 * settings, owners and admins), newest first, one line each in words with the date in the
 * reader's language, and "More" while the server has older ones. Audit entries live only on the
 * server: offline, the nearest OnlineOnly says so and this loads again when the connection is back.
 */
import { useState } from "react";
import { auditLine } from "../../ui/audit-line.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { useAudit } from "./hooks.js";

/** `path`: /api/v1/me/audit or /api/v1/locations/{id}/audit. */
export function AuditActivity({ path, intro }: { path: string; intro: string }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="audit-h" data-audit="">
      <h2 id="audit-h">{t("audit.title")}</h2>
      <p className="hint">{intro}</p>
      <OnlineOnly>
        <Entries path={path} />
      </OnlineOnly>
    </section>
  );
}

function Entries({ path }: { path: string }) {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const [busy, setBusy] = useState(false);
  const audit = useAudit(path);
  const { items, error, fail } = audit;
  const more = () => {
    setBusy(true);
    void audit
      .more()
      .catch(fail)
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Notice kind="error">{error}</Notice>
      {items ? (
        <>
          {items.length === 0 ? <p className="hint">{t("audit.none")}</p> : null}
          <ol className="list audit">
            {items.map((e) => (
              <li key={e.id} data-audit-action={e.action}>
                <span className="audit-line">{auditLine(i18n, e)}</span>
                <time className="meta" dateTime={e.at}>
                  {dateTime(e.at)}
                </time>
              </li>
            ))}
          </ol>
          {audit.hasMore ? (
            <button type="button" disabled={busy} onClick={more}>
              {t("audit.more")}
            </button>
          ) : null}
        </>
      ) : null}
    </>
  );
}
