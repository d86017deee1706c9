/**
 * Names a person field suggests: the location's members. The list needs the network; the last one
 * fetched is kept on the device (meta) so the suggestions work offline too.
 */
import { useEffect, useState } from "react";
import type { Member } from "../../shared/members.js";
import { getMeta, setMeta, type InventoryDb } from "../db/database.js";
import { apiAll } from "../sync/api.js";

const key = (locationId: string) => `members:${locationId}`;

export function usePeople(db: InventoryDb, locationId: string): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void getMeta<string[]>(db, key(locationId)).then((kept) => live && kept && setNames(kept));
    apiAll<Member>(`/api/v1/locations/${locationId}/members?limit=200`).then(
      (all) => {
        const list = [...new Set(all.map((m) => m.displayName))].sort((a, b) => a.localeCompare(b));
        if (live) setNames(list);
        void setMeta(db, key(locationId), list);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [db, locationId]);
  return names;
}
