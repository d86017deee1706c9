/**
 * The documentation holds together: every relative link and image in README.md and docs/**.md
 * names a file of the repository that exists, every #anchor names a heading of its target (GitHub's
 * slugs), no link leaves the repository, every code fence is closed, the README stays a front page (150 lines at most) and no
 * docs page grows past 250 lines (split it by task instead).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const README_MAX_LINES = 150;
const PAGE_MAX_LINES = 250;

/** Markdown files by path relative to the repository root, with forward slashes. */
type Pages = Map<string, string>;

function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(rel);
    return entry.name.endsWith(".md") ? [rel] : [];
  });
}

/** Code blocks and code spans blanked out (same length, newlines kept), so a link written as code is not a link. */
function withoutCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, blank).replace(/`[^`]*`/g, blank);
}

/** GitHub's heading anchor: the heading's text, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page offers: its headings' slugs, a repeated one numbered as GitHub does (-1, -2, ...). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "").split("\n")) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** What is wrong with the pages' relative links and lengths, one line each, naming file and link. */
function docsProblems(pages: Pages, exists: (rel: string) => "file" | "dir" | null, read: (rel: string) => string): string[] {
  const problems: string[] = [];
  for (const [file, text] of pages) {
    const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
    const max = file === "README.md" ? README_MAX_LINES : PAGE_MAX_LINES;
    if (lines > max) problems.push(`${file}: ${lines} lines, more than ${max}`);
    // An unclosed fence turns the rest of the page into code (and hides its links from this check).
    if ((text.match(/^\s*```/gm) ?? []).length % 2) problems.push(`${file}: a code fence (\`\`\`) is never closed`);
    for (const match of withoutCode(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const link = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: and the like: not ours to check
      const [target = "", anchor] = link.split("#", 2);
      if (link === "" || target.startsWith("/")) {
        problems.push(`${file}: link "${link}" is not a relative link`);
        continue;
      }
      const rel = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target))) : file;
      if (rel === ".." || rel.startsWith("../")) {
        problems.push(`${file}: link "${link}" points outside the repository`);
        continue;
      }
      const kind = exists(rel.replace(/\/$/, "") || ".");
      if (!kind) {
        problems.push(`${file}: link "${link}" names ${rel}, which does not exist`);
        continue;
      }
      if (anchor === undefined) continue;
      if (kind !== "file" || !rel.endsWith(".md")) {
        problems.push(`${file}: link "${link}" has an anchor but ${rel} is not a markdown file`);
        continue;
      }
      const anchors = anchorsOf(pages.get(rel) ?? read(rel));
      if (!anchors.has(decodeURIComponent(anchor))) problems.push(`${file}: link "${link}": ${rel} has no heading #${anchor}`);
    }
  }
  return problems;
}

const onDisk = (rel: string) => {
  const full = path.join(root, rel);
  if (!existsSync(full)) return null;
  return statSync(full).isDirectory() ? "dir" : "file";
};
const readRel = (rel: string) => readFileSync(path.join(root, rel), "utf8");

test("every relative link of README.md and docs/ resolves, and no page is too long", () => {
  const files = ["README.md", ...markdownUnder("docs")];
  expect(files.length).toBeGreaterThan(10);
  const pages: Pages = new Map(files.map((f) => [f, readRel(f)]));
  expect(docsProblems(pages, onDisk, readRel)).toEqual([]);
});

test("the check finds a missing file, a wrong anchor, a link out of the repository and a long page", () => {
  const pages: Pages = new Map([
    ["README.md", "# Top\n\n## Quick start\n\n[ok](docs/a.md#the-b-c) [self](#quick-start) `[code](nowhere.md)`\n"],
    ["docs/a.md", "# A\n\n## The `b` c\n\n[gone](b.md) [bad](../README.md#nope) [out](../../x.md) ![img](pic.png)\n"],
    ["docs/long.md", "line\n".repeat(PAGE_MAX_LINES + 1)],
    ["docs/fence.md", "# F\n\n```\ncode\n```\n\n```\n[hidden](gone.md)\n"],
  ]);
  const exists = (rel: string) => (pages.has(rel) ? "file" : rel === "docs" ? "dir" : null);
  expect(docsProblems(pages, exists, (rel) => pages.get(rel) ?? "")).toEqual([
    'docs/a.md: link "b.md" names docs/b.md, which does not exist',
    'docs/a.md: link "../README.md#nope": README.md has no heading #nope',
    'docs/a.md: link "../../x.md" points outside the repository',
    'docs/a.md: link "pic.png" names docs/pic.png, which does not exist',
    `docs/long.md: ${PAGE_MAX_LINES + 1} lines, more than ${PAGE_MAX_LINES}`,
    "docs/fence.md: a code fence (```) is never closed",
    'docs/fence.md: link "gone.md" names docs/gone.md, which does not exist',
  ]);
  const longReadme: Pages = new Map([["README.md", "line\n".repeat(README_MAX_LINES + 1)]]);
  expect(
    docsProblems(
      longReadme,
      () => "file",
      () => "",
    ),
  ).toEqual([`README.md: ${README_MAX_LINES + 1} lines, more than ${README_MAX_LINES}`]);
});

test("anchors are GitHub's slugs", () => {
  expect(slug("Box checks, codes, labels and scanning in the app")).toBe("box-checks-codes-labels-and-scanning-in-the-app");
  expect(slug("Security, devices and tokens (Settings)")).toBe("security-devices-and-tokens-settings");
  expect(slug("The `sync_drop` item: what & why")).toBe("the-sync_drop-item-what--why");
  expect([...anchorsOf("# A\n## Endpoints\n### Endpoints\n```\n# not a heading\n```\n")]).toEqual(["a", "endpoints", "endpoints-1"]);
});
