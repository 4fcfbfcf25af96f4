// Spec: draft `schema` (2026-07-28): the official example instances of each type
// (spec-tests/fixtures/examples/<Type>/*.json) must validate as that type, and the
// schema's own constraints (`required`, `type`, `const`/`enum`) must be enforced with a
// JSON pointer (RFC 6901) to the offending value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { validate, type Issue } from "../../src/schema/index.js";
import { definitions, deref, examples, type Schema } from "./repo.js";

const VERSION = "2026-07-28";
const defs = definitions(VERSION);
const all = examples();

test("schema 2026-07-28: there are example fixtures for most types", () => {
  assert.ok(all.length >= 100, `only ${all.length} examples`);
});

for (const ex of all) {
  test(`schema 2026-07-28: example ${ex.type}/${ex.file} validates as ${ex.type}`, () => {
    const r = validate(VERSION, ex.type, ex.value);
    assert.deepEqual(r, { ok: true, value: ex.value });
  });
}

/** One mutation of an example and the issue it must produce. */
interface Mutation {
  what: string;
  apply: (root: unknown) => void;
  path: string;
  mentions?: string;
}

const esc = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/** The parent object and key of `segments` inside `root`. */
function locate(root: unknown, segments: string[]): [Record<string, unknown>, string] {
  let cur = root as Record<string, unknown>;
  for (const s of segments.slice(0, -1)) cur = cur[s] as Record<string, unknown>;
  return [cur, segments[segments.length - 1]];
}

const TYPE_OK: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};
const CANDIDATES: unknown[] = [42.5, "wrong", true, null, { wrong: 1 }, ["wrong"]];

/** A value no type in `types` accepts. */
function wrongValue(types: string[]): unknown {
  return CANDIDATES.find((c) => !types.some((t) => TYPE_OK[t](c)));
}

/** The const/enum values a schema pins, if any. */
function pinned(s: Schema): unknown[] | null {
  if (s.const !== undefined) return [s.const];
  if (Array.isArray(s.enum)) return s.enum;
  return null;
}

/**
 * Picks the alternative of an `anyOf` the value belongs to, but only when the schema
 * decides it by constants: every alternative pins some property, and exactly one
 * alternative's pinned properties all agree with the value. Other unions are skipped
 * (a mutation there may legitimately make the value match another alternative).
 */
function chooseAlternative(alts: Schema[], value: unknown): Schema | null {
  if (!TYPE_OK.object(value)) return null;
  const v = value as Record<string, unknown>;
  const matches: Schema[] = [];
  for (const alt of alts) {
    const props = alt.properties ?? {};
    const pins = Object.keys(props).filter((k) => pinned(deref(defs, props[k])) !== null);
    if (pins.length === 0) return null;
    const agrees = pins.every((k) => {
      const p = pinned(deref(defs, props[k]))!;
      if (!Object.hasOwn(v, k)) return !(alt.required ?? []).includes(k);
      return p.includes(v[k]);
    });
    if (agrees) matches.push(alt);
  }
  return matches.length === 1 ? matches[0] : null;
}

/** Walks schema and value together, listing mutations with their expected pointers. */
function mutations(schema: Schema, value: unknown, segments: string[], out: Mutation[]): void {
  const s = deref(defs, schema);
  if (!s || typeof s !== "object") return;
  const path = segments.map((k) => "/" + esc(k)).join("");
  if (Array.isArray(s.anyOf)) {
    const alt = chooseAlternative(s.anyOf.map((a: Schema) => deref(defs, a)), value);
    if (alt) mutations(alt, value, segments, out);
    return;
  }
  if (Array.isArray(s.allOf)) {
    for (const part of s.allOf) mutations(part, value, segments, out);
    return;
  }
  if (TYPE_OK.array(value) && s.items) {
    (value as unknown[]).forEach((item, i) => mutations(s.items, item, [...segments, String(i)], out));
    return;
  }
  if (!TYPE_OK.object(value) || !s.properties) return;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!Object.hasOwn(s.properties, key)) continue;
    const sub = deref(defs, s.properties[key]);
    const at = [...segments, key];
    const subPath = `${path}/${esc(key)}`;
    if ((s.required ?? []).includes(key)) {
      out.push({
        what: `remove required ${subPath}`,
        apply: (root) => {
          const [parent, k] = locate(root, at);
          delete parent[k];
        },
        path,
        mentions: key,
      });
    }
    if (sub.type !== undefined && !sub.anyOf) {
      const types = Array.isArray(sub.type) ? sub.type : [sub.type];
      const wrong = wrongValue(types);
      out.push({
        what: `${subPath} = ${JSON.stringify(wrong)} (schema type ${types.join("|")})`,
        apply: (root) => {
          const [parent, k] = locate(root, at);
          parent[k] = structuredClone(wrong);
        },
        path: subPath,
      });
    }
    const pins = pinned(sub);
    if (pins !== null) {
      const unknown = typeof pins[0] === "number" ? 987654321 : "__not_a_valid_value__";
      out.push({
        what: `${subPath} = ${JSON.stringify(unknown)} (not in ${JSON.stringify(pins)})`,
        apply: (root) => {
          const [parent, k] = locate(root, at);
          parent[k] = unknown;
        },
        path: subPath,
      });
    }
    mutations(sub, obj[key], at, out);
  }
}

function describe(issues: Issue[]): string {
  return issues.map((i) => `${i.path || "(root)"}: ${i.reason}`).join("; ");
}

let total = 0;
for (const ex of all) {
  const found: Mutation[] = [];
  mutations(defs[ex.type], ex.value, [], found);
  total += found.length;
  if (found.length === 0) continue;
  // Spec: schema `required` members MUST be present; a member of the wrong JSON type
  // or outside its const/enum is invalid. The issue names the exact place.
  test(`schema 2026-07-28: ${ex.type}/${ex.file}: ${found.length} mutations are each rejected at the right pointer`, () => {
    for (const m of found) {
      const copy = structuredClone(ex.value);
      m.apply(copy);
      const r = validate(VERSION, ex.type, copy);
      assert.equal(r.ok, false, `${m.what}: accepted`);
      if (r.ok) continue;
      const hit = r.issues.some((i) => i.path === m.path && (m.mentions === undefined || i.reason.includes(m.mentions)));
      assert.ok(hit, `${m.what}: expected an issue at "${m.path}"${m.mentions ? ` naming ${m.mentions}` : ""}, got ${describe(r.issues)}`);
    }
  });
}

test("schema 2026-07-28: the mutation walker reaches enough of the examples to mean something", () => {
  assert.ok(total >= 500, `only ${total} mutations`);
});
