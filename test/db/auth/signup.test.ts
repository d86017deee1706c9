/**
 * Sign-up (spec "Sign-up" 1-5) through the real HTTP server: closed by default, opened by
 * SVC_SIGNUP_OPEN or the `signup_open` instance setting, the same answer for taken and free
 * addresses, and the library's own sign-up switched off.
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import { loadConfig } from "../../../server/config.js";
import type { Database } from "../../../server/db/client.js";
import { instanceSettings, users } from "../../../server/db/schema/index.js";
import { type TestService } from "../../support/app.js";

const PASSWORD = "correct horse battery";
let n = 0;
const fresh = (name = "Sam Signup") => ({ email: `signup${++n}@example.test`, password: PASSWORD, name });

let database: Database;
let open: TestService;
let closed: TestService;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  open = await serviceOn({ SVC_SIGNUP_OPEN: "1" });
  closed = await serviceOn({ SVC_SIGNUP_OPEN: "" });
});

async function userCount(email: string): Promise<number> {
  const rows = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return rows.length;
}

async function setSignupSetting(value: unknown) {
  await database.db.insert(instanceSettings).values({ key: "signup_open", value }).onConflictDoUpdate({ target: instanceSettings.key, set: { value } });
}

async function clearSignupSetting() {
  await database.db.delete(instanceSettings).where(eq(instanceSettings.key, "signup_open"));
}

describe("whether sign-up is open", () => {
  test("sign-up is closed when SVC_SIGNUP_OPEN is not set", () => {
    const config = loadConfig({ PORT: "0" }, { secret: "x".repeat(40) });
    expect(config.signupOpen).toBe(false);
  });

  test("a closed server answers 403 signup_closed and creates no user", async () => {
    const body = fresh();
    const res = await closed.client().post("/api/v1/auth/sign-up", body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: "signup_closed", message: expect.any(String) } });
    expect(await userCount(body.email)).toBe(0);
  });

  test("SVC_SIGNUP_OPEN=1 opens sign-up", async () => {
    const body = fresh();
    const res = await open.client().post("/api/v1/auth/sign-up", body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "accepted", message: expect.any(String) });
    expect(await userCount(body.email)).toBe(1);
  });

  test("the signup_open instance setting opens sign-up on a server started closed", async () => {
    try {
      await setSignupSetting(true);
      const body = fresh();
      const res = await closed.client().post("/api/v1/auth/sign-up", body);
      expect(res.status).toBe(200);
      expect(await userCount(body.email)).toBe(1);
    } finally {
      await clearSignupSetting();
    }
  });

  test("the signup_open instance setting set to false (or anything but true) keeps it closed", async () => {
    try {
      for (const value of [false, "true", 1]) {
        await setSignupSetting(value);
        const body = fresh();
        const res = await closed.client().post("/api/v1/auth/sign-up", body);
        expect({ value, status: res.status, code: res.body?.error?.code }).toEqual({ value, status: 403, code: "signup_closed" });
        expect(await userCount(body.email)).toBe(0);
      }
    } finally {
      await clearSignupSetting();
    }
  });

  test("once the setting is removed, sign-up is closed again", async () => {
    await clearSignupSetting();
    const res = await closed.client().post("/api/v1/auth/sign-up", fresh());
    expect(res.status).toBe(403);
  });
});

describe("the answer does not reveal who has an account", () => {
  test("a taken address gets exactly the status and body a free one gets", async () => {
    const first = fresh("Ann Taken");
    const free = await open.client().post("/api/v1/auth/sign-up", first);
    const taken = await open.client().post("/api/v1/auth/sign-up", { ...first, password: "another long password", name: "Mallory" });
    expect(taken.status).toBe(free.status);
    expect(taken.body).toEqual(free.body);
    expect(taken.headers.get("content-type")).toBe(free.headers.get("content-type"));
    expect(taken.headers.getSetCookie()).toEqual(free.headers.getSetCookie());
  });

  test("an address taken in another letter case gets the same answer and no second user", async () => {
    const first = fresh();
    const free = await open.client().post("/api/v1/auth/sign-up", first);
    const upper = await open.client().post("/api/v1/auth/sign-up", { ...first, email: first.email.toUpperCase() });
    expect(upper.status).toBe(free.status);
    expect(upper.body).toEqual(free.body);
    expect(await userCount(first.email)).toBe(1);
  });

  test("signing up again with a taken address changes neither the password nor the name", async () => {
    const first = fresh("Original Name");
    await open.client().post("/api/v1/auth/sign-up", first);
    await open.client().post("/api/v1/auth/sign-up", { ...first, password: "attacker chosen password", name: "Attacker" });
    const c = open.client();
    expect((await c.post("/api/v1/auth/sign-in/email", { email: first.email, password: "attacker chosen password" })).status).toBe(401);
    const signIn = await c.post("/api/v1/auth/sign-in/email", { email: first.email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.name).toBe("Original Name");
  });

  test("concurrent sign-ups with the same address all get the same answer and make one user", async () => {
    const body = fresh();
    const answers = await Promise.all([1, 2, 3, 4].map(() => open.client().post("/api/v1/auth/sign-up", body)));
    for (const a of answers) expect({ status: a.status, body: a.body }).toEqual({ status: answers[0]!.status, body: answers[0]!.body });
    expect(answers[0]!.status).toBe(200);
    expect(await userCount(body.email)).toBe(1);
  });
});

describe("the request body", () => {
  test.each([
    ["no email", { password: PASSWORD, name: "No Email" }],
    ["an invalid email", { email: "not-an-address", password: PASSWORD, name: "Bad Email" }],
    ["a password under 8 characters", { email: "short@example.test", password: "short", name: "Short" }],
    ["an empty name", { email: "noname@example.test", password: PASSWORD, name: "   " }],
    ["an unknown field", { email: "extra@example.test", password: PASSWORD, name: "Extra", admin: true }],
    ["a non-object body", ["a", "list"]],
  ])("a body with %s is refused with 400 validation_failed", async (_what, body) => {
    const res = await open.client().post("/api/v1/auth/sign-up", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", message: expect.any(String) });
    const email = (body as { email?: unknown }).email;
    if (typeof email === "string" && email.includes("@")) expect(await userCount(email)).toBe(0);
  });
});

describe("the authentication library's own sign-up", () => {
  test("POST /api/v1/auth/sign-up/email is switched off and creates no user, even while sign-up is open", async () => {
    for (const svc of [open, closed]) {
      const body = fresh();
      const res = await svc.client().post("/api/v1/auth/sign-up/email", body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.status).not.toBe(200);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await userCount(body.email)).toBe(0);
    }
  });
});

describe("after sign-up", () => {
  test("the new account can sign in and its session names the user", async () => {
    const body = fresh("Pat Newcomer");
    const c = open.client();
    expect((await c.post("/api/v1/auth/sign-up", body)).status).toBe(200);
    // Sign-up never signs in by itself.
    expect(c.cookies.size).toBe(0);
    const signIn = await c.post("/api/v1/auth/sign-in/email", { email: body.email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ email: body.email, name: "Pat Newcomer" });
    const session = await c.get("/api/v1/auth/get-session");
    expect(session.body.user.email).toBe(body.email);
  });

  test("an address given in upper case is stored in lower case and signs in in either case", async () => {
    const body = fresh();
    expect((await open.client().post("/api/v1/auth/sign-up", { ...body, email: body.email.toUpperCase() })).status).toBe(200);
    expect(await userCount(body.email)).toBe(1);
    for (const email of [body.email, body.email.toUpperCase()]) {
      const signIn = await open.client().post("/api/v1/auth/sign-in/email", { email, password: PASSWORD });
      expect(signIn.status).toBe(200);
      expect(signIn.body.user.email).toBe(body.email);
    }
  });
});
