/**
 * The Share part of a thing's or a place's page: makes a share link (online only: the server makes
 * the token and shows it once), shows it with a Copy button and a QR code, and lists this target's
 * live links of the location with a Revoke button where the person may revoke.
 */
import QRCode from "qrcode";
import { useCallback, useEffect, useState } from "react";
import type { ShareLink, ShareLinkCreated, ShareScope } from "../../../shared/share-links.js";
import { api, apiAll, ApiError } from "../../sync/api.js";
import { useOnline } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";

interface Made {
  url: string;
  qr: string;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function MadeLink({ made }: { made: Made }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="stack share-made">
      <p>{t("share.made")}</p>
      <input className="share-url" readOnly value={made.url} aria-label={t("share.title")} dir="ltr" onFocus={(e) => e.currentTarget.select()} />
      <p className="actions">
        <button type="button" onClick={() => void copyText(made.url).then(setCopied)}>
          {copied ? t("share.copied") : t("share.copy")}
        </button>
      </p>
      <img className="share-qr" src={made.qr} alt={t("share.qr")} width={180} height={180} />
    </div>
  );
}

function LinkItem({ link, onRevoke }: { link: ShareLink; onRevoke: (id: string) => void }) {
  const { t, dateTime } = useI18n();
  return (
    <li className="share-link">
      <span>
        <strong>{link.title ?? t(`share.scope.${link.scope}`)}</strong>{" "}
        <span className="meta">
          {t("share.expires", { date: dateTime(link.expiresAt) })}
          {link.createdBy ? ` · ${t("share.by", { name: link.createdBy.displayName })}` : ""}
        </span>
      </span>
      {link.canRevoke ? (
        <button type="button" onClick={() => onRevoke(link.id)}>
          {t("share.revoke")}
        </button>
      ) : null}
    </li>
  );
}

export function ShareLinks(props: { locationId: string; scope: Exclude<ShareScope, "view">; targetId: string; canShare: boolean }) {
  const { locationId, scope, targetId, canShare } = props;
  const { t } = useI18n();
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<Made | null>(null);
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await apiAll<ShareLink>(`/api/v1/locations/${locationId}/share-links`);
      setLinks(list.filter((l) => l.targetId === targetId));
    } catch {
      setLinks(null);
    }
  }, [locationId, targetId]);

  useEffect(() => {
    if (open && online) void load();
  }, [open, online, load]);

  if (!canShare) return null;

  const create = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const res = await api<ShareLinkCreated>("POST", "/api/v1/share-links", { scope, targetId, ...(title.trim() ? { title: title.trim() } : {}) });
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
      await api("DELETE", `/api/v1/share-links/${id}`);
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
