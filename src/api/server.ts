/**
 * McpServer: tools, resources, prompts and completions, served to any number of clients.
 *
 * Spec: 2025-11-25 `server/tools`, `server/resources`, `server/prompts`,
 * `server/utilities/{completion,logging,pagination}` (and the draft's `server/resources`
 * for the modern era's resource-not-found code).
 *
 * Theory of operation. The server is a registry plus one request handler. Registering an
 * item builds, once, the exact object its list method returns for it (and compiles its JSON
 * Schemas), so listing allocates nothing per item and a schema error surfaces at
 * registration, not on the first call. Each registry is a `Map` in registration order;
 * list results follow that order and paginate with the stable cursors of
 * `pagination.ts`. The capabilities a session declares are derived from what is
 * registered when it opens (`tools` once a tool exists, and so on), merged with any the
 * application forces.
 *
 * {@link McpServer.handler} is a plain {@link RequestHandler}: it works under any
 * {@link Endpoint}, the ones {@link McpServer.connect} makes for a transport and ones an
 * HTTP adapter makes per session. Changes are the kernel's business: a registration
 * feeds each connected session one `changed` input (coalesced to one per list per
 * microtask, so registering fifty tools sends one), and the session decides who is told
 * (legacy: `list_changed` if it declared `listChanged`, `updated` if the client
 * subscribed, which the kernel also tracks; modern: the open `subscriptions/listen`
 * streams whose filter asks for it).
 *
 * Errors follow the spec's split. A protocol error (unknown tool or prompt, a missing
 * required prompt argument, an invalid cursor, a resource not found) is a JSON-RPC error:
 * the handler throws an {@link McpError} and the driver answers with it. A tool that
 * fails is a *result*: what it throws becomes a `CallToolResult` with `isError: true`
 * and the message as text, so the model can see it. That includes an `McpError` from a
 * request the tool made (a client without `sampling`, say): the tool failed, the call
 * did not. A tool answers with a protocol
 * error only by throwing a {@link ProtocolError}, or an `McpError` with code `-32042`
 * (URL elicitation required, which 2025-11-25 defines as the answer to the request that
 * needs it; the driver sends it only where the spec allows, `model/error-codes.ts`, and
 * `-32603` otherwise). Arguments that fail the tool's `inputSchema` are a tool execution error from
 * 2025-11-25 (SEP-1303) and a `-32602` protocol error before it. A prompt, resource or
 * completion handler that lets the failure of its own request to the client escape
 * (`ctx.elicit` to a client without `elicitation`) answers `-32603` naming that request,
 * not with the inner error's code, which would describe the outer request.
 */
import { systemClock, type Clock } from "../driver/clock.js";
import { McpError, type Endpoint, type RequestContext, type RequestHandler } from "../driver/endpoint.js";
import { hmacRequestState, type RequestStateCodec } from "../driver/request-state.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { isModernVersion, isProtocolVersion, LATEST_LEGACY_VERSION, LEGACY_VERSIONS, type ProtocolVersion } from "../model/versions.js";
import { methodSpec } from "../model/methods.js";
import { builtinJsonSchema, capIssues, issuesText, type JsonSchemaValidator } from "../schema/json-schema.js";
import { elicitationChecks, type ElicitationChecks } from "../schema/elicitation.js";
import type { Issue } from "../schema/validate.js";
import type { LoggingLevel, SessionInput, SessionOptions, SessionOutput } from "../session/types.js";
import { implementationIssues } from "../session/session.js";
import { callListener } from "../driver/listener.js";
import { attach, checkSessionOptions, isObject, mergeCapabilities } from "./connection.js";
import { innerRequestOf, isThenable, ServerContext, withPendingInput, type RequestOrigin } from "./context.js";
import { DEFAULT_MAX_INPUT_ROUNDS, DEFAULT_REQUEST_STATE_TTL_MS, InputRequiredBridge, inputRetryOf, isInputRequired, wallClockOf, type InputRequiredResult } from "./mrtr.js";
import { page, pageThenListed, type Page } from "./pagination.js";
import type { Transport } from "./transport.js";
import type { HttpSessionContext, HttpSessionSetup } from "../transports/http-server.js";
import { paramHeadersOf } from "../transports/http/request-metadata.js";
import type {
  CallToolResult,
  StructuredContent,
  Completion,
  GetPromptResult,
  Icon,
  JsonSchemaObject,
  OutputSchema,
  Meta,
  Prompt,
  PromptArgument,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
  ToolAnnotations,
} from "./types.js";
import { matchUriTemplate, parseUriTemplate, type UriTemplate } from "./uri-template.js";
import { TaskRuntime, type TaskRuntimeOptions } from "./tasks.js";
import { declaresTaskSupport, sessionOwner, taskCapabilities, taskEraOfRequest, taskOwnerOf, taskRequestGate, toolTaskDecision, withoutTaskField } from "./tasks-server.js";
import { taskSupportOf, type ToolTaskSupport } from "../tasks/capabilities.js";
import { isTaskLimitError } from "../tasks/table.js";
import type { TaskOwner } from "../tasks/types.js";

export { ServerContext } from "./context.js";

/** Who the server is: `serverInfo`, plus the `instructions` of the initialize result. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  /** Free text for the model: how to use this server. */
  instructions?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** Options of an {@link McpServer}. */
export interface McpServerOptions {
  /** Items per page of every list method (default 0: one page holds everything). */
  pageSize?: number;
  /** Validates tool arguments and structured results (default: the built-in 2020-12 validator). */
  jsonSchema?: JsonSchemaValidator;
  /**
   * Checks of elicitation forms (`client/elicitation`): a `requestedSchema` outside the
   * restricted subset rejects `ctx.elicit` with `-32602` before anything is sent, and
   * accepted content that does not match the form rejects it with `-32603`.
   * {@link McpServer}: the built-in checks unless `false`; {@link McpServerCore}: only when given.
   */
  elicitationForms?: ElicitationChecks | false;
  /** Announce list changes (`listChanged` on tools, resources, prompts; default true). */
  listChanged?: boolean;
  /** Offer `resources/subscribe` (default true). */
  subscribe?: boolean;
  /** Declare `logging`, so handlers may log and clients may set the level (default true). */
  logging?: boolean;
  /**
   * Capabilities merged over the derived ones, key by key: `experimental`, `extensions`,
   * or e.g. `{ tools: { listChanged: true } }` to declare tools before any is registered.
   */
  capabilities?: JsonObject;
  /** Serves requests this class does not (default: `-32601` Method not found). */
  fallback?: RequestHandler;
  /** Session settings for {@link McpServer.connect} (versions, timeouts, limits). */
  session?: Omit<Partial<SessionOptions>, "role" | "info" | "capabilities" | "instructions">;
  /** The clock of {@link McpServer.connect}'s endpoints (default: the system clock). */
  clock?: Clock;
  /** Where a throwing notification listener's error goes (default: rethrown on a microtask). */
  onError?(error: unknown): void;
  /**
   * Every kernel output of each connection (those of {@link McpServer.connect} and of
   * {@link McpServer.httpSession}) after the server has acted on it: diagnostics (a second
   * of dropped log messages, `log-rate-limited`; a refused notification), `stale` keep-alive
   * misses, `initialized`, and `close` when the kernel ends a connection itself (a fatal
   * error, missed keep-alives). For logs and metrics; what it throws goes to `onError`.
   */
  onEvent?(event: SessionOutput): void;
  /**
   * MRTR: seals the `requestState` of `input_required` answers to modern clients and
   * verifies it on the retry (default: HMAC-SHA256 with a random key per server; use
   * `hmacRequestState({ secret })` so several instances accept each other's state).
   */
  requestState?: RequestStateCodec;
  /**
   * MRTR: how long issued `requestState` stays valid, in ms (default 10 minutes; 0: no
   * expiry), on {@link McpServerOptions.wallClock}.
   */
  requestStateTtlMs?: number;
  /**
   * The wall clock (ms since the epoch) of `requestState` expiry and of task times
   * (default `Date.now()`, or `clock` when one is given: tests). Given, every reading goes
   * through it: `mcp-kernel record` records them, and replay hands them back.
   */
  wallClock?: () => number;
  /** MRTR in a legacy session: most input rounds one call may take (default 8). */
  maxInputRounds?: number;
  /**
   * Tasks (2025-11-25 `basic/utilities/tasks` and the `io.modelcontextprotocol/tasks`
   * extension): the runtime's settings, or a runtime to share. Tools registered with
   * `execution.taskSupport` "optional" or "required" run as tasks through it.
   */
  tasks?: TaskRuntimeOptions | TaskRuntime;
}

