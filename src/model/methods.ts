/**
 * The method tables: every request and notification of every schema version, as data.
 *
 * Spec: the `ClientRequest`, `ServerRequest`, `ClientNotification` and
 * `ServerNotification` unions of each version's schema (which methods exist, who sends
 * them, their params and result types), and the feature pages for what the schema does
 * not say: the "Capabilities" section of each server and client feature page (which
 * capability gates a method), 2025-11-25 `basic/utilities/tasks` (task-augmented
 * requests), draft `basic/patterns/mrtr` ("Supported Requests" for `input_required`) and
 * `docs/extensions/tasks/overview` (tasks in 2026-07-28).
 *
 * Theory of operation. The schema-derived part is generated
 * (`scripts/gen-validators.mjs` writes one row per method into
 * `src/schema/generated/<version>.ts`); the rules the schema cannot express are the
 * small hand-written tables below. They are joined into a frozen {@link MethodSpec}
 * record per method and version on its first lookup (a server that registers a tool and
 * answers `initialize` builds a few records, not a table per version its tools are
 * checked against: cold start), so a lookup is a property read and every field except
 * the two validators is plain JSON that tools can print or diff.
 *
 * Results that take more than one shape are told apart the way the protocol says a
 * receiver does it, not by trying every shape: in 2026-07-28 by `resultType`
 * (`"input_required"` is an `InputRequiredResult`), in 2025-11-25 by the presence of
 * `task` (a task-augmented request is answered with a `CreateTaskResult`).
 */
import type { ProtocolVersion, SchemaVersion } from "./versions.js";
import { isSchemaVersion, SCHEMA_VERSIONS, schemaVersionOf } from "./versions.js";
import type { Issue, Validator } from "../schema/validate.js";
import { isRpcError } from "../jsonrpc/errors.js";
import { isExtensionId } from "./meta.js";
import { isTaskStatus, TASK_STATUSES } from "../tasks/status.js";
import { nodeValidator, validatorFor } from "../schema/validate.js";
import type { MethodRow } from "../schema/generated/rows.js";
import { paramsRule, resultRule, rules2024, withRule } from "./constraints.js";
import { lineAt, lineStarts, lineStartingWith } from "../schema/lines.js";
import { METHOD_ROWS as ROWS_2025_03_26 } from "../schema/generated/2025-03-26.js";
import { METHOD_ROWS as ROWS_2025_06_18 } from "../schema/generated/2025-06-18.js";
import { METHOD_ROWS as ROWS_2025_11_25 } from "../schema/generated/2025-11-25.js";
import { INPUT_ROWS, METHOD_ROWS as ROWS_2026_07_28 } from "../schema/generated/2026-07-28.js";

/** A side of the connection. */
export type Side = "client" | "server";

/**
 * Where a capability lives: which side declares it and its dotted path, e.g.
 * `resources.subscribe`. For a request it is the receiver's capability, for a
 * notification the sender's. A method sent both ways (`from: "both"`, the 2025-11-25
 * `tasks/*` requests) is gated by the receiver's capability of the same path; the table
 * then holds the client-to-server case (`side: "server"`) and {@link capabilityFor}
 * gives the one for either sender.
 */
export interface CapabilityRef {
  side: Side;
  path: string;
}

/** Everything the kernel knows about one method or notification in one version. */
export interface MethodSpec {
  method: string;
  kind: "request" | "notification";
  /** Who sends it. */
  from: Side | "both";
  /** Schema type name of the params object, or null when the schema declares params inline (2025-06-18 and earlier, and a few 2025-11-25 task requests). */
  paramsType: string | null;
  /** Schema type name of the result (requests only), else null. With `inputRequired` or `taskAugmentable` it names the complete result; the other shapes are accepted by `validateResult`. */
  resultType: string | null;
  /** Validates `params` (which may be undefined when params are optional). */
  validateParams: Validator;
  /** Validates a result (requests only). */
  validateResult: Validator | null;
  /** The capability that must have been declared for it to be sent or accepted. */
  capability: CapabilityRef | null;
  /** May carry a `task` (2025-11-25) / be answered with a task (tasks extension). */
  taskAugmentable: boolean;
  /** 2026-07-28: may be answered with `resultType: "input_required"`. */
  inputRequired: boolean;
}

