/**
 * axe-core in the page under test. The app's Content-Security-Policy refuses script tags it did
 * not serve, so axe's source goes in through the DevTools protocol (page.evaluate of its text),
 * which no page policy governs; it stays until the next navigation.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
export const AXE_VERSION = (JSON.parse(readFileSync(require.resolve("axe-core/package.json"), "utf8")) as { version: string }).version;

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices (target-size is in wcag22aa). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

export interface AxeFinding {
  rule: string;
  impact: string;
  /** One CSS selector per node, shadow and frame parts joined by " >> ". */
  targets: string[];
  /** What axe says of the first node (why it failed, or why it could not decide). */
  message: string;
}

/** The page's violations and its undecided ("needs review") items, trimmed to what a report lists. */
export async function runAxe(page: Page): Promise<{ violations: AxeFinding[]; incomplete: AxeFinding[] }> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    interface Check {
      message: string;
    }
    interface Node {
      target: unknown[];
      failureSummary?: string;
      any: Check[];
      all: Check[];
      none: Check[];
    }
    interface Result {
      id: string;
      impact?: string | null;
      nodes: Node[];
    }
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Result[]; incomplete: Result[] }> } }).axe;
    const res = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      rules: { "target-size": { enabled: true } },
      resultTypes: ["violations", "incomplete"],
    });
    const trim = (r: Result) => ({
      rule: r.id,
      impact: r.impact ?? "",
      targets: r.nodes.map((n) => n.target.map((t) => (Array.isArray(t) ? t.join(" >> ") : String(t))).join(" >> ")),
      message: (() => {
        const n = r.nodes[0];
        if (!n) return "";
        return [...n.any, ...n.all, ...n.none].map((c) => c.message).join(" / ") || (n.failureSummary ?? "");
      })(),
    });
    return { violations: res.violations.map(trim), incomplete: res.incomplete.map(trim) };
  }, AXE_TAGS);
}