/** Options of {@link McpServerCore}: those of {@link McpServer}, where tasks need a runtime given. */
export interface McpServerCoreOptions extends Omit<McpServerOptions, "tasks"> {
  /** The task runtime (`new TaskRuntime({ clock })`); without one, a tool with `execution.taskSupport` cannot be registered. */
  tasks?: TaskRuntime;
}

/** A connected session the server tells about changes: an {@link Endpoint} is one. */
export interface Notifier {
  /** Takes a kernel input (the server feeds `changed` and `declare`). */
  feed(input: SessionInput): void;
  /** Server-wide log messages (see {@link McpServer.log}). */
  log?(level: LoggingLevel, data: unknown, logger?: string): void;
}

/**
 * Thrown by a tool to answer `tools/call` with this JSON-RPC error rather than an
 * `isError` result (every other error a tool throws becomes such a result).
 */
export class ProtocolError extends McpError {
  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error);
    this.name = "ProtocolError";
  }
}

/**
 * Runs a tool. Throw a {@link ProtocolError} for a protocol error; anything else thrown
 * becomes an `isError` result. `A` is the arguments' type as the tool's `inputSchema`
 * describes them: the server checks the arguments against that schema before the handler
 * runs (with no schema, any object passes), so `tool<{ n: number }>(…)` is the author's
 * statement that the schema says so, not a check of its own.
 */
export type ToolHandler<A extends object = JsonObject> = (args: A, ctx: ServerContext) => ToolAnswer | Promise<ToolAnswer>;

/** What a tool handler answers: its result (any structured content: a 2026-07-28-only server may return an array), or a request for input. */
type ToolAnswer = CallToolResult<StructuredContent> | InputRequiredResult;

/** Describes a tool (everything of `Tool` but the name). */
export interface ToolConfig {
  title?: string;
  description?: string;
  /** A JSON Schema with `type: "object"` (default: any object). */
  inputSchema?: JsonSchemaObject;
  /**
   * When given, results must carry `structuredContent` that matches it. `type: "object"`
   * unless the server serves only 2026-07-28, where any JSON Schema 2020-12 is allowed.
   */
  outputSchema?: OutputSchema;
  annotations?: ToolAnnotations;
  execution?: Tool["execution"];
  icons?: Icon[];
  _meta?: Meta;
  /**
   * Tasks extension (SEP-2663, composition with multi round-trip requests): gather input
   * first. A call without `inputResponses` runs synchronously, so the handler's
   * `input_required` is the answer to round 1; the retry that brings the answers becomes
   * the task. Not sent in `tools/list`. Default false: a task-capable tool called by a
   * declaring client is a task from the first round.
   */
  inputBeforeTask?: boolean;
}

/** Completes one argument: the values for the text typed so far. */
export type Completer = (
  value: string,
  context: { arguments: Readonly<Record<string, string>>; ctx: ServerContext },
) => string[] | Completion | Promise<string[] | Completion>;

/** Reads a static resource; `undefined` means it does not exist (after all). */
export type ResourceReader = (uri: string, ctx: ServerContext) => ReadResult | Promise<ReadResult>;

/** What a resource reader answers: the contents, `undefined` for no such resource, or `input_required`. */
export type ReadResult = ReadResourceResult | InputRequiredResult | undefined;

/** Reads a resource of a template; `undefined` means no such resource. */
export type TemplateReader = (
  uri: string,
  variables: Readonly<Record<string, string>>,
  ctx: ServerContext,
) => ReadResult | Promise<ReadResult>;

/** Describes a resource (everything of `Resource` but the URI). */
export interface ResourceConfig {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Resource["annotations"];
  icons?: Icon[];
  _meta?: Meta;
}

/**
 * Names the concrete resources of a template, listed in `resources/list`; what it
 * answers is checked like a registered resource's definition.
 */
export type ResourceLister = (ctx: ServerContext) => Resource[] | Promise<Resource[]>;

/** Describes a resource template, with completers for its variables. */
export interface ResourceTemplateConfig extends Omit<ResourceConfig, "size"> {
  complete?: Record<string, Completer>;
  /**
   * The resources of this template to list: `resources/list` lists them after the
   * static resources, template by template in registration order, paginated with them.
   * Called for each `resources/list` page that reaches this template. A resource that
   * is not a valid `Resource` fails the request with `-32603` naming the field; a throw
   * fails it as a reader's throw fails `resources/read`. Not sent in
   * `resources/templates/list`.
   */
  list?: ResourceLister;
}

/** Builds a prompt's messages from its arguments. */
export type PromptGetter = (args: Record<string, string>, ctx: ServerContext) => GetPromptResult | InputRequiredResult | Promise<GetPromptResult | InputRequiredResult>;

/** Describes a prompt, with completers for its arguments. */
export interface PromptConfig {
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
  complete?: Record<string, Completer>;
}

/** Removes what a registration added. Idempotent. */
export type Unregister = () => void;

/**
 * The JSON-RPC error code for "resource not found" under `version`: `-32002` in the
 * legacy versions (2025-11-25 `server/resources`), `-32602` from 2026-07-28 (draft
 * `server/resources`: servers MUST return `-32602`).
 */
export function resourceNotFoundCode(version: string | undefined): number {
  return isModernVersion(version) ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
}

/**
 * Whether arguments failing a tool's `inputSchema` are a tool execution error (a result
 * with `isError`) under `version`: from 2025-11-25, whose `server/tools` lists "Input
 * validation errors" among tool execution errors; before, "Invalid arguments" were a
 * protocol error.
 */
export function argumentErrorsAreResults(version: string | undefined): boolean {
  return version === undefined || version >= "2025-11-25";
}

