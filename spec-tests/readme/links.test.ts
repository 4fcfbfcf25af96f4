// README.md stays navigable: its Contents lists every section and subsection in order, and
// every in-page link (`[text](#anchor)`) lands on a heading, by the anchors GitHub makes
// (lower case, punctuation but `-` and `_` dropped, spaces as `-`, a repeat suffixed -1, -2…);
// and the files and npm scripts it sends readers to are there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { projectRoot } from "../harness/project-root.js";

/** The headings of `markdown` outside code blocks, with their level and GitHub anchor. */
export function headings(markdown: string): { level: number; text: string; anchor: string }[] {
  const seen = new Map<string, number>();
  const out: { level: number; text: string; anchor: string }[] = [];
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const m = inCode ? null : /^(#{1,6}) (.*)$/.exec(line);
    if (m === null) continue;
    const text = m[2].trim();
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ level: m[1].length, text, anchor: n === 0 ? base : `${base}-${n}` });
  }
  return out;
}

const readme = readFileSync(join(projectRoot(), "README.md"), "utf8");
const all = headings(readme);

test("README: every in-page link names a heading's anchor", () => {
  const anchors = new Set(all.map((h) => h.anchor));
  const links = [...readme.matchAll(/\]\(#([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(links.length > 20, "the Contents alone links every section");
  assert.deepEqual([...new Set(links.filter((l) => !anchors.has(l)))], []);
});

test("README: Contents lists every section (##) and subsection (###) after it, in order, each linked to its anchor", () => {
  const start = readme.indexOf("## Contents\n");
  assert.ok(start > 0, "README has a Contents section");
  const listed = readme
    .slice(start)
    .split("\n\n")[1]
    .split("\n")
    .map((l) => /^( *)- \[(.*)\]\(#(.*)\)$/.exec(l))
    .map((m) => (m === null ? null : { level: m[1].length / 2 + 2, text: m[2], anchor: m[3] }));
  const expected = all.filter((h) => (h.level === 2 || h.level === 3) && h.text !== "Contents");
  assert.deepEqual(listed, expected);
});

test("headings(): GitHub's anchors: punctuation dropped, repeats numbered, code blocks skipped", () => {
  const md = "# A: b/c\n## A: b/c\n```\n# not a heading\n```\n### Entry points, errors — and `the` rest";
  assert.deepEqual(
    headings(md).map((h) => h.anchor),
    ["a-bc", "a-bc-1", "entry-points-errors--and-the-rest"],
  );
});

test("README: every repository path it names (src/, spec-tests/, bench/, scripts/, conformance/, .ci/) exists, and every npm script it names is in package.json", () => {
  const root = projectRoot();
  // What a run writes, git-ignored (the benchmarks' results), is named but not committed.
  const ignored = new Set(readFileSync(join(root, ".gitignore"), "utf8").split("\n").map((l) => l.trim()));
  const paths = new Set([...readme.matchAll(/(?<![\w./-])(?:src|spec-tests|bench|scripts|conformance|\.ci)\/[\w./*-]*/g)].map((m) => m[0].replace(/[.]+$/, "")));
  assert.ok(paths.size > 20, "the README names the sources and tests it speaks of");
  /** True when `path` (a `*` standing for any run of a file name's characters) names something in the clone. */
  const exists = (path: string): boolean => {
    if (!path.includes("*")) return existsSync(join(root, path));
    const pattern = new RegExp(`^${basename(path).replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
    return existsSync(join(root, dirname(path))) && readdirSync(join(root, dirname(path))).some((name) => pattern.test(name));
  };
  assert.deepEqual([...paths].filter((p) => !ignored.has(p) && !exists(p)), []);

  const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const named = [...readme.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)].map((m) => m[1] ?? m[2]);
  assert.ok(named.includes("bench:compare") && named.includes("start"));
  assert.deepEqual([...new Set(named)].filter((n) => !(n in scripts)), []);
});
