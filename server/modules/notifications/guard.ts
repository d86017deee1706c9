/**
 * Push endpoints are URLs the server calls, so they pass the same outgoing-address guard as OAuth
 * client metadata (server/oauth/guarded-fetch.ts): https only, no internal addresses. Only the
 * test setting SVC_PUSH_ALLOW_LOOPBACK lets loopback over http through.
 */
import type { Config } from "../../config.js";
import type { GuardOptions } from "../../oauth/guarded-fetch.js";

export function pushGuard(config: Pick<Config, "pushAllowLoopback">, extra: Omit<GuardOptions, "allowLoopback"> = {}): GuardOptions {
  return { ...extra, allowLoopback: config.pushAllowLoopback };
}
