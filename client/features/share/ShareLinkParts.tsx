/** A share link just made (its address with Copy, and a QR code), and one live link of the list with Revoke. */
import { useState } from "react";
import type { ShareLink } from "../../../shared/share-links.js";
import { useI18n } from "../../ui/i18n/i18n.js";

export interface Made {
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

export function MadeLink({ made }: { made: Made }) {
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

export function LinkItem({ link, onRevoke }: { link: ShareLink; onRevoke: (id: string) => void }) {
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
