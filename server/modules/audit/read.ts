/**
 * Reading audit entries, newest first, a page at a time (spec convention 6). RLS
 * (migrations/0038_audit_entries.sql) lets a person read only their own account's entries and
 * those of the locations they administer; the callers check the same first, for clear answers.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { AuditEntry, AuditList } from "../../../shared/audit.js";
import type { PageQuery } from "../../../shared/paging.js";
import type { Tx } from "../../db/client.js";
import { auditEntries, users } from "../../db/schema/index.js";
import { timeIdPaging } from "../../db/paging.js";

/** `where` picks the account's or the location's entries; `readerId` is who reads, for "you". */
export async function auditPage(tx: Tx, where: SQL, readerId: string, query: PageQuery): Promise<AuditList> {
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
