/**
 * The Share part of a thing's or a place's page: makes a share link (online only: the server makes
 * the token and shows it once), shows it with a Copy button and a QR code, and lists this target's
 * live links of the location with a Revoke button where the person may revoke.
 */
import QRCode from "qrcode";
import { useState } from "react";
import type { ShareScope } from "../../../shared/share-links.js";
import { ApiError } from "../../sync/api.js";
import { useOnline } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { createShareLink, revokeShareLink, useShareLinks } from "./hooks.js";
import { LinkItem, MadeLink, type Made } from "./ShareLinkParts.js";

export function ShareLinks(props: { locationId: string; scope: Exclude<ShareScope, "view">; targetId: string; canShare: boolean }) {
  const { locationId, scope, targetId, canShare } = props;
  const { t } = useI18n();
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<Made | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { links, reload: load } = useShareLinks(locationId, targetId, open && online);

  if (!canShare) return null;

  const create = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const res = await createShareLink({ scope, targetId, ...(title.trim() ? { title: title.trim() } : {}) });
      const qr = await QRCode.toDataURL(res.url, { margin: 1, width: 360, errorCorrectionLevel: "M" });
      setMade({ url: res.url, qr });
      setTitle("");
      await load();
    } catch (err) {
      setError(t("share.failed", { message: err instanceof ApiError ? err.message : String(err) }));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: string) => {
    setError(null);
    try {
      await revokeShareLink(id);
      setNote(t("share.revoked"));
      setMade(null);
      await load();
    } catch (err) {
      setError(t("share.failed", { message: err instanceof ApiError ? err.message : String(err) }));
    }
  };

  return (
    <section aria-label={t("share.title")} className="share">
      <p className="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t("share.button")}
        </button>
      </p>
      {open ? (
        <div className="stack">
          <h2>{t("share.title")}</h2>
          {!online ? (
            <Notice>{t("share.offline")}</Notice>
          ) : (
            <form
              className="stack"
              onSubmit={(e) => {
                e.preventDefault();
                void create();
              }}
            >
              <label>
                {t("share.linkTitle")}
                <input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
              </label>
              <button type="submit" disabled={busy}>
                {busy ? t("share.creating") : t("share.create")}
              </button>
            </form>
          )}
          <Notice kind="error">{error}</Notice>
          <Notice>{note}</Notice>
          {made ? <MadeLink made={made} /> : null}
          {links && online ? (
            links.length ? (
              <ul className="share-links">
                {links.map((l) => (
                  <LinkItem key={l.id} link={l} onRevoke={(id) => void revoke(id)} />
                ))}
              </ul>
            ) : (
              <p className="meta">{t("share.none")}</p>
            )
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
