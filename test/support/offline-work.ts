/**
 * A person's work on a device with no network (test/db/sync/offline-month.test.ts): what they
 * capture, create, rename, move, delete, meter and lend, drawn at random in sittings of one kind,
 * with the device's own view of every row it made, as the screens would show it. Each draft is
 * one the device would queue: it names only rows the device holds, at the version it last saw.
 */
import { v7 as uuidv7 } from "uuid";
import type { OpDraft } from "../../client/sync/outbox.js";

export interface ThingSeen {
  version: number;
  name: string;
  placeId: string;
  /** The open loan, while the thing is lent: it is not edited, moved or deleted meanwhile. */
  loanId?: string;
  /** Its meter: a metered thing is not deleted (its readings would go with it). */
  meterId?: string;
}

/** What the device made, as it sees it: null once deleted. */
export interface DeviceView {
  places: string[];
  things: Map<string, ThingSeen | null>;
  captures: Set<string>;
  meters: Map<string, { thingId: string; value: number; readings: number }>;
  loans: Map<string, { thingId: string; returned: boolean }>;
}

export const emptyView = (): DeviceView => ({ places: [], things: new Map(), captures: new Set(), meters: new Map(), loans: new Map() });

export const KINDS = [
  "place.create",
  "thing.capture",
  "thing.create",
  "thing.update",
  "thing.move",
  "thing.delete",
  "meter.create",
  "reading.capture",
  "loan.create",
  "loan.return",
] as const;
export type Kind = (typeof KINDS)[number];

/** How often a sitting is of each kind (the rest of 1 is thing.create). */
const WEIGHTS: [Kind, number][] = [
  ["thing.capture", 0.2],
  ["thing.update", 0.18],
  ["thing.move", 0.13],
  ["reading.capture", 0.14],
  ["loan.create", 0.06],
  ["loan.return", 0.05],
  ["meter.create", 0.04],
  // Few: the device checks a delete against everything it holds and queued (client/sync/checks.ts),
  // which over a month's outbox costs about 0.1 s each on fake-indexeddb.
  ["thing.delete", 0.01],
];

const MAX_PLACES = 30;
const CONTACTS = ["Amal", "Bilal", "Chiara", "Dmitri", "Esra"].map((name) => ({ name, id: uuidv7() }));

export function pickKind(view: DeviceView, random: () => number): Kind {
  if (view.places.length < 3 || (view.places.length < MAX_PLACES && random() < 0.04)) return "place.create";
  let roll = random();
  for (const [kind, weight] of WEIGHTS) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return "thing.create";
}

const pick = <T>(list: T[], random: () => number): T => list[Math.floor(random() * list.length)]!;

/** The next op of a sitting of `kind`, and the device's view after it; a kind with nothing to act on makes something instead. */
export function draftFor(kind: Kind, view: DeviceView, locationId: string, n: number, random: () => number): OpDraft {
  const live = [...view.things].filter((e): e is [string, ThingSeen] => e[1] !== null);
  const free = live.filter(([, t]) => !t.loanId);
  if (kind === "place.create" || !view.places.length) {
    const id = uuidv7();
    view.places.push(id);
    return { name: "place.create", locationId, args: { id, name: `Shelf ${view.places.length}` } };
  }
  if (kind === "loan.return") {
    const open = [...view.loans].filter(([, l]) => !l.returned);
    if (open.length) {
      const [id, loan] = pick(open, random);
      loan.returned = true;
      delete (view.things.get(loan.thingId) as ThingSeen).loanId;
      // Back where it was when it went out: its place does not change, nor its version.
      return { name: "loan.return", locationId, args: { id } };
    }
    kind = "loan.create";
  }
  if (kind === "loan.create" && free.length > 5) {
    const [thingId, thing] = pick(free, random);
    const id = uuidv7();
    view.loans.set(id, { thingId, returned: false });
    thing.loanId = id;
    // A whole thing lent (no split): its version stays.
    return { name: "loan.create", locationId, args: { id, thingId, direction: "out", person: pick(CONTACTS, random) } };
  }
  if (kind === "reading.capture" && view.meters.size) {
    const [meterId, meter] = pick([...view.meters], random);
    meter.value += Math.floor(random() * 40);
    meter.readings++;
    return { name: "reading.capture", locationId, args: { id: uuidv7(), meterId, value: String(meter.value), takenAt: new Date().toISOString() } };
  }
  if ((kind === "meter.create" || kind === "reading.capture") && free.some(([, t]) => !t.meterId)) {
    const [thingId, thing] = pick(
      free.filter(([, t]) => !t.meterId),
      random,
    );
    const id = uuidv7();
    thing.meterId = id;
    view.meters.set(id, { thingId, value: 1000, readings: 0 });
    return { name: "meter.create", locationId, args: { id, thingId, kind: "electricity", unit: "kWh" } };
  }
  const editable = kind === "thing.delete" ? free.filter(([, t]) => !t.meterId) : free;
  if ((kind === "thing.update" || kind === "thing.move" || kind === "thing.delete") && editable.length >= 10) {
    const [id, t] = pick(editable, random);
    if (kind === "thing.update") {
      const name = `Thing ${n} renamed`;
      view.things.set(id, { ...t, version: t.version + 1, name });
      return { name: "thing.update", locationId, args: { id, patch: { name } }, baseVersion: t.version };
    }
    if (kind === "thing.move") {
      const placeId = pick(view.places, random);
      view.things.set(id, { ...t, version: t.version + 1, placeId });
      return { name: "thing.move", locationId, args: { id, placeId }, baseVersion: t.version };
    }
    view.things.set(id, null);
    return { name: "thing.delete", locationId, args: { id }, baseVersion: t.version };
  }
  const id = uuidv7();
  const placeId = pick(view.places, random);
  view.things.set(id, { version: 1, name: `Thing ${n}`, placeId });
  if (kind === "thing.capture") {
    view.captures.add(id);
    return { name: "thing.capture", locationId, args: { id, name: `Thing ${n}`, placeId } };
  }
  return { name: "thing.create", locationId, args: { id, name: `Thing ${n}`, placeId } };
}

/** `{a: {a: ... "deep"}}`, `depth` objects deep. */
export function nested(depth: number): unknown {
  let v: unknown = "deep";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