/**
 * Capability gating, from the "Capabilities" section of each feature page (the same in
 * every version that has the method): server `tools`, `resources`, `prompts`,
 * `logging`, `completions` and their `listChanged` / `subscribe` features; client
 * `sampling`, `elicitation`, `roots`; 2025-11-25 `tasks.list` and `tasks.cancel`. The
 * tasks page gives `tasks/get` and `tasks/result` no feature flag of their own: they
 * concern tasks the receiver created, which it may only do having declared `tasks`.
 * `notifications/elicitation/complete` follows a URL-mode elicitation, so it needs the
 * client's `elicitation`.
 */
const CAPABILITIES: Readonly<Record<string, readonly [Side, string]>> = {
  "resources/list": ["server", "resources"],
  "resources/templates/list": ["server", "resources"],
  "resources/read": ["server", "resources"],
  "resources/subscribe": ["server", "resources.subscribe"],
  "resources/unsubscribe": ["server", "resources.subscribe"],
  "notifications/resources/updated": ["server", "resources.subscribe"],
  "notifications/resources/list_changed": ["server", "resources.listChanged"],
  "prompts/list": ["server", "prompts"],
  "prompts/get": ["server", "prompts"],
  "notifications/prompts/list_changed": ["server", "prompts.listChanged"],
  "tools/list": ["server", "tools"],
  "tools/call": ["server", "tools"],
  "notifications/tools/list_changed": ["server", "tools.listChanged"],
  "logging/setLevel": ["server", "logging"],
  "notifications/message": ["server", "logging"],
  "completion/complete": ["server", "completions"],
  "sampling/createMessage": ["client", "sampling"],
  "elicitation/create": ["client", "elicitation"],
  "notifications/elicitation/complete": ["client", "elicitation"],
  "roots/list": ["client", "roots"],
  "notifications/roots/list_changed": ["client", "roots.listChanged"],
  "tasks/list": ["server", "tasks.list"],
  "tasks/cancel": ["server", "tasks.cancel"],
  "tasks/get": ["server", "tasks"],
  "tasks/result": ["server", "tasks"],
};

/**
 * Task-augmentable requests. 2025-11-25 `basic/utilities/tasks` ("Capabilities"): the
 * `tasks.requests` capability lists `tools.call`, `sampling.createMessage` and
 * `elicitation.create`, and "if a request type is not present, it does not support
 * task-augmentation". 2026-07-28 tasks extension (`docs/extensions/tasks/overview`): the
 * server may answer `tools/call` with a task (`resultType: "task"`).
 */
const TASK_AUGMENTABLE: Readonly<Partial<Record<SchemaVersion, readonly string[]>>> = {
  "2025-11-25": ["tools/call", "sampling/createMessage", "elicitation/create"],
  "2026-07-28": ["tools/call"],
};

/**
 * draft `basic/patterns/mrtr` ("Supported Requests"): servers MAY answer `prompts/get`,
 * `resources/read` and `tools/call` with an `InputRequiredResult`, and "MUST NOT send
 * InputRequiredResult responses on any other client requests".
 */
const INPUT_REQUIRED: Readonly<Partial<Record<SchemaVersion, readonly string[]>>> = {
  "2026-07-28": ["tools/call", "prompts/get", "resources/read"],
};

/** Each version's rows, one JSON {@link MethodRow} per line (src/schema/lines.ts). */
const ROWS: Record<SchemaVersion, string> = {
  "2025-03-26": ROWS_2025_03_26,
  "2025-06-18": ROWS_2025_06_18,
  "2025-11-25": ROWS_2025_11_25,
  "2026-07-28": ROWS_2026_07_28,
};

const PARAMS_REQUIRED: Issue = { path: "", reason: 'missing required "params"' };

/** True when `v` is an object with own `key` equal to `value` (`value` undefined: any). */
function ownIs(v: unknown, key: string, value?: string): boolean {
  return typeof v === "object" && v !== null && Object.hasOwn(v, key) && (value === undefined || (v as Record<string, unknown>)[key] === value);
}

