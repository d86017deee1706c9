/**
 * A person's push subscriptions (spec POST /api/v1/me/push-subscriptions): added, renewed when the
 * same browser subscribes again, removed by their owner only. The endpoint is checked by the
 * outgoing-address guard here, at the edge, and again on every send (DNS answers change).
 */
import { and, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { PushSubscribed, PushSubscriptionBody } from "../../../shared/push.js";
import type { Actor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { pushSubscriptions } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { GuardRefusal, checkOutgoingUrl, checkedAddress, type GuardOptions } from "../../oauth/guarded-fetch.js";

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
  const now = new Date();
  const row = {
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    label: body.label ?? null,
    lang: body.lang ?? "en",
    updatedAt: now,
  };
  // The same browser subscribing again (new keys after a reinstall, another language) renews its row.
  const [saved] = await db
    .insert(pushSubscriptions)
    .values({ id: uuidv7(), userId: actor.userId, endpoint, ...row, createdAt: now })
    .onConflictDoUpdate({ target: [pushSubscriptions.userId, pushSubscriptions.endpoint], set: row })
    .returning({ id: pushSubscriptions.id });
  return { id: saved!.id };
}

/** Someone else's subscription answers like one that does not exist. */
export async function unsubscribe(db: Db, actor: Actor, id: string): Promise<void> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, actor.userId)))
    .returning({ id: pushSubscriptions.id });
  if (!gone.length) throw new NotFoundError("push subscription");
}
