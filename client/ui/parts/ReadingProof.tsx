/**
 * A reading's photo proof: the photo this device took (db.blobs, so it shows with no network and
 * before its upload), or the server's thumbnail of a proof taken elsewhere (it is shown 64 px wide,
 * so the original is never fetched for it).
 */
import { useEffect, useState } from "react";
import { thumbUrl } from "../../../shared/files.js";
import { useLive } from "../data.js";
import { useReady } from "../session.js";

export function ReadingProof({ fileId, url, alt }: { fileId: string | null; url?: string | null; alt: string }) {
  const { db } = useReady();
  const blob = useLive(async () => (fileId ? ((await db.blobs.get(fileId)) ?? null) : null), [db, fileId]);
  const [local, setLocal] = useState<string | null>(null);
  // A proof from the server does not load with no network: leave the row without it rather than show a broken image.
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    if (!blob) return setLocal(null);
    const made = URL.createObjectURL(blob.blob);
    setLocal(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  // Wait for the device's answer (and its copy's URL) first: a proof taken here must not ask the server.
  if (blob === undefined || (blob && !local) || (!fileId && !url)) return null;
  const src = local ?? url ?? (fileId ? thumbUrl(fileId) : null);
  if (!src || (broken && !local)) return null;
  return (
    <img
      className="proof"
      src={src}
      alt={alt}
      width={64}
      height={64}
      loading="lazy"
      onError={() => setBroken(true)}
      style={{ objectFit: "cover", borderRadius: "0.25rem", flex: "none" }}
    />
  );
}