/** The params validator of a row: the schema's, plus the rule for absent params. */
function paramsValidator(version: SchemaVersion, row: MethodRow): Validator {
  const [, , , type, node, required] = row;
  const inner = type !== null ? validatorFor(version, type)! : nodeValidator(node);
  if (required) return (params) => (params === undefined ? [{ ...PARAMS_REQUIRED }] : inner(params));
  return (params) => (params === undefined ? null : inner(params));
}

/** `t`'s own member `k` (an inherited one is no member of a received message). */
function ownMember(t: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(t, k) ? t[k] : undefined;
}

/**
 * The Task members (SEP-2663 `Task`: `taskId`, `status`, `createdAt`, `lastUpdatedAt` and
 * `ttlMs` required; `statusMessage`, `pollIntervalMs` optional) of `t`, an object, pushed
 * to `out`. Own members only; numbers are not held to integers (the SEP types them `number`).
 */
function taskMemberIssues(t: Record<string, unknown>, out: Issue[]): void {
  const own = (k: string): unknown => ownMember(t, k);
  for (const k of ["taskId", "createdAt", "lastUpdatedAt"]) if (typeof own(k) !== "string") out.push({ path: `/${k}`, reason: "must be a string" });
  if (!isTaskStatus(own("status"))) out.push({ path: "/status", reason: `expected one of ${TASK_STATUSES.map((v) => JSON.stringify(v)).join(", ")}` });
  const ttl = own("ttlMs");
  if (ttl !== null && typeof ttl !== "number") out.push({ path: "/ttlMs", reason: "must be a number or null" });
  const poll = own("pollIntervalMs"), message = own("statusMessage");
  if (poll !== undefined && typeof poll !== "number") out.push({ path: "/pollIntervalMs", reason: "must be a number" });
  if (message !== undefined && typeof message !== "string") out.push({ path: "/statusMessage", reason: "must be a string" });
}

/**
 * The tasks extension's `CreateTaskResult` (SEP-2663: `type CreateTaskResult = Result &
 * Task`): without the Task's members a client has no task to poll, and a `tools/call`
 * answered `{resultType: "task"}` alone resolved as if it were the tool's result.
 */
function createdTaskIssues(result: unknown): Issue[] | null {
  const out: Issue[] = [];
  taskMemberIssues(result as Record<string, unknown>, out);
  return out.length > 0 ? out : null;
}

/**
 * A `DetailedTask` (SEP-2663 "Task Status", "Task Polling"), what `tasks/get` answers and
 * `notifications/tasks` carries: the Task, and what its status inlines: an
 * `input_required` task "MUST return ... an inputRequests field" (each an `InputRequest`
 * as MRTR has it), a `completed` one "a result field" (an object), a `failed` one "MUST
 * include the error field with the JSON-RPC error" (an integer code, a string message).
 * Without this a `tasks/get` answer with no task in it resolved `getTask`, and a
 * malformed push reached the listener.
 */
function detailedTaskIssues(task: unknown): Issue[] | null {
  const t = task as Record<string, unknown>;
  const out: Issue[] = [];
  taskMemberIssues(t, out);
  const own = (k: string): unknown => ownMember(t, k);
  const status = own("status");
  if (status === "input_required") {
    const inputs = own("inputRequests");
    // The schema's InputRequests, as an input_required result holds them.
    const found = inputs === undefined ? [{ path: "/inputRequests", reason: "required when the status is input_required" }] : validatorFor("2026-07-28", "InputRequiredResult")!({ resultType: "input_required", inputRequests: inputs });
    if (found) out.push(...found.filter((i) => i.path.startsWith("/inputRequests")));
  } else if (status === "completed") {
    const r = own("result");
    if (typeof r !== "object" || r === null || Array.isArray(r)) out.push({ path: "/result", reason: "must be an object (required when the status is completed)" });
  } else if (status === "failed") {
    if (!isRpcError(own("error"))) out.push({ path: "/error", reason: "must be a JSON-RPC error, an integer code and a string message (required when the status is failed)" });
  }
  return out.length > 0 ? out : null;
}

