#!/usr/bin/env node
/**
 * Compiles the vendored MCP JSON Schemas into compact validator tables.
 *
 * Theory of operation. Each `scripts/spec/schema/<version>/schema.json` is read and
 * every schema node (named definition or inline sub-schema) becomes a node of one graph
 * spanning all four versions; `$ref` edges point at the referenced definition's node.
 * The graph is then minimised (Moore partition refinement, as for a DFA): two nodes
 * are merged when they check the same thing and their children are merged, so a
 * definition that did not change between versions — or two identical inline
 * sub-schemas — is emitted once, recursion included. The output is data, not code:
 * `src/schema/generated/nodes.ts` holds the node table (small arrays, see the
 * encoding in its header) that the interpreter in `src/schema/validate.ts` walks, as far
 * as the method rows (params and results) reach; `full.ts` holds the rest of the table
 * (numbered after it) and every type name, for the schema entry point only, so a bundle
 * of the kernel carries no JSON-RPC envelopes or message unions. One file per version
 * maps the kernel's type names to nodes and lists its methods
 * (derived from the `ClientRequest`/`ServerRequest`/`ClientNotification`/
 * `ServerNotification` unions). Data plus one small interpreter is several times
 * smaller than one generated function per type, and bundle size is a product goal.
 *
 * The supported JSON Schema subset is exactly what the MCP schemas use; anything else
 * makes the generator fail loudly rather than silently accept everything.
 *
 * Usage: `node scripts/gen-validators.mjs [--out <dir>]` (default
 * `src/schema/generated`). Plain Node ESM, no dependencies; output is deterministic so
 * a test can regenerate it and compare it with the committed files byte for byte.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Schema versions, oldest first (the order only affects node numbering). */
const VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

// Node kinds. Keep in sync with the constants in src/schema/validate.ts.
const ANY = 0, TYPE = 1, NUM = 2, FMT = 3, CONST = 4, ENUM = 5, OBJ = 6, ARR = 7, UNION = 8, ALL = 9;
// JSON type bits.
const T = { string: 1, number: 2 | 4, integer: 4, boolean: 8, null: 16, object: 32, array: 64 };
const T_ALL = 127;
/** additionalProperties encoding in an OBJ node when other keys are allowed. */
const AP_OPEN = -1;
/**
 * Types the kernel looks up besides the params and results of the method rows:
 * src/model/methods.ts `CreateTaskResult`, `InputRequiredResult` and `Result`, src/session/handshake.ts `Implementation` (the
 * identity the API constructors check, as initialize and a 2026-07-28 `_meta` carry it).
 */
const KERNEL_TYPES = ["CreateTaskResult", "Implementation", "InputRequiredResult", "Result"];
/** Format codes of FMT nodes (all strings). */
const FORMATS = { byte: 1, uri: 2 };

/**
 * Places where schema.json (generated from schema.ts) is narrower than schema.ts, which
 * draft `basic/index` ("Schema") calls "the source of truth for all protocol messages".
 * The JSON Schema export renders a TypeScript `number` inside a union as `integer` and
 * drops `null`; validating literally would reject valid messages (a fraction in an
 * elicitation answer, `null` inside a JSON object). Each erratum checks that the shape
 * it fixes is still there, so a schema update that fixes (or moves) it makes the
 * generator fail and the erratum gets reviewed.
 */
const ERRATA = [
  {
    def: "JSONValue",
    why: "schema.ts: `string | number | boolean | null | JSONObject | JSONArray` (number, not integer; null allowed)",
    apply(d) {
      const prim = d.anyOf?.[2];
      if (!Array.isArray(prim?.type) || prim.type.join() !== "string,integer,boolean") return null;
      prim.type = ["string", "number", "boolean", "null"];
      return d;
    },
  },
  {
    def: "ElicitResult",
    why: "schema.ts: content values are `string | number | boolean | string[]` (number, not integer)",
    apply(d) {
      let hits = 0;
      const fix = (n) => {
        if (n && typeof n === "object") {
          if (Array.isArray(n.type) && n.type.join() === "string,integer,boolean") {
            n.type = ["string", "number", "boolean"];
            hits++;
          }
          for (const k of ["anyOf", "additionalProperties"]) {
            if (Array.isArray(n[k])) n[k].forEach(fix);
            else fix(n[k]);
          }
        }
      };
      fix(d.properties?.content);
      return hits === 1 ? d : null;
    },
  },
];

