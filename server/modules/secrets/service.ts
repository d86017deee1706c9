/**
 * Secret fields for routes: reveal one value (re-authentication, the owner's policy, an audit
 * entry), and convert a type field to or from secret (preview and conversion, owner only). Each
 * call is one actor transaction; writes go through the one write path.
 */
import { fieldKeySchema, type Conversion, type ConversionPreview, type RevealedSecret } from "../../../shared/secrets.js";
import { visibleLocations } from "../../access/visible.js";
import { type Actor, withActor } from "../../db/actor.js";
import { requireFreshAuth, type ReauthDeps } from "../../auth/reauth.js";
import type { Tx } from "../../db/client.js";
import { ForbiddenError, NotFoundError } from "../../errors/classes.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { writeOne } from "../write.js";
import { conversionPlan, type FieldRow } from "./conversion.js";
import { findTypeField, previewOf, revealedValue } from "./read.js";
import { requireSession } from "../../access/role.js";

export type SecretDeps = ServiceDeps & ReauthDeps;

/** Tokens and MCP never reach secrets (spec "Personal tokens" 5): only a signed-in person's session. */
function personOnly(actor: Actor): void {
  requireSession(actor, "Secrets are open only to a signed-in person, never to a token.");
}

/**
 * Reveals a thing's value of a secret field: needs a fresh re-authentication (as the recovery
 * kit does: 403 reauth_required), a role the owner's policy names, and leaves an audit entry.
 */
export async function revealSecret(deps: SecretDeps, actor: Actor, thingId: string, key: string): Promise<Written<RevealedSecret>> {
  personOnly(actor);
  await requireFreshAuth(deps, actor);
  if (!fieldKeySchema.safeParse(key).success) throw new NotFoundError("secret field");
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "secret.reveal", locationId: (await findThing(tx, thingId)).locationId, args: { id: thingId, key } }),
    async (tx) => revealedValue(tx, await findThing(tx, thingId), key),
  );
}

/** The field's account's locations the actor sees, and one where it is the owner to act through (else 403). */
async function ownerView(tx: Tx, field: FieldRow): Promise<{ seen: { id: string; name: string | null }[]; through: string }> {
  const mine = (await visibleLocations(tx)).filter((v) => v.location.accountId === field.accountId && !v.location.deletedAt);
  const through = mine.find((v) => v.role === "owner");
  if (!through) throw new ForbiddenError("Only the owner converts a field to or from secret.");
  return { seen: mine.map((v) => ({ id: v.location.id, name: v.location.name })), through: through.location.id };
}

/** What converting would do, per location the owner sees (nothing is changed). */
export function previewConversion({ db }: ServiceDeps, actor: Actor, fieldId: string, toSecret: boolean): Promise<ConversionPreview> {
  personOnly(actor);
  return withActor(db, actor, async (tx) => {
    const field = await findTypeField(tx, fieldId);
    const { seen, through } = await ownerView(tx, field);
    return previewOf(await conversionPlan(tx, field, toSecret, through, false), seen);
  });
}

/**
 * Converts the field and moves every value (type_field.convert); answers the counts of what moved,
 * read just before the command locks and moves them in the same transaction.
 */
export function convertField(deps: ServiceDeps, actor: Actor, fieldId: string, toSecret: boolean): Promise<Written<Conversion>> {
  personOnly(actor);
  let preview: ConversionPreview = { locations: [], total: 0 };
  return writeOne(
    deps,
    actor,
    async (tx) => {
      const field = await findTypeField(tx, fieldId);
      const { seen, through } = await ownerView(tx, field);
      preview = previewOf(await conversionPlan(tx, field, toSecret, through, false), seen);
      return { name: "type_field.convert", locationId: through, args: { id: fieldId, toSecret } };
    },
    async (tx, v) => {
      const field = await findTypeField(tx, fieldId);
      return { ...preview, id: field.id, secret: field.secret, rowVersion: v.rowVersion };
    },
  );
}
