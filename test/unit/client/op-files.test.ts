/**
 * One file per op (client/ops/<domain>/<op name>.ts): every op the device can push (sync/ops.ts)
 * has exactly one, each file's definition carries its own file's name, and the table the views,
 * the outbox and the sync screen dispatch through holds exactly those definitions.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { OP_NAMES, type Op } from "../../../sync/ops.js";
import { applierOf, opDefinition, opLabel, opsApplyingTo, shapesOf } from "../../../client/ops/index.js";
import type { OpDefinition } from "../../../client/ops/op.js";
import { REGISTRY_OP_NAMES } from "../../../client/sync/registry-ops.js";
import { MESSAGES } from "../../../client/ui/i18n/i18n.js";

const OPS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../client/ops");

const domainFiles = readdirSync(OPS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(path.join(OPS_DIR, d.name)).map((f) => path.join(OPS_DIR, d.name, f)))
  .filter((f) => f.endsWith(".ts"));

/** Op files are named after their op, and every op name has a dot; helpers beside them have none. */
const opFiles = domainFiles.filter((f) => path.basename(f, ".ts").includes("."));

/** What a file imports, type-only imports included (they count as cycles too). */
const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/^import [^;]*? from "([^"]+)";$/gms)].map((m) => m[1]!);

const nameOf = (file: string) => path.basename(file, ".ts");

describe("op files", () => {
  it("every op the device can push has exactly one file, and no file names an op that does not exist", () => {
    const names = opFiles.map(nameOf);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect([...names].sort()).toEqual([...OP_NAMES].sort());
  });

  it("each file's definition is named as its file, and is the one the table dispatches to", async () => {
    for (const file of opFiles) {
      const mod = (await import(pathToFileURL(file).href)) as { op?: OpDefinition<(typeof OP_NAMES)[number]> };
      expect(mod.op?.name, file).toBe(nameOf(file));
      expect(opDefinition(nameOf(file)), file).toBe(mod.op);
    }
    expect(opDefinition("thing.teleport")).toBeUndefined();
  });

  it("each op names the shapes its effect shows up on", () => {
    for (const name of OP_NAMES) expect(shapesOf({ name }).length, name).toBeGreaterThan(0);
  });

  it("each op has a label in English and Arabic, from the catalogues; an op the device does not know keeps its name", () => {
    for (const lang of ["en", "ar"] as const) {
      const t = (key: keyof typeof MESSAGES.en) => MESSAGES[lang][key];
      const labels = OP_NAMES.map((name) => opLabel({ name, id: "x", locationId: "l", args: {}, at: "" } as unknown as Op, t));
      expect(
        labels.filter((l, i) => !l || l === OP_NAMES[i]),
        lang,
      ).toEqual([]);
      expect(new Set(labels).size, lang).toBe(OP_NAMES.length);
    }
    expect(opLabel({ name: "thing.teleport" }, () => "?")).toBe("thing.teleport");
  });

  it("an outbox op this app does not know (queued by another version of it) changes no view and names no shape", () => {
    const unknown = { id: "x", name: "thing.teleport", locationId: "l", args: { id: "t" }, at: "" } as unknown as Op;
    for (const view of ["local", "registries", "meters", "loans", "moves"] as const) expect(applierOf(unknown, view)).toBeUndefined();
    expect(shapesOf(unknown)).toEqual([]);
  });

  it("the registry ops are exactly the ops that change the registry view", () => {
    expect([...opsApplyingTo("registries")].sort()).toEqual([...REGISTRY_OP_NAMES].sort());
  });

  it("no op file, nor a helper beside one, imports the outbox or a queue file: queueing is queue.ts's, and the outbox replays the op files", () => {
    const queueing = domainFiles.filter((f) => path.basename(f) !== "queue.ts");
    expect(queueing.length).toBeGreaterThan(opFiles.length);
    const offending = queueing.flatMap((f) =>
      importsOf(f)
        .filter((spec) => /(^|\/)sync\/outbox\.js$|(^|\/)queue\.js$/.test(spec))
        .map((spec) => `${path.relative(OPS_DIR, f)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it("each domain's queue.ts queues through the outbox", () => {
    const queues = domainFiles.filter((f) => path.basename(f) === "queue.ts");
    expect(queues.length).toBeGreaterThan(0);
    for (const q of queues) expect(importsOf(q), q).toContain("../../sync/outbox.js");
  });
});
