/**
 * A throwaway PostgreSQL cluster that a test owns and may stop and start: initdb into a temp dir,
 * pg_ctl on a free loopback port with its socket in that dir. As root it runs as the `postgres`
 * user (initdb refuses root). `clusterToolsMissing()` says why none can be made on this machine.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./server-process.js";

const BIN = process.env.PG_BIN_DIR ?? "/usr/lib/postgresql/15/bin";
const tool = (name: string) => path.join(BIN, name);

/** Why no cluster can be made here, or null when initdb and pg_ctl are installed. */
export function clusterToolsMissing(): string | null {
  const missing = ["initdb", "pg_ctl"].filter((t) => !existsSync(tool(t)));
  return missing.length ? `${missing.join(" and ")} not found in ${BIN} (set PG_BIN_DIR, or apt-get install postgresql)` : null;
}

export interface Cluster {
  /** Connection URL of the `postgres` database over TCP on loopback. */
  url: string;
  port: number;
  start(): void;
  /** pg_ctl stop in `mode` (fast: sessions are ended, what committed is kept). */
  stop(mode?: "fast" | "immediate"): void;
  /** Stops (if running) and deletes everything. */
  destroy(): void;
}

export async function startCluster(): Promise<Cluster> {
  const missing = clusterToolsMissing();
  if (missing) throw new Error(missing);
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "svc-cluster-"));
  const data = path.join(dir, "data");
  const port = await freePort();
  // Runs a tool as the cluster's owner; output goes to the log file or is returned on failure.
  const run = (name: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", tool(name), ...args], { cwd: dir, stdio: "pipe" })
      : execFileSync(tool(name), args, { cwd: dir, stdio: "pipe" });
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  let running = false;
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c max_connections=40`;
      run("pg_ctl", ["start", "-w", "-t", "30", "-D", data, "-l", path.join(dir, "log"), "-o", options]);
      running = true;
    },
    stop(mode = "fast") {
      run("pg_ctl", ["stop", "-w", "-t", "30", "-m", mode, "-D", data]);
      running = false;
    },
    destroy() {
      try {
        if (running) cluster.stop("immediate");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  // A test that dies half-way must not leave a postmaster behind.
  process.once("exit", () => {
    if (running) cluster.destroy();
  });
  try {
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    cluster.start();
  } catch (err) {
    cluster.destroy();
    throw err;
  }
  return cluster;
}
