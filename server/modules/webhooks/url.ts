/**
 * The checks on a webhook URL when an admin saves it: the outgoing-URL guard shared with OAuth
 * client metadata, web push and AI base URLs (server/oauth/guarded-fetch.ts), plus a refusal of
 * literal internal addresses and `localhost` so an obvious mistake is told at once. Host names are
 * resolved, and every answer checked, on each delivery (guardedRequest), not here: DNS can change.
 */
import { isIP } from "node:net";
import type { Config } from "../../config.js";
import { isPublicAddress } from "../../oauth/address-policy.js";
import { checkOutgoingUrl, GuardRefusal, type GuardOptions } from "../../oauth/guarded-fetch.js";
import { ValidationError } from "../../errors/classes.js";

export function webhookGuard(config: Pick<Config, "webhooksAllowLoopback">, extra: Omit<GuardOptions, "allowLoopback"> = {}): GuardOptions {
  return { ...extra, allowLoopback: config.webhooksAllowLoopback };
}

export function checkWebhookUrl(raw: string, guard: GuardOptions): string {
  try {
    const url = checkOutgoingUrl(raw, guard);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !isPublicAddress(host, guard)) throw new GuardRefusal("an internal address", "Webhook URL");
    if (!guard.allowLoopback && (host === "localhost" || host.endsWith(".localhost"))) throw new GuardRefusal("an internal address", "Webhook URL");
    return url.href;
  } catch (err) {
    if (err instanceof GuardRefusal) throw new ValidationError(`url: ${err.reason}.`, { field: "url" });
    throw err;
  }
}
