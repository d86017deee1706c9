/**
 * POST /api/v1/auth/sign-up (spec "Sign-up" 1-3, 5). Accepted only while sign-up is open
 * (SVC_SIGNUP_OPEN or the `signup_open` instance setting) or with a live invite. A taken address
 * gets exactly the answer a free one gets, and about as slowly (a password hash is computed either
 * way), so the route cannot be used to find out who has an account.
 */
import { z } from "zod";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { SignupClosedError } from "../../errors/classes.js";
import { defineRoute } from "../../http/route.js";
import { acceptInviteForUser, findLiveInvite } from "../members/invites.js";
import type { Auth } from "../../auth/auth.js";
import { displayNameSchema } from "../../auth/input.js";
import { signupOpenSetting, userIdByEmail } from "./repository.js";

export const signUpBody = z
  .object({
    email: z.email().max(320),
    password: z.string().min(8).max(256),
    name: displayNameSchema,
    invite: z.string().min(1).max(200).optional(),
  })
  .strict();

export const signUpResponse = z.object({ status: z.literal("accepted"), message: z.string() }).meta({ id: "SignUpAccepted" });

const ACCEPTED = {
  status: "accepted" as const,
  message: "If this address can be used, its account is ready: sign in with it now.",
};

async function signupOpen(db: Db, config: Config): Promise<boolean> {
  if (config.signupOpen) return true;
  return signupOpenSetting(db);
}

export function signUpRoute(deps: { db: Db; config: Config; auth: Auth }) {
  const { db, config, auth } = deps;
  return defineRoute({
    method: "post",
    path: "/api/v1/auth/sign-up",
    summary: "Create an account (open sign-up or a live invite)",
    tag: "auth",
    auth: "none",
    body: signUpBody,
    response: signUpResponse,
    async handler({ body }) {
      const email = body.email.trim().toLowerCase();
      const invite = body.invite ? await findLiveInvite(db, body.invite) : null;
      const inviteFits = invite !== null && (invite.email === null || invite.email.toLowerCase() === email);
      if (!inviteFits && !(await signupOpen(db, config))) throw new SignupClosedError();
      if (await userIdByEmail(db, email)) {
        // Same work, same answer as for a free address.
        await (await auth.$context).password.hash(body.password);
        return ACCEPTED;
      }
      try {
        const created = await auth.api.signUpEmail({ body: { email, password: body.password, name: body.name } });
        if (invite && inviteFits) await acceptInviteForUser(db, invite, created.user.id);
      } catch (err) {
        // A concurrent sign-up with the same address lost the race: answer as for any taken
        // address. Any other refusal created nothing, and "accepted" would be a lie.
        if ((err as { status?: string }).status !== "UNPROCESSABLE_ENTITY") throw err;
        if (!(await userIdByEmail(db, email))) throw err;
      }
      return ACCEPTED;
    },
  });
}
