/**
 * Members: a location's people, invitations and managed accounts, and accepting an invitation.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const MembersScreen = lazy(() => import("./Members.js").then((m) => ({ default: m.MembersScreen })));
export const InviteScreen = lazy(() => import("./Invite.js").then((m) => ({ default: m.InviteScreen })));
