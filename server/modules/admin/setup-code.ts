/**
 * The one-time setup code of a fresh instance (spec "Route authentication modes": setup). Made at
 * start in memory, never logged by the logger: main.ts prints the setup URL with it once, in the
 * URL fragment, which a browser never sends to a server. Compared in constant time.
 *
 * Several replicas each print their own code, and the load balancer may send the setup request to
 * another replica than the one whose log was read: so each replica also records its code's sha256
 * (never the code) in instance_settings, and a code any replica printed is accepted anywhere. The
 * records go once the first admin exists.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { count, eq, like } from "drizzle-orm";
import { asSystem } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { instanceAdmins, instanceSettings } from "../../db/schema/index.js";

const KEY_PREFIX = "setup_code.";
const sha256 = (s: string) => createHash("sha256").update(s).digest();

export class SetupCode {
  readonly code = randomBytes(18).toString("base64url");
  private readonly digest = sha256(this.code);

  /** Hashes first, so both sides have one length and the comparison says nothing about it. */
  matches(given: string): boolean {
    return timingSafeEqual(sha256(given.trim()), this.digest);
  }

  /** Makes this replica's code good on every replica (called at start while setup is needed). */
  async register(db: Db): Promise<void> {
    const key = `${KEY_PREFIX}${this.digest.toString("hex")}`;
    await asSystem(db, (tx) =>
      tx
        .insert(instanceSettings)
        .values({ key, value: { at: new Date().toISOString() } })
        .onConflictDoNothing(),
    );
  }

  /** This replica's code, or one another replica printed (looked up by its hash). */
  async matchesAnyReplica(db: Db, given: string): Promise<boolean> {
    if (this.matches(given)) return true;
    const key = `${KEY_PREFIX}${sha256(given.trim()).toString("hex")}`;
    const [row] = await asSystem(db, (tx) => tx.select({ key: instanceSettings.key }).from(instanceSettings).where(eq(instanceSettings.key, key)));
    return row !== undefined;
  }

  /** Where to open it: the code rides in the fragment. */
  url(publicUrl: URL): string {
    return `${new URL("/setup", publicUrl).href}#code=${this.code}`;
  }
}

/** Once the first admin exists no code is good any more: every replica's record goes. */
export async function forgetSetupCodes(db: Db): Promise<void> {
  await asSystem(db, (tx) => tx.delete(instanceSettings).where(like(instanceSettings.key, `${KEY_PREFIX}%`)));
}

/** True until the first instance admin exists. */
export async function needsSetup(db: Db): Promise<boolean> {
  const [row] = await asSystem(db, (tx) => tx.select({ n: count() }).from(instanceAdmins));
  return (row?.n ?? 0) === 0;
}

export async function isInstanceAdmin(db: Db, userId: string): Promise<boolean> {
  const found = await asSystem(db, (tx) => tx.select({ userId: instanceAdmins.userId }).from(instanceAdmins).where(eq(instanceAdmins.userId, userId)));
  return found.length > 0;
}
