/**
 * What a notification says, in the subscriber's language (the app's, given when it subscribed).
 * The text is end-to-end encrypted to the device, so an item's name may ride along.
 */
import type { PushLang, PushMessage } from "../../../shared/push.js";

const inboxPath = (locationId: string, itemId: string) => `/l/${locationId}/inbox#item-${itemId}`;

/** Arabic counts take the dual and the 3-10 plural (the app's own rule: client/ui/i18n). */
function arabicItems(n: number): string {
  if (n === 1) return "عنصر جديد للمراجعة";
  if (n === 2) return "عنصران جديدان للمراجعة";
  if (n >= 3 && n <= 10) return `${n} عناصر جديدة للمراجعة`;
  return `${n} عنصرًا جديدًا للمراجعة`;
}

/** One notification for a burst of new items in a location's inbox; the tag makes a newer burst replace it. */
export function burstMessage(lang: PushLang, b: { locationId: string; locationName: string; count: number; firstItemId: string }): PushMessage {
  const en = lang === "en";
  return {
    title: en ? `To review in ${b.locationName}` : `للمراجعة في ${b.locationName}`,
    body: en ? (b.count === 1 ? "1 new item to review" : `${b.count} new items to review`) : arabicItems(b.count),
    url: inboxPath(b.locationId, b.firstItemId),
    tag: `inbox-${b.locationId}`,
  };
}

/** One notification per dropped op, to the person who made the change. */
export function dropMessage(lang: PushLang, d: { locationId: string; itemId: string; entityName: string | null }): PushMessage {
  const name = d.entityName?.trim() ? d.entityName.trim().slice(0, 80) : null;
  if (lang === "ar")
    return {
      title: "لم يُحفظ تغيير",
      body: name ? `تعذّر حفظ تغييرك على «${name}». افتح صندوق الوارد لمعرفة السبب.` : "تعذّر حفظ أحد تغييراتك. افتح صندوق الوارد لمعرفة السبب.",
      url: inboxPath(d.locationId, d.itemId),
      tag: `drop-${d.itemId}`,
    };
  return {
    title: "A change was not saved",
    body: name
      ? `Your change to “${name}” could not be saved. Open the inbox to see why.`
      : "One of your changes could not be saved. Open the inbox to see why.",
    url: inboxPath(d.locationId, d.itemId),
    tag: `drop-${d.itemId}`,
  };
}
