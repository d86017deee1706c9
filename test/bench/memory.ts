/**
 * memory: idle RSS after start in the embedded mode beside a bare PGlite process, and in
 * PostgreSQL mode.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { benchDatabase, benchService, rssMb, stat, type Stat } from "./support.js";

export interface MemoryResult {
  embeddedRssMb: Stat;
  pgliteRssMb: Stat;
  embeddedRatio: number;
  postgresRssMb: Stat;
}

const settle = () => new Promise((r) => setTimeout(r, 3000));

/** A process that opens PGlite on a fresh directory and then idles. */
async function barePglite(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-bare-pglite-"));
  const script = `import { PGlite } from "@electric-sql/pglite"; const db = new PGlite(${JSON.stringify(dir)}); await db.query("select 1"); console.log("ready"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve()));
  await settle();
  const mb = rssMb(child.pid!);
  child.kill();
  return mb;
}

export async function benchMemory(): Promise<MemoryResult> {
  const embedded: number[] = [];
  const bare: number[] = [];
  const postgres: number[] = [];
  for (let i = 0; i < 3; i++) {
    const svc = await benchService();
    await settle();
    embedded.push(rssMb(svc.pid));
    await svc.close();
    bare.push(await barePglite());
    const db = await benchDatabase();
    const pgSvc = await benchService(db.url);
    await settle();
    postgres.push(rssMb(pgSvc.pid));
    await pgSvc.close();
    await db.drop();
  }
  const e = stat(embedded);
  const b = stat(bare);
  return { embeddedRssMb: e, pgliteRssMb: b, embeddedRatio: e.median / b.median, postgresRssMb: stat(postgres) };
}
