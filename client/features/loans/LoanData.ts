/**
 * What the loan screens read: a location's loans and the account's contacts from Dexie, with this
 * device's waiting loan ops on top (client/sync/loan-ops.ts), and the location's members (the list
 * needs the network; the last one fetched is kept on the device so the lend form works offline).
 */
import { useEffect, useState } from "react";
import { isOverdue } from "../../../shared/loans.js";
import type { Member } from "../../../shared/members.js";
import type { Op } from "../../../sync/ops.js";
import { getMeta, setMeta, type InventoryDb } from "../../db/database.js";
import type { ContactRow, LoanRow } from "../../db/rows.js";
import { apiAll } from "../../sync/api.js";
import { openLoansByThing, overlayLoans } from "../../sync/loan-ops.js";
import type { View } from "../../sync/optimistic.js";
import { useLive } from "../../ui/data.js";

export interface MemberName {
  userId: string;
  displayName: string;
}

const membersKey = (locationId: string) => `loan-members:${locationId}`;

export function useMembers(db: InventoryDb, locationId: string): MemberName[] {
  const [members, setMembers] = useState<MemberName[]>([]);
  useEffect(() => {
    let live = true;
    void getMeta<MemberName[]>(db, membersKey(locationId)).then((kept) => live && kept && setMembers(kept));
    apiAll<Member>(`/api/v1/locations/${locationId}/members?limit=200`).then(
      (all) => {
        const list = all.map((m) => ({ userId: m.userId, displayName: m.displayName })).sort((a, b) => a.displayName.localeCompare(b.displayName));
        if (live) setMembers(list);
        void setMeta(db, membersKey(locationId), list);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [db, locationId]);
  return members;
}

const LOAN_OPS = new Set<Op["name"]>(["loan.create", "loan.return", "loan.update"]);

export interface LoanData {
  loans: View<LoanRow>[];
  contacts: View<ContactRow>[];
  /** Open loan directions by thing id. */
  byThing: Map<string, Set<"out" | "in">>;
  counts: { out: number; in: number; overdue: number };
}

/** One empty list for every caller without members: a new `[]` each render would re-run the live query each render. */
const NO_MEMBERS: MemberName[] = [];

export function useLoans(db: InventoryDb, locationId: string, members: MemberName[] = NO_MEMBERS): LoanData | undefined {
  return useLive(async () => {
    const [loans, contacts, outbox, location] = await Promise.all([
      db.loans.where("locationId").equals(locationId).toArray(),
      db.contacts.toArray(),
      db.outbox.orderBy("seq").toArray(),
      db.locations.get(locationId),
    ]);
    const ops = outbox.filter((e) => e.state !== "rejected" && e.op.locationId === locationId && LOAN_OPS.has(e.op.name)).map((e) => e.op);
    const names = new Map(members.map((m) => [m.userId, m.displayName]));
    const state = overlayLoans({ loans, contacts }, ops, (id) => names.get(id) ?? "");
    const all = [...state.loans.values()].filter((l) => !l.deletedAt).sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
    const open = all.filter((l) => !l.returnedAt);
    return {
      loans: all,
      contacts: [...state.contacts.values()].filter((c) => !c.deletedAt && (!location || !c.accountId || c.accountId === location.accountId)),
      byThing: openLoansByThing(all),
      counts: {
        out: open.filter((l) => l.direction === "out").length,
        in: open.filter((l) => l.direction === "in").length,
        overdue: open.filter((l) => isOverdue(l)).length,
      },
    };
  }, [db, locationId, members]);
}
