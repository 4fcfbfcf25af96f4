// An independent check of what crosses the wire: every captured message validated against
// the official schema.json of its protocol version (scripts/spec/schema, the spec's own
// files), with the built-in JSON Schema interpreter, by message type: a request and a
// notification against their method's member of the schema's unions, a response against
// the result type of the request it answers (a tools/call result against CallToolResult,
// not just Result), an error response against the schema's error type for its code.
// Nothing here reads the generated tables (src/schema/generated) under test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createJsonSchemaValidator } from "../../src/schema/json-schema.js";
import { REPO, type Schema } from "./repo.js";

export type Side = "server" | "client";
export interface WireMessage {
  from: Side;
  message: any;
}

/** The schema directory of a protocol version (2024-11-05 has none vendored: 2025-03-26, a superset, stands in). */
function schemaDir(version: string): string {
  return version === "2024-11-05" ? "2025-03-26" : version;
}

interface Loaded {
  root: Schema;
  defs: Record<string, Schema>;
  key: "$defs" | "definitions";
  validators: Map<string, (v: unknown) => { path: string; reason: string }[] | null>;
}
const loaded = new Map<string, Loaded>();

function load(version: string): Loaded {
  const dir = schemaDir(version);
  let l = loaded.get(dir);
  if (l === undefined) {
    const root = JSON.parse(readFileSync(join(REPO, "scripts/spec/schema", dir, "schema.json"), "utf8"));
    const key = root.$defs !== undefined ? "$defs" : "definitions";
    errata(root[key]);
    l = { root, defs: root[key], key, validators: new Map() };
    loaded.set(dir, l);
  }
  return l;
}

/**
 * The two formats the schemas use, asserted (the kernel asserts them; a 2020-12 validator
 * treats them as annotations by default): `uri` an absolute URI (a scheme, RFC 3986 §3.1),
 * `byte` base64.
 */
const engine = createJsonSchemaValidator({ formats: { uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s), byte: (s) => /^[A-Za-z0-9+/_-]*={0,2}$/.test(s) } });

/**
 * Where schema.json is narrower than schema.ts, "the source of truth" (draft basic/index):
 * its export renders a TypeScript `number` in a union as `integer` and drops `null`, in
 * `JSONValue` and in `ElicitResult.content`'s values. Messages are held to schema.ts there.
 */
function errata(defs: Record<string, Schema>): void {
  const widen = (n: any): void => {
    if (n === null || typeof n !== "object") return;
    if (Array.isArray(n.type) && n.type.join() === "string,integer,boolean") n.type = ["string", "number", "boolean"];
    for (const v of Object.values(n)) widen(v);
  };
  const jv = defs.JSONValue?.anyOf?.[2];
  if (jv !== undefined && Array.isArray(jv.type) && jv.type.join() === "string,integer,boolean") jv.type = ["string", "number", "boolean", "null"];
  if (defs.ElicitResult !== undefined) widen(defs.ElicitResult.properties?.content);
}

/** Whether the version's schema defines `type`. */
export function hasType(version: string, type: string): boolean {
  return load(version).defs[type] !== undefined;
}

/** Issues of `value` against `type` of the version's schema.json, or null. */
export function check(version: string, type: string, value: unknown): string | null {
  const l = load(version);
  let v = l.validators.get(type);
  if (v === undefined) {
    if (l.defs[type] === undefined) throw new Error(`${version} schema has no ${type}`);
    const compiled = engine.compile({ $schema: l.root.$schema, [l.key]: l.defs, allOf: [{ $ref: `#/${l.key}/${type}` }] });
    if (!compiled.ok) throw new Error(`${version} ${type} does not compile: ${JSON.stringify(compiled.issues)}`);
    v = compiled.validate;
    l.validators.set(type, v);
  }
  const issues = v(value);
  return issues === null ? null : issues.map((i) => `${i.path || "/"}: ${i.reason}`).join("; ");
}

