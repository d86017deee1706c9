/**
 * What the share parts read from and ask of the server (a target's share links, making and
 * revoking one, the public page a link opens): the screens and parts call these, never the API
 * themselves.
 */
import { useCallback, useEffect, useState } from "react";
import type { ShareLink, ShareLinkCreated, ShareLinkPreview, ShareScope } from "../../../shared/share-links.js";
import { api, apiAll, ApiError, request } from "../../sync/api.js";

/** A target's live share links of the location, read when `enabled`; null when they could not be read. reload() after a change. */
export function useShareLinks(locationId: string, targetId: string, enabled: boolean) {
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const reload = useCallback(async () => {
    try {
      const list = await apiAll<ShareLink>(`/api/v1/locations/${locationId}/share-links`);
      setLinks(list.filter((l) => l.targetId === targetId));
    } catch {
      setLinks(null);
    }
  }, [locationId, targetId]);
  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);
  return { links, reload };
}

/** The server makes the token and answers the link's address once. */
export const createShareLink = (body: { scope: ShareScope; targetId: string; title?: string }) => api<ShareLinkCreated>("POST", "/api/v1/share-links", body);

export const revokeShareLink = (linkId: string) => api("DELETE", `/api/v1/share-links/${linkId}`);

/** One page of a share link's public view: the token goes in X-Share-Token only, and no session is sent. */
async function fetchPreview(id: string, token: string, page: number): Promise<ShareLinkPreview> {
  const res = await request("GET", `/api/v1/share-links/${encodeURIComponent(id)}/preview?page=${page}`, undefined, {
    headers: { accept: "application/json", "x-share-token": token },
    credentials: "omit",
  });
  return (await res.json()) as ShareLinkPreview;
}

export type PreviewState = { kind: "loading" } | { kind: "unavailable" } | { kind: "offline" } | { kind: "ready"; preview: ShareLinkPreview };

/** What a share link shows, its first page read at once; more() appends the next page. */
export function useSharePreview(id: string, token: string) {
  const [state, setState] = useState<PreviewState>({ kind: "loading" });
  const [loadingMore, setLoadingMore] = useState(false);
  const failed = (err: unknown) => setState(err instanceof ApiError && err.offline ? { kind: "offline" } : { kind: "unavailable" });

  useEffect(() => {
    let live = true;
    fetchPreview(id, token, 1).then(
      (preview) => live && setState({ kind: "ready", preview }),
      (err: unknown) => live && failed(err),
    );
    return () => {
      live = false;
    };
  }, [id, token]);

  const more = useCallback(async () => {
    if (state.kind !== "ready" || state.preview.nextPage === null) return;
    setLoadingMore(true);
    try {
      const next = await fetchPreview(id, token, state.preview.nextPage);
      setState({ kind: "ready", preview: { ...next, items: [...state.preview.items, ...next.items] } });
    } catch (err) {
      failed(err);
    } finally {
      setLoadingMore(false);
    }
  }, [id, token, state]);
  return { state, more, loadingMore };
}
