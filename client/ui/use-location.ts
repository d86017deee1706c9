/** What every screen of one location needs: its data, whether the person may write, and the db. */
import { roleAtLeast } from "../../shared/roles.js";
import { useLocationData, type LocationData } from "./data.js";
import { useReady } from "./session.js";

export function useLocationScreen(locationId: string): (LocationData & { canEdit: boolean; canManage: boolean }) | undefined {
  const { db, user } = useReady();
  const data = useLocationData(db, user.id, locationId);
  if (!data) return undefined;
  return { ...data, canEdit: !!data.role && roleAtLeast(data.role, "member"), canManage: !!data.role && roleAtLeast(data.role, "admin") };
}
