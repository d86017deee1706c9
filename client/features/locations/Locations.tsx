/** Choose a location (every location whose shape has arrived, with the person's role there), or create one. */
import { useEffect } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useLive, useSyncStatus } from "../../ui/data.js";
import { FirstSyncProgress } from "../../ui/FirstSync.js";
import { LocationTrash } from "./LocationTrash.js";
import { NewLocation } from "./NewLocation.js";
import { Shell } from "../../ui/Shell.js";
import { Link, navigate } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { paths } from "../../ui/routes.js";

function useMyLocations() {
  const { db, user } = useReady();
  return useLive(async () => {
    const [locations, memberships] = await Promise.all([db.locations.toArray(), db.memberships.toArray()]);
    const role = new Map(memberships.filter((m) => m.userId === user.id).map((m) => [m.locationId, m.role]));
    return locations
      .filter((l) => role.has(l.id))
      .map((l) => ({ ...l, role: role.get(l.id)! }))
      .sort((a, b) => Number(b.isPersonal) - Number(a.isPersonal) || a.name.localeCompare(b.name));
  }, [db, user.id]);
}

export function LocationsScreen() {
  const { t } = useI18n();
  const locations = useMyLocations();
  return (
    <Shell>
      <h1>{t("locations.title")}</h1>
      <FirstSyncProgress />
      {locations?.length ? (
        <ul className="cards">
          {locations.map((l) => (
            <li key={l.id}>
              <Link to={paths.things({ locationId: l.id })}>
                <strong>{l.name}</strong>
                <span className="meta">{t("locations.role", { role: t(`role.${l.role}`) })}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("locations.none")}</p>
      )}
      <NewLocation />
      <LocationTrash />
    </Shell>
  );
}

/** `/`: straight into the only location, else the choice. */
export function HomeScreen() {
  const locations = useMyLocations();
  const { db } = useReady();
  const status = useSyncStatus(db);
  useEffect(() => {
    if (!locations) return;
    if (locations.length === 1) navigate(paths.things({ locationId: locations[0]!.id }), { replace: true });
    // A location counts once its membership has arrived too: with only the locations shape up to
    // date, a person with one location would land on the choice instead of their location.
    else if (locations.length > 1 || (status?.shapes.locations?.upToDate && status.shapes.memberships?.upToDate))
      navigate(paths.locations(), { replace: true });
  }, [locations, status]);
  return <LocationsScreen />;
}