/** The result validator of a request row, with the other result shapes the protocol allows. */
function resultValidator(version: SchemaVersion, resultType: string, tasks: boolean, inputRequired: boolean): Validator {
  const complete = validatorFor(version, resultType)!;
  if (version === "2025-11-25" && tasks) {
    // A receiver that accepts a task-augmented request answers with a CreateTaskResult.
    const created = validatorFor(version, "CreateTaskResult")!;
    return (result) => (ownIs(result, "task") ? created(result) : complete(result));
  }
  if (version === "2026-07-28" && (inputRequired || tasks)) {
    const interim = validatorFor(version, "InputRequiredResult")!;
    // The tasks extension's CreateTaskResult (`resultType: "task"`) is not in the
    // vendored schema: the common Result fields, then the Task's, by hand.
    const task = withRule(validatorFor(version, "Result")!, createdTaskIssues);
    return (result) =>
      inputRequired && ownIs(result, "resultType", "input_required") ? interim(result) : tasks && ownIs(result, "resultType", "task") ? task(result) : complete(result);
  }
  return complete;
}

/**
 * The issues of `result` as the answer to a request of `spec` that `augmented` says was
 * task-augmented or not. `validateResult` cannot know: in 2025-11-25 it takes a
 * `CreateTaskResult` (a result carrying `task`) for every task-augmentable method, but only
 * a task-augmented request may get one; a normal request is answered with "the actual
 * operation result directly" (`basic/utilities/tasks`, "Creating Tasks"), so that is what
 * its result is held to.
 * @internal
 */
export function requestResultIssues(version: ProtocolVersion, spec: MethodSpec, result: unknown, augmented: boolean): Issue[] | null {
  if (!augmented && spec.taskAugmentable && spec.resultType !== null && schemaVersionOf(version) === "2025-11-25" && ownIs(result, "task")) {
    return withRule(validatorFor(version, spec.resultType)!, resultRule("2025-11-25", spec.method))(result);
  }
  return spec.validateResult?.(result) ?? null;
}

/** Joins a generated row with the hand-written rules into a frozen record. */
function buildSpec(version: SchemaVersion, row: MethodRow): MethodSpec {
  const [method, kind, from, paramsType, , , resultType] = row;
  const cap = Object.hasOwn(CAPABILITIES, method) ? CAPABILITIES[method] : null;
  const taskAugmentable = kind === "request" && (TASK_AUGMENTABLE[version] ?? []).includes(method);
  const inputRequired = kind === "request" && (INPUT_REQUIRED[version] ?? []).includes(method);
  return Object.freeze({
    method,
    kind,
    from,
    paramsType,
    resultType,
    validateParams: withRule(paramsValidator(version, row), paramsRule(version, method)),
    validateResult: resultType === null ? null : withRule(resultValidator(version, resultType, taskAugmentable, inputRequired), resultRule(version, method)),
    capability: cap === null ? null : Object.freeze({ side: cap[0], path: cap[1] }),
    taskAugmentable,
    inputRequired,
  });
}

/** The records of one list of rows built so far, by method (null-prototype: a method name is never an inherited key). */
type Built = Record<string, MethodSpec>;

/** The record of `method` among `rows` (built on its first lookup, into `built`), or undefined when no row has it. */
function specIn(version: SchemaVersion, rows: string, built: Built, method: string): MethodSpec | undefined {
  const hit = built[method];
  if (hit !== undefined) return hit;
  const row = lineStartingWith(rows, rowPrefix(method)) as MethodRow | undefined;
  return row === undefined ? undefined : (built[method] = buildSpec(version, row));
}

/** How the line of `method`'s row begins: with the method as JSON, which matches that method's alone. */
function rowPrefix(method: string): string {
  return `[${JSON.stringify(method)},`;
}

/** Every row's record, as a frozen null-prototype table in row order (the same records lookups return). */
function tableIn(version: SchemaVersion, rows: string, built: Built): Readonly<Record<string, MethodSpec>> {
  const table: Record<string, MethodSpec> = Object.create(null);
  const starts = lineStarts(rows);
  for (let i = 0; i + 1 < starts.length; i++) {
    const row = lineAt(rows, starts, i) as MethodRow;
    table[row[0]] = built[row[0]] ??= buildSpec(version, row);
  }
  return Object.freeze(table);
}

