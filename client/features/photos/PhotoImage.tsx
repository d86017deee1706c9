/**
 * One photo by its file id, from wherever it is nearest (../photos.ts): a thumbnail in lists and
 * the inbox, full size where a person opened it. A thumbnail is only looked for once its row comes
 * near the screen, so a long list does not fetch every photo at once. While it loads, or with no
 * network and no kept copy, a quiet placeholder of the same size takes its place, never a broken image.
 */
import { useEffect, useRef, useState } from "react";
import type { PhotoSize } from "../../db/photo-cache.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { usePhoto } from "../../ui/photos.js";
import "./photos.css";

export function PhotoImage({
  fileId,
  size,
  alt,
  className = "thumb",
}: {
  fileId: string | null | undefined;
  size: PhotoSize;
  alt: string;
  className?: string;
}) {
  const { t } = useI18n();
  const [near, setNear] = useState(size === "full");
  const placeholder = useRef<HTMLSpanElement>(null);
  const photo = usePhoto(fileId, size, near);
  useEffect(() => {
    const el = placeholder.current;
    if (near || !el) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: "300px" });
    seen.observe(el);
    return () => seen.disconnect();
  }, [near, fileId]);
  // A thing with no photo has no thumbnail from the first paint: a placeholder drawn and then taken
  // away would shift its row's text sideways (layout shift, issue #33).
  if (!fileId && size === "thumb") return null;
  if (photo.state === "shown") return <img className={className} src={photo.src} alt={alt} data-file-id={fileId ?? undefined} />;
  if (photo.state === "missing" && size === "thumb") return null;
  return (
    <span ref={placeholder} className={`${className} photo-placeholder`} aria-hidden={size === "thumb" || undefined}>
      {size === "full" && photo.state === "unavailable" ? t("photos.unavailable") : null}
    </span>
  );
}