/** The type of the union member (e.g. ClientRequest) whose `method` is `method`. */
function member(version: string, union: string, method: string): string | undefined {
  const { defs } = load(version);
  const u = defs[union];
  if (u === undefined) return undefined;
  for (const m of u.anyOf ?? [u]) {
    const name = m.$ref !== undefined ? (m.$ref as string).split("/").pop()! : union;
    if (defs[name]?.properties?.method?.const === method) return name;
  }
  return undefined;
}

const EMPTY_RESULT_REQUESTS = new Set(["PingRequest", "SubscribeRequest", "UnsubscribeRequest", "SetLevelRequest"]);

/** The schema's error types by code (draft), else the generic one. */
const ERROR_TYPES: Record<number, string> = {
  [-32700]: "ParseError",
  [-32600]: "InvalidRequestError",
  [-32601]: "MethodNotFoundError",
  [-32602]: "InvalidParamsError",
  [-32603]: "InternalError",
};
const ERROR_RESPONSES: Record<number, string> = {
  [-32020]: "HeaderMismatchError",
  [-32021]: "MissingRequiredClientCapabilityError",
  [-32022]: "UnsupportedProtocolVersionError",
  [-32042]: "URLElicitationRequiredError",
};

export interface Failure {
  index: number;
  from: Side;
  type: string;
  issues: string;
  message: unknown;
}

export interface CheckOptions {
  /** Methods outside the version's schema (extensions) the wire may carry: checked against the JSON-RPC envelope only. */
  extensionMethods?: (method: string) => boolean;
  /** The version of each message (a dual-era connection), default `version`. */
  versionOf?: (m: WireMessage, index: number) => string;
}