/**
 * A tasks extension request's params (SEP-2663 `GetTaskRequest`, `UpdateTaskRequest`,
 * `CancelTaskRequest`): the schema's `RequestParams` (its `_meta`), a string `taskId`, and
 * for `tasks/update` an object `inputResponses`. Its entries are held by the task, which
 * knows what each outstanding key asked for (`tasks/requests.ts`), and ignores the others
 * (SEP-2663: a server "SHOULD ignore" responses to keys not outstanding).
 */
function taskParamsValidator(method: string): Validator {
  const base = validatorFor("2026-07-28", "RequestParams")!;
  return (params) => {
    if (typeof params !== "object" || params === null || Array.isArray(params)) return [{ ...PARAMS_REQUIRED }];
    const p = params as Record<string, unknown>;
    if (typeof p.taskId !== "string") return [{ path: "/taskId", reason: "must be a string" }];
    if (method === "tasks/update") {
      const r = p.inputResponses;
      if (typeof r !== "object" || r === null || Array.isArray(r)) return [{ path: "/inputResponses", reason: "must be an object" }];
    }
    return base(params);
  };
}

/**
 * A tasks extension result: the schema's `Result`, with `resultType` "complete" (SEP-2663:
 * it "MUST be set to complete" on `GetTaskResult`, `UpdateTaskResult` and
 * `CancelTaskResult`), and, for `tasks/get`, a {@link detailedTaskIssues | DetailedTask}.
 * The last two were "any object": a `tasks/get` answer with no task in it went out and
 * resolved the client's `getTask`.
 */
function taskResultValidator(method: string): Validator {
  const complete: Validator = (r) => ((r as Record<string, unknown>).resultType === "complete" ? null : [{ path: "/resultType", reason: 'must be "complete"' }]);
  const base = withRule(validatorFor("2026-07-28", "Result")!, complete);
  return method === "tasks/get" ? withRule(base, detailedTaskIssues) : base;
}

/** The params of `notifications/tasks`: the schema's `NotificationParams` and a DetailedTask ("identical to what tasks/get would have returned"). */
function taskNotificationValidator(): Validator {
  return withRule(validatorFor("2026-07-28", "NotificationParams")!, detailedTaskIssues);
}

/**
 * The `io.modelcontextprotocol/tasks` extension (SEP-2663, `docs/extensions/tasks/overview`)
 * adds `tasks/get`, `tasks/update` and `tasks/cancel` (client to server) and the
 * `notifications/tasks` status push to 2026-07-28; none is in the vendored schema. They
 * carry no capability here: the extension is declared per request, and the task runtime
 * answers a non-declaring client `-32021` (`tasks/modern.ts`, `gateExtensionRequest`).
 * `tasks/result` and `tasks/list` stay absent, so the kernel answers them `-32601`.
 */
function tasksExtensionTable(): Readonly<Record<string, MethodSpec>> {
  const out: Record<string, MethodSpec> = Object.create(null);
  const base = { paramsType: null, capability: null, taskAugmentable: false, inputRequired: false } as const;
  for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
    out[method] = Object.freeze({ ...base, method, kind: "request", from: "client", resultType: "Result", validateParams: taskParamsValidator(method), validateResult: taskResultValidator(method) });
  }
  out["notifications/tasks"] = Object.freeze({ ...base, method: "notifications/tasks", kind: "notification", from: "server", resultType: null, validateParams: taskNotificationValidator(), validateResult: null });
  return Object.freeze(out);
}

/** Each version's records built so far. */
const specs: Partial<Record<SchemaVersion, Built>> = {};
/** Each version's whole table, built when first read through {@link METHODS}. */
const tables: Partial<Record<SchemaVersion, Readonly<Record<string, MethodSpec>>>> = {};

/**
 * The record of `method` in `version`'s schema, or undefined. The first name the rows lack
 * has the whole table built, so that the next (a peer's unknown method, an extension's on
 * every request) is a property read rather than a search of the rows.
 */
function specOf(version: SchemaVersion, method: string): MethodSpec | undefined {
  const table = tables[version];
  if (table !== undefined) return table[method];
  const spec = specIn(version, ROWS[version], (specs[version] ??= Object.create(null) as Built), method);
  if (spec === undefined) tableOf(version);
  return spec;
}

