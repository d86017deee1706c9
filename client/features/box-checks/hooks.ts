/**
 * What the box check screen reads from the server (who made each check): the screens and parts
 * call these, never the API themselves. The checks themselves are synced data, read from Dexie.
 */
import { useEffect, useState } from "react";
import type { BoxCheck } from "../../../shared/box-checks.js";
import { api } from "../../sync/api.js";

/**
 * Who made each of a box's last `limit` checks, by check id (the server's list names people; the
 * device's rows only hold ids); asked again when `known` (how many checks have synced) changes.
 * Empty while offline.
 */
export function useCheckers(boxId: string, known: number, limit: number): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  useEffect(() => {
    let live = true;
    api<{ items: BoxCheck[] }>("GET", `/api/v1/things/${boxId}/box-checks?limit=${limit}`).then(
      (r) => live && setNames(new Map(r.items.map((c) => [c.id, c.by.displayName]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [boxId, known]);
  return names;
}
