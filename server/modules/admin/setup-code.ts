/**
 * The one-time setup code of a fresh instance (spec "Route authentication modes": setup). Made at
 * start in memory, never stored or logged by the logger: main.ts prints the setup URL with it once,
 * in the URL fragment, which a browser never sends to a server. Compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { asSystem } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { instanceAdmins } from "../../db/schema/index.js";

export class SetupCode {
  readonly code = randomBytes(18).toString("base64url");
  private readonly digest = createHash("sha256").update(this.code).digest();

  /** Hashes first, so both sides have one length and the comparison says nothing about it. */
  matches(given: string): boolean {
    return timingSafeEqual(createHash("sha256").update(given.trim()).digest(), this.digest);
  }

  /** Where to open it: the code rides in the fragment. */
  url(publicUrl: URL): string {
    return `${new URL("/setup", publicUrl).href}#code=${this.code}`;
  }
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