/** Keywords that carry no validation meaning here. */
const IGNORED = new Set(["description", "$schema", "title", "default", "examples"]);
const KNOWN = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const",
  "anyOf", "allOf", "$ref", "minimum", "maximum", "maxItems", "format",
]);

/**
 * Loads one version's definitions with the errata applied.
 * @param {string} version
 */
function loadDefinitions(version) {
  const text = readFileSync(join(ROOT, "scripts/spec/schema", version, "schema.json"), "utf8");
  const schema = JSON.parse(text);
  const defs = schema.$defs ?? schema.definitions;
  if (!defs) throw new Error(`${version}: no definitions`);
  for (const e of ERRATA) {
    if (!Object.hasOwn(defs, e.def)) continue;
    const fixed = e.apply(structuredClone(defs[e.def]));
    if (fixed === null) throw new Error(`${version}: erratum for ${e.def} no longer matches the schema (${e.why}); review it`);
    defs[e.def] = fixed;
  }
  return defs;
}

/** One graph node; `kids` are node objects, the rest are plain scalars. */
class Node {
  constructor(kind) {
    this.kind = kind;
    /** @type {Node[]} */
    this.kids = [];
    this.data = null;
    /** For alias nodes (a bare `$ref`): the node it stands for. */
    this.alias = null;
  }
}

/** Follows alias chains to the node that does the checking. */
function real(n) {
  const seen = new Set();
  while (n.alias) {
    if (seen.has(n)) throw new Error("alias cycle in $ref chain");
    seen.add(n);
    n = n.alias;
  }
  return n;
}

/**
 * Builds the graph of one version. Returns the named nodes.
 * @param {string} version
 * @param {Record<string, any>} defs
 */
function buildVersion(version, defs) {
  /** @type {Map<string, Node>} */
  const named = new Map();
  for (const name of Object.keys(defs)) named.set(name, new Node(-1));

  const refTarget = (ref, where) => {
    const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
    const name = m && decodeURIComponent(m[1]).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!name || !named.has(name)) throw new Error(`${version} ${where}: unresolved $ref ${ref}`);
    return named.get(name);
  };

  /** Compiles schema `s` into node `into` (or a new node). */
  const compile = (s, where, into = new Node(-1)) => {
    if (s === true || (s && typeof s === "object" && Object.keys(s).every((k) => IGNORED.has(k)))) {
      into.kind = ANY;
      return into;
    }
    if (!s || typeof s !== "object" || Array.isArray(s)) throw new Error(`${version} ${where}: unsupported schema ${JSON.stringify(s)}`);
    for (const k of Object.keys(s)) {
      if (!KNOWN.has(k) && !IGNORED.has(k)) throw new Error(`${version} ${where}: unsupported keyword "${k}"`);
    }
    const keys = Object.keys(s).filter((k) => !IGNORED.has(k));
    if (s.$ref !== undefined) {
      if (keys.length !== 1) throw new Error(`${version} ${where}: $ref with sibling keywords`);
      into.alias = refTarget(s.$ref, where);
      return into;
    }
    if (s.anyOf || s.allOf) {
      const list = s.anyOf ?? s.allOf;
      if (keys.length !== 1) throw new Error(`${version} ${where}: anyOf/allOf with sibling keywords`);
      if (list.length === 1) return compile(list[0], where, into);
      into.kind = s.anyOf ? UNION : ALL;
      into.kids = list.map((alt, i) => compile(alt, `${where}/${s.anyOf ? "anyOf" : "allOf"}/${i}`));
      return into;
    }
    if (s.const !== undefined) {
      if (s.const === null || typeof s.const === "object") throw new Error(`${version} ${where}: non-primitive const`);
      into.kind = CONST;
      into.data = [s.const];
      return into;
    }
    if (s.enum !== undefined) {
      if (!s.enum.every((v) => v !== null && typeof v !== "object")) throw new Error(`${version} ${where}: non-primitive enum`);
      into.kind = ENUM;
      into.data = [s.enum.slice()];
      return into;
    }
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
    let mask = 0;
    for (const t of types) {
      if (!T[t]) throw new Error(`${version} ${where}: unknown type ${t}`);
      mask |= T[t];
    }
    if (types.length === 0) {
      if (keys.some((k) => k !== "format")) throw new Error(`${version} ${where}: constraints without a type`);
      into.kind = ANY;
      return into;
    }
    if (s.properties || s.required || (s.additionalProperties !== undefined && s.additionalProperties !== true)) {
      if (mask !== T.object) throw new Error(`${version} ${where}: object keywords on a non-object type`);
      const props = s.properties ?? {};
      const names = Object.keys(props);
      for (const r of s.required ?? []) if (!names.includes(r)) names.push(r);
      const req = new Set(s.required ?? []);
      into.kind = OBJ;
      into.kids = names.map((k) => (Object.hasOwn(props, k) ? compile(props[k], `${where}/properties/${k}`) : compile({}, where)));
      const ap = s.additionalProperties;
      let apMode = AP_OPEN;
      // No MCP schema closes an object; support it (and test it) when one does.
      if (ap === false) throw new Error(`${version} ${where}: additionalProperties: false is not supported`);
      if (ap !== undefined && ap !== true) {
        into.kids.push(compile(ap, `${where}/additionalProperties`));
        apMode = 0; // "the last kid"; dropped by normalise() when it accepts anything
      }
      into.data = [names, names.map((k) => req.has(k)), apMode];
      return into;
    }
    if (s.items !== undefined || s.maxItems !== undefined) {
      if (mask !== T.array) throw new Error(`${version} ${where}: array keywords on a non-array type`);
      into.kind = ARR;
      into.kids = [compile(s.items ?? {}, `${where}/items`)];
      into.data = [s.maxItems ?? -1];
      return into;
    }
    if (s.minimum !== undefined || s.maximum !== undefined) {
      if (mask !== T.number && mask !== T.integer) throw new Error(`${version} ${where}: range on a type other than number or integer`);
      into.kind = NUM;
      into.data = [mask, s.minimum ?? null, s.maximum ?? null];
      return into;
    }
    if (s.format !== undefined && mask === T.string && Object.hasOwn(FORMATS, s.format)) {
      into.kind = FMT;
      into.data = [FORMATS[s.format]];
      return into;
    }
    // Other formats (uri-template) are not checked: a cheap check would be wrong, an
    // exact one is not cheap, and rejecting valid data is worse than accepting a typo.
    into.kind = TYPE;
    into.data = [mask];
    return into;
  };

  for (const [name, node] of named) compile(defs[name], name, node);
  return named;
}

