/**
 * npm run bench: measures each figure beside its ceiling on this machine, prints a table and
 * writes test/bench/results.json. Not part of npm test. `npm run bench -- push live` runs a subset.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchEmbedded, benchPostgresHealth } from "./embedded.js";
import { benchInitialSync } from "./initial-sync.js";
import { benchLighthouse } from "./lighthouse.js";
import { benchLive } from "./live.js";
import { benchLiveScreens } from "./live-screens.js";
import { benchMemory } from "./memory.js";
import { benchReads } from "./reads.js";
import { benchPush } from "./push.js";
import { benchSyncLog } from "./sync-log.js";
import { benchSoak } from "./soak.js";
import { buildServer, fmt, type Stat } from "./support.js";

type Row = [string, string, string, string];
const rows: Row[] = [];
const results: Record<string, unknown> = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  at: new Date().toISOString(),
};
const s = (x: Stat, d = 0) => `${fmt(x.median, d)} (${fmt(x.min, d)}–${fmt(x.max, d)}, n=${x.runs})`;

const wanted = new Set(process.argv.slice(2));
buildServer();
const want = (name: string) => wanted.size === 0 || wanted.has(name);

if (want("push")) {
  const p = await benchPush();
  results["push.apiOpsPerSec"] = p.apiOpsPerSec.median;
  results["push.rawSqlOpsPerSec"] = p.rawSqlOpsPerSec.median;
  results["push.ratioToRawSql"] = p.ratioToRawSql;
  results["push.restOneOpWritesPerSec"] = p.restOneOpWritesPerSec.median;
  results["push.rawOneOpTxPerSec"] = p.rawOneOpTxPerSec.median;
  results["push.restRatioToRawOneOp"] = p.restRatioToRawOneOp;
  results.pushDetail = p;
  rows.push([
    "push: API ops/s (2 devices, 1000-op batches)",
    s(p.apiOpsPerSec),
    `raw SQL ${s(p.rawSqlOpsPerSec)}`,
    `ratio ${fmt(p.ratioToRawSql, 2)} (target >= 0.5)`,
  ]);
  rows.push([
    "push: one-op REST writes/s (10 conns)",
    s(p.restOneOpWritesPerSec),
    `raw one-op tx ${s(p.rawOneOpTxPerSec)}`,
    `ratio ${fmt(p.restRatioToRawOneOp, 2)} (target >= 0.5)`,
  ]);
  const c = p.cpu;
  rows.push([
    "push: CPU ms server / PostgreSQL",
    `per 1000 ops ${fmt(c.pushServerMsPer1000)} / ${fmt(c.pushPostgresMsPer1000)}`,
    `raw ${fmt(c.rawPostgresMsPer1000)} per 1000; per REST write ${fmt(c.restServerMsPerWrite, 2)} / ${fmt(c.restPostgresMsPerWrite, 2)}`,
    `raw one-op ${fmt(c.rawPostgresMsPerTx, 2)} per tx`,
  ]);
}

if (want("embedded")) {
  const e = await benchEmbedded();
  results["embedded.healthP99DuringPushMs"] = e.healthP99DuringPushMs;
  results["embedded.pushOpsPerSec"] = e.pushOpsPerSec;
  results.embeddedDetail = e;
  rows.push([
    "embedded: /health during a push storm (PGlite)",
    `p50 ${fmt(e.healthP50DuringPushMs, 1)} ms`,
    `p99 ${fmt(e.healthP99DuringPushMs, 1)} ms, max ${fmt(e.healthMaxDuringPushMs, 0)} (${e.healthSamples} samples)`,
    `target p99 < 100; storm ${fmt(e.pushOpsPerSec)} ops/s`,
  ]);
}

if (want("postgres")) {
  const e = await benchPostgresHealth();
  results["postgres.healthP99DuringPushMs"] = e.healthP99DuringPushMs;
  results["postgres.pushOpsPerSec"] = e.pushOpsPerSec;
  results.postgresHealthDetail = e;
  rows.push([
    "postgres: /health during a push storm (PostgreSQL)",
    `p50 ${fmt(e.healthP50DuringPushMs, 1)} ms`,
    `p99 ${fmt(e.healthP99DuringPushMs, 1)} ms, max ${fmt(e.healthMaxDuringPushMs, 0)} (${e.healthSamples} samples)`,
    `target p99 < 100; storm ${fmt(e.pushOpsPerSec)} ops/s`,
  ]);
}

if (want("initialSync")) {
  const i = await benchInitialSync();
  results["initialSync.things"] = i.things;
  results["initialSync.seconds"] = i.seconds.median;
  results["initialSync.rawIdbSeconds"] = i.rawIdbSeconds.median;
  results["initialSync.ratioToRawIdb"] = i.ratioToRawIdb;
  results["initialSync.firstScreenMs"] = i.firstScreenMs.median;
  results.initialSyncDetail = i;
  rows.push([
    `initialSync: ${fmt(i.things)} things into the app's Dexie, s`,
    s(i.seconds, 1),
    `raw IndexedDB ${s(i.rawIdbSeconds, 1)}`,
    `ratio ${fmt(i.ratioToRawIdb, 2)} (target <= 1.1, issue #33)`,
  ]);
  rows.push([
    "initialSync: sign-in -> first thing listed, ms",
    s(i.firstScreenMs),
    i.listBeforeSynced.every(Boolean) ? "while syncing" : `after sync in ${i.listBeforeSynced.filter((b) => !b).length}/${i.runs} runs`,
    "target <= 500 (issue #33)",
  ]);
}

if (want("lighthouse")) {
  // Printed, not asserted (issue #33): Lighthouse's scores move with the machine's load.
  const l = await benchLighthouse();
  results["lighthouse.firstLoadGzipKb"] = l.firstLoadGzipKb;
  results["lighthouse.firstScreenMs"] = l.firstScreenMs.median;
  for (const p of l.pages) results[`lighthouse.${p.page}.score`] = p.score;
  results.lighthouseDetail = l;
  rows.push(["lighthouse: first load (entry, its imports, CSS), kB gzip", fmt(l.firstLoadGzipKb, 1), l.firstLoadFiles.join(" "), "target <= 150"]);
  for (const p of l.pages) {
    rows.push([
      `lighthouse mobile: ${p.page}`,
      `score ${p.score} (${p.scores.join(", ")})`,
      `LCP ${fmt(p.lcpMs)} ms, CLS ${fmt(p.cls, 3)}, TBT ${fmt(p.tbtMs)} ms`,
      "targets >= 90, <= 2500, <= 0.1, <= 200",
    ]);
  }
  rows.push(["lighthouse: sign-in -> first thing listed (30 things), ms", s(l.firstScreenMs), "first visit, no throttling", "target <= 500"]);
}

if (want("live")) {
  const l = await benchLive();
  results["live.clients"] = l.clients;
  results["live.p50Ms"] = l.p50Ms;
  results["live.p99Ms"] = l.p99Ms;
  results["live.serverCpuMsPerChangePerSubscriber"] = l.serverCpuMsPerChangePerSubscriber;
  results.liveDetail = l;
  rows.push([
    `live: ${l.clients} SSE subscribers (${l.realClients} Electric clients, ${l.people} people), push answer -> seen`,
    `p50 ${fmt(l.p50Ms, 1)} ms`,
    `p99 ${fmt(l.p99Ms, 1)} ms (${l.samples} samples)`,
    "targets p50 < 20, p99 < 100",
  ]);
  rows.push([
    "live: CPU per change, ms",
    `server ${fmt(l.serverCpuMsPerChange, 1)}, push alone ${fmt(l.pushServerCpuMsPerChange, 1)}: ${fmt(l.serverCpuMsPerChangePerSubscriber, 3)} per subscriber (target <= 0.05; ${fmt(l.serverCpuMsPerChangePerSubscriberWithPush, 3)} with the push)`,
    `the ${l.clients} clients' process ${fmt(l.clientsCpuMsPerChange, 0)}`,
    `one subscriber alone: p50 ${fmt(l.oneSubscriberP50Ms, 1)} ms`,
  ]);
}

if (want("live-screens")) {
  // Printed, not asserted: the issue's aim is p95 under 1 s for every shape, on both backends.
  const l = await benchLiveScreens();
  results.liveScreensDetail = l;
  for (const [backend, shapes] of Object.entries(l.backends)) {
    for (const [shape, a] of Object.entries(shapes)) {
      results[`liveScreens.${backend}.${shape}.p95Ms`] = a.p95Ms;
      rows.push([
        `live on every screen (${backend}): ${shape}, push answer -> in the app's table`,
        `p50 ${fmt(a.p50Ms)} ms`,
        `p95 ${fmt(a.p95Ms)} ms (max ${fmt(a.maxMs)}, n=${a.samples})`,
        "aim p95 < 1000",
      ]);
    }
  }
  rows.push(["live on every screen: live shape requests the app made", String(l.liveShapeRequests), "with the wake stream held", "expected 0"]);
}

if (want("reads")) {
  const r = await benchReads();
  results["reads.ratioToHello"] = r.ratioToHello;
  results.readsDetail = r;
  rows.push(["reads: things list req/s (50 conns)", s(r.things), `hello ${s(r.hello)}`, `ratio ${fmt(r.ratioToHello, 2)} (target >= 0.5)`]);
  rows.push(["reads: history req/s (50 conns)", s(r.history), "", ""]);
  const c = r.cpuMsPerRequest;
  rows.push([
    "reads: CPU per request, ms",
    `things: server ${fmt(c.things, 2)} + PostgreSQL ${fmt(c.thingsPostgres, 2)}`,
    `hello: server ${fmt(c.hello, 2)}`,
    `history: server ${fmt(c.history, 2)} + PostgreSQL ${fmt(c.historyPostgres, 2)}`,
  ]);
}

if (want("memory")) {
  const m = await benchMemory();
  results["memory.embeddedRssMb"] = m.embeddedRssMb.median;
  results["memory.pgliteRssMb"] = m.pgliteRssMb.median;
  results["memory.embeddedRatio"] = m.embeddedRatio;
  results["memory.postgresRssMb"] = m.postgresRssMb.median;
  rows.push(["memory: embedded idle RSS MB", s(m.embeddedRssMb), `bare PGlite ${s(m.pgliteRssMb)}`, `ratio ${fmt(m.embeddedRatio, 2)} (target <= 1.5)`]);
  results["memory.embeddedReopenRatio"] = m.embeddedReopenRatio;
  results.memoryDetail = m;
  rows.push([
    `memory: embedded idle RSS MB, restart on a filled dir (${fmt(m.reopenThings)} things)`,
    s(m.embeddedReopenRssMb),
    `bare PGlite reopening it ${s(m.pgliteReopenRssMb)}`,
    `ratio ${fmt(m.embeddedReopenRatio, 2)} (target <= 1.3)`,
  ]);
  rows.push(["memory: PostgreSQL mode idle RSS MB", s(m.postgresRssMb), `3 s after start ${s(m.postgresRssMbAt3s)}`, "target <= 100"]);
}

if (want("syncLog")) {
  const l = await benchSyncLog();
  results["syncLog.changes"] = l.changes;
  results["syncLog.rowsBeforeCompaction"] = l.rowsBeforeCompaction;
  results["syncLog.rowsAfterSteadyWrites"] = l.rowsAfterSteadyWrites;
  results["syncLog.compactionMs"] = l.compactionMs;
  results.syncLogDetail = l;
  rows.push([
    `syncLog: log rows after ${fmt(l.changes)} changes to ${fmt(l.things)} things`,
    `${fmt(l.rowsAfterSteadyWrites)} (before compaction ${fmt(l.rowsBeforeCompaction)})`,
    `compaction ${fmt(l.compactionMs, 0)} ms, PostgreSQL CPU ${fmt(l.compactionPostgresCpuMs, 0)} ms, ${l.batches} batches; idle run ${fmt(l.idleRunMs, 1)} ms`,
    "bounded by rows, not writes",
  ]);
}

if (want("soak")) {
  const k = await benchSoak();
  results["soak.rssSlopeMbPerMin"] = k.rssSlopeMbPerMin;
  results["soak.p99SlopeMsPerMin"] = k.p99SlopeMsPerMin;
  results.soakDetail = k;
  const steady = k.series.slice(k.warmUpMinutesSkipped);
  const range = (xs: number[], d: number) => `${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}`;
  rows.push([
    `soak: ${k.minutes} min mixed load, RSS slope MB/min (minute 1 skipped)`,
    fmt(k.rssSlopeMbPerMin, 2),
    `RSS ${range(
      steady.map((m) => m.rssMb),
      0,
    )} MB, sd around the line ${fmt(k.rss.residualSd, 1)}`,
    "target: no upward drift",
  ]);
  rows.push([
    "soak: p99 slope ms/min (every request of the minute)",
    fmt(k.p99SlopeMsPerMin, 2),
    `p99 ${range(
      steady.map((m) => m.p99Ms),
      0,
    )} ms, sd around the line ${fmt(k.p99.residualSd, 1)}`,
    `per kind ${Object.entries(k.kindP99SlopeMsPerMin)
      .map(([kind, v]) => `${kind} ${fmt(v, 1)}`)
      .join(", ")}; 429s ${steady.reduce((a, m) => a + m.rateLimited, 0)}, errors ${steady.reduce((a, m) => a + m.errors, 0)}`,
  ]);
}

const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), 6));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join(" | "));
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "results.json");
// A partial run (`npm run bench -- live`) updates its keys and keeps the others.
const previous = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
writeFileSync(file, JSON.stringify({ ...previous, ...results }, null, 2));
console.log(`\nwrote ${file}`);
process.exit(0);
