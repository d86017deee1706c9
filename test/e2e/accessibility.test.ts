/**
 * Every route of the app (client/ui/routes.ts, so a new route is checked without a line here) at
 * 360 and 1280 px, in English and Arabic, through axe-core with WCAG 2.2 AA and best practices:
 * no violations. Routes with parameters open real rows this test makes (a place, a thing with
 * photos, a meter, a loan, a box check, a move with a box, a duplicate and a dropped change in the
 * inbox, a share link, an export); the pages of the way in open signed out. Nowhere does axe leave
 * contrast or label-in-name undecided either: what it cannot decide, nobody has checked.
 * docs/guide/accessibility.md says what this covers and what it does not.
 */
import { describe, expect } from "vitest";
import type { Page } from "playwright-core";
import { routes } from "../../client/ui/routes.js";
import { PNG, raw, richLocation } from "../support/rich-location.js";
import { op, push } from "../support/push.js";
import { e2eTest as it } from "./support/fixtures.js";
import { AXE_VERSION, runAxe, type AxeFinding } from "./support/axe.js";

type RouteName = keyof typeof routes;
const WIDTHS = [360, 1280] as const;
const LANGS = ["en", "ar"] as const;
/** Rules whose "needs review" must be empty on every page: what axe cannot decide here, nobody has checked. */
const DECIDED_RULES = ["color-contrast", "label-content-name-mismatch"];

interface Finding extends AxeFinding {
  route: string;
  width: number;
  lang: string;
}

const line = (f: Finding) => `${f.route} @${f.width}px ${f.lang}: ${f.rule} (${f.impact}) ${f.targets.join(", ")} — ${f.message}`;

/** The screen has drawn its heading and nothing is still loading (a lazy chunk, a first read). */
async function settled(page: Page): Promise<void> {
  await page.locator("main h1, main h2, [role=alert]").first().waitFor({ timeout: 20_000 });
  await page.locator(".screen-loading").waitFor({ state: "detached", timeout: 20_000 });
  await page.waitForTimeout(250);
}

