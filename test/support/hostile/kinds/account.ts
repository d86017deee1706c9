/** account: a second session of the owner's (another device), which can be signed out without signing the owner out. */
import { sql } from "drizzle-orm";
import { PASSWORD } from "../http.js";
import { ok, type ModuleKinds } from "./types.js";

export const accountKinds: ModuleKinds = {
  session: {
    make: async (t) => {
      // From an address of its own: sign-in attempts are limited per address.
      await ok(t.svc.client().post("/api/v1/auth/sign-in/email", { email: t.owner.email, password: PASSWORD }), "another sign-in");
      // The newest session that is not the one the owner's client uses: the other device's.
      const sessions = (await ok(t.owner.get("/api/v1/me/sessions"), "sessions")).items as { id: string; current: boolean }[];
      t.ids.session = sessions.find((s) => !s.current)!.id;
    },
    alive: (ids) => sql`EXISTS (SELECT 1 FROM auth_sessions WHERE id = ${ids.session})`,
  },
};
