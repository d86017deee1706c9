/**
 * Every kind of id the routes take, by the module that owns it (its manifest's `idKinds`), in the
 * order a tenant's rows are made (a template needs a thing, a reading a meter). A module whose
 * manifest names a kind its file here does not make, or the other way round, fails every hostile
 * suite when it loads: a new route's id is added on purpose, with its maker, beside its module.
 */
import { modules } from "../../../../server/modules/index.js";
import { ID_KINDS, type IdKind } from "../ids.js";
import { accountKinds } from "./account.js";
import { codeKinds } from "./codes.js";
import { exportKinds } from "./exports.js";
import { extractionKinds } from "./extractions.js";
import { fileKinds } from "./files.js";
import { historyKinds } from "./history.js";
import { inboxKinds } from "./inbox.js";
import { loanKinds } from "./loans.js";
import { locationKinds } from "./locations.js";
import { managedAccountKinds } from "./managed-accounts.js";
import { memberKinds } from "./members.js";
import { meterKinds } from "./meters.js";
import { moveKinds } from "./moves.js";
import { noModuleKinds } from "./no-module.js";
import { notificationKinds } from "./notifications.js";
import { placeKinds } from "./places.js";
import { registryKinds } from "./registries.js";
import { reportKinds } from "./reports.js";
import { secretKinds } from "./secrets.js";
import { shareLinkKinds } from "./share-links.js";
import { templateKinds } from "./templates.js";
import { thingKinds } from "./things.js";
import { tokenKinds } from "./tokens.js";
import { webhookKinds } from "./webhooks.js";
import type { KindDef, ModuleKinds } from "./types.js";

/** By module name (server/modules/<name>/), in seeding order; `null` holds the kinds of no module. */
const BY_MODULE: [string | null, ModuleKinds][] = [
  ["locations", locationKinds],
  ["registries", registryKinds],
  ["secrets", secretKinds],
  ["members", memberKinds],
  ["places", placeKinds],
  ["things", thingKinds],
  ["history", historyKinds],
  ["templates", templateKinds],
  ["files", fileKinds],
  ["inbox", inboxKinds],
  ["tokens", tokenKinds],
  [null, noModuleKinds],
  ["account", accountKinds],
  ["managed-accounts", managedAccountKinds],
  ["meters", meterKinds],
  ["codes", codeKinds],
  ["notifications", notificationKinds],
  ["extractions", extractionKinds],
  ["loans", loanKinds],
  ["moves", moveKinds],
  ["webhooks", webhookKinds],
  ["reports", reportKinds],
  ["share-links", shareLinkKinds],
  ["exports", exportKinds],
];

/** Each kind's definition, in seeding order. */
export const KINDS = new Map<IdKind, KindDef>(BY_MODULE.flatMap(([, kinds]) => Object.entries(kinds) as [IdKind, KindDef][]));

/** Throws, naming what differs, unless each module's makers here are exactly the kinds its manifest names. */
export function checkKinds(manifests: readonly { name: string; idKinds?: readonly string[] }[]): void {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  for (const [owner, kinds] of BY_MODULE) for (const kind of Object.keys(kinds)) owners.set(kind, owner ?? "no module");
  for (const kind of ID_KINDS)
    if (!owners.has(kind)) problems.push(`no maker for the id kind ${kind}: add it beside its module in test/support/hostile/kinds/`);
  for (const m of manifests) {
    const made = Object.keys(BY_MODULE.find(([name]) => name === m.name)?.[1] ?? {});
    const named = m.idKinds ?? [];
    for (const k of named) if (!made.includes(k)) problems.push(`${m.name}'s manifest names the id kind ${k}, but kinds/${m.name}.ts does not make it`);
    for (const k of made) if (!named.includes(k)) problems.push(`kinds/${m.name}.ts makes ${k}, which ${m.name}'s manifest does not name in idKinds`);
  }
  const modulesNamed = new Set(manifests.map((m) => m.name));
  for (const [name] of BY_MODULE) if (name && !modulesNamed.has(name)) problems.push(`kinds for ${name}, which is no module`);
  if (problems.length) throw new Error(problems.join("\n"));
}
checkKinds(modules);