/** The method table of `version`, built on its first use. */
function tableOf(version: SchemaVersion): Readonly<Record<string, MethodSpec>> {
  return (tables[version] ??= tableIn(version, ROWS[version], (specs[version] ??= Object.create(null) as Built)));
}

/** The method tables, one per schema version, keyed by method name (each built when first read). */
export const METHODS: Readonly<Record<SchemaVersion, Readonly<Record<string, MethodSpec>>>> = /* @__PURE__ */ Object.freeze({
  get "2026-07-28"() {
    return tableOf("2026-07-28");
  },
  get "2025-11-25"() {
    return tableOf("2025-11-25");
  },
  get "2025-06-18"() {
    return tableOf("2025-06-18");
  },
  get "2025-03-26"() {
    return tableOf("2025-03-26");
  },
});

/**
 * 2026-07-28 server-to-client requests, which travel inside an `InputRequiredResult`
 * (`inputRequests`) rather than as JSON-RPC requests: `elicitation/create`,
 * `sampling/createMessage` and `roots/list` (the schema's `InputRequest` union). Their
 * `validateResult` checks the matching entry of the retry's `inputResponses`, and their
 * `capability` is the client capability a server must see declared before asking (mrtr:
 * "Servers MUST NOT send an inputRequests that the client has not declared support for").
 */
export const INPUT_REQUESTS: Readonly<Record<string, MethodSpec>> = /* @__PURE__ */ lazyInputRequests();

/** The issues of `result` as an answer to the input request `method`, or null (also for a method that is none). */
export function inputAnswerIssues(method: string, result: unknown): Issue[] | null {
  return Object.hasOwn(INPUT_REQUESTS, method) ? (INPUT_REQUESTS[method].validateResult?.(result) ?? null) : null;
}

/**
 * {@link INPUT_REQUESTS}: one getter per method, building its record on first read (a
 * server that never asks for input builds none at load).
 */
function lazyInputRequests(): Readonly<Record<string, MethodSpec>> {
  const built: Built = Object.create(null);
  const table: Record<string, MethodSpec> = Object.create(null);
  const starts = lineStarts(INPUT_ROWS);
  for (let i = 0; i + 1 < starts.length; i++) {
    const row = lineAt(INPUT_ROWS, starts, i) as MethodRow;
    Object.defineProperty(table, row[0], { enumerable: true, get: () => (built[row[0]] ??= buildSpec("2026-07-28", row)) });
  }
  return Object.freeze(table);
}

/** The tasks extension's table, built when first read (a legacy session never does). */
let tasksExtension: Readonly<Record<string, MethodSpec>> | undefined;

/**
 * Methods extensions add to a schema version, outside its message unions (so
 * {@link METHODS} stays exactly the schema): 2026-07-28 gains the tasks extension's.
 */
export const EXTENSION_METHODS: Readonly<Partial<Record<SchemaVersion, Readonly<Record<string, MethodSpec>>>>> = /* @__PURE__ */ Object.freeze({
  get "2026-07-28"() {
    return (tasksExtension ??= tasksExtensionTable());
  },
});

/**
 * Where `2024-11-05` differs from the `2025-03-26` table it is checked with: the
 * `completions` capability arrived in 2025-03-26 (changelog: "Added `completions`
 * capability"), so a 2024-11-05 server, whose `ServerCapabilities` has no such field,
 * cannot declare it, and `completion/complete` is not gated there; audio content arrived
 * in 2025-03-26 too, so a tool result, prompt or sampling message holding it is invalid
 * in 2024-11-05 ({@link rules2024}), whichever side sends it.
 */
const specs2024: Built = Object.create(null);

/** The 2024-11-05 spec of `method`, when it differs from 2025-03-26's; else undefined. */
function spec2024(method: string): MethodSpec | undefined {
  const hit = specs2024[method];
  if (hit !== undefined) return hit;
  if (method === "completion/complete") return (specs2024[method] = Object.freeze({ ...specOf("2025-03-26", method)!, capability: null }));
  const rules = rules2024(method);
  if (rules === undefined) return undefined;
  const base = specOf("2025-03-26", method)!;
  return (specs2024[method] = Object.freeze({
    ...base,
    validateParams: withRule(base.validateParams, rules.params),
    validateResult: base.validateResult === null ? null : withRule(base.validateResult, rules.result),
  }));
}

