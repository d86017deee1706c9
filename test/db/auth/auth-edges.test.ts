/**
 * The edges of the authentication library's mount (/api/v1/auth/*): what it would store or look
 * up unchecked is refused before it gets there (400 validation_failed), and whatever it answers
 * with (a refusal, a switched-off or unknown route, its own failure) leaves in our error body,
 * never as plain text or an empty body.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { users } from "../../../server/db/schema/index.js";
import { startService, type HttpClient, type TestService } from "../../support/app.js";
import { expectError, freshEmail, PASSWORD } from "../../support/auth.js";

async function userRow(svc: TestService, userId: string) {
  const [row] = await svc.database.db.select({ name: users.name, image: users.image }).from(users).where(eq(users.id, userId));
  return row!;
}

/** The same session from a new address, so per-IP sign-in limits never get in the way. */
function sameSessionElsewhere(svc: TestService, c: HttpClient): HttpClient {
  const other = svc.client();
  for (const [k, v] of c.cookies) other.cookies.set(k, v);
  return other;
}

describe("update-user: names", () => {
  test("a NUL in the name is 400 validation_failed in our body, and the name stays", async ({ svc }) => {
    const c = await svc.signedIn("Nora Nul");
    const res = await c.post("/api/v1/auth/update-user", { name: "Nora\u0000Nul" });
    expectError(res, 400, "validation_failed");
    expect(res.body.error.message).toMatch(/^body\.name: /);
    expect((await userRow(svc, c.userId)).name).toBe("Nora Nul");
  });

  test("an unpaired surrogate is refused like a NUL; a paired one (an emoji) is a name like any other", async ({ svc }) => {
    const c = await svc.signedIn("Sue Surrogate");
    expectError(await c.post("/api/v1/auth/update-user", { name: "Sue \uD83D" }), 400, "validation_failed");
    expectError(await c.post("/api/v1/auth/update-user", { name: "Sue \uDE00 low" }), 400, "validation_failed");
    expect((await c.post("/api/v1/auth/update-user", { name: "Sue \uD83D\uDE00" })).status).toBe(200);
    expect((await userRow(svc, c.userId)).name).toBe("Sue \uD83D\uDE00");
  });

  test("a name is trimmed and 1 to 120 characters, like every name we keep: a 100 KB name is refused", async ({ svc }) => {
    const c = await svc.signedIn("Lena Long");
    expectError(await c.post("/api/v1/auth/update-user", { name: "x".repeat(100_000) }), 400, "validation_failed");
    expectError(await c.post("/api/v1/auth/update-user", { name: "x".repeat(121) }), 400, "validation_failed");
    expectError(await c.post("/api/v1/auth/update-user", { name: "   " }), 400, "validation_failed");
    expect((await userRow(svc, c.userId)).name).toBe("Lena Long");
    expect((await c.post("/api/v1/auth/update-user", { name: `  ${"y".repeat(120)}  ` })).status).toBe(200);
    expect((await userRow(svc, c.userId)).name).toBe("y".repeat(120));
  });

  test("fields the library would take beyond the person's own profile are refused", async ({ svc }) => {
    const c = await svc.signedIn("Fran Fields");
    expectError(await c.post("/api/v1/auth/update-user", { name: "Fran", emailVerified: true }), 400, "validation_failed");
    expectError(await c.post("/api/v1/auth/update-user", { displayUsername: "d".repeat(5000) }), 400, "validation_failed");
    expect((await userRow(svc, c.userId)).name).toBe("Fran Fields");
  });
});

describe("update-user: the profile picture", () => {
  test("only an https URL is kept; javascript:, data: and http: URLs are refused", async ({ svc }) => {
    const c = await svc.signedIn("Ida Image");
    for (const image of [
      "javascript:alert(1)",
      "JavaScript:alert(document.cookie)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "http://example.test/me.png",
      "https:/example.test",
      "not a url",
      `https://example.test/${"a".repeat(2100)}`,
    ]) {
      const res = await c.post("/api/v1/auth/update-user", { image });
      expect({ image: image.slice(0, 40), status: res.status, code: res.body?.error?.code }).toEqual({
        image: image.slice(0, 40),
        status: 400,
        code: "validation_failed",
      });
    }
    expect((await userRow(svc, c.userId)).image).toBeNull();
    expect((await c.post("/api/v1/auth/update-user", { image: "https://example.test/me.png" })).status).toBe(200);
    expect((await userRow(svc, c.userId)).image).toBe("https://example.test/me.png");
  });

  test("an empty image or null removes the picture", async ({ svc }) => {
    const c = await svc.signedIn("Ed Empty");
    await c.post("/api/v1/auth/update-user", { image: "https://example.test/a.png" });
    expect((await c.post("/api/v1/auth/update-user", { image: "" })).status).toBe(200);
    expect((await userRow(svc, c.userId)).image).toBeNull();
    await c.post("/api/v1/auth/update-user", { image: "https://example.test/b.png" });
    expect((await c.post("/api/v1/auth/update-user", { image: null })).status).toBe(200);
    expect((await userRow(svc, c.userId)).image).toBeNull();
  });
});

