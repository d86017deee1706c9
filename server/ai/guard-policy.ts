/**
 * The outgoing-address policy for AI base URLs people enter (checked when saved, and on every call
 * by guardedAiFetch). Only the test setting SVC_AI_ALLOW_LOOPBACK lets loopback over http through,
 * as SVC_PUSH_ALLOW_LOOPBACK does for push endpoints.
 */
import type { Config } from "../config.js";
import type { GuardOptions } from "../oauth/guarded-fetch.js";

export function aiGuard(config: Pick<Config, "aiAllowLoopback">, extra: Omit<GuardOptions, "allowLoopback"> = {}): GuardOptions {
  return { ...extra, allowLoopback: config.aiAllowLoopback };
}
