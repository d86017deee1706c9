/**
 * search: how long the Things screen's search and place filter take on a location of a few
 * thousand things (`npm run bench:search`, or `-- 10000` for another count). Prints figures; never
 * a pass or fail.
 *
 * - match: the pure part (client/ui/search/thing-search.ts): folding every thing's text and testing
 *   it, for searches by name, type, place, several words and Arabic, and a place filter.
 * - list: the whole read (client/ui/things-list.ts readThingsList) from Dexie, on fake-indexeddb in
 *   Node: every thing of the location read, this device's waiting ops on top, searched, sorted.
 *   A browser's IndexedDB reads faster than fake-indexeddb, so this is an upper bound.
 *
 * No index is kept: a search builds its texts again on each read, and these figures say whether
 * that stays within a keystroke's budget.
 */
import "fake-indexeddb/auto";
import os from "node:os";
import { InventoryDb } from "../../client/db/database.js";
import { thingNameKey, type BrandRow, type PlaceRow, type ThingRow, type TypeRow } from "../../client/db/rows.js";
import { placeFilter, ThingSearch } from "../../client/ui/search/thing-search.js";
import { PLAIN_LABELS, readThingsList } from "../../client/ui/things-list.js";
import { thingRow } from "../unit/client/rows.js";

const COUNT = Number(process.argv[2] ?? 5000);
const RUNS = 15;
const LOC = "0190c000-0000-7000-8000-000000000001";
const ACCOUNT = "0190c000-0000-7000-8000-000000000002";
const AT = "2026-11-25T10:00:00.000Z";
const synced = { rowVersion: 1, createdAt: AT, updatedAt: AT, deletedAt: null };
let n = 0;
const id = () => `0190c000-0000-7000-8000-${String(++n).padStart(12, "0")}`;

const WORDS = ["drill", "hammer", "cable", "lamp", "book", "jacket", "saw", "kettle", "مثقب", "مطرقة", "كتاب", "سلك", "مصباح", "قدر"];
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

function location() {
  const types: TypeRow[] = ["Tool", "Power tool", "Book", "Clothing", "Electronics", "أداة", "كتاب", "ملابس"].map((name) => ({
    id: id(),
    accountId: ACCOUNT,
    parentId: null,
    groupIds: [],
    isGroup: false,
    icon: "box",
    name,
    builtinKey: null,
    containerByDefault: false,
    archivedAt: null,
    ...synced,
  }));
  const brands: BrandRow[] = ["Bosch", "DeWalt", "Makita", "Ikea", "Philips"].map((name) => ({ id: id(), accountId: ACCOUNT, name, ...synced }));
  // Five rooms, four shelves each, three boxes' places each: 85 places three deep.
  const places: PlaceRow[] = [];
  const place = (name: string, parentId: string | null) => {
    const p: PlaceRow = { id: id(), locationId: LOC, parentId, kindId: null, name, isUnplaced: false, shortCode: null, fields: {}, ...synced };
    places.push(p);
    return p;
  };
  const leaves: PlaceRow[] = [];
  for (const room of ["Garage", "Attic", "Kitchen", "المرآب", "المطبخ"]) {
    const r = place(room, null);
    for (let s = 1; s <= 4; s++) {
      const shelf = place(`Shelf ${s}`, r.id);
      for (let b = 1; b <= 3; b++) leaves.push(place(`Bin ${b}`, shelf.id));
    }
  }
  // One thing in ten is a container; a third of the rest sit in one.
  const things: ThingRow[] = [];
  const containers: ThingRow[] = [];
  for (let i = 0; i < COUNT; i++) {
    const isContainer = i % 10 === 0;
    const inBox = !isContainer && containers.length > 0 && i % 3 === 0;
    const th = thingRow(
      { id: id(), locationId: LOC, placeId: inBox ? null : pick(leaves, i).id },
      {
        name: `${pick(WORDS, i)} ${i}`,
        typeId: pick(types, i).id,
        brandId: i % 4 ? pick(brands, i).id : null,
        containerId: inBox ? pick(containers, i).id : null,
        isContainer,
        model: `M-${i * 7}`,
        fields: { notes: `bought at the ${pick(WORDS, i + 3)} shop`, voltage: 12 + (i % 7) },
      },
    );
    if (isContainer) containers.push(th);
    things.push(th);
  }
  return { types, brands, places, things };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Wall time and this process's CPU time, median of RUNS: on a busy machine the CPU time says what the work costs. */
interface Timing {
  median: number;
  max: number;
  cpu: number;
}
async function time(fn: () => unknown): Promise<Timing> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { median: median(wall), max: Math.max(...wall), cpu: median(cpu) };
}

const data = location();
const thingMap = new Map(data.things.map((t) => [t.id, t]));
const placeMap = new Map(data.places.map((p) => [p.id, p]));
const garage = data.places.find((p) => p.name === "Garage")!.id;
const queries = ["drill", "power tool", "garage", "shelf 2 bosch", "المراب مثقب", "ZZZ-none"];
const rows: [string, string, string, string][] = [];
const ms = (x: Timing) => [`${x.median.toFixed(1)} ms`, `max ${x.max.toFixed(1)} ms`, `cpu ${x.cpu.toFixed(1)} ms`] as const;

for (const q of queries) {
  let found = 0;
  const t = await time(() => {
    const match = new ThingSearch({ things: thingMap, places: placeMap, types: data.types, brands: data.brands, tags: [], fields: [] }, PLAIN_LABELS).matcher(
      q,
    )!;
    found = data.things.filter(match).length;
  });
  rows.push([`match "${q}" (${found} found)`, ...ms(t)]);
}
{
  let found = 0;
  const t = await time(() => {
    found = data.things.filter(placeFilter(garage, placeMap, thingMap)!).length;
  });
  rows.push([`place filter Garage (${found} kept)`, ...ms(t)]);
}

const db = new InventoryDb(`bench-search-${Date.now()}`);
await db.locations.put({
  id: LOC,
  accountId: ACCOUNT,
  name: "Bench",
  isPersonal: true,
  requiresTwoFactor: false,
  viewersSeeMoney: true,
  secretRevealRoles: ["owner"],
  scopeVersion: 1,
  ...synced,
});
await db.places.bulkPut(data.places);
await db.types.bulkPut(data.types);
await db.brands.bulkPut(data.brands);
await db.things.bulkPut(data.things.map((t) => ({ ...t, nameKey: thingNameKey(t.name) })));
rows.push(["list, no search (first page)", ...ms(await time(() => readThingsList(db, LOC, { q: "", placeId: "" })))]);
for (const q of ["garage", "shelf 2 bosch", "المراب مثقب"]) rows.push([`list "${q}"`, ...ms(await time(() => readThingsList(db, LOC, { q, placeId: "" })))]);
rows.push(["list, place filter Garage", ...ms(await time(() => readThingsList(db, LOC, { q: "", placeId: garage })))]);
db.close();
await db.delete();

// The machine's load says how far to trust the figures (a shared box runs them several times slower).
console.log(
  `search over ${COUNT} things, ${data.places.length} places (median of ${RUNS} runs, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)`,
);
const width = Math.max(...rows.map((r) => r[0].length));
for (const [what, med, max, cpu] of rows) console.log(`${what.padEnd(width)}  ${med.padStart(9)}  ${max.padEnd(15)}  ${cpu}`);
