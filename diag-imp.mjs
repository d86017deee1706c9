import { readFileSync } from "node:fs";
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
const mods = process.argv.slice(2);
for (const m of mods) {
  const before = rss();
  await import(m);
  globalThis.gc?.();
  console.log(m, (rss() - before).toFixed(1));
}
