/**
 * Sends webhook deliveries: every `pollMs` it claims what is due (queue.ts, in the shared loop
 * server/jobs/poll-loop.ts), signs each with the webhook's secret by the Standard Webhooks scheme
 * (`webhook-id` is the delivery's id, the same on every retry, so receivers can drop repeats;
 * `webhook-timestamp`; `webhook-signature`), and POSTs it through the outgoing-address guard
 * (server/oauth/guarded-fetch.ts): the host is resolved and checked on every attempt, the
 * connection pinned to the checked address, no redirects followed. Any 2xx is a success; anything
 * else, a refusal by the guard, or a timeout is a failed attempt.
 */
import type { Logger } from "pino";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { checkOutgoingUrl, GuardRefusal, guardedRequest, type GuardOptions } from "../../oauth/guarded-fetch.js";
import { startPollLoop, type PollLoop } from "../../jobs/poll-loop.js";
import { claimDeliveries, pruneDeliveries, recordAttempt, type ClaimedDelivery, type Outcome } from "./queue.js";
import { openSigningSecret } from "./secret.js";
import { webhookGuard } from "./url.js";

export interface DeliveryDeps {
  db: Db;
  config: Pick<Config, "webhooksAllowLoopback">;
  logger: Logger;
  /** Tests: a resolver or CA for the guard. */
  guard?: Omit<GuardOptions, "allowLoopback">;
}

/** Past the guard's own 5 s request cap, so a lease never ends while its attempt still runs. */
const LEASE_MS = 60_000;
const CONCURRENCY = 8;

async function attempt(deps: DeliveryDeps, d: ClaimedDelivery, now: Date): Promise<Outcome> {
  const secret = openSigningSecret(d.account_id, d.webhook_id, d.secret_sealed);
  if (!secret) return { ok: false, statusCode: null, error: "the signing secret does not open (was the server secret changed?)" };
  const guard = webhookGuard(deps.config, deps.guard);
  try {
    const url = checkOutgoingUrl(d.url, guard);
    const body = JSON.stringify(d.payload);
    const signature = new Webhook(secret).sign(d.id, now, body);
    const res = await guardedRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "inventory-service/webhooks",
          "webhook-id": d.id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": signature,
        },
        body: Buffer.from(body, "utf8"),
      },
      guard,
    );
    const ok = res.status >= 200 && res.status < 300;
    return { ok, statusCode: res.status, error: ok ? null : `status ${res.status}` };
  } catch (err) {
    return { ok: false, statusCode: null, error: err instanceof GuardRefusal ? err.reason : "the request failed" };
  }
}

/**
 * The delivery loop (server/jobs/poll-loop.ts) with the clock `now`. Nothing is handed back at
 * stop: an attempt is not aborted, so the round ends with every claim recorded.
 */
function deliveryLoop(deps: DeliveryDeps, now: () => Date, pollMs: number, timer: boolean): PollLoop {
  return startPollLoop({
    claim: (free) => claimDeliveries(deps.db, now(), LEASE_MS, free),
    run: async (d) => recordAttempt(deps.db, d, await attempt(deps, d, now()), now()),
    logger: deps.logger,
    what: "webhook delivery",
    concurrency: CONCURRENCY,
    pollMs,
    timer,
  });
}

/** Claims and sends what is due at `now`, until nothing is; the number of attempts made. */
export async function deliverDue(deps: DeliveryDeps, now: () => Date = () => new Date()): Promise<number> {
  return deliveryLoop(deps, now, 0, false).drain();
}

export function startWebhookWorker(deps: DeliveryDeps, pollMs = 2_000): PollLoop {
  const loop = deliveryLoop(deps, () => new Date(), pollMs, true);
  const prune = () => void pruneDeliveries(deps.db, new Date()).catch((err: unknown) => deps.logger.error({ err }, "pruning webhook deliveries failed"));
  const pruner = setInterval(prune, 3_600_000);
  pruner.unref();
  return {
    drain: () => loop.drain(),
    async stop() {
      clearInterval(pruner);
      await loop.stop();
    },
  };
}