/** Every node reachable from `roots`, aliases resolved, in deterministic DFS order. */
function reachable(roots) {
  const out = [];
  const seen = new Set();
  const stack = [...roots].reverse();
  while (stack.length) {
    const n = real(stack.pop());
    if (seen.has(n)) continue;
    seen.add(n);
    out.push(n);
    for (let i = n.kids.length - 1; i >= 0; i--) stack.push(n.kids[i]);
  }
  return out;
}

/**
 * Resolves aliases inside kids, drops `additionalProperties` that accept anything,
 * turns property-less open objects into plain type checks, and merges an `allOf` of
 * open objects (e.g. `Result & Task`) into one object so each key is checked once.
 */
function normalise(nodes) {
  for (const n of nodes) n.kids = n.kids.map(real);
  const isOpenObject = (p) => (p.kind === OBJ && p.data[2] === AP_OPEN) || (p.kind === TYPE && p.data[0] === T.object);
  for (const n of nodes) {
    if (n.kind !== OBJ) continue;
    if (n.data[2] === 0 && n.kids[n.kids.length - 1].kind === ANY) {
      n.kids.pop();
      n.data[2] = AP_OPEN;
    }
    if (n.data[0].length === 0 && n.data[2] === AP_OPEN) {
      n.kind = TYPE;
      n.data = [T.object];
    }
  }
  for (const n of nodes) {
    if (n.kind !== ALL || !n.kids.every(isOpenObject)) continue;
    const names = [];
    const kids = [];
    const req = [];
    for (const p of n.kids) {
      if (p.kind !== OBJ) continue;
      p.data[0].forEach((k, i) => {
        const at = names.indexOf(k);
        if (at < 0) {
          names.push(k);
          kids.push(p.kids[i]);
          req.push(p.data[1][i]);
        } else {
          if (kids[at] !== p.kids[i]) {
            const both = new Node(ALL);
            both.kids = [kids[at], p.kids[i]];
            kids[at] = both;
          }
          req[at] = req[at] || p.data[1][i];
        }
      });
    }
    n.kind = OBJ;
    n.kids = kids;
    n.data = [names, req, AP_OPEN];
  }
}