interface ToolEntry {
  seq: number;
  def: Tool;
  validateInput: ((value: unknown) => Issue[] | null) | null;
  validateOutput: ((value: unknown) => Issue[] | null) | null;
  handler: ToolHandler;
  inputBeforeTask: boolean;
  /** `execution.taskSupport` of the definition, read once (the definition is fixed at registration). */
  taskSupport: ToolTaskSupport;
}

interface ResourceEntry {
  seq: number;
  def: Resource;
  reader: ResourceReader;
}

interface TemplateEntry {
  seq: number;
  def: ResourceTemplate;
  template: UriTemplate;
  reader: TemplateReader;
  complete: Record<string, Completer> | undefined;
  list: ResourceLister | undefined;
}

interface PromptEntry {
  seq: number;
  def: Prompt;
  required: string[];
  getter: PromptGetter;
  complete: Record<string, Completer> | undefined;
}

const TOOLS = 1;
const RESOURCES = 2;
const PROMPTS = 4;
/** A change to no list that may change what the server declares (a completer: `completions`). */
const CAPABILITIES = 8;
const LISTS: readonly [number, "tools" | "resources" | "prompts"][] = [
  [TOOLS, "tools"],
  [RESOURCES, "resources"],
  [PROMPTS, "prompts"],
];

/** What a registry entry lists as (one shared function: listing allocates no closure). */
const defOf = <D>(entry: { def: D }): D => entry.def;

/** Most completion values one response may carry (`server/utilities/completion`). */
const MAX_COMPLETIONS = 100;

/** Tool names: 1 to 128 of A-Z a-z 0-9 _ - . (2025-11-25 `server/tools`, "Tool Names"). */
function validToolName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x2e;
    if (!ok) return false;
  }
  return true;
}

/**
 * What a tool's handler threw (no ask left open), as its answer: a protocol error as
 * itself; anything else an `isError` result (tools.mdx "Error Handling").
 */
function toolFailure(e: unknown): JsonObject {
  if (e instanceof ProtocolError || (e instanceof McpError && e.code === ErrorCode.UrlElicitationRequired)) throw e;
  return { content: [{ type: "text", text: errorText(e) }], isError: true };
}

/**
 * A prompt, resource or completion handler's answer, with the failure of a request it made
 * to the client (`ctx.elicit` without the client's `elicitation`, a client's error answer)
 * as this request's `-32603`, naming it (see `innerRequestOf`); other errors as they are.
 * Such a failure only comes asynchronously: a synchronous answer is passed through.
 */
function ownFailures(method: string, answer: JsonObject | Promise<JsonObject>): JsonObject | Promise<JsonObject> {
  if (!(answer instanceof Promise)) return answer;
  return answer.catch((e: unknown) => {
    const inner = innerRequestOf(e);
    if (inner === undefined || !(e instanceof McpError)) throw e;
    throw new McpError({ code: ErrorCode.InternalError, message: `${method} failed: its ${inner} request to the client failed: ${e.message}`, data: { request: inner, code: e.code } });
  });
}

/**
 * Registration arguments JavaScript does not check: a config that is not an object, a
 * handler that is not a function (`tool("t", fn)` skipped the config). Refused at once,
 * naming them, rather than failing at the first call with an engine message.
 */
function refuseMisuse(what: string, config: unknown, fn: unknown, role: string): void {
  if (!isObject(config)) throw new TypeError(`${what}: the second argument must be its config object (got ${typeof config === "function" ? "a function: the config comes before the " + role : JSON.stringify(config) ?? String(config)})`);
  if (typeof fn !== "function") throw new TypeError(`${what}: the ${role} must be a function (got ${typeof fn})`);
}

