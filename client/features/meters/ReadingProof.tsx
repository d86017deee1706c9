/**
 * A reading's photo proof: its thumbnail from wherever it is nearest (../photos.ts: the photo
 * this device took, a copy kept from an earlier visit, else the server's thumbnail: it is shown
 * 64 px wide, so the original is never fetched for it), or a proof URL the server gave. With no
 * network and no copy the row goes without it rather than show a broken image.
 */
import { useState } from "react";
import { usePhoto } from "../../ui/photos.js";

const style = { objectFit: "cover", borderRadius: "0.25rem", flex: "none" } as const;

export function ReadingProof({ fileId, url, alt }: { fileId: string | null; url?: string | null; alt: string }) {
  const photo = usePhoto(fileId, "thumb");
  const [broken, setBroken] = useState(false);
  const src = fileId ? photo.src : (url ?? null);
  if (!src || broken) return null;
  return <img className="proof" src={src} alt={alt} width={64} height={64} loading="lazy" onError={() => setBroken(true)} style={style} />;
}