/** The JSON type bits a node can accept (for union dispatch). */
function acceptMask(n, seen = new Set()) {
  if (seen.has(n)) return T_ALL;
  seen.add(n);
  switch (n.kind) {
    case ANY: return T_ALL;
    case TYPE: return n.data[0];
    case NUM: return n.data[0];
    case FMT: return T.string;
    case CONST: return valueMask(n.data[0]);
    case ENUM: return n.data[0].reduce((m, v) => m | valueMask(v), 0);
    case OBJ: return T.object;
    case ARR: return T.array;
    case UNION: return n.kids.reduce((m, k) => m | acceptMask(k, seen), 0);
    case ALL: return n.kids.reduce((m, k) => m & acceptMask(k, seen), T_ALL);
  }
  throw new Error(`kind ${n.kind}`);
}

function valueMask(v) {
  if (typeof v === "string") return T.string;
  if (typeof v === "boolean") return T.boolean;
  if (typeof v === "number") return Number.isInteger(v) ? T.integer : 2;
  throw new Error(`const ${v}`);
}

/**
 * Union dispatch data: which JSON types each alternative takes, and, when the object
 * alternatives each pin one property to distinct constants (`type`, `method`, `mode`),
 * that property, so the right alternative is checked directly and its errors reported.
 * At most one alternative may leave the property optional; it takes objects without it.
 * (A union such as `InputRequiredResult | CallToolResult` has no such property: it is
 * kept as the schema states it, tried in turn; see src/model/methods.ts for the
 * `resultType` dispatch the protocol defines on top.)
 */
function unionData(n) {
  const masks = n.kids.map((k) => acceptMask(k));
  const objs = n.kids.map((k, i) => i).filter((i) => masks[i] & T.object);
  if (objs.length > 1 && objs.every((i) => n.kids[i].kind === OBJ)) {
    for (const key of n.kids[objs[0]].data[0]) {
      const values = [], at = [];
      let absent = -1, ok = true;
      for (const i of objs) {
        const o = n.kids[i];
        const j = o.data[0].indexOf(key);
        const p = j < 0 ? null : o.kids[j];
        const pv = p === null ? null : p.kind === CONST ? [p.data[0]] : p.kind === ENUM ? p.data[0] : null;
        if (pv === null || (!o.data[1][j] && absent >= 0) || pv.some((v) => values.includes(v))) {
          ok = false;
          break;
        }
        if (!o.data[1][j]) absent = i;
        for (const v of pv) {
          values.push(v);
          at.push(i);
        }
      }
      if (ok) return [masks, key, values, at, absent];
    }
  }
  return [masks, null, [], [], -1];
}

/** Local signature: what a node checks, without its children. */
function signature(n) {
  return JSON.stringify([n.kind, n.data]);
}

/**
 * Moore partition refinement: start from local signatures, split by the classes of
 * children until stable. Returns the class of each node.
 */
function minimise(nodes) {
  let cls = new Map();
  const ids = new Map();
  for (const n of nodes) {
    const s = signature(n);
    if (!ids.has(s)) ids.set(s, ids.size);
    cls.set(n, ids.get(s));
  }
  let count = ids.size;
  for (;;) {
    const next = new Map();
    const keys = new Map();
    for (const n of nodes) {
      const s = `${cls.get(n)}|${n.kids.map((k) => cls.get(k)).join(",")}`;
      if (!keys.has(s)) keys.set(s, keys.size);
      next.set(n, keys.get(s));
    }
    cls = next;
    if (keys.size === count) return cls;
    count = keys.size;
  }
}

/** The nodes that lie on a cycle (Tarjan's strongly connected components). */
function onCycles(nodes, rep) {
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), out = new Set();
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of v.kids.map(rep)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || v.kids.some((k) => rep(k) === v)) for (const x of scc) out.add(x);
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out;
}

/**
 * Derives the method rows of one version from its message unions: the method name is
 * each member's `method` const, the direction is which union lists it (both: "both"),
 * and the result type is the member's name with `Request` replaced by `Result`, or
 * `EmptyResult` when the schema has no such type (ping, subscribe, setLevel...).
 */
