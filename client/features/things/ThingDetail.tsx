/**
 * One thing: what it is and where, editing (an op with the rowVersion seen, so a concurrent edit
 * of the same field becomes a sync_drop instead of silently winning), moving, deleting, its photos
 * (../photos/ThingPhotos.tsx), and its history with undo (history needs the network).
 */
import { useMemo, type ReactNode } from "react";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import type { FileChoice } from "../types/FieldOne.js";
import { ContainerContents } from "./ContainerContents.js";
import { ThingMeters } from "../meters/MeterList.js";
import { ThingLoan } from "../loans/ThingLoan.js";
import { DeleteThing } from "./DeleteThing.js";
import { ThingPhotos } from "../photos/ThingPhotos.js";
import { History } from "./ThingHistory.js";
import { ThingCodeAndChecks } from "./ThingCodeAndChecks.js";
import { ThingEditForm } from "./ThingEditForm.js";
import { ThingFacts } from "./ThingFacts.js";
import { ThingExtraction } from "../extraction/ThingExtraction.js";
import { SaveTemplate } from "./SaveTemplate.js";
import { ThingTags } from "./ThingTags.js";
import { Shell } from "../../ui/Shell.js";
import { ShareLinks } from "../share/ShareLink.js";
import { effectiveFields, useRegistries } from "../../ui/registries.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { thingName, wherePath } from "../../ui/names.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

/** The thing's photos (every device sees them: ../photos/ThingPhotos.tsx), which a file field may name. */
function thingFiles(thing: { photoFileIds?: string[] } | undefined, t: ReturnType<typeof useI18n>["t"]): FileChoice[] {
  return (thing?.photoFileIds ?? []).map((id, i) => ({ id, label: `${t("thing.photos")} ${i + 1}` }));
}

export function ThingDetailScreen({ locationId, thingId }: { locationId: string; thingId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const reg = useRegistries(db, locationId);
  const locations = useLive(() => db.locations.toArray(), [db]);
  const thing = data?.things.find((th) => th.id === thingId);
  const files = thingFiles(thing, t);

  const where = useMemo(() => {
    if (!data || !thing) return "";
    return wherePath(thing, new Map(data.places.map((p) => [p.id, p])), new Map(data.things.map((th) => [th.id, th])), t, true);
  }, [data, thing, t]);

  if (!data || !reg) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const shell = (body: ReactNode) => (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={data.inbox.length}>
      {body}
    </Shell>
  );
  if (!thing) return shell(<p>{t("thing.notFound")}</p>);
  const type = data.types.find((ty) => ty.id === thing.typeId);
  const accountLocations = (locations ?? []).filter((l) => l.accountId === data.location?.accountId && !l.deletedAt);

  return shell(
    <>
      <h1>{thingName(thing, t)}</h1>
      {thing.pending ? <p className="pending">{t("common.notSynced")}</p> : null}
      <ThingFacts thing={thing} type={type} reg={reg} where={where} files={files} />
      <ContainerContents locationId={locationId} container={thing} things={data.things} types={data.types} />
      <ThingExtraction
        thing={thing}
        defs={effectiveFields(thing.typeId, reg.typesById, reg.fields, true).map((e) => e.field)}
        canEdit={data.canEdit}
        extraction={data.inbox.find((i) => i.thingId === thing.id && i.payload.extraction)?.payload.extraction}
      />
      <ThingCodeAndChecks locationId={locationId} thing={thing} canEdit={data.canEdit} />
      <ThingPhotos thing={thing} role={data.role} />
      <ThingMeters locationId={locationId} thingId={thing.id} canEdit={data.canEdit} />
      <ThingLoan locationId={locationId} thing={thing} canEdit={data.canEdit} places={data.places} things={data.things} />
      <ThingTags locationId={locationId} thing={thing} tags={reg.tags} canEdit={data.canEdit} />
      <ShareLinks locationId={locationId} scope="thing" targetId={thing.id} canShare={data.canEdit} />
      {data.canEdit ? (
        <>
          <ThingEditForm locationId={locationId} thing={thing} types={data.types} reg={reg} files={files} />
          <div className="actions">
            <Link to={paths.moveThing({ locationId, thingId: thing.id })} className="button">
              {t("thing.move")}
            </Link>
            <DeleteThing locationId={locationId} thing={thing} />
          </div>
          {data.canManage ? <SaveTemplate locationId={locationId} thing={thing} locations={accountLocations} /> : null}
        </>
      ) : (
        <p className="hint">{t("thing.viewerNote")}</p>
      )}
      <History thingId={thing.id} version={thing.rowVersion} canEdit={data.canEdit} />
    </>,
  );
}
