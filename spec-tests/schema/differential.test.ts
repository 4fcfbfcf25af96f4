// Spec: each version's schema.json (draft basic/index, "Schema": the source of truth for
// every protocol message) and the method tables built on it (src/model/methods.ts).
//
// Differential check of what the kernel actually runs on a message: the params validator
// of every request and notification, and the result validator of every request, of every
// version (the 2026-07-28 InputRequest ones included), against the official schema.json
// read by the built-in JSON Schema interpreter (wire-check.ts: the vendored files with the
// README's two errata, `uri` and `byte` asserted as the kernel asserts them). A params
// object is judged as the schema judges the whole message (`{jsonrpc, id, method,
// params}` against the union member), a result against the result type its request names
// in the spec. A seeded generator walks the schema (a random branch of each anyOf, the
// required and some optional members) and mutates some nodes on the way: a required key
// dropped, an extra key (dispatch keys such as `type`, `task`, `resultType` included), a
// value of the wrong type, an enum or const missed, an integer given a fraction or a
// bound crossed, a string with a bad `uri` / `byte` format, an array past `maxItems`.
// Where the kernel may differ on purpose, the test says so:
// - results whose shape the protocol picks (2026-07-28 `resultType`, draft
//   basic/patterns/mrtr; 2025-11-25 `task`, basic/utilities/tasks) are judged against
//   the type it picks, not the schema's loose `InputRequiredResult | X` union (whose
//   `InputRequiredResult` takes any `resultType`); the tasks extension's `resultType:
//   "task"` answer is outside schema.json and left to methods.test.ts;
// - the rules of src/model/constraints.ts (client/roots `file://`, client/sampling tool
//   use / tool result pairing) are refusals schema.json cannot state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { INPUT_REQUESTS, methodSpec, type MethodSpec } from "../../src/model/methods.js";
import { SCHEMA_VERSIONS, type SchemaVersion } from "../../src/model/versions.js";
import { check } from "./wire-check.js";
import { definitions, deref, type Schema } from "./repo.js";

/** Each request's result type, from the feature pages (not from the generator's naming rule). */
const RESULT_OF: Record<string, string> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "logging/setLevel": "EmptyResult",
  "completion/complete": "CompleteResult",
  "sampling/createMessage": "CreateMessageResult",
  "roots/list": "ListRootsResult",
  "elicitation/create": "ElicitResult",
  "tasks/get": "GetTaskResult",
  "tasks/result": "GetTaskPayloadResult",
  "tasks/cancel": "CancelTaskResult",
  "tasks/list": "ListTasksResult",
  "server/discover": "DiscoverResult",
  "subscriptions/listen": "SubscriptionsListenResult",
};

/** The reasons src/model/constraints.ts gives (the only refusals schema.json cannot explain). */
const RULE = /file:\/\/ URI|tool results|tool use/;

