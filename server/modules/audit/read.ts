/**
 * Reading audit entries, newest first, a page at a time (spec convention 6). RLS
 * (migrations/0038_audit_entries.sql) lets a person read only their own account's entries and
 * those of the locations they administer; the callers check the same first, for clear answers.
 */
import { and, eq } from "drizzle-orm";
import type { AuditEntry, AuditList } from "../../../shared/audit.js";
import type { PageQuery } from "../../../shared/paging.js";
import type { Tx } from "../../db/client.js";
import { auditEntries, users } from "../../db/schema/index.js";
import { timeIdPaging } from "../../db/paging.js";

/** Whose entries a page holds: a person's own account's, or a location's. */
export type AuditOf = { userId: string } | { locationId: string };

/** A page of the entries `of` picks; `readerId` is who reads, for "you". */
export async function auditPage(tx: Tx, of: AuditOf, readerId: string, query: PageQuery): Promise<AuditList> {
  const where = "userId" in of ? eq(auditEntries.userId, of.userId) : eq(auditEntries.locationId, of.locationId);
  const paging = timeIdPaging(auditEntries.at, auditEntries.id, query);
  const found = await tx
    .select({
      id: auditEntries.id,
      action: auditEntries.action,
      at: auditEntries.at,
      key: paging.key,
      actorType: auditEntries.actorType,
      actorUserId: auditEntries.actorUserId,
      actorName: users.name,
      params: auditEntries.params,
      locationId: auditEntries.locationId,
    })
    .from(auditEntries)
    .leftJoin(users, eq(users.id, auditEntries.actorUserId))
    .where(and(where, paging.after))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  const page = paging.page(found, (r) => r.id);
  return {
    next_cursor: page.next_cursor,
    items: page.rows.map((r): AuditEntry => ({
      id: r.id,
      action: r.action,
      at: r.at.toISOString(),
      actor: { type: r.actorType, name: r.actorName, you: r.actorUserId === readerId },
      params: r.params,
      locationId: r.locationId,
    })),
  };
}
