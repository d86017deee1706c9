/** Codes, scans and label sheets for routes. Writes run the same commands pushed ops do. */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import { normalizeCode, type CodeClaimResult, type LabelSheet, type ScanResult, type codeClaimBody } from "../../../shared/codes.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import { ValidationError } from "../../errors/classes.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import { labelSheetPdf } from "./pdf.js";
import { codeLocation, findSheet, locationName, lookupCode, resolveScan, sheetsOf } from "./read.js";
import { requireRole } from "../../access/role.js";

export const lookup = ({ db }: ServiceDeps, actor: Actor, code: string) => withActor(db, actor, (tx) => lookupCode(tx, code));

export const scan = ({ db }: ServiceDeps, actor: Actor, text: string, format?: string): Promise<ScanResult> =>
  withActor(db, actor, (tx) => resolveScan(tx, actor.canWrite, text, format));

export function claim(deps: ServiceDeps, actor: Actor, raw: string, body: z.infer<typeof codeClaimBody>): Promise<Written<CodeClaimResult>> {
  const code = normalizeCode(raw);
  if (!code) throw new ValidationError("code: not a short code (six letters and digits, no 0, O, 1, I, L or U).");
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "code.claim", locationId: await codeLocation(tx, code), args: { code, kind: body.kind, id: body.id } }),
    // The command answers the target when the code is now its own, else the inbox item it made.
    async (_tx, v) => {
      const held = v.entityId === body.id;
      return { code, kind: body.kind, id: body.id, outcome: held ? "claimed" : "inbox", inboxItemId: held ? null : v.entityId };
    },
  );
}

/** Printing labels is an admin's job: members and viewers see the location but not its sheets. */
async function adminOf(tx: Tx, locationId: string): Promise<void> {
  const { role } = await locationAccess(tx, locationId);
  requireRole(role, "admin", `Your role (${role}) cannot print labels here.`, { role, needed: "admin" });
}

export function createSheet(deps: ServiceDeps, actor: Actor, locationId: string, count: number): Promise<Written<LabelSheet>> {
  const id = uuidv7();
  return writeOne(
    deps,
    actor,
    async (tx) => {
      await adminOf(tx, locationId);
      return { name: "labelsheet.create", locationId, args: { id, count } };
    },
    (tx) => findSheet(tx, id),
  );
}

export const listSheets = ({ db }: ServiceDeps, actor: Actor, locationId: string): Promise<LabelSheet[]> =>
  withActor(db, actor, async (tx) => {
    await adminOf(tx, locationId);
    return sheetsOf(tx, locationId);
  });

/** The sheet's PDF; the transaction ends before the render, which holds no connection. */
export async function sheetPdf({ db }: ServiceDeps, actor: Actor, id: string, origin: string): Promise<Buffer> {
  const content = await withActor(db, actor, async (tx) => {
    const sheet = await findSheet(tx, id);
    await adminOf(tx, sheet.locationId);
    return { origin, locationName: await locationName(tx, sheet.locationId), codes: sheet.codes };
  });
  return labelSheetPdf(content);
}