function generator(seed: number) {
  // mulberry32: small, and the same sequence on every runtime.
  const rnd = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T,>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  const wrong = () => pick<unknown>([null, "s", "", 7, 0, -1, 1.5, true, [], {}, [1], { a: 1 }]);
  const extraKeys = ["task", "resultType", "type", "method", "mode", "_meta", "extra", "__proto__", "constructor", "a/b", "~"];
  // Own properties, as JSON.parse makes them (`__proto__` included).
  const put = (o: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  const merge = (...os: Record<string, unknown>[]) => {
    const o = {};
    for (const x of os) for (const k of Object.keys(x)) put(o, k, x[k]);
    return o;
  };
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
  const gen = (defs: Record<string, Schema>, s: Schema | boolean | undefined, depth: number, pm: number): unknown => {
    if (s === true || s === undefined) return pick<unknown>(["x", 1, {}, null, [1, "a"], 1.5]);
    if (s === false) return "x";
    if (s.$ref) return gen(defs, deref(defs, s), depth + 1, pm);
    const mutate = rnd() < pm;
    if (s.const !== undefined) return mutate ? pick<unknown>([`${s.const}x`, String(s.const).toUpperCase(), null, 1]) : s.const;
    if (s.enum) return mutate ? pick<unknown>([`${String(s.enum[0]).toUpperCase()}_`, "", null, 0]) : pick(s.enum);
    if (s.anyOf) {
      if (mutate) {
        // Two alternatives in one object: for the unions dispatched by a member.
        const a = gen(defs, pick(s.anyOf), depth, pm), b = gen(defs, pick(s.anyOf), depth, pm);
        return isObj(a) && isObj(b) ? merge(a, b) : a;
      }
      return gen(defs, pick(s.anyOf), depth, pm);
    }
    if (s.allOf) {
      const parts = s.allOf.map((b: Schema) => gen(defs, b, depth, pm));
      return parts.every(isObj) ? merge(...parts) : parts[0];
    }
    if (mutate && rnd() < 0.25) return wrong();
    const type = Array.isArray(s.type) ? pick(s.type) : (s.type ?? (s.properties ? "object" : undefined));
    switch (type) {
      case "object": {
        const o: Record<string, unknown> = {};
        const required: string[] = s.required ?? [];
        const props: Record<string, Schema> = s.properties ?? {};
        for (const [k, p] of Object.entries(props)) if (required.includes(k) || (depth < 6 && rnd() < 0.5)) put(o, k, gen(defs, p, depth + 1, pm));
        if (rnd() < 0.15) {
          const k = pick(extraKeys);
          if (!Object.hasOwn(props, k)) put(o, k, typeof s.additionalProperties === "object" && rnd() < 0.7 ? gen(defs, s.additionalProperties, depth + 1, pm) : gen(defs, true, depth + 1, 0));
        }
        if (mutate) {
          const r = rnd(), keys = Object.keys(o);
          if (r < 0.4 && required.length > 0) delete o[pick(required)];
          else if (r < 0.7 && keys.length > 0) o[pick(keys)] = wrong();
          else put(o, pick(extraKeys), wrong());
        }
        return o;
      }
      case "array": {
        let n = depth > 5 ? 0 : Math.floor(rnd() * 3);
        if (s.maxItems !== undefined && rnd() < 0.5) n = pick([s.maxItems, s.maxItems + 1]);
        const a = Array.from({ length: n }, () => gen(defs, s.items, depth + 1, pm));
        if (mutate) a.push(wrong());
        return a;
      }
      case "string":
        if (s.format === "uri") return pick(mutate ? ["", "/relative", "a/b", "1x:y", "://x", " https://x"] : ["https://x.example/a", "file:///a", "urn:x", "a:b", "mailto:a@b"]);
        if (s.format === "byte") return pick(mutate ? ["****", "AA A", "é", "AAAA\n"] : ["", "AAAA", "AAA=", "AA==", "YWJj", "a-b_"]);
        return pick(["a", "", "hello", "2025-01-01T00:00:00Z", "__proto__", "complete", "input_required", "task"]);
      case "integer":
      case "number": {
        if (mutate) return type === "integer" ? pick<unknown>([1.5, -0.5, "1"]) : pick<unknown>(["1", null]);
        const c = [0, 1, 2, -1, 0.5, 1e21, 2 ** 53 + 2, -0];
        if (s.minimum !== undefined) c.push(s.minimum, s.minimum - 1, s.minimum + 0.5, s.minimum - 1e-9);
        if (s.maximum !== undefined) c.push(s.maximum, s.maximum + 1, s.maximum - 0.5, s.maximum + 1e-9);
        return pick(c);
      }
      case "boolean":
        return mutate ? pick<unknown>(["true", 0]) : rnd() < 0.5;
      case "null":
        return mutate ? 0 : null;
      default:
        return pick<unknown>(["x", 1, {}, null, [], 1.5]);
    }
  };
  return { gen, pick };
}

/** Each union member of `version`: its type name, method, kind, and the kernel's spec for it. */
function members(version: SchemaVersion): { type: string; method: string; kind: "request" | "notification"; spec: MethodSpec | undefined }[] {
  const defs = definitions(version);
  const out: ReturnType<typeof members> = [];
  const unions = [["ClientRequest", "request"], ["ServerRequest", "request"], ["ClientNotification", "notification"], ["ServerNotification", "notification"], ["InputRequest", "request"]] as const;
  for (const [union, kind] of unions) {
    const u = defs[union];
    if (u === undefined) continue;
    for (const m of u.anyOf ?? [u]) {
      // (2026-07-28's ClientNotification is one inline member, not a union.)
      const type = m.$ref !== undefined ? (m.$ref as string).split("/").pop()! : union;
      const method = defs[type].properties.method.const as string;
      if (out.some((o) => o.type === type)) continue;
      out.push({ type, method, kind, spec: union === "InputRequest" ? INPUT_REQUESTS[method] : methodSpec(version, method) });
    }
  }
  return out;
}

/** The type the protocol judges `result` of `method` by (see the header). */
function resultTypeOf(version: SchemaVersion, spec: MethodSpec, result: unknown): string | null {
  const r = result as { resultType?: unknown } | null;
  const own = (k: string) => typeof r === "object" && r !== null && Object.hasOwn(r, k);
  if (version === "2026-07-28" && own("resultType")) {
    if (spec.inputRequired && r!.resultType === "input_required") return "InputRequiredResult";
    // The tasks extension's CreateTaskResult is outside schema.json (methods.test.ts holds it).
    if (spec.taskAugmentable && r!.resultType === "task") return null;
  }
  if (version === "2025-11-25" && spec.taskAugmentable && own("task")) return "CreateTaskResult";
  return RESULT_OF[spec.method]!;
}

test("schema.json (every version): the params and result validators of every method agree with the official schema on generated and mutated messages", { timeout: 60000 }, () => {
  const disagreements: string[] = [];
  let checked = 0;
  const PER_METHOD = 60;
  for (const version of SCHEMA_VERSIONS) {
    const defs = definitions(version);
    const { gen } = generator(version.split("-").reduce((a, b) => a * 31 + Number(b), 7));
    for (const { type, method, kind, spec } of members(version)) {
      assert.ok(spec !== undefined, `${version} ${method}: no MethodSpec`);
      const paramsSchema = defs[type].properties.params;
      const seen = new Set<string>();
      const note = (what: string, kernelOk: boolean, value: unknown, issues: unknown) => {
        if (seen.has(what)) return; // one example per method and side is enough to act on
        seen.add(what);
        disagreements.push(`${version} ${method} ${what}: kernel ${kernelOk ? "accepts" : "refuses"}, schema.json ${kernelOk ? "refuses" : "accepts"} ${JSON.stringify(value)?.slice(0, 300)} ${JSON.stringify(issues)?.slice(0, 200)}`);
      };
      for (let i = 0; i < PER_METHOD; i++) {
        const pm = [0, 0.05, 0.2][i % 3]!;
        // Params: absent now and then (required or not), else generated.
        const params = i % 13 === 5 || paramsSchema === undefined ? undefined : gen(defs, paramsSchema, 0, pm);
        const message: Record<string, unknown> = { jsonrpc: "2.0", method };
        if (kind === "request") message.id = i;
        if (params !== undefined) message.params = params;
        const issues = spec!.validateParams(params);
        const schemaOk = check(version, type, message) === null;
        checked++;
        const ruled = issues !== null && schemaOk && issues.every((x) => RULE.test(x.reason));
        if ((issues === null) !== schemaOk && !ruled) note("params", issues === null, params, issues);
        if (kind !== "request") continue;
        assert.equal(spec!.resultType, RESULT_OF[method], `${version} ${method}: result type`);
        // Results: from the result type, or (to reach the other shapes) from one the protocol may answer with.
        const shapes = [RESULT_OF[method]!, ...(spec!.inputRequired ? ["InputRequiredResult"] : []), ...(version === "2025-11-25" && spec!.taskAugmentable ? ["CreateTaskResult"] : [])];
        const result = gen(defs, { $ref: `#/x/${shapes[i % shapes.length]}` }, 0, pm);
        const judgedAs = resultTypeOf(version, spec!, result);
        if (judgedAs === null) continue;
        const rIssues = spec!.validateResult!(result);
        const rSchemaOk = check(version, judgedAs, result) === null;
        checked++;
        const rRuled = rIssues !== null && rSchemaOk && rIssues.every((x) => RULE.test(x.reason));
        if ((rIssues === null) !== rSchemaOk && !rRuled) note("result", rIssues === null, result, rIssues);
      }
    }
  }
  assert.deepEqual(disagreements, []);
  assert.ok(checked > 5000, `${checked} instances`);
});