/** The spec of `method` in `version` (its schema's, else an extension's), or undefined when that version has no such method. */
export function methodSpec(version: ProtocolVersion, method: string): MethodSpec | undefined {
  if (typeof version !== "string" || !isSchemaVersion(schemaVersionOf(version))) return undefined;
  if (version === "2024-11-05" && typeof method === "string") {
    const own = spec2024(method);
    if (own !== undefined) return own;
  }
  const v = schemaVersionOf(version);
  if (typeof method !== "string") return undefined;
  const spec = specOf(v, method);
  if (spec !== undefined) return spec;
  const ext = EXTENSION_METHODS[v];
  return ext !== undefined && Object.hasOwn(ext, method) ? ext[method] : undefined;
}

/**
 * A method an application's own extension adds (draft `basic/versioning`, "Extension
 * Negotiation": extensions are capabilities beyond the core protocol, and may bring
 * methods of their own): a request or a notification, and who sends it. Declared in the
 * session options (`extensionMethods`), it is gated by the lifecycle as any method is,
 * and held to JSON-RPC's shape only: params an object (or none), a result an object.
 * `extension` names the extension it belongs to: then it goes only to a peer that declared
 * that extension (`capabilities.extensions[id]`), and is taken only when this side declared
 * it ("If one party supports an extension but the other does not, the supporting party
 * MUST either revert to core protocol behavior or reject the request").
 */
export interface DeclaredMethod {
  readonly kind: "request" | "notification";
  readonly from: Side | "both";
  readonly extension?: string | undefined;
}

/** Methods an application declares, by name (see {@link DeclaredMethod}). */
export type DeclaredMethods = Readonly<Record<string, DeclaredMethod>>;

/** Any object: a declared method's result, held to JSON-RPC's shape only. */
const anyObject: Validator = (v) => (typeof v === "object" && v !== null && !Array.isArray(v) ? null : [{ path: "", reason: "must be an object" }]);

/** Params of a declared method: an object, or none. */
const optionalObject: Validator = (v) => (v === undefined ? null : anyObject(v));

/** Whether `method` is the protocol's in some version, or an extension's this kernel implements: no declaration may redefine it. */
export function isProtocolMethod(method: string): boolean {
  for (const v of SCHEMA_VERSIONS) {
    if (lineStartingWith(ROWS[v], rowPrefix(method)) !== undefined) return true;
    const ext = EXTENSION_METHODS[v];
    if (ext !== undefined && Object.hasOwn(ext, method)) return true;
  }
  return false;
}

/**
 * Why `method` cannot be declared as `d`, or null. A name is visible ASCII (it travels in
 * the `Mcp-Method` header of a modern HTTP request, which has no encoding for anything
 * else) and is neither the protocol's nor one JSON-RPC reserves (`rpc.`).
 */
export function declaredMethodProblem(method: string, d: unknown): string | null {
  const name = JSON.stringify(method);
  if (!/^[\x21-\x7e]+$/.test(method)) return `${name}: a method name is visible ASCII (it is sent in the Mcp-Method header), and not empty`;
  if (method.startsWith("rpc.")) return `${name}: JSON-RPC reserves names that begin with "rpc."`;
  if (isProtocolMethod(method)) return `${name} is a method of the protocol, which a declaration cannot redefine`;
  const { kind, from, extension } = (typeof d === "object" && d !== null ? d : {}) as { kind?: unknown; from?: unknown; extension?: unknown };
  if (kind !== "request" && kind !== "notification") return `${name}: kind must be "request" or "notification"`;
  if (from !== "client" && from !== "server" && from !== "both") return `${name}: from must be "client", "server" or "both"`;
  if (extension !== undefined && (typeof extension !== "string" || !isExtensionId(extension))) return `${name}: extension must be an extension identifier, a _meta key with a prefix ("com.example/name")`;
  return null;
}

/** Why `methods` cannot be a session's {@link DeclaredMethods}, naming the entry; null when it can. */
export function declaredMethodsProblem(methods: unknown): string | null {
  if (typeof methods !== "object" || methods === null || Array.isArray(methods)) return "must be an object of method names to { kind, from }";
  for (const [method, d] of Object.entries(methods)) {
    const problem = declaredMethodProblem(method, d);
    if (problem !== null) return problem;
  }
  return null;
}

