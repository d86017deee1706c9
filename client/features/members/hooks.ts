/**
 * What the members screens read from and ask of the server (members, invitations, managed
 * accounts): the screens and parts call these, never the API themselves. Reads are hooks that
 * load through OnlineOnly's useOnlineLoad; writes answer a promise the caller reports.
 */
import { useState } from "react";
import type { ManagedAccountCode } from "../../../shared/managed-accounts.js";
import type { Invite, InviteCreated, InviteList, InvitePreview, InviteResent, Member, MemberList } from "../../../shared/members.js";
import type { Role } from "../../../shared/roles.js";
import { acceptInvite } from "../../auth/auth-api.js";
import { ApiError, api } from "../../sync/api.js";
import { useOnlineLoad } from "../../ui/OnlineOnly.js";
import { pageQuery, usePaged } from "../../ui/use-paged.js";

/** A location's members, 50 a page. */
export const useMembers = (locationId: string) =>
  usePaged<Member>((after) => api<MemberList>("GET", `/api/v1/locations/${locationId}/members${pageQuery(50, after)}`), [locationId]);

/** A location's invitations, 20 a page, newest first; again when `version` changes (one was made). */
export const useInvitations = (locationId: string, version: number) =>
  usePaged<Invite>((after) => api<InviteList>("GET", `/api/v1/locations/${locationId}/invites${pageQuery(20, after)}`), [locationId, version]);

/**
 * What an invitation link offers (its token the only authority), or "dead" when the server knows
 * no such invitation (404): then `onDead` runs, for the caller to forget the token.
 */
export function useInvitePreview(token: string, onDead: () => void) {
  const [preview, setPreview] = useState<InvitePreview | "dead" | null>(null);
  const { error } = useOnlineLoad(
    () =>
      api<InvitePreview>("POST", "/api/v1/invites/preview", { token }).then(setPreview, (err: unknown) => {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        onDead();
        setPreview("dead");
      }),
    [token],
  );
  return { preview, error };
}

export const setMemberRole = (locationId: string, member: Member, role: string) =>
  api("PATCH", `/api/v1/locations/${locationId}/members/${member.userId}`, { role, rowVersion: member.rowVersion });

export const removeMember = (locationId: string, userId: string) => api("DELETE", `/api/v1/locations/${locationId}/members/${userId}`);

export const createInvite = (locationId: string, body: { role: Exclude<Role, "owner">; email?: string }) =>
  api<InviteCreated>("POST", `/api/v1/locations/${locationId}/invites`, body);

export const resendInvite = (inviteId: string) => api<InviteResent>("POST", `/api/v1/invites/${inviteId}/resend`);

export const revokeInvite = (inviteId: string) => api("DELETE", `/api/v1/invites/${inviteId}`);

export { acceptInvite };

export const createManagedAccount = (locationId: string, body: { username: string; displayName: string }) =>
  api<ManagedAccountCode>("POST", `/api/v1/locations/${locationId}/managed-accounts`, body);

/** A new one-time code for a managed account; the old one stops working. */
export const resetManagedAccount = (locationId: string, userId: string) =>
  api<ManagedAccountCode>("POST", `/api/v1/locations/${locationId}/managed-accounts/${userId}/reset`);