describe("accessibility", () => {
  it(
    "every route at 360 and 1280 px, in English and Arabic, has no axe violations (WCAG 2.2 AA and best practices)",
    { timeout: 600_000 },
    async ({ e2e, newPerson }) => {
      const started = Date.now();
      const person = await newPerson("Ada Access", "ada", { viewport: { width: 360, height: 780 } });
      const { page, locationId: loc } = person;
      const api = await person.client();
      const ok = async <T = { id: string }>(res: Promise<{ status: number; body: unknown }>, status = 201): Promise<T> => {
        const r = await res;
        expect(r.status, JSON.stringify(r.body)).toBe(status);
        return r.body as T;
      };

      // Something in every table a screen shows: places, things in a box, photos, a meter with
      // readings, a loan, a box check, a move with a box (test/support/rich-location.ts).
      const me = await ok<{ user: { id: string } }>(api.get("/api/v1/me"), 200);
      const owner = Object.assign(api, { email: person.email, userId: me.user.id });
      const rich = await richLocation(e2e.svc, owner, loc);
      const second = await raw(e2e.svc, owner, "POST", `/api/v1/files?locationId=${loc}`, PNG, { "content-type": "application/octet-stream" });
      expect(second.status).toBe(201);
      await ok(api.post(`/api/v1/things/${rich.dune}/photos`, { fileId: second.json().id }), 200);
      const move = (await ok<{ items: { id: string }[] }>(api.get(`/api/v1/locations/${loc}/moves`), 200)).items[0]!.id;
      const { shortCode } = await ok<{ shortCode: string }>(api.get(`/api/v1/things/${rich.loose}`), 200);
      // The inbox: a possible duplicate (same serial) and a change the server dropped (a stale edit).
      await ok(api.post(`/api/v1/locations/${loc}/things`, { name: "Loose thing again", serial: "SN-1" }));
      const dropped = await push(api, [op({ name: "thing.update", locationId: loc, baseVersion: 99, args: { id: rich.loose, patch: { name: "Renamed" } } })]);
      expect(dropped.body.results[0]).toMatchObject({ status: "dropped" });
      const share = await ok<{ url: string }>(api.post("/api/v1/share-links", { scope: "thing", targetId: rich.dune, title: "For the neighbours" }));
      await ok(api.post("/api/v1/exports", { scope: "location", locationId: loc }));

      const params: Record<string, string> = { locationId: loc, thingId: rich.crate, meterId: rich.meter, moveId: move, code: shortCode };
      const shareUrl = new URL(share.url);
      const paramsOf: Partial<Record<RouteName, Record<string, string>>> = {
        share: { shareId: shareUrl.pathname.split("/").pop()! },
        // The photos and the history are on a thing in a box; the box check on the box itself.
        thing: { ...params, thingId: rich.dune },
        moveThing: { ...params, thingId: rich.dune },
      };
      /** What a screen shows once its rows have arrived, so axe sees the full screen and not a first read. */
      const shows: Partial<Record<RouteName, string>> = {
        thing: "Herbert",
        boxCheck: "Dune",
        meter: "Cold",
        inbox: "Loose thing again",
        move: "Crate",
        loans: "Loose thing",
        things: "Dune",
        places: "Study",
      };

      const findings: Finding[] = [];
      const undecided: Finding[] = [];
      let checks = 0;
      let axeMs = 0;
      /** What axe left for a person to review anywhere, by rule: printed, for the accessibility statement's known limits. */
      const toReview: Record<string, Set<string>> = {};
      const check = async (p: Page, route: RouteName, lang: string) => {
        // The screen is in the language being checked (so the Arabic pass reads right to left).
        expect(await p.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), route).toEqual(
          lang.startsWith("ar") ? ["ar", "rtl"] : ["en", "ltr"],
        );
        for (const width of WIDTHS) {
          await p.setViewportSize({ width, height: width === 360 ? 780 : 800 });
          await p.waitForTimeout(150);
          const t0 = Date.now();
          const { violations, incomplete } = await runAxe(p);
          axeMs += Date.now() - t0;
          checks++;
          for (const v of violations) findings.push({ ...v, route, width, lang });
          for (const i of incomplete) (toReview[i.rule] ??= new Set()).add(route);
          for (const i of incomplete.filter((x) => DECIDED_RULES.includes(x.rule))) undecided.push({ ...i, route, width, lang });
        }
      };

      const stranger = await e2e.device({ viewport: { width: 360, height: 780 } });
      await stranger.page.goto(routes.signIn.href());
      await settled(stranger.page);
      // The check can fail: an unlabelled field and two touching 12 px buttons are found (label, target-size).
      await stranger.page.evaluate(() => {
        const bad = document.createElement("div");
        bad.innerHTML = "<input type=text><button>a</button><button>b</button>";
        // Through the CSSOM: the page's CSP drops style attributes written as markup.
        for (const b of bad.querySelectorAll("button"))
          b.style.cssText = "display:inline-block;width:12px;height:12px;min-height:0;padding:0;margin:0;border:0";
        document.querySelector("main")!.append(bad);
      });
      expect((await runAxe(stranger.page)).violations.map((v) => v.rule)).toEqual(expect.arrayContaining(["label", "target-size"]));
      await stranger.page.reload();
      // The first sync has brought the rows the screens read.
      await page.goto(routes.things.href({ locationId: loc }));
      await page.getByText("Dune").first().waitFor({ timeout: 60_000 });

      const landed: string[] = [];
      for (const lang of LANGS) {
        for (const p of [page, stranger.page]) await p.evaluate((l) => localStorage.setItem("lang", l), lang);
        for (const [name, route] of Object.entries(routes) as [RouteName, (typeof routes)[RouteName]][]) {
          const signedOut = route.beforeSignIn;
          const p = signedOut ? stranger.page : page;
          const path = route.pattern.includes(":") ? (route.href as (p: Record<string, string>) => string)(paramsOf[name] ?? params) : route.href();
          // A share link's key rides in the fragment, which the server never sees.
          const href = name === "share" ? `${path}${shareUrl.hash}` : path;
          await p.goto(href);
          await settled(p);
          const text = shows[name];
          if (text) await p.getByText(text, { exact: false }).filter({ visible: true }).first().waitFor({ timeout: 20_000 });
          if (lang === "en") landed.push(`${name} ${href} -> ${new URL(p.url()).pathname}`);
          await check(p, name, lang);
        }
        // A share link is read by people with no account: its page signed out too.
        await stranger.page.goto(share.url);
        await settled(stranger.page);
        await check(stranger.page, "share", `${lang} signed out`);
        // The report page once a report is asked for (no worker runs here: it stays queued).
        await page.goto(routes.report.href({ locationId: loc }));
        await settled(page);
        await page.getByRole("button", { name: lang === "en" ? "Make report" : "إعداد التقرير" }).click();
        await page.getByRole("status").first().waitFor();
        await check(page, "report", `${lang} asked`);
      }

      // From the keyboard (in Arabic, the last pass): the first Tab reaches "Skip to content", shown on screen, and it leads to the main region.
      await page.setViewportSize({ width: 360, height: 780 });
      await page.goto(routes.things.href({ locationId: loc }));
      await settled(page);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "انتقل إلى المحتوى" });
      expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
      const box = (await skip.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      await page.keyboard.press("Enter");
      expect(new URL(page.url()).hash).toBe("#main");

      console.log(
        `accessibility: axe-core ${AXE_VERSION}, ${checks} checks of ${Object.keys(routes).length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s (axe itself ${(axeMs / 1000).toFixed(1)} s)\n  ${landed.join("\n  ")}\n  needs review: ${
          Object.entries(toReview)
            .map(([rule, on]) => `${rule} (${[...on].join(", ")})`)
            .join("; ") || "nothing"
        }`,
      );
      expect({ violations: findings.map(line), undecided: undecided.map(line) }).toEqual({ violations: [], undecided: [] });
    },
  );
});