/** Specs made for declarations, by the declaration (a session's are frozen and shared): one per declaration, not per message. */
const declaredSpecs = new WeakMap<DeclaredMethod, MethodSpec>();

/** The spec of a declared method: held to JSON-RPC's shape only, gated by its extension when it names one. */
export function declaredMethodSpec(method: string, d: DeclaredMethod): MethodSpec {
  let spec = declaredSpecs.get(d);
  if (spec === undefined || spec.method !== method) {
    const request = d.kind === "request";
    // The receiver's extension, as the table holds a request's capability (a method sent both
    // ways holds the client-to-server case; capabilityFor turns it for the server's sending).
    const capability = d.extension === undefined ? null : Object.freeze({ side: d.from === "server" ? ("client" as const) : ("server" as const), path: `extensions.${d.extension}` });
    spec = Object.freeze({ method, kind: d.kind, from: d.from, paramsType: null, resultType: request ? "Result" : null, validateParams: optionalObject, validateResult: request ? anyObject : null, capability, taskAugmentable: false, inputRequired: false });
    declaredSpecs.set(d, spec);
  }
  return spec;
}

/**
 * The flipped capability of each spec sent both ways, by the spec. Weak: a declared method's
 * spec is made per declaration object, and a session restored from JSON has new ones, so a
 * strong map kept one more entry for every restored session that sent such a method.
 */
const flipped = new WeakMap<MethodSpec, CapabilityRef>();

/**
 * The capability gating `spec` when `sender` sends it: `spec.capability`, except that for
 * a method sent both ways it is the receiver's (a server sending 2025-11-25 `tasks/list`
 * needs the client's `tasks.list`).
 */
export function capabilityFor(spec: MethodSpec, sender: Side): CapabilityRef | null {
  const cap = spec.capability;
  if (cap === null || spec.from !== "both" || sender === "client") return cap;
  let ref = flipped.get(spec);
  if (ref === undefined) {
    ref = Object.freeze({ side: "client" as const, path: cap.path });
    flipped.set(spec, ref);
  }
  return ref;
}

/**
 * True when `capabilities` declares `path` (dotted): each segment present and not
 * false/null. A capability object is declared by being present, even empty (`{tools: {}}`
 * declares `tools`); a boolean feature by being `true` or an object. Keys under
 * `extensions` and `experimental` may themselves contain dots
 * (`extensions.io.modelcontextprotocol/tasks`): when the next segment is not a key, longer
 * dotted runs are tried. Only own properties count.
 */
export function hasCapability(capabilities: unknown, path: string): boolean {
  const runs = keyRunsOf(path);
  let cur = capabilities;
  for (let i = 0; i < runs.length; i++) {
    if (typeof cur !== "object" || cur === null || Array.isArray(cur)) return false;
    // The segment, else a key holding dots: the longer runs, shortest first.
    const keys = runs[i];
    let j = 0;
    while (j < keys.length && !Object.hasOwn(cur, keys[j])) j++;
    if (j === keys.length) return false;
    cur = (cur as Record<string, unknown>)[keys[j]];
    if (cur === false || cur === null || cur === undefined) return false;
    i += j;
  }
  return true;
}

/**
 * For each dot-separated segment of a path, the keys it may be read as: the segment, then
 * it joined with the next one, two… (`["tasks", "tasks.requests", …]`). Kept for the paths
 * asked about most (the method and task tables' few dozen): every request checks one or
 * two, most of them absent, and the runs made anew are strings to allocate and hash for
 * each lookup.
 */
const KEY_RUNS = new Map<string, readonly (readonly string[])[]>();

function keyRunsOf(path: string): readonly (readonly string[])[] {
  let runs = KEY_RUNS.get(path);
  if (runs === undefined) {
    const segments = path.split(".");
    runs = segments.map((_, i) => segments.slice(i).map((__, k) => segments.slice(i, i + k + 1).join(".")));
    if (KEY_RUNS.size < 256) KEY_RUNS.set(path, runs);
  }
  return runs;
}
