/** Reads of loans: the spec's record, one loan, the filtered list with its counts, the contacts. */
import { and, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { trimDecimal } from "../../../shared/ids.js";
import { isOverdue, utcDay, type ContactList, type Loan, type LoanList, type LoanQuery } from "../../../shared/loans.js";
import type { Tx } from "../../db/client.js";
import { contacts, loans, things, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { decodeCursor, pageFrom, pageOfRows, textIdKey } from "../../db/paging.js";
import { summaries, summaryColumns } from "../things/read.js";
import { placeRefs, refKey } from "./places.js";

type Row = typeof loans.$inferSelect;

/** The spec's nil uuid: the person of a loan whose member account was deleted since (their name stays on the loan). */
const NO_PERSON = "00000000-0000-0000-0000-000000000000";

export async function loansOut(tx: Tx, rowsIn: Row[], now: Date = new Date()): Promise<Loan[]> {
  if (!rowsIn.length) return [];
  const thingIds = [...new Set(rowsIn.map((r) => r.thingId))];
  const userIds = [...new Set(rowsIn.flatMap((r) => [r.createdBy, r.personUserId]).filter((x): x is string => !!x))];
  const keys = rowsIn.flatMap((r) => [
    { placeId: r.previousPlaceId, containerId: r.previousContainerId },
    { placeId: r.returnPlaceId, containerId: r.returnContainerId },
  ]);
  const [thingRows, names, refs] = await Promise.all([
    tx.select(summaryColumns).from(things).where(inArray(things.id, thingIds)),
    userIds.length ? tx.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds)) : [],
    placeRefs(tx, keys),
  ]);
  const byId = new Map((await summaries(tx, thingRows)).map((s) => [s.id, s]));
  const nameOf = new Map(names.map((u) => [u.id, u.name]));
  const ref = (placeId: string | null, containerId: string | null) => {
    const k = refKey({ placeId, containerId });
    return k ? (refs.get(k) ?? null) : null;
  };
  return rowsIn.flatMap((r) => {
    const thing = byId.get(r.thingId);
    if (!thing) return [];
    return [
      {
        id: r.id,
        thingId: r.thingId,
        direction: r.direction,
        person: {
          // A member whose account was deleted since: the name recorded with the loan, and the nil uuid.
          id: r.personUserId ?? r.contactId ?? NO_PERSON,
          name: (r.personUserId && nameOf.get(r.personUserId)) || r.personName,
          isMember: !!r.personUserId,
        },
        startedAt: r.startedAt.toISOString(),
        dueOn: r.dueOn,
        returnedAt: r.returnedAt?.toISOString() ?? null,
        overdue: isOverdue(r, now),
        quantity: trimDecimal(r.quantity),
        splitFromThingId: r.splitFromThingId,
        returnPlace: r.returnedAt ? ref(r.returnPlaceId, r.returnContainerId) : null,
        previousPlace: ref(r.previousPlaceId, r.previousContainerId),
        notes: r.notes,
        conditionOut: r.conditionOut,
        conditionIn: r.conditionIn,
        rowVersion: r.rowVersion,
        createdBy: { displayName: (r.createdBy && nameOf.get(r.createdBy)) || "Former member" },
        thing,
      },
    ];
  });
}

/** A visible loan row, or 404. */
export async function findLoanRow(tx: Tx, id: string): Promise<Row> {
  const [row] = await tx
    .select()
    .from(loans)
    .where(and(eq(loans.id, id), isNull(loans.deletedAt)));
  if (!row) throw new NotFoundError("loan");
  return row;
}

export async function findLoan(tx: Tx, id: string): Promise<Loan> {
  return (await loansOut(tx, [await findLoanRow(tx, id)]))[0]!;
}

/** Loans of the locations the actor reads (row-level security), newest first, with the counts. */
export async function listLoans(tx: Tx, q: LoanQuery, now: Date = new Date()): Promise<LoanList> {
  const today = utcDay(now);
  const scope: SQL[] = [isNull(loans.deletedAt)];
  if (q.locationId) scope.push(eq(loans.locationId, q.locationId));
  const where = [...scope];
  if (q.direction) where.push(eq(loans.direction, q.direction));
  if (q.state === "open") where.push(isNull(loans.returnedAt));
  if (q.state === "overdue") where.push(isNull(loans.returnedAt), lt(loans.dueOn, today));
  if (q.state === "returned") where.push(isNotNull(loans.returnedAt));
  if (q.personId) where.push(or(eq(loans.personUserId, q.personId), eq(loans.contactId, q.personId))!);
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    where.push(sql`(${loans.personName} ILIKE ${like} OR EXISTS (SELECT 1 FROM things t WHERE t.id = ${loans.thingId} AND t.name ILIKE ${like})
      OR EXISTS (SELECT 1 FROM users u WHERE u.id = ${loans.personUserId} AND u.name ILIKE ${like}))`);
  }
  const [page, [counts]] = await Promise.all([
    pageOfRows(tx, loans, loans.startedAt, where, q),
    tx
      .select({
        out: sql<number>`count(*) FILTER (WHERE ${loans.returnedAt} IS NULL AND ${loans.direction} = 'out')::int`,
        in: sql<number>`count(*) FILTER (WHERE ${loans.returnedAt} IS NULL AND ${loans.direction} = 'in')::int`,
        overdue: sql<number>`count(*) FILTER (WHERE ${loans.returnedAt} IS NULL AND ${loans.dueOn} < ${today})::int`,
      })
      .from(loans)
      .where(and(...scope)),
  ]);
  return {
    items: await loansOut(tx, page.rows, now),
    counts: { out: counts?.out ?? 0, in: counts?.in ?? 0, overdue: counts?.overdue ?? 0 },
    next_cursor: page.next_cursor,
  };
}

/** The contacts of the accounts the actor reads, by name (row-level security scopes them). */
/** Contacts by name, a page at a time (spec convention 6); the cursor is the last (lower(name), id). */
export async function listContacts(tx: Tx, q: { locationId?: string | undefined; limit: number; cursor?: string | undefined }): Promise<ContactList> {
  const where: SQL[] = [isNull(contacts.deletedAt)];
  if (q.locationId) where.push(sql`${contacts.accountId} = (SELECT account_id FROM locations WHERE id = ${q.locationId})`);
  if (q.cursor) {
    const [name, id] = decodeCursor(q.cursor, textIdKey);
    where.push(sql`(lower(${contacts.name}), ${contacts.id}) > (${name}, ${id}::uuid)`);
  }
  const found = await tx
    .select({ id: contacts.id, name: contacts.name, key: sql<string>`lower(${contacts.name})` })
    .from(contacts)
    .where(and(...where))
    .orderBy(sql`lower(${contacts.name})`, contacts.id)
    .limit(q.limit + 1);
  const page = pageFrom(found, q.limit, (r) => [r.key, r.id]);
  return { items: page.rows.map(({ id, name }) => ({ id, name })), next_cursor: page.next_cursor };
}
