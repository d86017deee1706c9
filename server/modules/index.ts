/**
 * Every domain module, by its manifest (./manifest.ts). The composition root reads this one list:
 * the route table (server/routes.ts), the command registry (server/services.ts installs it into
 * ./registry.ts) and the job schedule (server/schedule.ts). A new module adds its manifest here;
 * the order is the route table's, which Express matches first to last.
 */
import { INBOX_KINDS } from "../../shared/inbox.js";
import { SHAPE_NAMES } from "../../sync/shapes.js";
import { accountModule } from "./account/manifest.js";
import { adminModule } from "./admin/manifest.js";
import { aiSettingsModule } from "./ai-settings/manifest.js";
import { auditModule } from "./audit/manifest.js";
import { boxChecksModule } from "./box-checks/manifest.js";
import { captureSettingsModule } from "./capture-settings/manifest.js";
import { codesModule } from "./codes/manifest.js";
import { duplicatesModule } from "./duplicates/manifest.js";
import { exportsModule } from "./exports/manifest.js";
import { extractionsModule } from "./extractions/manifest.js";
import { filesModule } from "./files/manifest.js";
import { hintsModule } from "./hints/manifest.js";
import { historyModule } from "./history/manifest.js";
import { inboxModule } from "./inbox/manifest.js";
import { loansModule } from "./loans/manifest.js";
import { locationsModule } from "./locations/manifest.js";
import { managedAccountsModule } from "./managed-accounts/manifest.js";
import type { ModuleDeps, ModuleManifest } from "./manifest.js";
import type { SetupCode } from "./admin/setup-code.js";
import type { BlobStore } from "./files/storage.js";
import type { TokenHasher } from "./tokens/secret.js";
import { membersModule } from "./members/manifest.js";
import { metersModule } from "./meters/manifest.js";
import { movesModule } from "./moves/manifest.js";
import { notificationsModule } from "./notifications/manifest.js";
import { placesModule } from "./places/manifest.js";
import { receiptsModule } from "./receipts/manifest.js";
import { registriesModule } from "./registries/manifest.js";
import { reportsModule } from "./reports/manifest.js";
import { secretsModule } from "./secrets/manifest.js";
import { shareLinksModule } from "./share-links/manifest.js";
import { templatesModule } from "./templates/manifest.js";
import { thingsModule } from "./things/manifest.js";
import { tokensModule } from "./tokens/manifest.js";
import { webhooksModule } from "./webhooks/manifest.js";

/** The whole bag the composition root fills in: ModuleDeps and what some manifests add to it. */
export interface AppModuleDeps extends ModuleDeps {
  /** Where photos, reports and exports are kept (locations, extractions, reports, exports). */
  store: BlobStore;
  /** The one-time setup code of this process, used while no instance admin exists (admin). */
  setup: SetupCode;
  /** The keyed hash of personal tokens' secrets (tokens). */
  tokenHasher: TokenHasher;
}

export const modules: readonly ModuleManifest<AppModuleDeps>[] = [
  accountModule,
  locationsModule,
  placesModule,
  registriesModule,
  thingsModule,
  historyModule,
  membersModule,
  managedAccountsModule,
  inboxModule,
  filesModule,
  tokensModule,
  templatesModule,
  secretsModule,
  boxChecksModule,
  codesModule,
  metersModule,
  webhooksModule,
  notificationsModule,
  extractionsModule,
  aiSettingsModule,
  movesModule,
  loansModule,
  reportsModule,
  shareLinksModule,
  exportsModule,
  adminModule,
  hintsModule,
  captureSettingsModule,
  auditModule,
  receiptsModule,
  duplicatesModule,
];

/**
 * Who claims each of `all` (by `claimed`): a claim by two modules, or one of something no list
 * names, is an error, and so is one that nobody claims when `all` must each have an owner.
 */
export function ownersOf(
  list: readonly ModuleManifest<AppModuleDeps>[],
  what: string,
  claimed: (m: ModuleManifest<AppModuleDeps>) => readonly string[] | undefined,
  all?: readonly string[],
): Map<string, string> {
  const owners = new Map<string, string>();
  for (const m of list) {
    for (const key of claimed(m) ?? []) {
      const other = owners.get(key);
      if (other !== undefined) throw new Error(`the ${what} ${key} is claimed by two modules: ${other} and ${m.name}`);
      if (all && !all.includes(key)) throw new Error(`module ${m.name} claims the ${what} ${key}, which is not one`);
      owners.set(key, m.name);
    }
  }
  const unowned = all?.filter((key) => !owners.has(key)) ?? [];
  if (unowned.length) throw new Error(`no module claims the ${what} ${unowned.join(", ")}: name it in its owner's manifest`);
  return owners;
}

/**
 * The checks the process starts with: module names, commands, inbox kinds, shapes and id kinds
 * each have one owner (the route paths are checked where the route table is made: their factories
 * need the running service). Every inbox kind and every shape has one.
 */
export function checkModules(list: readonly ModuleManifest<AppModuleDeps>[]): void {
  ownersOf(list, "module name", (m) => [m.name]);
  ownersOf(list, "command", (m) => m.commands?.map((c) => c.name));
  ownersOf(list, "inbox kind", (m) => m.inboxKinds, INBOX_KINDS);
  ownersOf(list, "shape", (m) => m.shapes, SHAPE_NAMES);
  ownersOf(list, "id kind", (m) => m.idKinds);
}
