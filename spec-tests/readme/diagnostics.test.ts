// README "Diagnostics" stays true: its three tables list every diagnostic `code` the
// sources under src/ emit, each under the emitter that emits it (the session kernel,
// src/session/ and src/modern/; the task table, src/tasks/; the HTTP handler,
// src/transports/), and no code that nothing emits any more. The codes are read from the
// sources as written: a `{ type: "diagnostic", code: … }` object (a string, a ternary of
// strings, or a `const` of those), and a `diagnose(…)` call's code argument. A site whose
// code cannot be read that way fails the test, so a new way of emitting cannot slip by.
// The closing paragraph's other channels (protectedResource's `error`s, onFault's kinds)
// are held to their sources too. Spec: none (the kernel's own observability surface).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { projectRoot } from "../harness/project-root.js";

const root = projectRoot();
type Emitter = "session" | "tasks" | "http";

/** The README section under `heading`, up to the next heading of its level or above. */
export function readmeSection(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no "${heading}"`);
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The catalogue's codes by emitter: the first column of each table whose header names its emitter. */
export function catalogued(section: string): Map<Emitter, string[]> {
  const headers: Record<string, Emitter> = { "session code": "session", "task table code": "tasks", "HTTP handler code": "http" };
  const found = new Map<Emitter, string[]>();
  let current: Emitter | undefined;
  for (const line of section.split("\n")) {
    if (!line.startsWith("|")) {
      current = undefined;
      continue;
    }
    const first = line.split("|")[1].trim();
    if (current === undefined) {
      current = headers[first];
      assert.ok(current !== undefined, `a table in "Diagnostics" with an unknown header: ${line}`);
      found.set(current, found.get(current) ?? []);
      continue;
    }
    if (/^-+$/.test(first)) continue;
    const codes = [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.ok(codes.length > 0, `a row without a code: ${line}`);
    found.get(current)!.push(...codes);
  }
  return found;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "generated") sourceFiles(path, out);
    } else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The kebab-case string literals of `expr`; of a ternary, those of its branches only (not the condition's). */
function codesIn(expr: string): string[] {
  const q = expr.indexOf("?");
  const branches = q < 0 ? expr : expr.slice(q + 1);
  return [...branches.matchAll(/"([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"/g)].map((m) => m[1]);
}

/** Sites that pass a code on rather than name one: the helpers' definitions and forwarders. */
const FORWARDERS = [
  "src/driver/endpoint.ts: diagnose(code: string",
  "src/driver/endpoint.ts: type: \"diagnostic\", code",
  "src/tasks/records.ts: type: \"diagnostic\", code",
  "src/tasks/records.ts: diagnose(out: TaskOutput[]",
  "src/transports/http-server.ts: diagnose(code",
  "src/transports/http/http-sse-server.ts: diagnose(code: string",
  "src/transports/http/modern-request.ts: diagnose(code: string",
  "src/transports/http/server-session.ts: diagnose(code: string",
  "src/transports/http/session-table.ts: diagnose(code",
  "src/transports/http/session-table.ts: diagnose(code: string",
  "src/transports/http/stateless.ts: diagnose(code: string",
];

/** Every emitted code by emitter, with its sites, and the sites whose code could not be read. */
export function emitted(): { codes: Map<Emitter, Map<string, string[]>>; unread: string[] } {
  const codes = new Map<Emitter, Map<string, string[]>>();
  const unread = new Set<string>();
  for (const file of sourceFiles(join(root, "src"))) {
    const text = readFileSync(file, "utf8");
    const rel = relative(root, file).split(sep).join("/");
    // McpServer's own (src/api/) go through a request's context to the same onEvent as the kernel's.
    const emitter: Emitter | undefined = /^src\/(session|modern|api|driver)\//.test(rel) ? "session" : rel.startsWith("src/tasks/") ? "tasks" : rel.startsWith("src/transports/") ? "http" : undefined;
    const constant = (name: string): string[] => {
      const m = text.match(new RegExp(`const ${name} = ([^;\\n]+);`));
      return m === null ? [] : codesIn(m[1]);
    };
    const sites: { at: number; expr: string; shown: string }[] = [];
    for (const m of text.matchAll(/type: "diagnostic",\s*code\b(?::\s*([^,}]+))?/g)) sites.push({ at: m.index!, expr: m[1] ?? "code", shown: m[0] });
    for (const m of text.matchAll(/\bdiagnose(?:\?\.)?\((?:out, )?([^,)]+)/g)) sites.push({ at: m.index!, expr: m[1], shown: m[0] });
    for (const s of sites) {
      const e = s.expr.trim();
      const found = e.startsWith('"') || e.includes("?") ? codesIn(e) : /^\w+$/.test(e) ? constant(e) : [];
      if (found.length === 0) {
        unread.add(`${rel}: ${s.shown.replace(/\s+/g, " ")}`);
        continue;
      }
      const line = text.slice(0, s.at).split("\n").length;
      assert.ok(emitter !== undefined, `${rel}:${line} emits ${found.join(", ")} outside the three emitters the README names`);
      const byCode = codes.get(emitter) ?? new Map<string, string[]>();
      codes.set(emitter, byCode);
      for (const c of found) byCode.set(c, [...(byCode.get(c) ?? []), `${rel}:${line}`]);
    }
  }
  return { codes, unread: [...unread].sort() };
}

const readme = readFileSync(join(root, "README.md"), "utf8");
const section = readmeSection(readme, "### Diagnostics");

test("README Diagnostics: every diagnostic site in src/ names its code in a way the scan reads", () => {
  assert.deepEqual(emitted().unread, [...FORWARDERS].sort(), "a new emission site: extend the scan (and the catalogue) to read its code");
});

test("README Diagnostics: each emitter's table lists exactly the codes src/ emits there", () => {
  const { codes } = emitted();
  const listed = catalogued(section);
  const drift: string[] = [];
  for (const emitter of ["session", "tasks", "http"] as const) {
    const inSource = [...(codes.get(emitter)?.keys() ?? [])].sort();
    const inReadme = listed.get(emitter) ?? [];
    for (const c of inSource) if (!inReadme.includes(c)) drift.push(`${emitter} ${c}: emitted (${codes.get(emitter)!.get(c)!.join(", ")}), not in the README's table`);
    for (const c of new Set(inReadme)) if (!inSource.includes(c)) drift.push(`${emitter} ${c}: in the README's table, emitted nowhere`);
    for (const c of new Set(inReadme.filter((c, i) => inReadme.indexOf(c) !== i))) drift.push(`${emitter} ${c}: listed twice`);
  }
  assert.deepEqual(drift, []);
  // The scan finds what it should: a few codes every reader of the page relies on.
  assert.ok(codes.get("session")!.has("log-rate-limited") && codes.get("session")!.has("resource-unsubscribed"));
  assert.ok(codes.get("tasks")!.has("task-cancelled") && !codes.get("tasks")!.has("cancelled"));
  assert.ok(codes.get("http")!.has("http-refused") && codes.get("http")!.has("handler-error"));
});

test("README Diagnostics: the other channels' kinds and errors are the ones their sources emit", () => {
  const tail = section.slice(section.lastIndexOf("Elsewhere"));
  const channel = readFileSync(join(root, "src/transports/channel.ts"), "utf8");
  const fault = channel.slice(channel.indexOf("export type FramingFault"), channel.indexOf("export interface ChannelOptions"));
  const kinds = [...fault.matchAll(/kind: "([a-z0-9-]+)"/g)].map((m) => m[1]);
  assert.ok(kinds.length >= 3);
  const auth = readFileSync(join(root, "src/auth/resource-server.ts"), "utf8");
  const errors = new Set([...auth.matchAll(/reject\(origin, \d+, "([a-z_]+)"/g)].map((m) => m[1]));
  errors.add(auth.match(/error \?\? "([a-z_]+)"/)![1]);
  for (const name of [...kinds, ...errors]) assert.ok(tail.includes(`\`${name}\``), `"${name}" is not in the README's closing paragraph`);
});
