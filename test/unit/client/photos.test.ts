/**
 * A thing's photos on the device: the photo ops replayed as the server applies them
 * (server/modules/things/photos.ts), refused at once for a viewer, and photos seen kept within
 * their byte budget, the least recently seen leaving first.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import type { InboxRow } from "../../../client/db/rows.js";
import { cachedPhoto, FULL_BUDGET_BYTES, keepPhoto, THUMB_BUDGET_BYTES } from "../../../client/db/photo-cache.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { PhotoChangeRefused } from "../../../client/ops/things/photos.js";
import { queuePhotoAdd, queuePhotoChange } from "../../../client/ops/things/queue.js";
import type { Op } from "../../../sync/ops.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const PLACE = "0190a000-0000-7000-8000-000000000002";
const THING = "0190a000-0000-7000-8000-000000000003";
const file = (i: number) => `0190a000-0000-7000-8000-${String(500 + i).padStart(12, "0")}`;
const photoOp = (name: "thing.photo.add" | "thing.photo.remove" | "thing.photo.cover", fileId: string, cover?: boolean): Op => ({
  id: fileId,
  name,
  locationId: LOC,
  args: { id: THING, fileId, ...(cover ? { cover } : {}) },
  at: AT,
});

describe("photo ops on the device", () => {
  const thing = thingRow({ id: THING, locationId: LOC, placeId: PLACE });
  const after = (ops: Op[]) => overlay({ things: [thing] }, ops).things.get(THING)!;

  it("the first photo added is the cover, a later one joins, one added as cover becomes it", () => {
    expect(after([photoOp("thing.photo.add", file(1)), photoOp("thing.photo.add", file(2))])).toMatchObject({
      photoFileIds: [file(1), file(2)],
      coverFileId: file(1),
      pending: true,
    });
    expect(after([photoOp("thing.photo.add", file(1)), photoOp("thing.photo.add", file(2), true)]).coverFileId).toBe(file(2));
  });

  it("removing the cover passes it to the next photo; removing the last leaves none; a cover must be one of the photos", () => {
    const two = [photoOp("thing.photo.add", file(1)), photoOp("thing.photo.add", file(2))];
    expect(after([...two, photoOp("thing.photo.remove", file(1))])).toMatchObject({ photoFileIds: [file(2)], coverFileId: file(2) });
    expect(after([...two, photoOp("thing.photo.remove", file(1)), photoOp("thing.photo.remove", file(2))])).toMatchObject({
      photoFileIds: [],
      coverFileId: null,
    });
    expect(after([...two, photoOp("thing.photo.cover", file(9))]).coverFileId).toBe(file(1));
    expect(after([...two, photoOp("thing.photo.cover", file(2))]).coverFileId).toBe(file(2));
  });

  it("merging a capture brings its photos to the thing the device shows, keeping the thing's cover", () => {
    const DRAFT = "0190a000-0000-7000-8000-000000000004";
    const draft = thingRow({ id: DRAFT, locationId: LOC, placeId: PLACE }, { lifecycle: "draft", photoFileIds: [file(7)], coverFileId: file(7) });
    const inbox: InboxRow[] = [
      {
        id: DRAFT,
        locationId: LOC,
        kind: "draft",
        status: "open",
        thingId: DRAFT,
        batchId: DRAFT,
        capturedAt: AT,
        createdBy: null,
        payload: {},
        undoEventId: null,
        resolvedAt: null,
        resolvedBy: null,
        rowVersion: 1,
        createdAt: AT,
        updatedAt: AT,
        deletedAt: null,
      },
    ];
    const merge = { id: DRAFT, name: "inbox.merge", locationId: LOC, args: { id: DRAFT, into: THING }, at: AT } as Op;
    const state = overlay({ things: [thing, draft], inbox }, [photoOp("thing.photo.add", file(1)), merge]);
    expect(state.things.get(DRAFT)).toBeUndefined();
    expect(state.things.get(THING)).toMatchObject({ photoFileIds: [file(1), file(7)], coverFileId: file(1) });
  });
});

describe("queueing photo changes and keeping photos seen", () => {
  let db: InventoryDb;
  beforeEach(() => {
    db = new InventoryDb(`test-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });
  const target = { id: THING, locationId: LOC, rowVersion: 4 };

  it("a member's photo is kept on the device and queued with the version seen; a viewer's is refused before anything is stored", async () => {
    const fileId = await queuePhotoAdd(db, "member", target, new Blob(["jpeg"]));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ blobIds: [fileId], op: { name: "thing.photo.add", baseVersion: 4, args: { id: THING, fileId } } });
    expect((await db.blobs.get(fileId))?.state).toBe("local");
    await expect(queuePhotoAdd(db, "viewer", target, new Blob(["jpeg"]))).rejects.toBeInstanceOf(PhotoChangeRefused);
    await expect(queuePhotoChange(db, "viewer", target, "thing.photo.remove", fileId)).rejects.toBeInstanceOf(PhotoChangeRefused);
    await expect(queuePhotoChange(db, undefined, target, "thing.photo.cover", fileId)).rejects.toBeInstanceOf(PhotoChangeRefused);
    expect(await db.outbox.count()).toBe(1);
    expect(await db.blobs.count()).toBe(1);
  });

  it("thumbnails past their budget leave least recently seen first; full-size photos count against their own budget", async () => {
    const quarter = new Blob([new Uint8Array(THUMB_BUDGET_BYTES / 4 - 1)]);
    for (let i = 1; i <= 4; i++) await keepPhoto(db, file(i), "thumb", quarter, 1000 * i);
    // The first was seen again after the second: the second is the least recent.
    expect(await cachedPhoto(db, file(1), "thumb", 1000 * 4 + 2 * 60 * 60 * 1000)).toBeDefined();
    await keepPhoto(db, file(5), "full", new Blob([new Uint8Array(FULL_BUDGET_BYTES / 2)]), 9e12);
    // Four thumbnails fit their budget; the full-size photo does not count against it.
    expect(await db.photo_cache.count()).toBe(5);
    await keepPhoto(db, file(6), "thumb", quarter, 9e12);
    const kept = (await db.photo_cache.toArray()).map((p) => `${p.fileId.slice(-1)}:${p.size}`).sort();
    expect(kept).toEqual(["1:thumb", "3:thumb", "4:thumb", "5:full", "6:thumb"]);
  });
});