/** A handler's answer checked against the tool's contract (`outputSchema`, structured content). */
function checkedToolResult(entry: ToolEntry, name: string, answer: ToolAnswer): JsonObject {
  let result = answer;
  if (!isObject(result)) throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} returned no result object` });
  // Not a result yet: the MRTR layer (api/mrtr.ts) takes it from here.
  if (isInputRequired(result)) return result;
  if (result.content === undefined && result.structuredContent !== undefined) {
    // tools.mdx "Structured Content": a tool returning structured content SHOULD also
    // return it serialized in a TextContent block, for clients that predate it.
    result = { ...result, content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] };
  }
  if (entry.validateOutput !== null && result.isError !== true) {
    // tools.mdx "Output Schema": servers MUST provide structured results that conform to it.
    if (result.structuredContent === undefined) throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} has an outputSchema but returned no structuredContent` });
    const issues = entry.validateOutput(result.structuredContent);
    if (issues !== null) {
      const shown = capIssues(issues);
      throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} returned structuredContent that does not match its outputSchema: ${issuesText(shown)}`, data: { issues: shown } });
    }
  }
  return result;
}

/** The `serverInfo` sessions send: the `Implementation` fields of `info`, without `instructions` (anything not an object as it is, for the constructor to refuse). */
function serverInfoOf(info: ServerInfo): SessionOptions["info"] {
  if (typeof info !== "object" || info === null) return info;
  const { name, version, title, description, websiteUrl, icons } = info;
  const out = {} as SessionOptions["info"];
  assignDefined(out, { name, version, title, description, websiteUrl, icons });
  return out;
}

/** Copies the defined fields of `from` onto `to` (list entries carry no `undefined` members). */
function assignDefined(to: Record<string, unknown>, from: object): void {
  for (const [k, v] of Object.entries(from)) if (v !== undefined && k !== "complete") to[k] = v;
}

/** A list result: one page as its `field`, with the cursor of the next when there is one. */
function pageResult(field: string, r: Page<unknown>): JsonObject {
  return (r.nextCursor === undefined ? { [field]: r.items } : { [field]: r.items, nextCursor: r.nextCursor }) as JsonObject;
}

/** A `resources/list` result. */
const resourcesPage = (r: Page<Resource>): JsonObject => pageResult("resources", r);

/** What a template's `list` answered, when it is an array; the server's fault (-32603) otherwise. */
function listedArray(t: TemplateEntry, value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw new McpError({ code: ErrorCode.InternalError, message: `resource template ${t.def.uriTemplate} list returned no array`, data: { uriTemplate: t.def.uriTemplate } });
}

/**
 * What the `version` schema finds wrong with `item` as an entry of a `method` result's
 * `field` list (`resources/list`, `resources`), paths relative to it; null when valid.
 * Checked inside a result (a lone `Resource`'s validator is not in the kernel's tables),
 * of which only the item's issues count: a 2026-07-28 result's own required fields
 * (`resultType`, `ttlMs`…) are the kernel's to stamp.
 */
function itemIssues(version: ProtocolVersion, method: string, field: string, item: unknown): Issue[] | null {
  const issues = methodSpec(version, method)?.validateResult?.({ [field]: [item] });
  if (!issues) return null;
  const at = `/${field}/0`;
  const own = issues.filter((i) => i.path.startsWith(at)).map((i) => ({ ...i, path: i.path.slice(at.length) }));
  return own.length > 0 ? own : null;
}

/** A resource a template's `list` named, when it is a valid `Resource` in `version`; the server's fault (-32603) otherwise, naming the field. */
function checkedListed(t: TemplateEntry, value: unknown, version: ProtocolVersion): Resource {
  const issues = itemIssues(version, "resources/list", "resources", value);
  if (issues === null) return value as Resource;
  const shown = capIssues(issues);
  const uri = isObject(value) && typeof value.uri === "string" ? ` ${value.uri}` : "";
  throw new McpError({
    code: ErrorCode.InternalError,
    message: `resource template ${t.def.uriTemplate} listed an invalid resource${uri}: ${issuesText(shown)}`,
    data: { uriTemplate: t.def.uriTemplate, issues: shown },
  });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function invalidParams(message: string, data: unknown): McpError {
  return new McpError({ code: ErrorCode.InvalidParams, message, data });
}

/**
 * An MCP server without the task runtime built in: everything of {@link McpServer} (tools,
 * resources, prompts, completions, MRTR, both eras), tasks only with a {@link TaskRuntime}
 * given in `options.tasks`. A bundle that never names {@link McpServer} leaves the runtime
 * out, about 9 KB gzip of a minimal server.
 */
export class McpServerCore {
  private readonly tools = new Map<string, ToolEntry>();
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly templates = new Map<string, TemplateEntry>();
  private readonly prompts = new Map<string, PromptEntry>();
  private readonly completers = new Map<string, Completer>();
  /** Connected sessions, with how to close the transport of those {@link McpServer.connect} opened. */
  private readonly connections = new Map<Notifier, (() => void) | undefined>();
  /** The authenticated principal of each HTTP connection that has one: task pushes stay with their owner. */
  private readonly principals = new WeakMap<Notifier, string>();
  private readonly listeners = new Map<string, Set<(params: JsonObject | undefined, peer: Notifier | undefined) => void>>();
  private seq = 0;
  /** How many registered templates have a `list` (none: `resources/list` is the static resources alone, answered synchronously). */
  private listers = 0;
  private changed = 0;
  private readonly flush = (): void => this.flushListChanged();
  /** The capabilities connections were last given, as JSON (see {@link McpServerCore.flushListChanged}); undefined when unknown. */
  private declared: string | undefined;
  /** The `inputSchema` a tool is listed with, undefined for no such tool (one function per server: each HTTP request's setup carries it). */
  readonly inputSchemaOf = (name: string): JsonSchemaObject | undefined => this.tools.get(name)?.def.inputSchema;

  /** The connections' kernel outputs to `options.onEvent`, if set (one function for all of them). */
  private readonly onEvent = (event: SessionOutput): void => {
    const fn = this.options.onEvent;
    if (fn !== undefined) callListener(fn, event, undefined, this.options.onError);
  };
  private readonly schema: JsonSchemaValidator;
  private readonly forms: ElicitationChecks | undefined;
  private readonly pageSize: number;
  private readonly clock: Clock;
  private readonly mrtr: InputRequiredBridge;
  /** The server's tasks: created by task-augmented tool calls, read by `tasks/*` requests (none without a runtime). */
  readonly tasks: TaskRuntime | undefined;

  constructor(
    readonly info: ServerInfo,
    private readonly options: McpServerCoreOptions = {},
  ) {
    this.schema = options.jsonSchema ?? builtinJsonSchema;
    this.forms = options.elicitationForms || undefined;
    this.pageSize = options.pageSize ?? 0;
    this.clock = options.clock ?? systemClock;
    this.mrtr = new InputRequiredBridge({
      codec: options.requestState ?? hmacRequestState(),
      ttlMs: options.requestStateTtlMs ?? DEFAULT_REQUEST_STATE_TTL_MS,
      now: wallClockOf(options.clock, options.wallClock),
      maxRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
    });
    if (!Number.isInteger(this.pageSize) || this.pageSize < 0) throw new RangeError("pageSize must be a non-negative integer");
    // Numbers, flags, versions and the caching hints every cacheable modern result gets (a
    // value the schema refuses would fail each of those requests with -32603): refused here,
    // naming the option, rather than misread by the kernel.
    checkSessionOptions(options.session);
    // Every initialize result (and 2026-07-28 result) carries this serverInfo: one the
    // schema's Implementation refuses (an icon `src` without a scheme: `format: uri`)
    // would make clients refuse the server, so it is refused here, naming the field.
    const issues = implementationIssues("server", serverInfoOf(info), options.session?.versions);
    if (issues) throw new TypeError(`invalid server info: ${issuesText(issues)}`);
    if (info.instructions !== undefined && typeof info.instructions !== "string") throw new TypeError("invalid server info: /instructions: must be a string");
    this.tasks = options.tasks;
    this.tasks?.watchStatus((taskId, owner, task) => this.taskChanged(taskId, owner, task));
  }

  // -------------------------------------------------------------------------------------
  // Registration

  /**
   * Registers a tool. Throws (a programming error, not a protocol event) when the name is
   * taken or invalid, a schema does not compile or is not `type: "object"` (for the
   * `outputSchema`, only when a 2025-era version is served), the definition is not a valid
   * `Tool` of a 2025-era version the server serves, or the `inputSchema` has an invalid
   * `x-mcp-header` annotation (draft `server/tools`: a conforming HTTP client MUST drop
   * such a tool from `tools/list`).
   */
  tool<A extends object = JsonObject>(name: string, config: ToolConfig, handler: ToolHandler<A>): Unregister {
    refuseMisuse(`tool ${JSON.stringify(name)}`, config, handler, "handler");
    if (!validToolName(name)) throw new TypeError(`invalid tool name ${JSON.stringify(name)}: use 1-128 characters of A-Z a-z 0-9 _ - .`);
    if (this.tools.has(name)) throw new TypeError(`tool ${JSON.stringify(name)} is already registered`);
    const headers = config.inputSchema === undefined ? undefined : paramHeadersOf(config.inputSchema);
    if (headers?.ok === false) throw new TypeError(`tool ${JSON.stringify(name)} inputSchema has an invalid x-mcp-header: ${headers.reason}`);
    const def: Tool = { name, inputSchema: { type: "object", properties: {} } };
    const { inputBeforeTask, ...wire } = config;
    assignDefined(def, wire);
    if (this.tasks === undefined && taskSupportOf(def) !== "forbidden") {
      throw new TypeError(`tool ${JSON.stringify(name)} declares execution.taskSupport: use McpServer, or give McpServerCore a task runtime (options.tasks)`);
    }
    const legacy = this.legacyVersions();
    const entry: ToolEntry = {
      inputBeforeTask: inputBeforeTask === true,
      taskSupport: taskSupportOf(def),
      seq: this.seq++,
      def,
      validateInput: config.inputSchema === undefined ? null : this.compile(`tool ${name} inputSchema`, config.inputSchema, true),
      // Draft server/tools: an outputSchema "can be any valid JSON Schema 2020-12" (an array's,
      // say); until 2025-11-25 it is "restricted to type: "object" at the root level".
      validateOutput: config.outputSchema === undefined ? null : this.compile(`tool ${name} outputSchema`, config.outputSchema, legacy.length > 0),
      // The arguments the handler gets passed the inputSchema check: `A` is the author's reading of that schema.
      handler: handler as ToolHandler,
    };
    // A definition a 2025-era schema refuses (a boolean subschema in `properties`, which
    // 2020-12 allows and 2025-11-25 does not) would make every tools/list of that era fail:
    // refused here instead, naming the version.
    for (const version of legacy) {
      const issues = methodSpec(version, "tools/list")?.validateResult?.({ tools: [def] });
      if (issues) throw new TypeError(`tool ${JSON.stringify(name)} cannot be listed to ${version} clients, which this server serves: ${issuesText(issues)}`);
    }
    this.tools.set(name, entry);
    this.listChanged(TOOLS);
    return () => {
      if (this.tools.get(name) !== entry) return;
      this.tools.delete(name);
      this.listChanged(TOOLS);
    };
  }

  /** Registers a static resource at `uri`. Throws when the URI is taken. */
  resource(uri: string, config: ResourceConfig, reader: ResourceReader): Unregister {
    refuseMisuse(`resource ${JSON.stringify(uri)}`, config, reader, "reader");
    if (this.resources.has(uri)) throw new TypeError(`resource ${JSON.stringify(uri)} is already registered`);
    const def: Resource = { uri, name: config.name };
    assignDefined(def, config);
    this.refuseUnlistable(`resource ${JSON.stringify(uri)}`, "resources/list", "resources", def);
    const entry: ResourceEntry = { seq: this.seq++, def, reader };
    this.resources.set(uri, entry);
    this.listChanged(RESOURCES);
    return () => {
      if (this.resources.get(uri) !== entry) return;
      this.resources.delete(uri);
      this.listChanged(RESOURCES);
    };
  }

  /**
   * Registers a family of resources named by an RFC 6570 template such as
   * `file:///notes/{id}`, `file:///{+path}` or `search://items{?q,limit}`. Throws when the
   * template is taken, is not RFC 6570, or names variables no URI could be split back into
   * (`{a}{b}`; see `uri-template.ts`).
   */
  resourceTemplate(uriTemplate: string, config: ResourceTemplateConfig, reader: TemplateReader): Unregister {
    refuseMisuse(`resource template ${JSON.stringify(uriTemplate)}`, config, reader, "reader");
    if (config.list !== undefined && typeof config.list !== "function") throw new TypeError(`resource template ${JSON.stringify(uriTemplate)}: list must be a function returning the resources`);
    if (this.templates.has(uriTemplate)) throw new TypeError(`resource template ${JSON.stringify(uriTemplate)} is already registered`);
    const template = parseUriTemplate(uriTemplate);
    if (typeof template === "string") throw new TypeError(`invalid URI template ${JSON.stringify(uriTemplate)}: ${template}`);
    // A template that expands but cannot be matched would never reach its reader.
    if (template.unmatchable !== undefined) throw new TypeError(`URI template ${JSON.stringify(uriTemplate)} cannot be matched: ${template.unmatchable}`);
    const def: ResourceTemplate = { uriTemplate, name: config.name };
    const { list, ...wire } = config;
    assignDefined(def, wire);
    this.refuseUnlistable(`resource template ${JSON.stringify(uriTemplate)}`, "resources/templates/list", "resourceTemplates", def);
    const entry: TemplateEntry = { seq: this.seq++, def, template, reader, complete: config.complete, list };
    this.templates.set(uriTemplate, entry);
    if (list !== undefined) this.listers++;
    this.listChanged(RESOURCES);
    return () => {
      if (this.templates.get(uriTemplate) !== entry) return;
      this.templates.delete(uriTemplate);
      if (list !== undefined) this.listers--;
      this.listChanged(RESOURCES);
    };
  }

  /** Registers a prompt. Throws when the name is taken. */
  prompt(name: string, config: PromptConfig, getter: PromptGetter): Unregister {
    refuseMisuse(`prompt ${JSON.stringify(name)}`, config, getter, "getter");
    if (this.prompts.has(name)) throw new TypeError(`prompt ${JSON.stringify(name)} is already registered`);
    const def: Prompt = { name };
    assignDefined(def, config);
    this.refuseUnlistable(`prompt ${JSON.stringify(name)}`, "prompts/list", "prompts", def);
    const required: string[] = [];
    for (const a of config.arguments ?? []) if (a.required === true) required.push(a.name);
    const entry: PromptEntry = { seq: this.seq++, def, required, getter, complete: config.complete };
    this.prompts.set(name, entry);
    this.listChanged(PROMPTS);
    return () => {
      if (this.prompts.get(name) !== entry) return;
      this.prompts.delete(name);
      this.listChanged(PROMPTS);
    };
  }

  /**
   * Registers a completer for argument `argName` of prompt `name` (`ref/prompt`) or
   * variable `argName` of template `name` (`ref/resource`, `name` being the template). It
   * takes precedence over a `complete` entry given at registration.
   */
  completion(refType: "ref/prompt" | "ref/resource", name: string, argName: string, completer: Completer): Unregister {
    const key = `${refType}\u0000${name}\u0000${argName}`;
    this.completers.set(key, completer);
    // The first completer adds `completions` (draft server/utilities/completion: servers that
    // support completions MUST declare it), and a removal may take it away.
    this.listChanged(CAPABILITIES);
    return () => {
      if (this.completers.get(key) !== completer) return;
      this.completers.delete(key);
      this.listChanged(CAPABILITIES);
    };
  }

  /** Listens for a client notification (e.g. `notifications/roots/list_changed`); `peer` says which client. */
  onNotification(method: string, fn: (params: JsonObject | undefined, peer: Notifier | undefined) => void): Unregister {
    let set = this.listeners.get(method);
    if (set === undefined) this.listeners.set(method, (set = new Set()));
    set.add(fn);
    return () => void set.delete(fn);
  }

  /**
   * Throws when `def` is not a valid entry of a `method` result in some version this server
   * serves: it would fail every listing of that version (the outgoing check answers
   * `-32603`), so it is refused at registration, naming the version and field.
   */
  private refuseUnlistable(what: string, method: string, field: string, def: object): void {
    for (const version of this.options.session?.versions ?? LEGACY_VERSIONS) {
      const issues = itemIssues(version, method, field, def);
      if (issues) throw new TypeError(`${what} cannot be listed to ${version} clients, which this server serves: ${issuesText(issues)}`);
    }
  }

  /** The versions before 2026-07-28 this server's sessions negotiate. */
  private legacyVersions(): readonly ProtocolVersion[] {
    return (this.options.session?.versions ?? LEGACY_VERSIONS).filter((v) => !isModernVersion(v));
  }

  private compile(what: string, schema: OutputSchema, objectOnly: boolean): (value: unknown) => Issue[] | null {
    if (typeof schema !== "object" || schema === null) throw new TypeError(`${what} must be a JSON Schema object`);
    if (objectOnly && schema.type !== "object") throw new TypeError(`${what} must be a JSON Schema with type "object"`);
    const compiled = this.schema.compile(schema);
    if (!compiled.ok) throw new TypeError(`${what} does not compile: ${issuesText(compiled.issues)}`);
    return compiled.validate;
  }

  // -------------------------------------------------------------------------------------
  // Capabilities and sessions

  /** The capabilities a session opened now declares: derived from what is registered, then `options.capabilities`. */
  get capabilities(): JsonObject {
    const o = this.options;
    const listChanged = o.listChanged !== false;
    const caps: JsonObject = {};
    if (o.logging !== false) caps.logging = {};
    if (this.hasCompleters()) caps.completions = {};
    if (this.prompts.size > 0) caps.prompts = listChanged ? { listChanged: true } : {};
    if (this.resources.size > 0 || this.templates.size > 0) {
      const r: JsonObject = {};
      if (o.subscribe !== false) r.subscribe = true;
      if (listChanged) r.listChanged = true;
      caps.resources = r;
    }
    if (this.tools.size > 0) caps.tools = listChanged ? { listChanged: true } : {};
    if (this.hasTaskTools()) mergeCapabilities(caps, taskCapabilities());
    return mergeCapabilities(caps, o.capabilities);
  }

  private hasCompleters(): boolean {
    if (this.completers.size > 0) return true;
    for (const p of this.prompts.values()) if (p.complete !== undefined) return true;
    for (const t of this.templates.values()) if (t.complete !== undefined) return true;
    return false;
  }

  /** Session options for a server endpoint serving this server (what {@link McpServer.connect} uses). */
  sessionOptions(): SessionOptions {
    const { instructions } = this.info;
    // Not a spread: Node 20's V8 leaves its fast path for a spread followed by more fields,
    // and this runs for every modern HTTP request.
    const options: SessionOptions = Object.assign({}, this.options.session, { role: "server" as const, info: serverInfoOf(this.info), capabilities: this.capabilities });
    if (instructions !== undefined) options.instructions = instructions;
    return options;
  }

  /**
   * Serves this server over `transport`: one endpoint (one session) per call, so call it
   * once per client. The endpoint is returned for server-initiated requests outside a
   * handler (e.g. `roots/list` after `notifications/roots/list_changed`).
   */
  connect(transport: Transport): Endpoint {
    const owner = sessionOwner();
    // Set by `onEndpoint`, before a transport that buffered messages (or closed) before
    // this call delivers them inside `attach`: the listeners get the endpoint as `peer`.
    let endpoint!: Endpoint;
    let open = true;
    attach(
      transport,
      this.sessionOptions(),
      {
        onEndpoint: (e) => (endpoint = e),
        onRequest: this.handler(owner),
        onNotification: (method, params) => this.emit(method, params, endpoint),
        onEvent: this.onEvent,
        onTransportClose: () => {
          open = false;
          this.detach(endpoint);
          this.tasks?.release(owner);
        },
      },
      this.clock,
    );
    // Closed already: the endpoint is returned closed, and no dead connection is kept.
    if (open) {
      this.connections.set(endpoint, () => {
        // Open subscriptions get their completion result before the stream ends (draft subscriptions, Graceful Closure).
        endpoint.feed({ type: "end-subscriptions", now: this.clock.now() });
        transport.close();
      });
    }
    return endpoint;
  }

  /**
   * The request handler, for an endpoint the caller made (an HTTP adapter's, say) with
   * {@link McpServer.sessionOptions}. Give the endpoint to {@link McpServer.attach} so it
   * hears about changes. `taskOwner` owns the tasks its requests create; `origin` is what
   * the handlers' contexts report as {@link ServerContext.sessionId} and
   * {@link ServerContext.principal} (none by default).
   */
  handler(taskOwner: TaskOwner = sessionOwner(), origin?: RequestOrigin): RequestHandler {
    // One handler per session: the tasks its requests create belong to `taskOwner`; its
    // handlers' contexts read `origin` (session id, principal).
    return (method, params, ctx) => this.dispatch(method, params, ctx, taskOwner, origin);
  }

  /**
   * The `createSession` of `createHttpHandler` for this server: each legacy session (and
   * each modern request) gets an endpoint that hears about this server's changes while it
   * lives. Its tasks belong to the HTTP session id, and to the principal when
   * `principalOf` names one (with authorization: `(req) => authInfo(req)?.token.subject`),
   * so another session or user can neither see nor touch them; the legacy session itself is
   * bound to that principal too (another user's requests naming it get 404, see
   * {@link HttpSessionSetup.principalOf}). A modern `tools/call` has
   * the `Mcp-Param-*` headers of the tool's `x-mcp-header` parameters checked against its
   * arguments (`toolInputSchema` of the setup, read from the registry at the call).
   * Tool, resource, prompt and completion handlers see the legacy session's id as
   * `ctx.sessionId` (undefined for a modern request) and the principal as `ctx.principal`.
   */
  httpSession(options: { principalOf?: (request: Request) => string | undefined } = {}): (ctx: HttpSessionContext) => HttpSessionSetup {
    return (ctx) => {
      let endpoint: Endpoint | undefined;
      const principal = options.principalOf?.(ctx.request);
      // A modern request's tasks belong to no session: its random key is drawn only if read.
      const owner: TaskOwner = ctx.sessionId ? { session: ctx.sessionId } : sessionOwner();
      if (principal !== undefined) owner.principal = principal;
      // What the handlers' contexts read: a legacy session's owner is already its id and
      // principal; a modern request has no session, only perhaps a principal.
      const origin: RequestOrigin | undefined = ctx.sessionId ? owner : principal !== undefined ? { principal } : undefined;
      return {
        options: this.sessionOptions(),
        onRequest: this.handler(owner, origin),
        onNotification: (method, params) => this.emit(method, params, endpoint),
        onEvent: this.onEvent,
        onOpen: (e) => {
          endpoint = e;
          this.attach(e);
          if (principal !== undefined) this.principals.set(e, principal);
        },
        onClose: () => {
          if (endpoint !== undefined) this.detach(endpoint);
          // A legacy session's status notifications went to it; a modern request has no session.
          if (ctx.sessionId) this.tasks?.release(owner);
        },
        // Mcp-Param-* headers are checked against the tools registered at the time of the call.
        toolInputSchema: this.inputSchemaOf,
        // The handler binds a legacy session to this principal: another user's requests naming it get 404.
        ...(options.principalOf !== undefined ? { principalOf: options.principalOf } : {}),
      };
    };
  }

  /** Tells `peer` (an endpoint made outside {@link McpServer.connect}) about changes until {@link McpServer.detach}. */
  attach(peer: Notifier): void {
    if (!this.connections.has(peer)) this.connections.set(peer, undefined);
  }

  /** Forwards a client notification to the listeners (for endpoints made outside {@link McpServer.connect}). */
  emit(method: string, params: JsonObject | undefined, peer?: Notifier): void {
    const set = this.listeners.get(method);
    if (set === undefined) return;
    for (const fn of set) callListener(fn, params, peer, this.options.onError);
  }

  /** Stops telling `peer` about changes. */
  detach(peer: Notifier): void {
    this.connections.delete(peer);
  }

  /** Closes every transport {@link McpServer.connect} opened. */
  close(): void {
    for (const close of [...this.connections.values()]) close?.();
  }

  /** How many connections receive notifications. */
  get connectionCount(): number {
    return this.connections.size;
  }

  // -------------------------------------------------------------------------------------
  // Notifications

  /** Tells every client subscribed to `uri` that it changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    const now = this.clock.now();
    for (const peer of this.connections.keys()) peer.feed({ type: "changed", now, what: "resource", uri });
  }

  /**
   * An extension task changed status: every listener that named it hears, if it is the
   * task's principal (modern tasks belong to no session; with authorization, to a user).
   */
  private taskChanged(taskId: string, owner: TaskOwner, task: JsonObject): void {
    const now = this.clock.now();
    for (const peer of this.connections.keys()) {
      if (this.principals.get(peer) === owner.principal) peer.feed({ type: "changed", now, what: "task", taskId, task });
    }
  }

  /** Sends a log message to every client (each filters by the level it set). */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const peer of this.connections.keys()) peer.log?.(level, data, logger);
  }

  private listChanged(kind: number): void {
    // No connection to tell: the next one opens with the capabilities of its time, which the
    // cache no longer describes, so the next flush declares whatever it finds.
    if (this.connections.size === 0) return void (this.declared = undefined);
    if (this.changed === 0) queueMicrotask(this.flush);
    this.changed |= kind;
  }

  private flushListChanged(): void {
    const changed = this.changed;
    this.changed = 0;
    const now = this.clock.now();
    // A registration may change what the server declares (its first prompt adds `prompts`):
    // every connection is told; one without a legacy handshake (modern requests,
    // server/discover) takes it, a legacy session keeps what it negotiated (the kernel says so).
    const capabilities = this.capabilities;
    const declared = JSON.stringify(capabilities);
    if (declared !== this.declared) {
      this.declared = declared;
      for (const peer of this.connections.keys()) peer.feed({ type: "declare", now, capabilities });
    }
    for (const [kind, what] of LISTS) {
      if ((changed & kind) === 0) continue;
      // The session knows whether its client is to be told (declared listChanged, or a listen stream asking).
      for (const peer of this.connections.keys()) peer.feed({ type: "changed", now, what });
    }
  }

  // -------------------------------------------------------------------------------------
  // Requests

  private dispatch(method: string, params: JsonObject | undefined, rc: RequestContext, session: TaskOwner, origin: RequestOrigin | undefined): Promise<JsonObject> | JsonObject {
    const p = params ?? {};
    switch (method) {
      case "tools/list":
        return this.list("tools", "tools", this.tools, p);
      case "tools/call":
        return this.callAsTask(p, rc, session, origin) ?? this.mrtr.serve(method, p, rc, (q) => this.callTool(q, rc, origin), session.principal);
      case "tasks/get":
      case "tasks/result":
      case "tasks/list":
      case "tasks/cancel":
      case "tasks/update":
        if (!this.servesTasks(rc)) break;
        return this.taskRequest(method, params, rc, session);
      case "resources/list":
        return ownFailures(method, this.listResources(p, rc, origin));
      case "resources/templates/list":
        return this.list("resourceTemplates", "templates", this.templates, p);
      case "resources/read":
        return ownFailures(method, this.mrtr.serve(method, p, rc, (q) => this.readResource(q, rc, origin), session.principal));
      case "prompts/list":
        return this.list("prompts", "prompts", this.prompts, p);
      case "prompts/get":
        return ownFailures(method, this.mrtr.serve(method, p, rc, (q) => this.getPrompt(q, rc, origin), session.principal));
      case "completion/complete":
        return ownFailures(method, this.complete(p, rc, origin));
    }
    if (this.options.fallback !== undefined) return this.options.fallback(method, params, rc);
    throw new McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` });
  }

  private hasTaskTools(): boolean {
    for (const t of this.tools.values()) if (t.taskSupport !== "forbidden") return true;
    return false;
  }

  /**
   * Whether `tasks/*` go to the task runtime: when the session declared tasks (what it
   * negotiated, not what is registered now), or the runtime still holds tasks, which
   * outlive the registration that made them (2025-11-25 `basic/utilities/tasks`:
   * `tasks/result` for a terminal task MUST return its final result). A legacy request
   * got here only if the session declared `tasks` (the kernel checks); a modern one
   * declares the extension on the endpoint that serves it.
   */
  private servesTasks(rc: RequestContext): boolean {
    const tasks = this.tasks;
    return tasks !== undefined && (declaresTaskSupport(rc.declared ?? this.capabilities, rc.protocolVersion) || tasks.size > 0);
  }

  /** A `tools/call` that runs as a task (tasks-server.ts decides), as its `CreateTaskResult`; undefined to run it normally. */
  private callAsTask(p: JsonObject, rc: RequestContext, session: TaskOwner, origin: RequestOrigin | undefined): Promise<JsonObject> | undefined {
    const entry = this.tools.get(p.name as string);
    if (entry === undefined) return undefined;
    // The common call: a tool that never runs as a task, not asked to. Either era serves it
    // normally, so the capabilities are not needed.
    if (entry.taskSupport === "forbidden" && p.task === undefined) return undefined;
    // What the session declared, not what is registered now: a task tool registered after
    // the handshake runs normally there (the session declared no tasks, and a receiver that
    // did not "MUST process requests of that type normally, ignoring any task-augmentation metadata").
    const decision = toolTaskDecision(p, entry.taskSupport, rc.declared ?? this.capabilities, rc.protocolVersion);
    if (decision.kind === "normal") return undefined;
    if (decision.kind === "error") return Promise.reject(new McpError(decision.error));
    const extra = decision.ttl === undefined ? {} : { ttl: decision.ttl };
    const work = async (q: JsonObject, r: RequestContext) => this.callTool(q, r, origin);
    const tasks = this.tasks!; // a tool that may run as a task was registered with a runtime
    const owner = taskOwnerOf(rc.protocolVersion, session);
    const asTask = (q: JsonObject) => tasks.create(rc, owner, decision.era, withoutTaskField(q), work, decision.progressToken === undefined ? extra : { ...extra, progressToken: decision.progressToken });
    // SEP-2663 leaves it to the server whether an `optional` tool's call becomes a task:
    // past a task limit it runs as the plain call rather than failing.
    const fallBack = decision.era === "extension" && entry.taskSupport === "optional";
    const plain = () => this.mrtr.serve("tools/call", p, rc, (q) => this.callTool(q, rc, origin), session.principal);
    const create = fallBack ? (q: JsonObject) => asTask(q).catch((e: unknown) => (e instanceof McpError && isTaskLimitError(e) ? plain() : Promise.reject(e))) : asTask;
    if (!entry.inputBeforeTask || decision.era !== "extension") return create(p);
    // Round 1 is answered synchronously (its input_required); the retry with answers is the task.
    if (inputRetryOf(p)?.inputResponses === undefined) return undefined;
    return this.mrtr.opened("tools/call", p, rc, session.principal).then(create);
  }

  private taskRequest(method: string, params: JsonObject | undefined, rc: RequestContext, session: TaskOwner): Promise<JsonObject> {
    const refused = taskRequestGate(method, params, rc.protocolVersion);
    if (refused !== null) return Promise.reject(new McpError(refused));
    return this.tasks!.request(method, params, rc, taskOwnerOf(rc.protocolVersion, session), taskEraOfRequest(rc.protocolVersion));
  }

  /** One page of a registry, as the `field` of a list result (`kind` names the list in its cursors). */
  private list<T extends { seq: number; def: JsonObject }>(field: string, kind: string, registry: Map<string, T>, p: JsonObject): JsonObject {
    return pageResult(field, page(kind, registry.values(), p.cursor, this.pageSize, defOf));
  }

  /**
   * A page of `resources/list`: the static resources, then what each template's `list`
   * names (2025-11-25 `server/resources` Listing Resources), paginated across both.
   */
  private listResources(p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined): JsonObject | Promise<JsonObject> {
    let ctx: ServerContext | undefined;
    const r = pageThenListed(
      "resources",
      this.resources.values(),
      defOf,
      this.listers === 0 ? undefined : this.templates.values(),
      (t) => {
        if (t.list === undefined) return undefined;
        // With the session and principal, as every other handler's: a list is often one user's.
        const got = t.list((ctx ??= new ServerContext(rc, p._meta as JsonObject | undefined, undefined, this.forms, origin)));
        return isThenable(got) ? got.then((v) => listedArray(t, v)) : listedArray(t, got);
      },
      (t, value) => checkedListed(t, value, isProtocolVersion(rc.protocolVersion) ? rc.protocolVersion : LATEST_LEGACY_VERSION),
      p.cursor,
      this.pageSize,
    );
    return isThenable(r) ? r.then(resourcesPage) : resourcesPage(r);
  }

  /**
   * Runs a tool. A handler that answers synchronously is answered synchronously, with no
   * promise in between: four promise hops a call were a measurable share of a round trip.
   */
  private callTool(p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined): JsonObject | Promise<JsonObject> {
    const name = p.name as string;
    const entry = this.tools.get(name);
    // tools.mdx "Error Handling": unknown tools are a protocol error, -32602.
    if (entry === undefined) throw invalidParams(`Unknown tool: ${name}`, { name });
    const args = (p.arguments as JsonObject | undefined) ?? {};
    if (entry.validateInput !== null) {
      const issues = entry.validateInput(args);
      if (issues !== null) {
        // A bounded list, each entry clipped in the message: the reply to a large invalid
        // request stays small, whichever validator (`jsonSchema`) listed the issues.
        const shown = capIssues(issues);
        const message = `Invalid arguments for tool ${name}: ${issuesText(shown)}`;
        if (!argumentErrorsAreResults(rc.protocolVersion)) throw invalidParams(message, { issues: shown });
        return { content: [{ type: "text", text: message }], isError: true };
      }
    }
    const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), this.forms, origin);
    let answer: ReturnType<typeof withPendingInput<ToolAnswer>>;
    try {
      answer = withPendingInput(ctx, () => entry.handler(args, ctx));
    } catch (e) {
      return toolFailure(e);
    }
    if (!isThenable(answer)) return checkedToolResult(entry, name, answer);
    return answer.then((r) => checkedToolResult(entry, name, r), toolFailure);
  }

  /** Finds what `uri` names: a static resource, else the first template (in registration order) that matches. */
  private locate(uri: string): { resource: ResourceEntry } | { template: TemplateEntry; variables: Record<string, string> } | undefined {
    const resource = this.resources.get(uri);
    if (resource !== undefined) return { resource };
    for (const template of this.templates.values()) {
      const variables = matchUriTemplate(template.template, uri);
      if (variables !== null) return { template, variables };
    }
    return undefined;
  }

  private notFound(uri: string, rc: RequestContext): McpError {
    return new McpError({ code: resourceNotFoundCode(rc.protocolVersion), message: "Resource not found", data: { uri } });
  }

  private async readResource(p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined): Promise<JsonObject> {
    const uri = p.uri as string;
    const found = this.locate(uri);
    if (found === undefined) throw this.notFound(uri, rc);
    const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), this.forms, origin);
    const result = await withPendingInput(ctx, () => ("resource" in found ? found.resource.reader(uri, ctx) : found.template.reader(uri, found.variables, ctx)));
    // Draft server/resources: never an empty `contents` for a resource that does not exist.
    if (result === undefined || result === null) throw this.notFound(uri, rc);
    return result;
  }

  private async getPrompt(p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined): Promise<JsonObject> {
    const name = p.name as string;
    const entry = this.prompts.get(name);
    // prompts.mdx "Error Handling": invalid prompt name and missing required arguments are -32602.
    if (entry === undefined) throw invalidParams(`Unknown prompt: ${name}`, { name });
    const args = (p.arguments as Record<string, string> | undefined) ?? {};
    for (const a of entry.required) if (!Object.hasOwn(args, a)) throw invalidParams(`Missing required argument: ${a}`, { argument: a });
    const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), this.forms, origin);
    return withPendingInput(ctx, () => entry.getter(args, ctx));
  }

  private async complete(p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined): Promise<JsonObject> {
    const ref = p.ref as { type: string; name?: string; uri?: string };
    const argument = p.argument as { name: string; value: string };
    const name = ref.type === "ref/prompt" ? ref.name! : ref.uri!;
    let completer = this.completers.get(`${ref.type}\u0000${name}\u0000${argument.name}`);
    if (completer === undefined) {
      // completion.mdx "Error Handling": an invalid prompt name is -32602.
      if (ref.type === "ref/prompt") {
        const prompt = this.prompts.get(name);
        if (prompt === undefined) throw invalidParams(`Unknown prompt: ${name}`, { name });
        completer = prompt.complete?.[argument.name];
      } else {
        const template = this.templates.get(name);
        if (template === undefined && !this.resources.has(name)) throw invalidParams(`Unknown resource template: ${name}`, { uri: name });
        completer = template?.complete?.[argument.name];
      }
    }
    if (completer === undefined) return { completion: { values: [] } };
    const context = p.context as { arguments?: Record<string, string> } | undefined;
    const answer = await completer(argument.value, { arguments: context?.arguments ?? {}, ctx: new ServerContext(rc, p._meta as JsonObject | undefined, undefined, this.forms, origin) });
    return { completion: Array.isArray(answer) ? capValues(answer) : answer.values.length > MAX_COMPLETIONS ? { ...answer, ...capValues(answer.values, answer.total) } : answer };
  }
}

/**
 * At most 100 values, saying there are more when cut, and how many matches there are:
 * the completer's own `total` when it gave one (it may know of more than it returned),
 * else the number of values it returned.
 */
function capValues(values: string[], total?: number): Completion {
  if (values.length <= MAX_COMPLETIONS) return { values };
  return { values: values.slice(0, MAX_COMPLETIONS), total: total ?? values.length, hasMore: true };
}

/**
 * An MCP server: register tools, resources, prompts and completions, then connect it.
 * Tasks work out of the box: a tool registered with `execution.taskSupport` runs as a task
 * through the server's own {@link TaskRuntime} (`options.tasks`: its settings, or a runtime
 * to share). {@link McpServerCore} is the same server with the runtime left out.
 */
export class McpServer extends McpServerCore {
  declare readonly tasks: TaskRuntime;

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    const tasks = options.tasks instanceof TaskRuntime ? options.tasks : new TaskRuntime({ clock: options.clock, wallClock: options.wallClock, ...options.tasks });
    super(info, { ...options, tasks, elicitationForms: options.elicitationForms ?? elicitationChecks });
  }
}