describe("reset-password: the token", () => {
  const reset = (svc: TestService, body: unknown, query = "") => svc.client().post(`/api/v1/auth/reset-password${query}`, body);

  test("a NUL in the token is 400 validation_failed in our body, not an empty 500", async ({ svc }) => {
    expectError(await reset(svc, { token: "abc\u0000def", newPassword: "a new long password" }), 400, "validation_failed");
    expectError(await reset(svc, { newPassword: "a new long password" }, "?token=abc%00def"), 400, "validation_failed");
  });

  test("a token outside the library's alphabet or longer than 128 characters is refused before any lookup", async ({ svc }) => {
    for (const token of ["has space", "semi;colon", "ü-umlaut", "a".repeat(129)]) {
      const res = await reset(svc, { token, newPassword: "a new long password" });
      expect({ token: token.slice(0, 20), status: res.status, code: res.body?.error?.code }).toEqual({
        token: token.slice(0, 20),
        status: 400,
        code: "validation_failed",
      });
    }
    expectError(await reset(svc, { newPassword: "a new long password" }, "?token=has%20space"), 400, "validation_failed");
  });

  test("a well-formed but unknown token is the library's own refusal, in our body", async ({ svc }) => {
    const res = await reset(svc, { token: "A".repeat(24), newPassword: "a new long password" });
    expectError(res, 400, "validation_failed");
    expect(res.body.error.details).toEqual({ reason: "INVALID_TOKEN" });
  });
});