function methodRows(version, defs, named, nodeOf) {
  const collect = (unions) => {
    const rows = new Map();
    for (const [unionName, from, kind] of unions) {
      if (!Object.hasOwn(defs, unionName)) continue;
      const u = defs[unionName];
      for (const m of u.anyOf ?? [u]) {
        const name = m.$ref ? m.$ref.split("/").pop() : unionName;
        const def = m.$ref ? defs[name] : m;
        const method = def.properties?.method?.const;
        if (typeof method !== "string") throw new Error(`${version} ${unionName}: member without a method const`);
        const p = def.properties.params;
        const paramsType = p && p.$ref ? p.$ref.split("/").pop() : null;
        const obj = real(named.get(name));
        const pi = obj.data[0].indexOf("params");
        if (pi < 0) throw new Error(`${version} ${method}: no params member`);
        let resultType = null, resultNode = -1;
        if (kind === "request") {
          const base = name.replace(/Request$/, "");
          resultType = Object.hasOwn(defs, `${base}Result`) ? `${base}Result` : "EmptyResult";
          if (!named.has(resultType)) throw new Error(`${version} ${method}: no result type`);
          resultNode = nodeOf(named.get(resultType));
        }
        const row = [method, kind, from, paramsType, nodeOf(obj.kids[pi]), obj.data[1][pi] ? 1 : 0, resultType, resultNode];
        const prev = rows.get(method);
        if (!prev) rows.set(method, row);
        else if (prev[1] !== kind || JSON.stringify(prev.slice(3)) !== JSON.stringify(row.slice(3))) {
          throw new Error(`${version} ${method}: differs between directions`);
        } else prev[2] = "both";
      }
    }
    return [...rows.values()];
  };
  return {
    rows: collect([
      ["ClientRequest", "client", "request"],
      ["ServerRequest", "server", "request"],
      ["ClientNotification", "client", "notification"],
      ["ServerNotification", "server", "notification"],
    ]),
    // 2026-07-28: server-to-client requests travel inside an InputRequiredResult.
    input: collect([["InputRequest", "server", "request"]]),
  };
}

