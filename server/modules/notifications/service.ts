/**
 * A person's push subscriptions (spec POST /api/v1/me/push-subscriptions): added, renewed when the
 * same browser subscribes again, removed by their owner only. The endpoint is checked by the
 * outgoing-address guard here, at the edge, and again on every send (DNS answers change).
 */
import type { PushSubscribed, PushSubscriptionBody } from "../../../shared/push.js";
import type { Actor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { GuardRefusal, checkOutgoingUrl, checkedAddress, type GuardOptions } from "../../oauth/guarded-fetch.js";
import { deleteSubscription, saveSubscription } from "./repository.js";

/** Refuses an endpoint the server must never call; answers it as checked. */
export async function checkEndpoint(raw: string, guard: GuardOptions): Promise<string> {
  try {
    const url = checkOutgoingUrl(raw, guard);
    await checkedAddress(url, guard);
    return url.href;
  } catch (err) {
    if (!(err instanceof GuardRefusal)) throw err;
    throw new ValidationError(`The push endpoint cannot be used: ${err.reason}. It must be an https URL of a public push service.`, {
      field: "endpoint",
      reason: err.reason,
    });
  }
}

export async function subscribe(db: Db, guard: GuardOptions, actor: Actor, body: PushSubscriptionBody): Promise<PushSubscribed> {
  const endpoint = await checkEndpoint(body.endpoint, guard);
  const fields = { p256dh: body.keys.p256dh, auth: body.keys.auth, label: body.label ?? null, lang: body.lang ?? "en" };
  // The same browser subscribing again (new keys after a reinstall, another language) renews its row.
  return { id: await saveSubscription(db, actor.userId, endpoint, fields, new Date()) };
}

/** Someone else's subscription answers like one that does not exist. */
export async function unsubscribe(db: Db, actor: Actor, id: string): Promise<void> {
  if (!(await deleteSubscription(db, actor.userId, id))) throw new NotFoundError("push subscription");
}