/** Validates every message of `wire`; returns the failures (empty when all pass). */
export function checkWire(version: string, wire: readonly WireMessage[], options: CheckOptions = {}): Failure[] {
  const failures: Failure[] = [];
  // The requests each side sent, by id: to type the answer.
  const pending = new Map<string, { type: string | undefined; method: string; params: any; version: string }>();
  wire.forEach((w, index) => {
    const v = options.versionOf?.(w, index) ?? version;
    const m = w.message;
    const fail = (type: string, issues: string | null) => {
      if (issues !== null) failures.push({ index, from: w.from, type, issues, message: m });
    };
    if (Array.isArray(m)) {
      fail("(batch)", "batch on the wire; checked elsewhere");
      return;
    }
    const union = w.from === "client" ? "Client" : "Server";
    if (typeof m.method === "string" && m.id !== undefined) {
      const type = member(v, `${union}Request`, m.method);
      pending.set(`${w.from}:${JSON.stringify(m.id)}`, { type, method: m.method, params: m.params, version: v });
      if (type === undefined) {
        if (options.extensionMethods?.(m.method) === true) fail("JSONRPCRequest", check(v, "JSONRPCRequest", m));
        else fail(`${union}Request`, `no ${union}Request member has method ${m.method}`);
        return;
      }
      fail(type, check(v, type, m));
    } else if (typeof m.method === "string") {
      const type = member(v, `${union}Notification`, m.method);
      if (type === undefined) {
        if (options.extensionMethods?.(m.method) === true) fail("JSONRPCNotification", check(v, "JSONRPCNotification", m));
        else fail(`${union}Notification`, `no ${union}Notification member has method ${m.method}`);
        return;
      }
      fail(type, check(v, type, m));
    } else if (m.error !== undefined) {
      const envelope = hasType(v, "JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError";
      fail(envelope, check(v, envelope, m));
      const specific = ERROR_RESPONSES[m.error?.code];
      if (specific !== undefined && hasType(v, specific)) fail(specific, check(v, specific, m));
      const code = ERROR_TYPES[m.error?.code];
      if (code !== undefined && hasType(v, code)) fail(code, check(v, code, m.error));
    } else {
      const other = w.from === "client" ? "server" : "client";
      const key = `${other}:${JSON.stringify(m.id)}`;
      const req = pending.get(key);
      const envelope = hasType(v, "JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse";
      fail(envelope, check(v, envelope, m));
      if (req === undefined) {
        fail("(response)", `answers no request ${key}`);
        return;
      }
      pending.delete(key);
      if (v === "2026-07-28" && (m.result?.resultType === "task" || req.method.startsWith("tasks/"))) {
        // The tasks extension (SEP-2663): outside schema.json, checked by hand.
        fail("(tasks extension)", taskExtensionResult(req.method, m.result));
        return;
      }
      if (req.type === undefined) return; // an extension method: its own result type
      const base = req.type.replace(/Request$/, "");
      // The draft's <X>ResultResponse allows InputRequiredResult, which requires only
      // `resultType`: so the result is checked against the one type its resultType names.
      if (hasType(v, `${base}ResultResponse`)) fail(`${base}ResultResponse`, check(v, `${base}ResultResponse`, m));
      if (m.result?.resultType === "input_required" && hasType(v, "InputRequiredResult")) {
        fail("InputRequiredResult", check(v, "InputRequiredResult", m.result));
        return;
      }
      if (m.result?.resultType !== undefined && m.result.resultType !== "complete") fail("Result", `resultType ${JSON.stringify(m.result.resultType)} for ${req.method}`);
      let type = EMPTY_RESULT_REQUESTS.has(req.type) ? (hasType(v, "EmptyResult") ? "EmptyResult" : "Result") : `${base}Result`;
      if (req.params?.task !== undefined && hasType(v, "CreateTaskResult")) type = "CreateTaskResult";
      if (!hasType(v, type)) type = "Result";
      fail(type, check(v, type, m.result));
    }
  });
  return failures;
}

/** The failures as readable lines. */
export function describeFailures(failures: readonly Failure[]): string {
  return failures.map((f) => `#${f.index} ${f.from} ${f.type}: ${f.issues}\n  ${JSON.stringify(f.message).slice(0, 400)}`).join("\n");
}

const STATUSES = ["working", "input_required", "completed", "cancelled", "failed"];

/** Issues of a Task (SEP-2663 `Task`), or empty. */
function taskIssues(t: any): string[] {
  const out: string[] = [];
  if (typeof t?.taskId !== "string") out.push("taskId");
  if (!STATUSES.includes(t?.status)) out.push("status");
  if (t?.statusMessage !== undefined && typeof t.statusMessage !== "string") out.push("statusMessage");
  for (const k of ["createdAt", "lastUpdatedAt"]) if (typeof t?.[k] !== "string" || Number.isNaN(Date.parse(t[k]))) out.push(k);
  if (t?.ttlMs !== null && !Number.isInteger(t?.ttlMs)) out.push("ttlMs");
  if (t?.pollIntervalMs !== undefined && !Number.isInteger(t.pollIntervalMs)) out.push("pollIntervalMs");
  if (t?.status === "input_required" && (typeof t.inputRequests !== "object" || t.inputRequests === null)) out.push("inputRequests");
  if (t?.status === "completed" && (typeof t.result !== "object" || t.result === null)) out.push("result");
  if (t?.status === "failed" && (typeof t.error !== "object" || t.error === null || !Number.isInteger(t.error.code) || typeof t.error.message !== "string")) out.push("error");
  return out;
}

/** Issues of a tasks-extension result, or null. */
function taskExtensionResult(method: string, r: any): string | null {
  const out: string[] = [];
  if (r?.resultType === "task") out.push(...taskIssues(r));
  else if (r?.resultType !== "complete") out.push(`resultType ${JSON.stringify(r?.resultType)}`);
  else if (method === "tasks/get") out.push(...taskIssues(r));
  return out.length === 0 ? null : `${method}: ${out.join(", ")}`;
}
