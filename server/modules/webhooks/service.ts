/**
 * Webhooks for routes: an admin's (owner or admin) settings of a location, written here outside
 * the command path on purpose: a webhook is no synced row and has no history, like an invite. Only
 * a signed-in person reaches this (tokens are refused by the allow-list before any route; an MCP
 * grant is refused here), and RLS (migrations/0030) lets only the location's admins see the rows.
 */
import { v7 as uuidv7 } from "uuid";
import type { PageQuery } from "../../../shared/paging.js";
import {
  MAX_WEBHOOKS_PER_LOCATION,
  type Delivery,
  type Webhook,
  type WebhookCreateBody,
  type WebhookCreated,
  type WebhookPatchBody,
} from "../../../shared/webhooks.js";
import { locationAccess } from "../../access/location.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db, Tx } from "../../db/client.js";
import { ConflictError, ForbiddenError, VersionConflictError } from "../../errors/classes.js";
import type { GuardOptions } from "../../oauth/guarded-fetch.js";
import {
  accountOfLocation,
  deleteWebhookRow,
  deliveriesPage,
  findWebhook,
  insertWebhook,
  lockedWebhookCount,
  toWebhook,
  updateWebhookRow,
  webhooksPage,
} from "./repository.js";
import { newSigningSecret, sealSigningSecret } from "./secret.js";
import { checkWebhookUrl } from "./url.js";
import { requirePerson, requireRole } from "../../access/role.js";

export interface WebhookDeps {
  db: Db;
  guard: GuardOptions;
}

/** An audit entry names the receiver by its host only: the URL's path or query may carry a credential. */
const hostOf = (url: string): string => new URL(url).host;

function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Webhooks are managed from a signed-in session only.");
}

/** 404 for a location the actor cannot see; 403 for members and viewers; writes need a writable location too. */
async function requireAdmin(tx: Tx, actor: Actor, locationId: string): Promise<void> {
  const { role } = await locationAccess(tx, locationId);
  requireRole(role, "admin", "Only owners and admins manage webhooks.");
  if (!actor.canWrite) throw new ForbiddenError("This session may only read.");
}

export async function createWebhook({ db, guard }: WebhookDeps, actor: Actor, locationId: string, body: WebhookCreateBody): Promise<WebhookCreated> {
  const url = checkWebhookUrl(body.url, guard);
  return withActor(db, personOnly(actor), async (tx) => {
    await requireAdmin(tx, actor, locationId);
    if ((await lockedWebhookCount(tx, locationId)) >= MAX_WEBHOOKS_PER_LOCATION)
      throw new ConflictError(`A location has at most ${MAX_WEBHOOKS_PER_LOCATION} webhooks.`, { limit: MAX_WEBHOOKS_PER_LOCATION });
    const accountId = await accountOfLocation(tx, locationId);
    const id = uuidv7();
    const secret = newSigningSecret();
    const row = await insertWebhook(tx, {
      id,
      locationId,
      url,
      events: body.events,
      active: body.active ?? true,
      secretSealed: sealSigningSecret(accountId, id, secret),
      createdBy: actor.userId,
    });
    await recordAudit(tx, actor, { action: "webhook.created", locationId, params: { host: hostOf(url) } });
    return { ...toWebhook(row), secret };
  });
}

/** A location's webhooks, oldest first, a page at a time (spec convention 6). */
export async function listWebhooks(
  { db }: WebhookDeps,
  actor: Actor,
  locationId: string,
  query: PageQuery,
): Promise<{ items: Webhook[]; next_cursor: string | null }> {
  return withActor(db, personOnly(actor), async (tx) => {
    await requireAdmin(tx, actor, locationId);
    return webhooksPage(tx, locationId, query);
  });
}

export async function updateWebhook({ db, guard }: WebhookDeps, actor: Actor, id: string, body: WebhookPatchBody): Promise<Webhook> {
  const url = body.url === undefined ? undefined : checkWebhookUrl(body.url, guard);
  return withActor(db, personOnly(actor), async (tx) => {
    const current = await findWebhook(tx, id);
    await requireAdmin(tx, actor, current.location_id);
    if (body.rowVersion !== undefined && current.row_version !== body.rowVersion) throw new VersionConflictError(current.row_version);
    // Switching a webhook back on clears the reason it was switched off and its failure count.
    const reactivate = body.active === true && !current.active;
    const row = await updateWebhookRow(tx, id, {
      url: url ?? current.url,
      events: body.events ?? current.events,
      active: body.active ?? current.active,
      disabledReason: reactivate ? null : current.disabled_reason,
      consecutiveFailures: reactivate ? 0 : current.consecutive_failures,
    });
    return toWebhook(row);
  });
}

export async function deleteWebhook({ db }: WebhookDeps, actor: Actor, id: string): Promise<{ id: string; deleted: true }> {
  return withActor(db, personOnly(actor), async (tx) => {
    const current = await findWebhook(tx, id);
    await requireAdmin(tx, actor, current.location_id);
    await deleteWebhookRow(tx, id);
    await recordAudit(tx, actor, { action: "webhook.deleted", locationId: current.location_id, params: { host: hostOf(current.url) } });
    return { id, deleted: true as const };
  });
}

/** The delivery log of a webhook, newest first (paged). */
export async function listDeliveries(
  { db }: WebhookDeps,
  actor: Actor,
  id: string,
  query: PageQuery,
): Promise<{ items: Delivery[]; next_cursor: string | null }> {
  return withActor(db, personOnly(actor), async (tx) => {
    const current = await findWebhook(tx, id);
    await requireAdmin(tx, actor, current.location_id);
    return deliveriesPage(tx, id, query);
  });
}