describe("anything the library would choke on", () => {
  test("every library route refuses text the database cannot keep in our body, signed in or not", async ({ svc }) => {
    const user = await svc.signedIn("Petra Probe");
    const library = Object.values(svc.services.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
      .filter((e) => typeof e.path === "string" && e.path.startsWith("/") && !e.path.includes(":"))
      .map((e) => {
        const m = e.options?.method;
        const method = (Array.isArray(m) ? m[0] : m) ?? "GET";
        return { method: method === "*" ? "GET" : method, path: `/api/v1/auth${e.path}` };
      });
    const nul = "x\u0000y";
    const body = { name: nul, email: nul, username: nul, password: nul, newPassword: nul, currentPassword: nul, token: nul, code: nul, image: nul };
    const seen = new Set<string>();
    for (const { method, path } of library) {
      if (seen.has(`${method} ${path}`)) continue;
      seen.add(`${method} ${path}`);
      for (const c of [svc.client(), sameSessionElsewhere(svc, user)]) {
        const res = method === "GET" ? await c.get(`${path}?token=x%00y&callbackURL=%00`) : await c.request(method, path, body);
        // Refused before the library runs: as bad input, or as a route we block outright.
        const answer = `${method} ${path} -> ${res.status} ${res.body?.error?.code}`;
        expect([`${method} ${path} -> 400 validation_failed`, `${method} ${path} -> 404 not_found`]).toContain(answer);
      }
    }
    expect(seen.size).toBeGreaterThan(30);
  });

  test("a NUL in a key is refused too", async ({ svc }) => {
    const c = await svc.signedIn();
    expectError(await c.post("/api/v1/auth/update-user", { "na\u0000me": "x" }), 400, "validation_failed");
  });
});

describe("routes the library does not offer here", () => {
  test("switched-off library routes answer 404 not_found in our body, not plain text", async ({ svc }) => {
    const c = await svc.signedIn();
    for (const [method, path] of [
      ["POST", "/api/v1/auth/list-sessions"],
      ["GET", "/api/v1/auth/list-sessions"],
      ["POST", "/api/v1/auth/sign-up/email"],
      ["POST", "/api/v1/auth/change-email"],
      ["GET", "/api/v1/auth/verify-email?token=abc"],
      ["GET", "/api/v1/auth/magic-link/verify?token=abc"],
      ["POST", "/api/v1/auth/two-factor/send-otp"],
    ] as const) {
      const res = await c.request(method, path, method === "GET" ? undefined : {});
      expect({ route: `${method} ${path}`, status: res.status, code: res.body?.error?.code }).toEqual({
        route: `${method} ${path}`,
        status: 404,
        code: "not_found",
      });
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  test("a path the library has no route for is 404 not_found in our body, signed in or not", async ({ svc }) => {
    const c = await svc.signedIn();
    for (const client of [c, svc.client()]) {
      expectError(await client.get("/api/v1/auth/no-such-route"), 404, "not_found");
      expectError(await client.post("/api/v1/auth/no/such/route", {}), 404, "not_found");
    }
  });
});

describe("when the library fails", () => {
  async function withLibraryAnswer<T>(svc: TestService, answer: () => Response, run: () => Promise<T>): Promise<T> {
    const auth = svc.services.auth as { handler: (r: Request) => Promise<Response> };
    const real = auth.handler;
    auth.handler = async () => answer();
    try {
      return await run();
    } finally {
      auth.handler = real;
    }
  }

  test("an empty 500 from the library leaves as 500 internal in our body", async ({ svc }) => {
    const res = await withLibraryAnswer(
      svc,
      () => new Response(null, { status: 500 }),
      () => svc.client().post("/api/v1/auth/sign-in/email", { email: freshEmail(), password: PASSWORD }),
    );
    expectError(res, 500, "internal");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  test("a 500 with the library's own message says nothing of the cause", async ({ svc }) => {
    const failure = () => Response.json({ code: "FAILED_TO_CREATE_SESSION", message: 'relation "auth_sessions" does not exist' }, { status: 500 });
    const res = await withLibraryAnswer(svc, failure, () => svc.client().post("/api/v1/auth/sign-in/email", { email: freshEmail(), password: PASSWORD }));
    expectError(res, 500, "internal");
    expect(JSON.stringify(res.body)).not.toContain("auth_sessions");
  });
});

describe("sign-up: the name", () => {
  const signUp = (svc: TestService, name: string) => {
    const email = freshEmail("edge");
    return { email, res: svc.client().post("/api/v1/auth/sign-up", { email, password: PASSWORD, name }) };
  };
  const created = async (svc: TestService, email: string) =>
    (await svc.database.db.select({ name: users.name }).from(users).where(eq(users.email, email)))[0]?.name;

  test("a NUL or an unpaired surrogate in the name is 400 validation_failed, not 'accepted'", async ({ svc }) => {
    for (const name of ["Nina\u0000Nul", "Sam \uD800", "\uDFFF"]) {
      const { email, res } = signUp(svc, name);
      expectError(await res, 400, "validation_failed");
      expect(await created(svc, email)).toBeUndefined();
    }
  });

  test("the name is trimmed and 1 to 120 characters", async ({ svc }) => {
    expectError(await signUp(svc, "z".repeat(121)).res, 400, "validation_failed");
    expectError(await signUp(svc, " \t ").res, 400, "validation_failed");
    const { email, res } = signUp(svc, "  Tia Trim  ");
    expect((await res).status).toBe(200);
    expect(await created(svc, email)).toBe("Tia Trim");
  });

  test("when the library refuses to create the account for a reason other than a taken address, the answer is an error, not 'accepted'", async ({ svc }) => {
    const api = svc.services.auth.api as { signUpEmail: (...args: unknown[]) => Promise<unknown> };
    const real = api.signUpEmail;
    api.signUpEmail = async () => {
      throw Object.assign(new Error("Failed to create user"), { status: "UNPROCESSABLE_ENTITY", statusCode: 422 });
    };
    try {
      const { email, res } = signUp(svc, "Una Unlucky");
      expectError(await res, 500, "internal");
      expect(await created(svc, email)).toBeUndefined();
    } finally {
      api.signUpEmail = real;
    }
  });
});

describe("the library's own log lines", () => {
  test("a database failure inside the library is logged through our logger, without the SQL, the address or the session token", async () => {
    const lines: string[] = [];
    const logged = await startService({ SVC_LOG_LEVEL: "info" }, undefined, { log: { write: (line: string) => void lines.push(line) } });
    const email = freshEmail("logged");
    const up = await logged.client().post("/api/v1/auth/sign-up", { email, password: PASSWORD, name: "Lena Logged" });
    expect(up.status).toBe(200);
    // Sessions cannot be written: the library's sign-in fails inside its own code and logs it.
    await logged.database.db.execute(
      sql.raw(`CREATE FUNCTION probe_refuse_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'sessions are read-only' USING ERRCODE = '25006', DETAIL = 'row ' || NEW.token; END $$`),
    );
    await logged.database.db.execute(
      sql.raw(`CREATE TRIGGER probe_refuse_sessions BEFORE INSERT ON auth_sessions FOR EACH ROW EXECUTE FUNCTION probe_refuse_sessions()`),
    );
    // Whatever the library would print itself (console.*) is caught here too.
    const spoken: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
      vi
        .spyOn(console, m)
        .mockImplementation(
          (...args: unknown[]) => void spoken.push(args.map((a) => (a instanceof Error ? `${a.message} ${String(a.cause)}` : String(a))).join(" ")),
        ),
    );
    try {
      const res = await logged.client().post("/api/v1/auth/sign-in/email", { email, password: PASSWORD });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body.error.code).toBe("internal");
    } finally {
      for (const spy of spies) spy.mockRestore();
      await logged.database.db.execute(sql.raw(`DROP TRIGGER probe_refuse_sessions ON auth_sessions`));
      await logged.database.db.execute(sql.raw(`DROP FUNCTION probe_refuse_sessions()`));
      await logged.close();
    }
    // The failure reaches our log once, as its SQLSTATE and the query's name.
    const logged500 = lines.map((l) => JSON.parse(l) as { err?: Record<string, unknown> }).filter((l) => l.err?.code === "25006");
    expect(logged500.length).toBeGreaterThan(0);
    expect(spoken).toEqual([]);
    const everything = lines.join("") + spoken.join("");
    expect(everything).not.toContain(email);
    expect(everything).not.toMatch(/insert into/i);
    expect(everything).not.toContain("sessions are read-only");
  });
});