/** Runs the whole pipeline; returns `{ fileName: text }`. */
export function generate() {
  const perVersion = VERSIONS.map((v) => {
    const defs = loadDefinitions(v);
    return { version: v, defs, named: buildVersion(v, defs) };
  });
  const roots = perVersion.flatMap((p) => [...p.named.values()]);
  const nodes = reachable(roots);
  normalise(nodes);
  const all = reachable(roots);
  for (const n of all) if (n.kind === UNION) n.data = unionData(n);
  const cls = minimise(all);
  // One representative per class, in DFS order from the roots (stable output).
  const repOf = new Map();
  for (const n of all) if (!repOf.has(cls.get(n))) repOf.set(cls.get(n), n);
  const reps = [...repOf.values()];
  const rep = (n) => repOf.get(cls.get(real(n)));

  // Reference counts, counting type names and method rows as references. A node used
  // once, off any cycle, is written inline in its parent; the rest go in the table,
  // most used first so the indices written most often are the shortest.
  const uses = new Map(reps.map((r) => [r, 0]));
  const pinned = new Set();
  for (const r of reps) for (const k of r.kids) uses.set(rep(k), uses.get(rep(k)) + 1);
  for (const p of perVersion) for (const n of p.named.values()) pinned.add(rep(n));
  const rowsOf = perVersion.map((p) => methodRows(p.version, p.defs, p.named, (n) => rep(n)));
  for (const { rows, input } of rowsOf) for (const r of [...rows, ...input]) for (const n of [r[4], r[7]]) if (n !== -1) pinned.add(n);
  const cyclic = onCycles(reps, rep);
  const inline = (r) => uses.get(r) === 1 && !pinned.has(r) && !cyclic.has(r);
  // The kernel's part: what the method tables validate. It comes first in the numbering,
  // so the rest (message envelopes and unions, types no method names) can live in
  // full.ts, which only the schema entry point loads.
  const coreNames = new Set(KERNEL_TYPES);
  for (const { rows, input } of rowsOf) for (const r of [...rows, ...input]) for (const n of [r[3], r[6]]) if (n !== null) coreNames.add(n);
  const coreRoots = [];
  for (const [vi, p] of perVersion.entries()) {
    for (const name of coreNames) if (p.named.has(name)) coreRoots.push(rep(p.named.get(name)));
    for (const r of [...rowsOf[vi].rows, ...rowsOf[vi].input]) coreRoots.push(r[4]);
  }
  const core = new Set();
  for (const stack = coreRoots; stack.length; ) {
    const r = stack.pop();
    if (core.has(r)) continue;
    core.add(r);
    for (const k of r.kids) stack.push(rep(k));
  }
  const table = reps.filter((r) => !inline(r));
  const order = new Map(reps.map((r, i) => [r, i]));
  table.sort((a, b) => Number(core.has(b)) - Number(core.has(a)) || uses.get(b) - uses.get(a) || order.get(a) - order.get(b));
  const coreCount = table.filter((r) => core.has(r)).length;
  const tableIndex = new Map(table.map((r, i) => [r, i]));
  const nodeIndex = (n) => tableIndex.get(rep(n));

  const ref = (n) => (inline(rep(n)) ? encode(rep(n)) : nodeIndex(n));
  const encode = (n) => {
    switch (n.kind) {
      case ANY: return [ANY];
      case TYPE: return [TYPE, n.data[0]];
      case NUM: return [NUM, ...n.data];
      case FMT: return [FMT, n.data[0]];
      case CONST: return [CONST, n.data[0]];
      case ENUM: return [ENUM, n.data[0]];
      case OBJ: {
        const [names, req, ap] = n.data;
        const order = names.map((_, i) => i).sort((a, b) => Number(req[b]) - Number(req[a]) || a - b);
        const extra = ap === 0 ? ref(n.kids[n.kids.length - 1]) : ap;
        return [OBJ, req.filter(Boolean).length, order.map((i) => names[i]), order.map((i) => ref(n.kids[i])), extra];
      }
      case ARR: return [ARR, ref(n.kids[0]), n.data[0]];
      case UNION: return [UNION, n.kids.map(ref), ...n.data];
      case ALL: return [ALL, n.kids.map(ref)];
    }
    throw new Error(`kind ${n.kind}`);
  };

  const names = [...new Set(perVersion.flatMap((p) => [...p.named.keys()]))].sort();
  const kernelNames = names.filter((n) => coreNames.has(n));
  const typesOf = (p, list) => list.map((n) => (p.named.has(n) ? nodeIndex(p.named.get(n)) : -1));
  const files = {};
  // The big tables are template literals of one JSON value per line, not array literals:
  // src/schema/lines.ts parses a line when it is first needed, where an array literal
  // builds every array at load (most of them never read: cold start). A line stays one
  // line of the file, so the tables still diff line by line.
  const lines = (values) => "`" + values.map((v) => JSON.stringify(v)).join("\n").replace(/[\\`]|\$\{/g, (m) => "\\" + m) + "`";
  const header = (what) =>
    `// GENERATED by scripts/gen-validators.mjs from scripts/spec/schema/*/schema.json: do not edit.\n` +
    `// Regenerate with \`node scripts/gen-validators.mjs\`; spec-tests/schema checks it is up to date.\n` +
    `// ${what}\n`;

  files["nodes.ts"] =
    header("The validator nodes the method tables reach, shared by every schema version (interpreted by src/schema/validate.ts).") +
    `//\n` +
    `// Each node is an array whose first element is its kind. Where a node refers to another, it\n` +
    `// holds its number (its line in NODES, from 0), or the node itself when nothing else uses it\n` +
    `// (validate.ts decodes a node, and links the numbers, when a value first reaches it).\n` +
    `//   [0]                       any value\n` +
    `//   [1, types]                JSON type bits: 1 string, 2 fraction, 4 integer, 8 boolean, 16 null, 32 object, 64 array\n` +
    `//   [2, types, min, max]      number (types 6) or integer (4) with inclusive bounds (null: unbounded)\n` +
    `//   [3, format]               string with a format: 1 base64 (\`byte\`), 2 URI (\`uri\`)\n` +
    `//   [4, value]                const\n` +
    `//   [5, values]               enum\n` +
    `//   [6, required, keys, kids, extra]\n` +
    `//                             object: kids[i] checks keys[i]; the first \`required\` keys are required;\n` +
    `//                             extra is -1 (other keys allowed) or the node checking them\n` +
    `//   [7, item, maxItems]       array (maxItems -1: unbounded)\n` +
    `//   [8, alts, types, key, values, at, absent]\n` +
    `//                             anyOf: alts[i] takes JSON types types[i]; when key is not null an object\n` +
    `//                             goes to alts[at[values.indexOf(obj[key])]], or to alts[absent] when it\n` +
    `//                             lacks key (-1: an issue, as is a value not in values)\n` +
    `//   [9, parts]                allOf\n\n` +
    `/** One encoded validator node (see the table above). */\n` +
    `export type Node = readonly unknown[];\n\n` +
    `/** Every node, one per line as JSON (src/schema/lines.ts): line i is node i. */\n` +
    `export const NODES = ${lines(table.slice(0, coreCount).map(encode))};\n\n` +
    `/** The type names the method tables use (params, results, ${KERNEL_TYPES.join(", ")}), sorted; version files index into it. */\n` +
    `export const TYPE_NAMES: readonly string[] = ${JSON.stringify(kernelNames.join(" "))}.split(" ");\n`;

  files["full.ts"] =
    header("The rest of the node table, and every type name of every version (loaded by src/schema/types.ts).") +
    `import type { Node } from "./nodes.js";\n\n` +
    `/** Nodes numbered on from the count of nodes.ts's NODES (same encoding); they may refer to any node. Line i is node ${coreCount} + i. */\n` +
    `export const EXTRA_NODES = ${lines(table.slice(coreCount).map(encode))};\n\n` +
    `/** Every type name any version defines, sorted. */\n` +
    `export const ALL_TYPE_NAMES: readonly string[] = /* @__PURE__ */ ${JSON.stringify(names.join(" "))}.split(" ");\n\n` +
    `/** Per version, the node of each name in ALL_TYPE_NAMES (-1: not defined in that version). */\n` +
    `export const ALL_TYPES: Readonly<Record<${VERSIONS.map((v) => JSON.stringify(v)).join(" | ")}, readonly number[]>> = {\n` +
    perVersion.map((p) => `  ${JSON.stringify(p.version)}: ${JSON.stringify(typesOf(p, names))},\n`).join("") +
    `};\n`;

  for (const [vi, p] of perVersion.entries()) {
    const types = typesOf(p, kernelNames);
    // Nodes of named types are found through TYPES; only inline params need their node here.
    const emitRow = (r) => [r[0], r[1], r[2], r[3], r[3] === null ? nodeIndex(r[4]) : -1, r[5], r[6]];
    const rows = rowsOf[vi].rows.map(emitRow);
    const input = rowsOf[vi].input.map(emitRow);
    const fmtRows = (rs) => lines(rs);
    files[`${p.version}.ts`] =
      header(`Schema ${p.version}: type name to node, and the methods its message unions define.`) +
      `import type { MethodRow } from "./rows.js";\n\n` +
      `/** Node of each name in nodes.ts's TYPE_NAMES (-1: not defined in ${p.version}). */\n` +
      `export const TYPES: readonly number[] = ${JSON.stringify(types)};\n\n` +
      `/** Requests and notifications of ${p.version}'s ClientRequest/ServerRequest/ClientNotification/ServerNotification unions: one {@link MethodRow} per line (src/schema/lines.ts). */\n` +
      `export const METHOD_ROWS = ${fmtRows(rows)};\n` +
      // Only a version with an InputRequest union (2026-07-28) has input rows to emit.
      (input.length === 0
        ? ""
        : `\n/** Server-to-client requests carried inside an InputRequiredResult (${p.version} InputRequest union): one {@link MethodRow} per line. */\n` +
          `export const INPUT_ROWS = ${fmtRows(input)};\n`);
  }
  files["rows.ts"] =
    header("The shape of a generated method row.") +
    `\n/**\n` +
    ` * One method: [method, kind, from, paramsType, paramsNode, paramsRequired, resultType].\n` +
    ` * paramsType is null when the schema declares params inline; paramsNode is then the index\n` +
    ` * in NODES of that inline schema, else -1 (the node is TYPES[paramsType]).\n` +
    ` */\n` +
    `export type MethodRow = readonly [\n` +
    `  method: string,\n` +
    `  kind: "request" | "notification",\n` +
    `  from: "client" | "server" | "both",\n` +
    `  paramsType: string | null,\n` +
    `  paramsNode: number,\n` +
    `  paramsRequired: 0 | 1,\n` +
    `  resultType: string | null,\n` +
    `];\n`;
  return files;
}

function main() {
  const at = process.argv.indexOf("--out");
  const out = at > 0 ? resolve(process.argv[at + 1]) : join(ROOT, "src/schema/generated");
  mkdirSync(out, { recursive: true });
  const files = generate();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
  process.stdout.write(`gen-validators: wrote ${Object.keys(files).length} files to ${out}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
