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
 *
 * This file holds the public classes ({@link McpServerCore}, {@link McpServer}), their
 * options, the sessions and connections they serve, change notifications and the request
 * dispatch (with the task runtime's share of `tools/call` and `tasks/*`). Each feature's
 * definitions, registration checks and requests live in `server/`, named after the spec
 * page: `tools.ts`, `resources.ts`, `prompts.ts`, `completion.ts`; `lists.ts` builds and
 * checks what list methods return and pages it; `errors.ts` holds {@link ProtocolError}
 * and the error helpers they share.
 */
import { PROTOCOL_VERSIONS, type ProtocolVersion } from "../model/versions.js";
import { systemClock, type Clock } from "../driver/clock.js";
import { McpError, type Endpoint, type EndpointHooks, type RequestContext, type RequestHandler } from "../driver/endpoint.js";
import { hmacRequestState, type RequestStateCodec } from "../driver/request-state.js";
import { echoed, ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { builtinJsonSchema, issuesText, type JsonSchemaValidator } from "../schema/json-schema.js";
import { elicitationChecks, type ElicitationChecks } from "../schema/elicitation.js";
import type { Implementation, LoggingLevel, SessionInput, SessionOptions, SessionOutput } from "../session/types.js";
import { implementationIssues } from "../session/session.js";
import { callListener, recordTo, report, type Callback } from "../driver/listener.js";
import { attach, checkExtensionIds, checkSessionOptions, mergeCapabilities } from "./connection.js";
import { knownNames, refuseMisspelledOptions, withDefaults } from "./option-names.js";
import type { RequestOrigin } from "./context.js";
import { DEFAULT_MAX_INPUT_ROUNDS, DEFAULT_REQUEST_STATE_TTL_MS, InputRequiredBridge, inputRetryOf, wallClockOf } from "./mrtr.js";
import type { Transport } from "./transport.js";
import type { HttpSessionContext, HttpSessionSetup } from "../transports/http-server.js";
import type { JsonSchemaObject, PromptArgument, ServerCapabilities } from "./types.js";
import type { ArgumentsOf, PromptArgumentsOf } from "./schema-types.js";
import type { StandardOutput, StandardSchema } from "./standard-schema.js";
import { TaskRuntime, type TaskRuntimeOptions } from "./tasks.js";
import { declaresTaskSupport, sessionOwner, statelessOwner, taskCapabilities, taskEraOfRequest, taskOwnerOf, taskRequestGate, toolTaskDecision, withoutTaskField } from "./tasks-server.js";
import { isTaskLimitError } from "../tasks/table.js";
import type { TaskOwner } from "../tasks/types.js";
import { complete, completerKey, type Completer } from "./server/completion.js";
import { ownFailures } from "./server/errors.js";
import { listPage } from "./server/lists.js";
import { registration, type Place, type Registration } from "./server/registration.js";
import { getPrompt, promptEntry, type PromptConfig, type PromptConfigOf, type PromptConfigWith, type PromptEntry, type PromptGetter } from "./server/prompts.js";
import {
  listResources,
  readResource,
  resourceEntry,
  templateEntry,
  type ResourceConfig,
  type ResourceEntry,
  type ResourceReader,
  type ResourceTemplateConfig,
  type TemplateEntry,
  type TemplateReader,
} from "./server/resources.js";
import { callTool, toolEntry, type ToolConfig, type ToolConfigOf, type ToolEntry, type ToolHandler } from "./server/tools.js";
import { subjectOf } from "../auth/auth-info.js";
import { checkedPrincipal } from "../transports/http/session-table.js";

export { ServerContext } from "./context.js";
export { ProtocolError } from "./server/errors.js";
export { argumentErrorsAreResults, type ToolConfig, type ToolConfigOf, type ToolHandler } from "./server/tools.js";
export type { Completer } from "./server/completion.js";
export {
  resourceNotFoundCode,
  type ReadResult,
  type ResourceConfig,
  type ResourceLister,
  type ResourceReader,
  type ResourceTemplateConfig,
  type TemplateReader,
} from "./server/resources.js";
export type { PromptConfig, PromptConfigOf, PromptConfigWith, PromptGetter } from "./server/prompts.js";

/**
 * Who the server is: `serverInfo` (schema `Implementation`), plus the `instructions` of the
 * initialize (or `server/discover`) result, which may be given as undefined: what the
 * schema's optional `instructions` of a result holds.
 */
export type ServerInfo = Implementation & {
  /** Free text for the model: how to use this server. */
  instructions?: string | undefined;
};

/** Where an {@link McpServerOptions.onEvent} event comes from. */
export interface EventOrigin {
  /** The connection: one per `connect()` (stdio, memory…), per legacy HTTP session, per modern HTTP request. */
  connection: Endpoint;
  /** The legacy HTTP session's `MCP-Session-Id`. */
  sessionId?: string;
  /** Who the connection speaks for, as `httpSession({ principalOf })` named it. */
  principal?: string;
}

/** What {@link McpServerOptions.record} is told of the connection it is asked to record. */
export interface RecordOrigin {
  /** The legacy HTTP session's `MCP-Session-Id` (none for `connect()`, a modern request or a stateless POST). */
  sessionId?: string;
  /** Who the connection speaks for, as `httpSession({ principalOf })` named it. */
  principal?: string;
}

/** Options of an {@link McpServer}. */
export interface McpServerOptions {
  /** Items per page of every list method (default 0: one page holds everything). */
  pageSize?: number | undefined;
  /** Validates tool arguments and structured results (default: the built-in 2020-12 validator). */
  jsonSchema?: JsonSchemaValidator | undefined;
  /**
   * Checks of elicitation forms (`client/elicitation`): a `requestedSchema` outside the
   * restricted subset rejects `ctx.elicit` with `-32602` before anything is sent, and
   * accepted content that does not match the form rejects it with `-32603`.
   * {@link McpServer}: the built-in checks unless `false`; {@link McpServerCore}: only when given.
   */
  elicitationForms?: ElicitationChecks | false | undefined;
  /** Announce list changes (`listChanged` on tools, resources, prompts; default true). */
  listChanged?: boolean | undefined;
  /** Offer `resources/subscribe` (default true). */
  subscribe?: boolean | undefined;
  /** Declare `logging`, so handlers may log and clients may set the level (default true). */
  logging?: boolean | undefined;
  /**
   * Capabilities merged over the derived ones, key by key: `experimental`, `extensions`,
   * or e.g. `{ tools: { listChanged: true } }` to declare tools before any is registered.
   * A value typed with either version's `ServerCapabilities` of the schema will do.
   */
  capabilities?: ServerCapabilities | undefined;
  /** Serves requests this class does not (default: `-32601` Method not found). */
  fallback?: RequestHandler | undefined;
  /**
   * Wraps every request this server's handlers serve, on every connection (stdio, memory,
   * HTTP sessions, modern requests), `fallback` and `tasks/*` included: logging, timing,
   * a check before `next()`, an error mapped after it. `next()` serves the request as
   * usual; what `intercept` returns or throws is the answer (an {@link McpError} its
   * JSON-RPC error). Call `next()` at most once (each call serves the request again).
   * A `tools/call` that runs as a task passes twice: as the request (`next()` resolves with
   * the `CreateTaskResult`), then as the task's work, with `ctx.taskId` set, where what it
   * returns or throws is the task's result or failure. Both passes have the request's
   * `ctx.id`, and the work's may start before the request's ends: per-call state is keyed
   * by `ctx.taskId ?? ctx.id`, and a rate limit counts the pass without `taskId`. The kernel's own requests
   * (`initialize`, `ping`, `server/discover`, `logging/setLevel`, `resources/subscribe` and
   * `resources/unsubscribe`, `subscriptions/listen`) are answered before any handler and
   * never reach it.
   */
  intercept?: Callback<(method: string, params: JsonObject | undefined, ctx: RequestContext, next: () => Promise<JsonObject> | JsonObject) => Promise<JsonObject> | JsonObject> | undefined;
  /**
   * Session settings for {@link McpServer.connect} and `httpSession` (versions, timeouts,
   * limits). `versions` defaults to every version this kernel speaks: the server is
   * dual-era (draft `basic/versioning`), serving 2026-07-28 requests and 2025-era sessions.
   */
  session?: Omit<Partial<SessionOptions>, "role" | "info" | "capabilities" | "instructions"> | undefined;
  /**
   * The clock of {@link McpServer.connect}'s endpoints (default: the system clock). A clock
   * given here is also the wall clock of task times and `requestState` expiry unless
   * {@link McpServerOptions.wallClock} is given: a production clock on a monotonic scale
   * (one reading `performance.now()`) wants `wallClock: Date.now` beside it.
   */
  clock?: Clock | undefined;
  /** Where an error a listener throws goes: a notification listener's, `onEvent`'s, a `ctx.request`'s `onProgress` (default: rethrown on a microtask). */
  onError?: Callback<(error: unknown) => void> | undefined;
  /**
   * Every kernel output of each connection (those of {@link McpServer.connect} and of
   * {@link McpServer.httpSession}) after the server has acted on it: diagnostics (a second
   * of dropped log messages, `log-rate-limited`; a refused notification), `stale` keep-alive
   * misses, `initialized`, and `close` when the kernel ends a connection itself (a fatal
   * error, missed keep-alives). For logs and metrics; what it throws goes to `onError`.
   */
  onEvent?: Callback<(event: SessionOutput, from: EventOrigin) => void> | undefined;
  /**
   * Records connections as kernel transcripts (`mcp-kernel/1`, which `replay` and
   * `mcp-kernel replay FILE` verify step for step): called once per connection (each
   * `connect()`, legacy HTTP session, stateless POST and modern HTTP request of
   * `httpSession`) before its endpoint is made, it returns where that connection's lines go
   * (the header, then one per kernel step; see {@link EndpointHooks.record}), or undefined
   * to leave it unrecorded. What the handlers answered is an input of the kernel, so it is
   * in the transcript: a replay needs no handlers. What a writer throws goes to `onError`.
   */
  record?: Callback<(from: RecordOrigin) => ((line: string) => void) | undefined> | undefined;
  /**
   * MRTR: seals the `requestState` of `input_required` answers to modern clients and
   * verifies it on the retry (default: HMAC-SHA256 with a random key per server; use
   * `hmacRequestState({ secret })` so several instances accept each other's state).
   */
  requestState?: RequestStateCodec | undefined;
  /**
   * MRTR: how long issued `requestState` stays valid, in ms (default 10 minutes; 0: no
   * expiry), on {@link McpServerOptions.wallClock}.
   */
  requestStateTtlMs?: number | undefined;
  /**
   * The wall clock (ms since the epoch) of `requestState` expiry and of task times
   * (default `Date.now()`, or `clock` when one is given: tests). Given, every reading goes
   * through it: `mcp-kernel record` records them, and replay hands them back.
   */
  wallClock?: (() => number) | undefined;
  /** MRTR in a legacy session: most input rounds one call may take (default 8). */
  maxInputRounds?: number | undefined;
  /**
   * Tasks (2025-11-25 `basic/utilities/tasks` and the `io.modelcontextprotocol/tasks`
   * extension): the runtime's settings, or a runtime to share. Tools registered with
   * `execution.taskSupport` "optional" or "required" run as tasks through it.
   */
  tasks?: TaskRuntimeOptions | TaskRuntime | undefined;
}

/** Options of {@link McpServerCore}: those of {@link McpServer}, where tasks need a runtime given. */
/** The options of McpServer (McpServerCore's are the same but `tasks`). */
const SERVER_OPTION_NAMES = /* @__PURE__ */ knownNames<McpServerOptions>()([
  "pageSize",
  "jsonSchema",
  "elicitationForms",
  "listChanged",
  "subscribe",
  "logging",
  "capabilities",
  "fallback",
  "intercept",
  "session",
  "clock",
  "onError",
  "onEvent",
  "record",
  "requestState",
  "requestStateTtlMs",
  "wallClock",
  "maxInputRounds",
  "tasks",
]);

export interface McpServerCoreOptions extends Omit<McpServerOptions, "tasks"> {
  /** The task runtime (`new TaskRuntime({ clock })`); without one, a tool with `execution.taskSupport` cannot be registered. */
  tasks?: TaskRuntime | undefined;
}

/** A connected session the server tells about changes: an {@link Endpoint} is one. */
export interface Notifier {
  /** Takes a kernel input (the server feeds `changed` and `declare`). */
  feed(input: SessionInput): void;
  /** Server-wide log messages (see {@link McpServer.log}). */
  log?(level: LoggingLevel, data: unknown, logger?: string): void;
}

/** Removes what a registration added. Idempotent. */
export type Unregister = () => void;

/** The registry an update's entry is checked against: its name is its own already. */
const NONE: ReadonlyMap<string, never> = /* @__PURE__ */ new Map<string, never>();

const TOOLS = 1;
const RESOURCES = 2;
const PROMPTS = 4;
/** In {@link McpServerCore.declaredFor}: a registered tool may run as a task (`tasks`). */
const TASK_TOOLS = 8;
/** In {@link McpServerCore.served}: completers were registered (`completions`). */
const COMPLETIONS = 16;
const LISTS: readonly [number, "tools" | "resources" | "prompts"][] = [
  [TOOLS, "tools"],
  [RESOURCES, "resources"],
  [PROMPTS, "prompts"],
];

/** The `serverInfo` sessions send: the `Implementation` fields of `info`, without `instructions` (anything not an object as it is, for the constructor to refuse). */
function serverInfoOf(info: ServerInfo): SessionOptions["info"] {
  if (typeof info !== "object" || info === null) return info;
  // Field by field, not through a record and Object.entries: this runs for every modern request.
  const { name, version, title, description, websiteUrl, icons } = info;
  const out = {} as SessionOptions["info"];
  if (name !== undefined) out.name = name;
  if (version !== undefined) out.version = version;
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  if (websiteUrl !== undefined) out.websiteUrl = websiteUrl;
  if (icons !== undefined) out.icons = icons;
  return out;
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
  /** Draws the sequence number of the next registration (registration order, which list cursors name). */
  private readonly nextSeq = (): number => this.seq++;
  /** How many registered templates have a `list` (none: `resources/list` is the static resources alone, answered synchronously). */
  private listers = 0;
  private changed = 0;
  private readonly flush = (): void => this.flushListChanged();
  /** How many registered tools may run as tasks (any: `tasks` is declared). */
  private taskTools = 0;
  /**
   * What the capabilities connections were last given were derived from (see
   * {@link McpServerCore.declareChanges}): `served`, with TASK_TOOLS while a tool may run
   * as a task. The capabilities depend on nothing else that changes.
   */
  private declaredFor = 0;
  /**
   * The kinds ever registered (TOOLS, RESOURCES, PROMPTS, COMPLETIONS), each declared from
   * then on, when the last of them is gone too: a 2026-07-28 client that learned `tools`
   * and re-lists after `list_changed` gets an empty list, as a legacy session does, not
   * `-32601` (and a call of a tool just removed is "Unknown tool", `-32602`).
   */
  private served = 0;
  /** The `inputSchema` a tool is listed with, undefined for no such tool (one function per server: each HTTP request's setup carries it). */
  readonly inputSchemaOf = (name: string): JsonSchemaObject | undefined => this.tools.get(name)?.def.inputSchema;

  /** A connection's kernel outputs to `options.onEvent`, if set, with where they come from. */
  private onEvent(event: SessionOutput, connection: Endpoint | undefined, origin?: RequestOrigin): void {
    const fn = this.options.onEvent;
    if (fn === undefined || connection === undefined) return;
    const from: EventOrigin = { connection };
    if (origin?.session !== undefined) from.sessionId = origin.session;
    if (origin?.principal !== undefined) from.principal = origin.principal;
    callListener(fn, event, from, this.options.onError);
  }
  /** Where the lines of a connection from `origin` go, as {@link McpServerOptions.record} says. */
  private recorder(origin: RequestOrigin | undefined): ((line: string) => void) | undefined {
    const record = this.options.record;
    if (record === undefined) return undefined;
    const from: RecordOrigin = {};
    if (origin?.session !== undefined) from.sessionId = origin.session;
    if (origin?.principal !== undefined) from.principal = origin.principal;
    // What the writer throws goes to onError, as every callback of the server's does (see recordTo).
    return recordTo(record(from), this.options.onError);
  }
  private readonly schema: JsonSchemaValidator;
  private readonly forms: ElicitationChecks | undefined;
  private readonly pageSize: number;
  private readonly clock: Clock;
  private readonly mrtr: InputRequiredBridge;
  /** The server's tasks: created by task-augmented tool calls, read by `tasks/*` requests (none without a runtime). */
  readonly tasks: TaskRuntime | undefined;
  /** The versions its sessions speak: `session.versions`, by default every one (both eras, draft `basic/versioning`). */
  private readonly versions: ProtocolVersion[];

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
    refuseMisspelledOptions("McpServer options", options, SERVER_OPTION_NAMES);
    checkExtensionIds("McpServer options", options.capabilities);
    for (const key of ["fallback", "intercept", "onError", "onEvent", "record"] as const) {
      if (options[key] !== undefined && typeof options[key] !== "function") throw new TypeError(`McpServer options: ${key} must be a function`);
    }
    // Every initialize result (and 2026-07-28 result) carries this serverInfo: one the
    // schema's Implementation refuses (an icon `src` without a scheme: `format: uri`)
    // would make clients refuse the server, so it is refused here, naming the field.
    this.versions = options.session?.versions ?? [...PROTOCOL_VERSIONS];
    const issues = implementationIssues("server", serverInfoOf(info), this.versions);
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
   * `Tool` of a version the server serves, or the `inputSchema` has an invalid
   * `x-mcp-header` annotation (draft `server/tools`: a conforming HTTP client MUST drop
   * such a tool from `tools/list`).
   *
   * The handler's arguments are typed from the `inputSchema` literal ({@link ArgumentsOf}):
   * `{ properties: { n: { type: "number" } }, required: ["n"] }` hands it `{ n: number }`,
   * which is what it gets, as the server checks the arguments against the schema first. A
   * schema held in a variable typed wide gives `JsonObject`; `tool<A>(…)` names the type
   * outright. A validation library's schema (`z.object({ n: z.number() })`, see
   * {@link StandardSchema}) hands it the library's output type, which is what it gets: the
   * library's parsed value.
   */
  tool<S extends StandardSchema<unknown, object>>(name: string, config: ToolConfigOf<S>, handler: ToolHandler<StandardOutput<S>>): Registration<ToolConfig, ToolHandler<StandardOutput<S>>>;
  tool<const S extends JsonSchemaObject>(name: string, config: ToolConfigOf<S>, handler: ToolHandler<ArgumentsOf<S>>): Registration<ToolConfig, ToolHandler<ArgumentsOf<S>>>;
  tool<A extends object = JsonObject>(name: string, config: ToolConfig, handler: ToolHandler<A>): Registration<ToolConfig, ToolHandler<A>>;
  tool<A extends object = JsonObject>(name: string, config: ToolConfig, handler: ToolHandler<A>): Registration<ToolConfig, ToolHandler<A>> {
    const make = (c: ToolConfig, h: ToolHandler<A>, previous?: ToolEntry) => toolEntry(previous === undefined ? this.tools : NONE, this.versions, this.schema, this.tasks !== undefined, this.seqOf(previous), name, c, h);
    const entry = make(config, handler);
    this.served |= TOOLS;
    return this.registered(this.tools, name, TOOLS, make, entry, config, handler, (e, n) => {
      if (e.taskSupport !== "forbidden") this.taskTools += n;
    });
  }

  /** Registers a static resource at `uri`. Throws when the URI is taken. */
  resource(uri: string, config: ResourceConfig, reader: ResourceReader): Registration<ResourceConfig, ResourceReader> {
    const make = (c: ResourceConfig, r: ResourceReader, previous?: ResourceEntry) => resourceEntry(previous === undefined ? this.resources : NONE, this.versions, this.seqOf(previous), uri, c, r);
    const entry = make(config, reader);
    this.served |= RESOURCES;
    return this.registered(this.resources, uri, RESOURCES, make, entry, config, reader);
  }

  /**
   * Registers a family of resources named by an RFC 6570 template such as
   * `file:///notes/{id}`, `file:///{+path}` or `search://items{?q,limit}`. Throws when the
   * template is taken, is not RFC 6570, or names variables no URI could be split back into
   * (`{a}{b}`; see `uri-template.ts`).
   */
  resourceTemplate(uriTemplate: string, config: ResourceTemplateConfig, reader: TemplateReader): Registration<ResourceTemplateConfig, TemplateReader> {
    const make = (c: ResourceTemplateConfig, r: TemplateReader, previous?: TemplateEntry) => templateEntry(previous === undefined ? this.templates : NONE, this.versions, this.seqOf(previous), uriTemplate, c, r);
    const entry = make(config, reader);
    this.served |= entry.complete === undefined ? RESOURCES : RESOURCES | COMPLETIONS;
    // Templates with a `list` are counted: resources/list asks them only while there are any.
    return this.registered(this.templates, uriTemplate, RESOURCES, make, entry, config, reader, (e, n) => {
      if (e.list !== undefined) this.listers += n;
      if (n > 0 && e.complete !== undefined) this.completes();
    });
  }

  /**
   * Registers a prompt. Throws when the name is taken. The getter's arguments are typed from
   * the `arguments` literal ({@link PromptArgumentsOf}): `[{ name: "code", required: true }]`
   * hands it `{ code: string }`; an `argsSchema` (a validation library's) hands it the
   * library's output type.
   */
  prompt<S extends StandardSchema<unknown, object>>(name: string, config: PromptConfigWith<S>, getter: PromptGetter<StandardOutput<S>>): Registration<PromptConfig, PromptGetter<StandardOutput<S>>>;
  prompt<const L extends readonly PromptArgument[]>(name: string, config: PromptConfigOf<L>, getter: PromptGetter<PromptArgumentsOf<L>>): Registration<PromptConfig, PromptGetter<PromptArgumentsOf<L>>>;
  prompt(name: string, config: PromptConfig, getter: PromptGetter): Registration<PromptConfig, PromptGetter>;
  prompt(name: string, config: PromptConfig | PromptConfigOf<readonly PromptArgument[]>, getter: PromptGetter): Registration<PromptConfig, PromptGetter> {
    const make = (c: PromptConfig, g: PromptGetter, previous?: PromptEntry) => promptEntry(previous === undefined ? this.prompts : NONE, this.versions, this.seqOf(previous), name, c, g);
    const entry = make(config as PromptConfig, getter);
    this.served |= entry.complete === undefined ? PROMPTS : PROMPTS | COMPLETIONS;
    return this.registered(this.prompts, name, PROMPTS, make, entry, config as PromptConfig, getter, (e, n) => void (n > 0 && e.complete !== undefined && this.completes()));
  }

  /** An entry with `complete` came in (registered, or updated to have one): `completions` is declared from now on. */
  private completes(): void {
    this.served |= COMPLETIONS;
    this.declareChanges();
  }

  /** The sequence numbers of a new entry: the next one, or, for an update, its predecessor's (it keeps its place in the lists, where it replaces it). */
  private seqOf(previous: { seq: number } | undefined): () => number {
    return previous === undefined ? this.nextSeq : () => previous.seq;
  }

  /**
   * The handle of `entry`, registered under `key` in `registry`: in it now, and the change to
   * `list` announced. `counted` hears each entry go in (+1) and out (-1).
   */
  private registered<C extends object, H, E>(
    registry: Map<string, E>, key: string, list: number, make: (config: C, handler: H, previous?: E) => E, entry: E, config: C, handler: H, counted?: (entry: E, n: 1 | -1) => void,
  ): Registration<C, H> {
    const place: Place<E> = {
      add: (e) => {
        registry.set(key, e);
        counted?.(e, 1);
      },
      drop: (e) => {
        if (registry.get(key) !== e) return;
        registry.delete(key);
        counted?.(e, -1);
      },
      // Map.set on a key it holds keeps the key's place: the list order stays.
      replace: (e, next) => {
        registry.set(key, next);
        counted?.(e, -1);
        counted?.(next, 1);
      },
      changed: () => this.listChanged(list),
    };
    place.add(entry);
    place.changed();
    return registration(place, make, entry, config, handler);
  }

  /**
   * Registers a completer for argument `argName` of prompt `name` (`ref/prompt`) or
   * variable `argName` of template `name` (`ref/resource`, `name` being the template). It
   * takes precedence over a `complete` entry given at registration.
   */
  completion(refType: "ref/prompt" | "ref/resource", name: string, argName: string, completer: Completer): Unregister {
    // Refused at once: a reference type no request names is never used, and a completer that is
    // no function would declare `completions` and fail each request for the argument with -32603.
    if (refType !== "ref/prompt" && refType !== "ref/resource") throw new TypeError(`completion: refType must be "ref/prompt" or "ref/resource" (got ${JSON.stringify(refType)})`);
    if (typeof completer !== "function") throw new TypeError(`completion: the completer must be a function (got ${typeof completer})`);
    const key = completerKey(refType, name, argName);
    this.completers.set(key, completer);
    // The first completer adds `completions` (draft server/utilities/completion: servers that
    // support completions MUST declare it), which stays declared (see `served`).
    this.served |= COMPLETIONS;
    this.declareChanges();
    // Its removal changes nothing declared.
    return () => void (this.completers.get(key) === completer && this.completers.delete(key));
  }

  /** Listens for a client notification (e.g. `notifications/roots/list_changed`); `peer` says which client. */
  onNotification(method: string, fn: (params: JsonObject | undefined, peer: Notifier | undefined) => void): Unregister {
    let set = this.listeners.get(method);
    if (set === undefined) this.listeners.set(method, (set = new Set()));
    set.add(fn);
    return () => void set.delete(fn);
  }

  // -------------------------------------------------------------------------------------
  // Capabilities and sessions

  /** The capabilities a session opened now declares: derived from what was ever registered (see `served`), then `options.capabilities`. */
  get capabilities(): JsonObject {
    const o = this.options;
    const listChanged = o.listChanged !== false;
    const caps: JsonObject = {};
    if (o.logging !== false) caps.logging = {};
    if ((this.served & COMPLETIONS) !== 0) caps.completions = {};
    if ((this.served & PROMPTS) !== 0) caps.prompts = listChanged ? { listChanged: true } : {};
    if ((this.served & RESOURCES) !== 0) {
      const r: JsonObject = {};
      if (o.subscribe !== false) r.subscribe = true;
      if (listChanged) r.listChanged = true;
      caps.resources = r;
    }
    if ((this.served & TOOLS) !== 0) caps.tools = listChanged ? { listChanged: true } : {};
    if (this.taskTools > 0) mergeCapabilities(caps, taskCapabilities());
    return mergeCapabilities(caps, o.capabilities);
  }

  /** Session options for a server endpoint serving this server (what {@link McpServer.connect} uses). */
  sessionOptions(): SessionOptions {
    const { instructions } = this.info;
    // Not a spread: Node 20's V8 leaves its fast path for a spread followed by more fields,
    // and this runs for every modern HTTP request.
    const options: SessionOptions = Object.assign({}, this.options.session, { role: "server" as const, info: serverInfoOf(this.info), capabilities: this.capabilities, versions: this.versions });
    if (instructions !== undefined) options.instructions = instructions;
    return options;
  }

  /**
   * Session options for a stateless handler's POST (no session, 2025 era): its kernel stands
   * in for the session the client initialized with elsewhere, so while the runtime holds
   * tasks it declares `tasks` (get, result, list, cancel), as that session would still: a
   * task outlives the last task tool (unregistered since, or not registered in a server
   * restored from a snapshot), and 2025-11-25 `basic/utilities/tasks` has `tasks/result`
   * of a terminal task return its result, not `-32601`. (The handler leaves out `list`
   * for a client without a principal.)
   */
  private statelessSessionOptions(): SessionOptions {
    const options = this.sessionOptions();
    const caps = options.capabilities as JsonObject;
    if (this.tasks !== undefined && this.tasks.size > 0 && caps.tasks === undefined) caps.tasks = { list: {}, cancel: {} };
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
        onEvent: (event) => this.onEvent(event, endpoint),
        onError: this.options.onError,
        record: this.recorder(undefined),
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
        // Open subscriptions get their completion result before the stream ends (draft subscriptions, Graceful Closure);
        // a send that throws on the way (its error is `close()`'s to report) still lets the transport close.
        try {
          endpoint.feed({ type: "end-subscriptions", now: this.clock.now() });
        } finally {
          transport.close();
        }
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
    const intercept = this.options.intercept;
    if (intercept === undefined) return (method, params, ctx) => this.dispatch(method, params, ctx, taskOwner, origin);
    return (method, params, ctx) => intercept(method, params, ctx, () => this.dispatch(method, params, ctx, taskOwner, origin));
  }

  /**
   * The `createSession` of `createHttpHandler` for this server: each legacy session (of
   * Streamable HTTP or HTTP+SSE), each stateless POST and each modern request gets an
   * endpoint that hears about this server's changes while it lives. Its tasks belong to the
   * HTTP session id (a stateless POST's to the principal, or to the anonymous owner), and to the principal when
   * `principalOf` names one (by default, behind `protectedResource`, the token's subject),
   * so another session or user can neither see nor touch them; the legacy session itself is
   * bound to that principal too (another user's requests naming it get 404, see
   * {@link HttpSessionSetup.principalOf}). A modern `tools/call` has
   * the `Mcp-Param-*` headers of the tool's `x-mcp-header` parameters checked against its
   * arguments (`toolInputSchema` of the setup, read from the registry at the call).
   * Tool, resource, prompt and completion handlers see the legacy session's id as
   * `ctx.sessionId` (undefined for a modern request or a stateless POST) and the principal as `ctx.principal`.
   */
  httpSession(options: { principalOf?: ((request: Request) => string | undefined) | undefined } = {}): (ctx: HttpSessionContext) => HttpSessionSetup {
    // Behind protectedResource, by default the token's subject: a server that forgot
    // `principalOf` bound nothing to its users (2025-11-25 tasks: receivers MUST bind tasks
    // to the authorization context; Session Hijacking). Without a token it names no one.
    const given = options.principalOf;
    const principalOf = given ?? ((request: Request) => subjectOf(() => request));
    return (ctx) => {
      let endpoint: Endpoint | undefined;
      const principal = given !== undefined ? checkedPrincipal(given(ctx.request)) : subjectOf(() => ctx.request);
      // A modern request's tasks belong to no session: its random key is drawn only if read.
      // A stateless handler's POST has no session either, and its task is read by later
      // POSTs that reach other kernels: its owner is the principal, or the anonymous owner
      // (basic/utilities/tasks, Security: unguessable ids then; the handler declares no
      // tasks.list to such a client), with a requestor key for what it waits on.
      const owner: TaskOwner = ctx.sessionId ? { session: ctx.sessionId } : ctx.era === "legacy" ? statelessOwner() : sessionOwner();
      if (principal !== undefined) owner.principal = principal;
      // What the handlers' contexts read: a legacy session's owner is already its id and
      // principal; a modern request has no session, only perhaps a principal.
      const origin: RequestOrigin | undefined = ctx.sessionId ? owner : principal !== undefined ? { principal } : undefined;
      return {
        options: ctx.sessionId || ctx.era !== "legacy" ? this.sessionOptions() : this.statelessSessionOptions(),
        onRequest: this.handler(owner, origin),
        onNotification: (method, params) => this.emit(method, params, endpoint),
        onEvent: (event) => this.onEvent(event, endpoint, origin),
        onError: this.options.onError,
        record: this.recorder(origin),
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
        ...(principal !== undefined || given !== undefined ? { principalOf } : {}),
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

  /** Closes every transport {@link McpServer.connect} opened (one whose close throws: see {@link McpServerCore.guarded}). */
  close(): void {
    for (const close of [...this.connections.values()]) this.guarded(() => close?.());
  }

  /** Feeds one connection of a fan-out (see {@link McpServerCore.guarded}). */
  private tell(peer: Notifier, input: SessionInput): void {
    this.guarded(() => peer.feed(input));
  }

  /**
   * Runs one connection's part of a fan-out. What it throws (a hook's error the endpoint
   * rethrows from `feed`: a transport whose `send` or `close` threw) goes to `onError`: one
   * broken connection must neither keep the others from being told, or closed, nor escape
   * into the caller (`notifyResourceUpdated`; a registration's flush, where it was uncaught).
   */
  private guarded(part: () => void): void {
    try {
      part();
    } catch (e) {
      report(e, this.options.onError);
    }
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
    for (const peer of this.connections.keys()) this.tell(peer, { type: "changed", now, what: "resource", uri });
  }

  /**
   * An extension task changed status: every listener that named it hears, if it is the
   * task's principal (modern tasks belong to no session; with authorization, to a user).
   */
  private taskChanged(taskId: string, owner: TaskOwner, task: JsonObject): void {
    const now = this.clock.now();
    for (const peer of this.connections.keys()) {
      if (this.principals.get(peer) === owner.principal) this.tell(peer, { type: "changed", now, what: "task", taskId, task });
    }
  }

  /** Sends a log message to every client (each filters by the level it set). */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const peer of this.connections.keys()) this.guarded(() => peer.log?.(level, data, logger));
  }

  private listChanged(kind: number): void {
    this.declareChanges();
    // No connection to tell: the next one opens with the lists of its time.
    if (this.connections.size === 0) return;
    if (this.changed === 0) queueMicrotask(this.flush);
    this.changed |= kind;
  }

  /**
   * A registration may change what the server declares (its first prompt adds `prompts`):
   * every connection is told at once; one without a legacy handshake (modern requests,
   * server/discover, a session whose `initialize` is still to be served) takes it, a legacy
   * session keeps what it negotiated (the kernel says so). At once, not with the coalesced
   * `changed`: an `initialize` served before that microtask answered without what was
   * registered before it, and its session then refused it for good.
   */
  private declareChanges(): void {
    const key = this.served | (this.taskTools > 0 ? TASK_TOOLS : 0);
    if (key === this.declaredFor) return;
    this.declaredFor = key;
    // None open: the next one opens with the capabilities of its time.
    if (this.connections.size === 0) return;
    const now = this.clock.now();
    const capabilities = this.capabilities;
    for (const peer of this.connections.keys()) this.tell(peer, { type: "declare", now, capabilities });
  }

  private flushListChanged(): void {
    const changed = this.changed;
    this.changed = 0;
    const now = this.clock.now();
    for (const [kind, what] of LISTS) {
      if ((changed & kind) === 0) continue;
      // The session knows whether its client is to be told (declared listChanged, or a listen stream asking).
      for (const peer of this.connections.keys()) this.tell(peer, { type: "changed", now, what });
    }
  }

  // -------------------------------------------------------------------------------------
  // Requests

  private dispatch(method: string, params: JsonObject | undefined, rc: RequestContext, session: TaskOwner, origin: RequestOrigin | undefined): Promise<JsonObject> | JsonObject {
    const p = params ?? {};
    switch (method) {
      case "tools/list":
        return listPage("tools", "tools", this.tools, p, this.pageSize);
      case "tools/call":
        return this.callAsTask(p, rc, session, origin) ?? this.callPlain(p, rc, session, origin);
      case "tasks/get":
      case "tasks/result":
      case "tasks/list":
      case "tasks/cancel":
      case "tasks/update":
        if (!this.servesTasks(rc)) break;
        return this.taskRequest(method, params, rc, session);
      case "resources/list":
        return ownFailures(method, listResources(this.resources, this.templates, this.listers, this.pageSize, this.forms, p, rc, origin));
      case "resources/templates/list":
        return listPage("resourceTemplates", "templates", this.templates, p, this.pageSize);
      case "resources/read":
        return ownFailures(method, this.mrtr.serve(method, p, rc, (q) => readResource(this.resources, this.templates, this.forms, q, rc, origin), session.principal));
      case "prompts/list":
        return listPage("prompts", "prompts", this.prompts, p, this.pageSize);
      case "prompts/get":
        return ownFailures(method, this.mrtr.serve(method, p, rc, (q) => getPrompt(this.prompts, this.forms, q, rc, origin), session.principal));
      case "completion/complete":
        return ownFailures(method, complete(this.completers, this.prompts, this.templates, this.resources, this.forms, p, rc, origin));
    }
    if (this.options.fallback !== undefined) return this.options.fallback(method, params, rc);
    throw new McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${echoed(method)}` });
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
    // The work passes through `intercept` too, its context naming the task: what it returns
    // or throws is the task's outcome, which the request's own pass (its `next()` resolving
    // with the CreateTaskResult) cannot see or map.
    const intercept = this.options.intercept;
    const run = (q: JsonObject, r: RequestContext) => callTool(this.tools, this.forms, q, r, origin);
    const work = async (q: JsonObject, r: RequestContext) => (intercept === undefined ? run(q, r) : intercept("tools/call", q, r, () => run(q, r)));
    const tasks = this.tasks!; // a tool that may run as a task was registered with a runtime
    const owner = taskOwnerOf(rc.protocolVersion, session);
    const asTask = (q: JsonObject) => tasks.create(rc, owner, decision.era, withoutTaskField(q), work, decision.progressToken === undefined ? extra : { ...extra, progressToken: decision.progressToken });
    // SEP-2663 leaves it to the server whether an `optional` tool's call becomes a task:
    // past a task limit it runs as the plain call rather than failing.
    const fallBack = decision.era === "extension" && entry.taskSupport === "optional";
    const create = fallBack ? (q: JsonObject) => asTask(q).catch((e: unknown) => (e instanceof McpError && isTaskLimitError(e) ? this.callPlain(p, rc, session, origin) : Promise.reject(e))) : asTask;
    const retry = inputRetryOf(p);
    // Round 1 is answered synchronously (its input_required); the retry with answers is the task.
    if (entry.inputBeforeTask && decision.era === "extension" && retry?.inputResponses === undefined) return undefined;
    if (retry === undefined) return create(p);
    // A client's requestState is attacker-controlled (draft mrtr: servers MUST reject state
    // that fails verification): the task's handler gets it opened, as a plain call's does,
    // never the raw string, or a forged one would replay "answers" to its ctx.elicit that the
    // user never gave.
    return this.mrtr.opened("tools/call", p, rc, session.principal).then(create);
  }

  /** A `tools/call` that does not run as a task (its input rounds, if any, through the MRTR bridge). */
  private callPlain(p: JsonObject, rc: RequestContext, session: TaskOwner, origin: RequestOrigin | undefined): Promise<JsonObject> | JsonObject {
    return this.mrtr.serve("tools/call", p, rc, (q) => callTool(this.tools, this.forms, q, rc, origin), session.principal);
  }

  private taskRequest(method: string, params: JsonObject | undefined, rc: RequestContext, session: TaskOwner): Promise<JsonObject> {
    const refused = taskRequestGate(method, params, rc.protocolVersion);
    if (refused !== null) return Promise.reject(new McpError(refused));
    return this.tasks!.request(method, params, rc, taskOwnerOf(rc.protocolVersion, session), taskEraOfRequest(rc.protocolVersion));
  }
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
    const tasks = options.tasks instanceof TaskRuntime ? options.tasks : new TaskRuntime(withDefaults({ clock: options.clock, wallClock: options.wallClock, onError: options.onError }, options.tasks));
    super(info, { ...options, tasks, elicitationForms: options.elicitationForms ?? elicitationChecks });
  }
}
