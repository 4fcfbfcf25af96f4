/**
 * McpClient: connects to one server, calls its tools, reads its resources and prompts,
 * and answers what the server asks of it.
 *
 * Spec: 2025-11-25 `basic/lifecycle` (the handshake), `server/*` (the requests a client
 * sends), `client/{sampling,elicitation,roots}` (the requests it serves),
 * `server/utilities/pagination` (cursors are opaque; a missing `nextCursor` is the end).
 *
 * Theory of operation. One client, one {@link Endpoint}, one transport. `connect` runs
 * the handshake and keeps what the server declared. Every method is one request through
 * the endpoint, with the caller's `signal` (cancelling sends `notifications/cancelled`;
 * for a 2025-11-25 task-augmented call, `tasks/cancel` once the task is named),
 * `timeoutMs` and `onProgress` (which asks the server for progress). The kernel checks
 * capabilities in both directions, so calling a feature the server did not declare
 * rejects at once with `-32601` without a round trip. The capabilities the client
 * declares follow from the handlers it is given: `sampling` with a sampling handler,
 * `elicitation` (form mode, understood by every version) with an elicitation handler,
 * `roots` with `listChanged` with a roots handler.
 *
 * Results come back as the server sent them, schema-checked by the kernel against the
 * negotiated version; nothing here copies or rewrites them (the kernel only reads a
 * modern result's caching hints leniently, filling in the ones a server left out or got
 * wrong, draft `server/utilities/caching`).
 *
 * With {@link McpClientOptions.receiveTasks} the client is also a 2025-11-25 task
 * receiver (`basic/utilities/tasks`): it declares `tasks.requests.sampling.createMessage`
 * / `tasks.requests.elicitation.create` (for the handlers it has), `tasks.list` and
 * `tasks.cancel`; a task-augmented request gets a `CreateTaskResult` at once while its
 * handler runs in the background, and the server's `tasks/get`, `tasks/result`,
 * `tasks/list`, `tasks/cancel` are served from the same task runtime a server uses
 * (`api/tasks.ts` over the `src/tasks/` reducer). The tasks belong to this one session.
 *
 * This file keeps the public classes, every public member with its TSDoc, the connection
 * (handshake, notifications, closing), requests, pagination and what `tools/list` taught
 * the client. The rest lives in `client/`, named after its concept: `client/options.ts`
 * (the option types and their checks), `client/features.ts` (serving the server's
 * sampling, elicitation and roots requests, and running them as tasks) and
 * `client/tasks.ts` (the client side of tasks: waiting, polling, answering a task's
 * input requests, checking a task's result).
 */
import { McpError, type Endpoint } from "../driver/endpoint.js";
import { TASKS_EXTENSION } from "../model/meta.js";
import { hasToolOutputSchemas, isModernVersion, type ProtocolVersion } from "../model/versions.js";
import { capabilityFor, hasCapability, methodSpec } from "../model/methods.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import type { JsonObject, JsonValue, OutgoingParams, RequestId } from "../jsonrpc/types.js";
import type { SubscriptionFilter } from "../modern/subscriptions.js";
import { tableKey, type Implementation, type LoggingLevel, type PeerInfo, type SessionOptions } from "../session/types.js";
import { callListener, recordTo, report } from "../driver/listener.js";
import { systemClock, type Clock } from "../driver/clock.js";
import { attach, checkExtensionIds, checkSessionOptions, mergeCapabilities } from "./connection.js";
import { refuseMisspelledOptions, withDefaults } from "./option-names.js";
import { OutputMismatch, taskAnswerOf, ToolOutputs, type OutputCheck, type TaskIdOf } from "./tool-outputs.js";
import { issuesText, peerJsonSchema } from "../schema/json-schema.js";
import { implementationIssues } from "../session/session.js";
import { elicitationChecks } from "../schema/elicitation.js";
import { acceptsTaskAugmented, augmentationFor, predatesTasks, taskSupportOf, type ToolTaskSupport } from "../tasks/capabilities.js";
import { createdTaskIdOf, modernTaskIdOf } from "../tasks/wire.js";
import { TaskRuntime } from "./tasks.js";
import { sessionOwner } from "./tasks-server.js";
import type { Transport } from "./transport.js";
import { CALL_OPTION_NAMES, CLIENT_OPTION_NAMES, checkHandlers, type CallOptions, type McpClientCoreOptions, type McpClientOptions } from "./client/options.js";
import { relatedResult, serve, type ClientFeatures } from "./client/features.js";
import { ClientSubscriptions, type Subscription, type SubscriptionListener } from "./client/subscriptions.js";
import { checkListChanged, watchLists, type ListChangedHandlers } from "./client/list-changed.js";
import { checkTaskResult, clientTasks, endedWithoutResult, endWaits, mayCreateTask, rememberTask, waitForTaskResult, type ClientTasks } from "./client/tasks.js";
import type {
  CallToolResult,
  StructuredContent,
  CompleteResult,
  CreateTaskResult,
  ListTasksResult,
  Task,
  CompletionReference,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Page,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from "./types.js";

export type { CallOptions, ClientHandlers, McpClientCoreOptions, McpClientOptions, ReceivedCreateMessageParams } from "./client/options.js";

type Listener = (params: JsonObject | undefined) => void;

/** Most tools whose `execution.taskSupport` is remembered (a server listing more leaves the rest as if never listed). */
const MAX_TOOL_TASK_SUPPORT = 10_000;

/** Most `tools/list` pages a re-list the client makes for itself walks (see McpClientCore.relistTools, afterHeaderMismatch). */
const MAX_RELIST_PAGES = 100;

/**
 * The least time between two `server/discover` questions asked before refusing a request
 * (see McpClientCore.request), when the last answer's `ttlMs` is shorter: a server that
 * never declares a capability must not have every refused call double its traffic.
 */
const MIN_REDISCOVER_MS = 1000;

/** leftOf's account of a -32020 retry, naming the error the call met first. */
function retryAfter(cause: McpError): string {
  return `for the retry after ${cause.code} ${cause.message}`;
}

/** What a request made on behalf of a call (a list, a question) takes of its options: its deadline and signal, not its progress or log level. */
function boundsOf(options: CallOptions | undefined): CallOptions {
  return { signal: options?.signal, timeoutMs: options?.timeoutMs };
}

/**
 * Waits for a question shared by several calls (a `server/discover`, a re-list of tools),
 * which runs under none of their signals or timeouts: one caller giving up must not decide
 * the others' outcome. Each waiter's own `signal` and `timeoutMs` end its wait alone, with
 * the `-32800` or `-32001` its request would have had; otherwise settles as `shared` does.
 */
function waitOwn<T>(shared: Promise<T>, options: CallOptions | undefined, clock: Clock): Promise<T> {
  const signal = options?.signal;
  const ms = options?.timeoutMs ?? 0;
  if (signal === undefined && !(ms > 0)) return shared;
  return new Promise<T>((resolve, reject) => {
    let timer: unknown;
    let ended = false;
    const end = (error?: McpError): void => {
      if (ended) return;
      ended = true;
      signal?.removeEventListener("abort", abort);
      if (timer !== undefined) clock.cancel(timer);
      if (error === undefined) shared.then(resolve, reject);
      else reject(error);
    };
    const abort = (): void => end(new McpError({ code: ErrorCode.RequestCancelled, message: String(signal?.reason ?? "aborted") }));
    if (signal?.aborted) return abort();
    signal?.addEventListener("abort", abort, { once: true });
    if (ms > 0) timer = clock.schedule(clock.now() + ms, () => end(new McpError({ code: ErrorCode.RequestTimeout, message: `request timed out after ${ms} ms` })), true);
    shared.then(() => end(), () => end());
  });
}

/** Throws `-32000` when `endpoint`'s connection closed meanwhile: connecting failed, as when the transport closes first. */
function failIfClosed(endpoint: Endpoint): void {
  const phase = endpoint.state.phase;
  if (phase.name === "closed") throw new McpError({ code: ErrorCode.ConnectionClosed, message: `connection closed: ${phase.reason}` });
}

function notConnected(): Promise<never> {
  return Promise.reject(new McpError({ code: ErrorCode.ConnectionClosed, message: "not connected" }));
}

/**
 * An MCP client without the task runtime built in: everything of {@link McpClient}; it
 * receives 2025-11-25 tasks only with a {@link TaskRuntime} given in `options.receiveTasks`.
 * A bundle that never names {@link McpClient} leaves the runtime out.
 */
export class McpClientCore {
  private endpoint: Endpoint | undefined;
  private transport: Transport | undefined;
  private peer: PeerInfo | undefined;
  private version: string | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly renewListeners = new Set<() => void>();
  /** What serving the server's requests reads: the handlers, the task runtime it receives tasks with (see client/features.ts). */
  private readonly features: ClientFeatures;
  /** The tasks this client waits on: its waits, the methods that created them (see client/tasks.ts). */
  private readonly tasks: ClientTasks;

  /** The tools' output schemas, when this client checks structured results. */
  private readonly outputs: ToolOutputs | undefined;
  /** Tool name → its `execution.taskSupport` as `tools/list` last gave it (2025-11-25 Tool-Level Negotiation). */
  private readonly toolTaskSupport = new Map<string, ToolTaskSupport>();
  /** The server capabilities {@link McpClient.toolTaskMode} last read, and whether they admit task-augmented `tools/call` (see there). */
  private toolTaskCaps: unknown = undefined;
  private toolTasksAccepted = false;
  /** The re-list of tools in flight, shared by the results waiting on it (see relistTools). */
  private relisting: Promise<Set<string>> | undefined;
  /** What {@link McpClientCore.listen} opened. */
  private readonly subscriptions = new ClientSubscriptions({
    modern: () => isModernVersion(this.version),
    serverCapabilities: () => this.peer?.capabilities,
    request: (method, params, options, onId) => this.issue(method, params, options, onId),
    onNotification: (method, fn) => this.onNotification(method, fn),
    onClose: (fn) => this.onClose(fn),
    onSessionRenewed: (fn) => this.onSessionRenewed(fn),
    report: (fn) => callListener(fn, undefined, undefined, this.options.onError),
    clock: () => this.clock,
    ackTimeoutMs: () => this.endpoint?.state.options.requestTimeoutMs ?? 0,
  });
  /** The clock of this client's timers (the endpoint's, see connect). */
  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }
  /** The `server/discover` question in flight, shared by the requests waiting on it (see request). */
  private rediscovering: Promise<unknown> | undefined;
  /** When the server may next be asked `server/discover` before a refusal (clock ms; see request). */
  private rediscoverAfter = -Infinity;
  /** Whether the `receiveTasks` runtime is this client's own (McpClient made it), so its close stops it. */
  protected ownsTaskRuntime = false;

  constructor(
    readonly info: Implementation,
    private readonly options: McpClientCoreOptions = {},
  ) {
    // Every initialize request (and 2026-07-28 request's _meta) carries this clientInfo: one
    // the schema's Implementation refuses (an icon `src` without a scheme: `format: uri`)
    // would make servers refuse the client, so it is refused here, naming the field.
    checkSessionOptions(options.session);
    refuseMisspelledOptions("McpClient options", options, CLIENT_OPTION_NAMES);
    checkHandlers(options.handlers);
    checkListChanged(options.listChanged);
    checkExtensionIds("McpClient options", options.capabilities);
    if (options.fallback !== undefined && typeof options.fallback !== "function") throw new TypeError("McpClient options: fallback must be a function");
    if (options.record !== undefined && typeof options.record !== "function") throw new TypeError("McpClient options: record must be a function");
    const issues = implementationIssues("client", info, options.session?.versions);
    if (issues) throw new TypeError(`invalid client info: ${issuesText(issues)}`);
    this.features = { client: this, options, tasksReceived: options.receiveTasks, taskOwner: sessionOwner() };
    this.tasks = clientTasks(this, this.features);
    this.outputs = options.jsonSchema ? new ToolOutputs(options.jsonSchema) : undefined;
  }

  /** The capabilities this client declares. */
  get capabilities(): JsonObject {
    const h = this.options.handlers ?? {};
    const caps: JsonObject = {};
    if (h.sampling !== undefined) caps.sampling = {};
    if (h.elicitation !== undefined) caps.elicitation = {};
    if (h.roots !== undefined) caps.roots = { listChanged: true };
    if (this.options.tasks === true) caps.extensions = { [TASKS_EXTENSION]: {} };
    if (this.features.tasksReceived !== undefined) {
      const requests: JsonObject = {};
      if (h.sampling !== undefined) requests.sampling = { createMessage: {} };
      if (h.elicitation !== undefined) requests.elicitation = { create: {} };
      caps.tasks = { list: {}, cancel: {}, requests };
    }
    return mergeCapabilities(caps, this.options.capabilities);
  }

  /**
   * Connects over `transport` and runs the handshake. Resolves once the session is
   * operating; rejects when the server refuses, speaks no version this client does, or
   * the transport closes first. A client connects once.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.tasks.closedReason !== undefined) throw new McpError({ code: ErrorCode.InvalidRequest, message: `this client is closed (${this.tasks.closedReason}): create a new McpClient to connect again` });
    if (this.endpoint !== undefined) throw new McpError({ code: ErrorCode.InvalidRequest, message: "already connected" });
    const options: SessionOptions = { ...this.options.session, role: "client", info: this.info, capabilities: this.capabilities };
    let fatal: string | undefined;
    const endpoint = attach(
      transport,
      options,
      {
        onRequest: (method, params, ctx) => serve(this.features, method, params ?? {}, ctx).then((result) => relatedResult(method, params, result)),
        onNotification: (method, params) => {
          // The listed tools changed: a tool's `taskSupport` is unknown again until the next `tools/list`.
          if (method === "notifications/tools/list_changed") this.forgetTools();
          this.emit(method, params);
        },
        onEvent: (o) => {
          if (o.type === "renewed") this.renewed(o.peer);
          else if (o.type === "rediscovered") this.peer = o.peer;
          const fn = this.options.onEvent;
          if (fn !== undefined) callListener(fn, o, undefined, this.options.onError);
        },
        onError: this.options.onError,
        // What the writer throws goes to onError, as every callback of the client's does: raw,
        // it left the step that wrote the line (a request failed, a transport's delivery threw).
        record: recordTo(this.options.record, this.options.onError),
        // A fatal protocol error: the kernel's reason is the one worth reporting.
        onClose: (reason) => (fatal = reason),
        onTransportClose: (reason) => {
          // A runtime given in the options may serve other clients too: only this session is forgotten.
          if (this.ownsTaskRuntime) this.features.tasksReceived?.close();
          else this.features.tasksReceived?.release(this.features.taskOwner);
          const why = fatal ?? reason;
          endWaits(this.tasks, why);
          for (const fn of this.closeListeners) callListener(fn, why, undefined, this.options.onError);
        },
      },
      this.options.clock,
    );
    // Only once attach took it: close() must not close a transport another connection holds.
    this.transport = transport;
    this.endpoint = endpoint;
    // Rejects on a fatal error (with the kernel's reason) and when the transport closes first.
    const { version, peer } = await endpoint.open();
    // Closed since the handshake completed (by a listener of its `initialized` event, say):
    // connecting failed, as when the transport closes first.
    failIfClosed(endpoint);
    this.version = version;
    this.peer = peer;
    if (this.options.listChanged !== undefined) {
      await this.watchLists(this.options.listChanged);
      // Closed while the watch's listen awaited its acknowledgment (close() during connect, the server gone): as above.
      failIfClosed(endpoint);
    }
  }

  /** Starts the `listChanged` option's watch; a refused listen goes to `onError`, and the connection stands. */
  private async watchLists(handlers: ListChangedHandlers): Promise<void> {
    const iterators = { tools: () => this.iterateTools(), prompts: () => this.iteratePrompts(), resources: () => this.iterateResources() };
    await watchLists(
      {
        serverCapabilities: () => this.peer?.capabilities,
        listen: (filter, fn) => this.listen(filter, fn),
        iterate: (kind) => iterators[kind](),
        clock: () => this.clock,
        call: (fn, error, items) => callListener(fn, error, items, this.options.onError),
        connected: () => this.endpoint !== undefined && this.endpoint.state.phase.name !== "closed",
        onClose: (fn) => void this.onClose(fn),
        onSessionRenewed: (fn) => void this.onSessionRenewed(fn),
        report: (e) => report(e, this.options.onError),
      },
      handlers,
    ).catch((e: unknown) => {
      // A listen the connection's close cut short is no failure of the watch: connect rejects for it.
      if (this.endpoint?.state.phase.name !== "closed") report(e, this.options.onError);
    });
  }

  /** What the client learned from `tools/list` (output schemas, `taskSupport`) no longer holds: known again from the next list. */
  private forgetTools(): void {
    this.toolTaskSupport.clear();
    this.outputs?.clear();
  }

  /**
   * The transport started a new session (HTTP 404, see {@link McpClient.onSessionRenewed}):
   * the server is the one that answered it, with no tools listed yet to this client.
   */
  private renewed(peer: PeerInfo): void {
    this.peer = peer;
    this.forgetTools();
    for (const fn of this.renewListeners) callListener(fn, undefined, undefined, this.options.onError);
  }

  /**
   * Listens for the transport starting a new session with the server (Streamable HTTP:
   * the server answered 404, say after a restart, and the transport re-ran the handshake
   * and sent the request again; 2025-11-25 `basic/transports`, Session Management).
   * {@link McpClient.serverInfo}, {@link McpClient.serverCapabilities} and
   * {@link McpClient.instructions} already describe the new session, whose server knows
   * nothing of the old one: subscribe to resources and set the log level again, and list
   * tools again (the client forgot their output schemas and `taskSupport`).
   */
  onSessionRenewed(fn: () => void): () => void {
    this.renewListeners.add(fn);
    return () => void this.renewListeners.delete(fn);
  }

  /** The endpoint, for requests this class has no method for. Undefined before {@link McpClient.connect}. */
  get connection(): Endpoint | undefined {
    return this.endpoint;
  }

  /** The server's `serverInfo`, once connected. */
  get serverInfo(): Implementation | undefined {
    return this.peer?.info;
  }

  /** The server's capabilities, once connected: JSON, as received, and valid against the negotiated version's schema (checked on receipt). */
  get serverCapabilities(): ServerCapabilities<{ [key: string]: JsonValue }> | undefined {
    return this.peer?.capabilities as ServerCapabilities<{ [key: string]: JsonValue }> | undefined;
  }

  /** The negotiated protocol version, once connected. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  /** The server's `instructions`, if it gave any. */
  get instructions(): string | undefined {
    return this.peer?.instructions;
  }

  /**
   * Sends any request; resolves with its result. In 2026-07-28 a request the server's
   * capabilities, as its last `server/discover` declared them, do not admit asks the server
   * again first: that answer is fresh only for its `ttlMs` (draft caching; 0, the default,
   * is stale at once), and a server may declare more since (its first prompt registered
   * after the client connected). One question at a time, shared by the requests waiting on
   * it, and none before the last answer's `ttlMs` or {@link MIN_REDISCOVER_MS} has passed;
   * then the request meets the kernel's check again, and is refused if still undeclared.
   */
  request(method: string, params?: OutgoingParams, options?: CallOptions): Promise<JsonObject> {
    return this.issue(method, params as JsonObject | undefined, options);
  }

  /** {@link request}; `onId` hears the id the request goes out with, before any answer can come. */
  private issue(method: string, params: JsonObject | undefined, options: CallOptions | undefined, onId?: (id: RequestId) => void): Promise<JsonObject> {
    if (this.endpoint === undefined) return notConnected();
    if (options !== undefined) {
      // A misspelled option (`timeout`, `onprogress`: the official SDKs' names) would be ignored: no timeout, no progress.
      try {
        refuseMisspelledOptions("call options", options, CALL_OPTION_NAMES);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    if (isModernVersion(this.version) && this.undeclaredByServer(method)) {
      const asking = this.rediscover();
      if (asking !== undefined) {
        // The request's timeout runs from the call: the wait for the answer is part of it.
        const startedAt = this.endpoint.now();
        return waitOwn(asking, options, this.clock).then(() => this.send(method, params, this.leftOf(options, startedAt, "after waiting for server/discover"), onId));
      }
    }
    return this.send(method, params, options, onId);
  }

  /** Whether `method` needs a server capability the server's last declaration lacks (a missing one of the client's own no answer can change). */
  private undeclaredByServer(method: string): boolean {
    const spec = methodSpec(this.version as ProtocolVersion, method);
    // missingCapability's "server." answers, without its client side: that would read the
    // `capabilities` getter, which builds this client's declaration anew, for every request.
    const need = spec === undefined ? null : capabilityFor(spec, "client");
    return need !== null && need.side === "server" && !hasCapability(this.peer?.capabilities, need.path);
  }

  /**
   * The `server/discover` question before a refusal (see {@link request}), or undefined when
   * it is not time to ask. Never rejects. Shared, so asked under the session's own request
   * timeout, and no caller's signal: each waits with its own ({@link waitOwn}).
   */
  private rediscover(): Promise<unknown> | undefined {
    if (this.rediscovering !== undefined) return this.rediscovering;
    const endpoint = this.endpoint!;
    if (endpoint.now() < this.rediscoverAfter) return undefined;
    const asked = endpoint.request("server/discover", undefined, {}).then(
      (result) => (this.rediscoverAfter = endpoint.now() + Math.max(MIN_REDISCOVER_MS, typeof result.ttlMs === "number" ? result.ttlMs : 0)),
      () => (this.rediscoverAfter = endpoint.now() + MIN_REDISCOVER_MS),
    );
    return (this.rediscovering = asked.finally(() => (this.rediscovering = undefined)));
  }

  private send(method: string, params?: JsonObject, options?: CallOptions, onId?: (id: RequestId) => void): Promise<JsonObject> {
    // (Closed while it asked the server again: as any request after close.)
    if (this.endpoint === undefined) return notConnected();
    const state = this.endpoint.state;
    const id = state.nextId;
    onId?.(id);
    const modernCall = method === "tools/call" && isModernVersion(this.version);
    let sent = this.endpoint.request(method, params, options);
    if (modernCall) {
      // The call's start for a -32020 retry: the reading the request went out under (taken
      // before the transport sent it, which may take its time), not a clock reading more.
      const startedAt = this.endpoint.requestedAt;
      // A retry after -32020 sends what went out now: the application may edit its arguments
      // once the call is made. The session keeps such a copy for its MRTR retries and never
      // edits it; that one serves here too, so a call copies its params once.
      const first = params === undefined ? undefined : (state.outbound[tableKey(id)]?.params ?? jsonCopy(params) ?? params);
      sent = sent.catch((e: unknown) => this.afterHeaderMismatch(e, first, options, startedAt));
    }
    // A task remembered for checking its result that is seen to end without one (failed,
    // cancelled) is forgotten now, not kept until evicted: a client cancelling tasks all day
    // held an entry for each, up to ten thousand (only a remembered task pays, a promise more).
    const taskId = params?.taskId;
    if (typeof taskId === "string" && (method === "tasks/get" || method === "tasks/cancel" || method === "tasks/result") && (this.tasks.taskMethods.has(taskId) || this.outputs?.hasTask(taskId) === true)) {
      sent = sent.then(
        (r) => (endedWithoutResult(method, r) && this.forgetTask(taskId), r),
        (e: unknown) => {
          if (endedWithoutResult(method, undefined, e)) this.forgetTask(taskId);
          throw e;
        },
      );
    }
    // Only a request that can be answered with a task pays for remembering it (a promise more).
    const mayBeTask = mayCreateTask(this.tasks, method, params);
    if (mayBeTask) sent = sent.then((r) => (rememberTask(this.tasks, method, r), r));
    if (method === "tools/list") return sent.then((r) => (this.learnTools(r), r));
    if (this.outputs === undefined) return sent;
    // Only a tool with a known output schema pays for the check (a promise more per call),
    // made under the schema known now: a list while the call runs does not change it.
    const check = method === "tools/call" ? this.outputs.checkOf(params?.name) : undefined;
    if (check !== undefined) {
      const taskIdOf = taskAnswerOf(isModernVersion(this.version), mayBeTask);
      return sent.then((r) => this.checkedResult(params!.name as string, check, taskIdOf, r, options));
    }
    // The result of a checked tool's task, where the era delivers it (see ToolOutputs).
    if (method === (isModernVersion(this.version) ? "tasks/get" : "tasks/result") && this.outputs.hasTask(params?.taskId)) {
      return sent.then((r) => this.outputs!.checkTask(method, params!.taskId as string, r));
    }
    return sent;
  }

  // -------------------------------------------------------------------------------------
  // Tools, resources, prompts, completion, logging

  /** One page of `tools/list`. */
  listTools(cursor?: string, options?: CallOptions): Promise<ListToolsResult> {
    return this.request("tools/list", cursor === undefined ? undefined : { cursor }, options) as Promise<ListToolsResult>;
  }

  /** Every tool, page after page. */
  iterateTools(options?: CallOptions): AsyncGenerator<Tool> {
    return this.paginate<Tool>("tools/list", "tools", options);
  }

  /**
   * Calls a tool. A tool that failed resolves with `isError: true`; a protocol error rejects.
   * In a 2025-11-25 session with a server that takes tasks, a tool `tools/list` showed with
   * `execution.taskSupport: "required"` is not called: clients "MUST invoke the tool as a
   * task", so this rejects at once with the `-32601` the server would give, pointing to
   * {@link McpClient.callToolAsTask}. Under the tasks extension ({@link McpClientOptions.tasks})
   * the server may answer with a task instead: this then waits for it as
   * {@link McpClient.waitForTask} does (the caller's `timeoutMs` bounding call and wait
   * together) and resolves with the tool's result; a caller's abort or timeout during that
   * wait also cancels the task.
   */
  callTool<S extends StructuredContent = { [key: string]: unknown }>(name: string, args?: JsonObject, options?: CallOptions): Promise<CallToolResult<S>> {
    if (this.toolTaskMode(name) === "required") {
      return Promise.reject(new McpError({ code: ErrorCode.MethodNotFound, message: `tool ${name} requires task augmentation (execution.taskSupport "required"): call it with callToolAsTask` }));
    }
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    // Tasks extension: "the server decides per-request whether to create a task" and clients
    // "handle whichever result shape arrives": a caller of callTool asked for the tool's
    // result, never saw a task handle, so it is waited for here (callToolAsTask hands it over).
    // Only where the call could become one (a 2026-07-28 session): a 2025 session's plain call
    // is answered with its result, whatever members (resultType, taskId) that result carries.
    // Decided before the call (sending it changes nothing it reads), so that only such a call
    // reads the clock for the wait's start: a reading is a sixth of the clock work of a call.
    if (!mayCreateTask(this.tasks, "tools/call", params)) return this.request("tools/call", params, options) as Promise<CallToolResult<S>>;
    const startedAt = this.clock.now();
    const call = this.request("tools/call", params, options);
    return call.then((r) => {
      const taskId = modernTaskIdOf(r);
      return (taskId === undefined ? r : this.waitForCalledTask(taskId, options, startedAt)) as Promise<CallToolResult<S>>;
    });
  }

  /**
   * callTool's wait for the task the server made of it, within what the `tools/call` left of
   * the caller's `timeoutMs` (the call as a whole is bounded, as a retry's is; none: no bound,
   * as {@link McpClient.waitForTask}'s). A caller giving up (abort, timeout) gives the task up too.
   */
  private async waitForCalledTask(taskId: string, options: CallOptions | undefined, startedAt: number): Promise<JsonObject> {
    const ms = options?.timeoutMs;
    // At least 1 ms: with nothing left the wait times out at once rather than never.
    const within = ms !== undefined && ms > 0 ? { ...options, timeoutMs: Math.max(1, startedAt + ms - this.clock.now()) } : options;
    try {
      return await this.waitForTask(taskId, within);
    } catch (e) {
      const gaveUp = options?.signal?.aborted === true || (e instanceof McpError && !e.fromPeer && e.code === ErrorCode.RequestTimeout);
      // A wait that failed before the task was seen to end (this client's input handler
      // failed, a tasks/get answer was refused) leaves it running too: a task seen to end
      // (its result checked, or failed, cancelled, unknown) is no longer remembered.
      if (gaveUp || this.tasks.taskMethods.has(taskId)) {
        // Nobody else has its id (callTool never hands it out), so nobody will ask for its
        // result: it is cancelled (SEP-2663 Task Polling: clients SHOULD poll until the task
        // is terminal or until invoking tasks/cancel), not left to hold the server's slot until its TTL.
        this.forgetTask(taskId);
        this.cancelTask(taskId).catch(() => undefined);
      }
      throw e;
    }
  }

  // -------------------------------------------------------------------------------------
  // Tasks (2025-11-25 basic/utilities/tasks; the io.modelcontextprotocol/tasks extension)

  /**
   * Calls a tool as a task. In a 2025-11-25 session the call carries `task` (with `ttl`
   * when given), which the server's `tasks.requests.tools.call` and the tool's
   * `execution.taskSupport` must admit; it resolves with the `CreateTaskResult`. Under
   * 2026-07-28 the server decides: with {@link McpClientOptions.tasks} declared it may
   * answer a task (`resultType: "task"`) or the plain result, and this resolves with
   * whichever came. {@link McpClient.taskIdOf} tells them apart. Aborting a 2025-11-25
   * call before its `CreateTaskResult` rejects at once with `-32800` and sends no
   * `notifications/cancelled` (a task-augmented request MUST be cancelled with
   * `tasks/cancel`): the kernel sends `tasks/cancel` for the task once that result names
   * it. After it came, cancel with {@link McpClient.cancelTask}. A session negotiated
   * before 2025-11-25 has no tasks, and a 2025-11-25 server that does not declare
   * `tasks.requests.tools.call` MUST NOT be sent one, nor one for a tool that `tools/list`
   * showed without `execution.taskSupport` (or `"forbidden"`): the call goes out plain and
   * resolves with its result. A tool never listed is asked as a task.
   */
  callToolAsTask(name: string, args?: JsonObject, task: { ttl?: number | undefined } = {}, options?: CallOptions): Promise<CreateTaskResult | CallToolResult> {
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    // 2025-11-25 tasks: without tasks.requests.tools.call, or for a tool without taskSupport, clients "MUST NOT attempt" it.
    if (this.toolTaskMode(name) !== "forbidden") {
      params.task = task.ttl === undefined ? {} : { ttl: task.ttl };
    }
    return this.request("tools/call", params, options) as Promise<CreateTaskResult | CallToolResult>;
  }

  /** The task id of a `CreateTaskResult` of either era, or undefined for a plain result. */
  taskIdOf(result: JsonObject): string | undefined {
    return createdTaskIdOf(result) ?? modernTaskIdOf(result);
  }

  /**
   * `tasks/get`: the task's status now (extension: with its result, error or input requests
   * inlined; an answer that is no `Result & DetailedTask` rejects `-32603`). An answer about
   * another task rejects `-32603` too: the session cannot tell, and its status or result
   * would be taken for this one's.
   */
  async getTask(taskId: string, options?: CallOptions): Promise<Task> {
    const task = (await this.request("tasks/get", { taskId }, options)) as Task;
    if (task.taskId !== taskId) throw new McpError({ code: ErrorCode.InternalError, message: `invalid tasks/get result from the peer: asked for task ${JSON.stringify(taskId)}, it answered about ${JSON.stringify(task.taskId)}` });
    return task;
  }

  /**
   * `tasks/result` (2025-11-25): blocks until the task is terminal, then resolves with the
   * request's result, or rejects with its error. For a task this client created, a result
   * that is not what the request returns rejects with `-32603` (see {@link McpClient.waitForTask}).
   */
  async getTaskResult(taskId: string, options?: CallOptions): Promise<JsonObject> {
    return checkTaskResult(this.tasks, taskId, await this.request("tasks/result", { taskId }, options));
  }

  /** One page of `tasks/list` (2025-11-25): this session's tasks. */
  listTasks(cursor?: string, options?: CallOptions): Promise<ListTasksResult> {
    return this.request("tasks/list", cursor === undefined ? undefined : { cursor }, options) as Promise<ListTasksResult>;
  }

  /**
   * `tasks/cancel`: 2025-11-25 answers the cancelled task; the extension an empty
   * acknowledgement. This client's handlers still answering the task's input requests
   * (extension) see their signal abort then: the question is moot.
   */
  async cancelTask(taskId: string, options?: CallOptions): Promise<JsonObject> {
    const answer = await this.request("tasks/cancel", { taskId }, options);
    for (const moot of this.tasks.taskInputs.get(taskId) ?? []) moot.abort();
    return answer;
  }

  /** `tasks/update` (extension): answers to the task's `inputRequests`, by key. */
  async updateTask(taskId: string, inputResponses: JsonObject, options?: CallOptions): Promise<void> {
    await this.request("tasks/update", { taskId, inputResponses }, options);
  }

  /**
   * The final result of a task, however the era delivers it: 2025-11-25 `tasks/result`
   * (which blocks until the task is terminal, so it has no default timeout: only the
   * caller's `timeoutMs`); under the extension, `tasks/get` every `pollIntervalMs` on the
   * client's clock until the task is terminal, the caller's `timeoutMs` (0: none) bounding
   * the whole wait (`-32001` at the deadline) as it bounds `tasks/result`. The server's `pollIntervalMs` ("Clients
   * SHOULD respect") is honoured within 100 ms and 60 s (`MIN_POLL_INTERVAL_MS` and
   * `MAX_POLL_INTERVAL_MS` in client/tasks.ts); a number that is not a non-negative integer is ignored for
   * `intervalMs` (default 1 s). Rejects with the task's JSON-RPC error when it failed,
   * with `-32800` when it was cancelled (extension), with `-32603` on a `tasks/get` answer
   * that breaks the extension's rules (another task, an unknown status, a completed task
   * without its `result` object, a failed one whose error is no JSON-RPC error, input
   * requests missing or not ones a standalone request could be) and on a final result that
   * is not the creating method's (a task this client created), with `-32000` at once when the connection closes and
   * `-32800` when `options.signal` aborts, even while this client's handlers answer the
   * task's input requests (their signal aborts then; it also aborts once the task stops
   * asking, and the wait goes on to what `tasks/get` says: see answerTaskInput in client/tasks.ts).
   */
  waitForTask(taskId: string, options: CallOptions & { intervalMs?: number | undefined } = {}): Promise<JsonObject> {
    return waitForTaskResult(this.tasks, taskId, options);
  }

  /**
   * Whether a `tools/call` of `name` may (or must) be task-augmented in this session: never
   * outside 2025-11-25 tasks or without the server's `tasks.requests.tools.call`, else as
   * the tool's listed `taskSupport` says; a tool never listed may be tried.
   */
  private toolTaskMode(name: string): "required" | "allowed" | "forbidden" {
    if (isModernVersion(this.version) || predatesTasks(this.version)) return "forbidden";
    // Asked before every callTool, and the server's capabilities object changes only with the
    // session (a renewal gives a new one): the answer for it is kept. For a server declaring
    // no tasks, the capability lookup tries each dotted run of "tasks.requests.tools.call" as
    // a key (five hasOwn calls) before it can say no.
    const caps = this.peer?.capabilities;
    if (caps !== this.toolTaskCaps || caps === undefined) {
      this.toolTaskCaps = caps;
      this.toolTasksAccepted = acceptsTaskAugmented(caps, "tools/call");
    }
    if (!this.toolTasksAccepted) return "forbidden";
    return augmentationFor("tools/call", caps, this.toolTaskSupport.get(name) ?? "optional");
  }

  /** Forgets what was remembered to check task `taskId`'s result (the method that created it, its tool's output check): none will come. */
  private forgetTask(taskId: string): void {
    this.tasks.taskMethods.delete(taskId);
    this.outputs?.forget(taskId);
  }

  /** What one `tools/list` result shows of its tools: their `execution.taskSupport` and (when checked) output schemas ({@link McpClientCore.forgetTools} undoes it). */
  private learnTools(result: JsonObject): void {
    // A 2025-03-26 server's results are held to no output schema: its version has none (an
    // `outputSchema` it lists is a field that version does not define, and a result with no
    // `structuredContent` is valid there).
    if (hasToolOutputSchemas(this.version)) this.outputs?.learn(result);
    if (!Array.isArray(result.tools)) return;
    for (const tool of result.tools as { name?: unknown }[]) {
      const name = tool?.name;
      if (typeof name !== "string" || (this.toolTaskSupport.size >= MAX_TOOL_TASK_SUPPORT && !this.toolTaskSupport.has(name))) continue;
      this.toolTaskSupport.set(name, taskSupportOf(tool));
    }
  }

  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: CallOptions): Promise<ListResourcesResult> {
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options) as Promise<ListResourcesResult>;
  }

  /** Every resource, page after page. */
  iterateResources(options?: CallOptions): AsyncGenerator<Resource> {
    return this.paginate<Resource>("resources/list", "resources", options);
  }

  /** One page of `resources/templates/list`. */
  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options) as Promise<ListResourceTemplatesResult>;
  }

  /** Every resource template, page after page. */
  iterateResourceTemplates(options?: CallOptions): AsyncGenerator<ResourceTemplate> {
    return this.paginate<ResourceTemplate>("resources/templates/list", "resourceTemplates", options);
  }

  /** Reads a resource. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options) as Promise<ReadResourceResult>;
  }

  /**
   * Subscribes to `notifications/resources/updated` for `uri` (2025-11-25 `resources/subscribe`).
   * One that fails with a timeout or a cancellation (an error whose `fromPeer` is false) may
   * have been taken all the same (`basic/utilities/cancellation`: the request may be processed
   * before its cancellation arrives): call {@link McpClient.unsubscribeResource} if you do not
   * want it. Nothing does that here, as the server keeps one flag per URI, not a count: an
   * unsubscribe of this method's own would end the subscription of a retry, or of a
   * {@link McpClient.listen}, that holds the same URI. `listen` does it for the URIs it holds.
   */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/subscribe", { uri }, options);
  }

  /** Ends a subscription. */
  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/unsubscribe", { uri }, options);
  }

  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: CallOptions): Promise<ListPromptsResult> {
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options) as Promise<ListPromptsResult>;
  }

  /** Every prompt, page after page. */
  iteratePrompts(options?: CallOptions): AsyncGenerator<Prompt> {
    return this.paginate<Prompt>("prompts/list", "prompts", options);
  }

  /** Gets a prompt's messages. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.request("prompts/get", args === undefined ? { name } : { name, arguments: args }, options) as Promise<GetPromptResult>;
  }

  /** Asks for completions of `argument` of a prompt or resource template; `context` holds arguments already chosen. */
  complete(ref: CompletionReference, argument: { name: string; value: string }, context?: Record<string, string>, options?: CallOptions): Promise<CompleteResult> {
    const params: JsonObject = context === undefined ? { ref, argument } : { ref, argument, context: { arguments: context } };
    return this.request("completion/complete", params, options) as Promise<CompleteResult>;
  }

  /** Sets the lowest level of log message the server sends (a legacy session; a 2026-07-28 call asks with its `logLevel` option). */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    await this.request("logging/setLevel", { level }, options);
  }

  /** Pings the server. */
  async ping(options?: CallOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }

  /** Tells the server the roots changed (`notifications/roots/list_changed`). */
  notifyRootsChanged(): void {
    this.notify("notifications/roots/list_changed");
  }

  /**
   * Sends a notification the client may send: one of an extension's, declared in
   * `session.extensionMethods`, or the protocol's. One the session refuses (undeclared, not
   * the client's, malformed params) is not sent: a `notification-refused` diagnostic, for
   * `onEvent`. Nothing happens while not connected.
   */
  notify(method: string, params?: OutgoingParams): void {
    this.endpoint?.notify(method, params);
  }

  // -------------------------------------------------------------------------------------
  // Notifications and closing

  /** Listens for a server notification (`notifications/message`, `notifications/tools/list_changed`, …). */
  onNotification(method: string, fn: Listener): () => void {
    let set = this.listeners.get(method);
    if (set === undefined) this.listeners.set(method, (set = new Set()));
    set.add(fn);
    return () => void set.delete(fn);
  }

  /**
   * Subscribes to changes, in either era: `fn` hears each notification the subscription
   * brings (list_changed for the lists `filter` names, `notifications/resources/updated`
   * for its `resourceSubscriptions`, and with the tasks extension `notifications/tasks` for
   * its `taskIds`). Resolves once the server acknowledged it, with what it agreed to send.
   * Modern: a `subscriptions/listen` request held open, whose notifications are told apart
   * from another subscription's by their `subscriptionId` (draft
   * `basic/patterns/subscriptions`); legacy: the list_changed notifications the server's
   * capabilities announce and `resources/subscribe` for each URI. `options.signal` or
   * `close()` ends it; `ended` says how it ended. Notifications still reach
   * {@link McpClient.onNotification} listeners too.
   */
  listen(filter: SubscriptionFilter, fn: SubscriptionListener, options?: CallOptions): Promise<Subscription> {
    if (this.endpoint === undefined) return notConnected();
    // A legacy listen may send nothing (no URIs) that the closed session could refuse.
    const phase = this.endpoint.state.phase;
    if (phase.name === "closed") return Promise.reject(new McpError({ code: ErrorCode.ConnectionClosed, message: `the session is closed: ${phase.reason}` }));
    // As every call does: only the signal and timeoutMs reach the listen, so a misspelled `timeout` would be lost unsaid.
    try {
      if (options !== undefined) refuseMisspelledOptions("call options", options, CALL_OPTION_NAMES);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.subscriptions.open(filter, fn, options);
  }

  /** Listens for the connection closing, from either side. */
  onClose(fn: (reason: string) => void): () => void {
    this.closeListeners.add(fn);
    return () => void this.closeListeners.delete(fn);
  }

  /** Closes the connection: pending requests and {@link McpClient.waitForTask} waits reject with `-32000`. */
  close(): void {
    this.endpoint?.closed("client closed");
    endWaits(this.tasks, "client closed");
    this.transport?.close();
  }

  private emit(method: string, params: JsonObject | undefined): void {
    this.subscriptions.deliver(method, params);
    const set = this.listeners.get(method);
    if (set === undefined) return;
    for (const fn of set) callListener(fn, params, undefined, this.options.onError);
  }

  /**
   * Draft `basic/transports/streamable-http` ("Client Behavior"): after a `-32020`
   * HeaderMismatch to a `tools/call` (its `Mcp-Param-*` headers missing, say, because no
   * `tools/list` had shown the tool's `x-mcp-header` declarations) the client SHOULD call
   * `tools/list` and retry with the right headers. The HTTP transport learns them from
   * the list as it passes through. One list (of at most {@link MAX_RELIST_PAGES} pages) and
   * one retry, whose failure is final. Both run within what is left of the call's timeout
   * and `maxRequestTimeoutMs`, as its input rounds do: a retry starts no fresh one. The retry
   * sends the call as the application made it, so a mismatch met after input rounds asks
   * for the input again: the tool changed (its `x-mcp-header`s did), and a `requestState`
   * its old registration sealed is no answer for the new one.
   */
  private async afterHeaderMismatch(e: unknown, params: JsonObject | undefined, options: CallOptions | undefined, startedAt: number): Promise<JsonObject> {
    if (!(e instanceof McpError) || e.code !== ErrorCode.HeaderMismatch) throw e;
    try {
      // Each page within what is left then, so the walk as a whole stays within the call's time.
      for await (const tool of this.paginate<Tool>("tools/list", "tools", () => boundsOf(this.leftOf(options, startedAt, retryAfter(e))), MAX_RELIST_PAGES)) if (tool.name === params?.name) break;
    } catch (listFailed) {
      // The call's time running out is the call's error; no list otherwise, no better headers: the -32020 stands.
      // A server's own -32001 is no timeout of ours (-32000 to -32019 are implementation-defined).
      if (listFailed instanceof McpError && !listFailed.fromPeer && listFailed.code === ErrorCode.RequestTimeout) throw listFailed;
      throw e;
    }
    if (this.endpoint === undefined) return notConnected();
    return this.endpoint.request("tools/call", params, this.leftOf(options, startedAt, retryAfter(e)));
  }

  /**
   * `options` with what is left of the call's timeout (its own or the session's, and
   * `maxRequestTimeoutMs`) since `startedAt`, for a request made on its behalf; throws the
   * call's timeout when nothing is left, saying what the call met before (`when`).
   */
  private leftOf(options: CallOptions | undefined, startedAt: number, when: string): CallOptions {
    if (this.endpoint === undefined) return { ...options };
    const o = this.endpoint.state.options;
    const budgets = [options?.timeoutMs ?? o.requestTimeoutMs, o.maxRequestTimeoutMs].filter((ms) => ms > 0);
    if (budgets.length === 0) return { ...options };
    const left = startedAt + Math.min(...budgets) - this.endpoint.now();
    if (left <= 0) throw new McpError({ code: ErrorCode.RequestTimeout, message: `request timed out: nothing was left of its timeout ${when}` });
    return { ...options, timeoutMs: Math.ceil(left) };
  }

  /**
   * A tool result checked against the output schema its call was made under. One that
   * fails may be right under the schema the tool has now (the client learned its schema
   * from an earlier list, and the tool changed since; draft caching: a list with `ttlMs` 0
   * is stale at once, and a client MAY re-fetch on an unexpected error): the tools are
   * listed again, once, and the tool as listed now decides (no schema any more: not
   * checked; gone: the first verdict stands).
   */
  private async checkedResult(name: string, check: OutputCheck, taskIdOf: TaskIdOf | null, result: JsonObject, options?: CallOptions): Promise<JsonObject> {
    try {
      return this.outputs!.check(name, result, check, taskIdOf);
    } catch (e) {
      if (!(e instanceof OutputMismatch)) throw e;
      const listed = await waitOwn(this.relistTools(), options, this.clock).catch(() => undefined);
      if (listed === undefined || !listed.has(name)) throw e;
      const now = this.outputs!.checkOf(name);
      return now === undefined ? result : this.outputs!.check(name, result, now, taskIdOf);
    }
  }

  /**
   * The names of the tools as listed now (the client learns what the pages show): one
   * re-list at a time, shared by every result waiting on it, of at most
   * {@link MAX_RELIST_PAGES} pages, so a server answering badly cannot make each result
   * walk an endless list. Under the session's own request timeout, and no caller's signal:
   * each result waits with its own ({@link waitOwn}).
   */
  private relistTools(): Promise<Set<string>> {
    return (this.relisting ??= this.listToolNames({}).finally(() => (this.relisting = undefined)));
  }

  private async listToolNames(options: CallOptions): Promise<Set<string>> {
    const names = new Set<string>();
    for await (const tool of this.paginate<Tool>("tools/list", "tools", options, MAX_RELIST_PAGES)) names.add(tool.name);
    return names;
  }

  /**
   * Every item of a list, page after page; a walk the client makes for itself stops quietly
   * after `maxPages`. `options` may be made per page (a bound that shrinks as the walk goes on).
   */
  private async *paginate<T>(method: string, key: string, options?: CallOptions | (() => CallOptions), maxPages = Infinity): AsyncGenerator<T> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      if (seen.size === maxPages) return;
      const result = (await this.request(method, cursor === undefined ? undefined : { cursor }, typeof options === "function" ? options() : options)) as Page;
      yield* result[key] as T[];
      cursor = result.nextCursor;
      // A server that hands back a cursor it already gave would loop for ever.
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new McpError({ code: ErrorCode.InternalError, message: `${method}: the server repeated a cursor` });
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }
}

/**
 * An MCP client. With {@link McpClientOptions.receiveTasks} it runs the server's
 * task-augmented requests through its own {@link TaskRuntime}; {@link McpClientCore} is the
 * same client with the runtime left out.
 */
export class McpClient extends McpClientCore {
  constructor(info: Implementation, options: McpClientOptions = {}) {
    const r = options.receiveTasks;
    const receiveTasks = r === undefined || r === false ? undefined : r instanceof TaskRuntime ? r : new TaskRuntime(withDefaults({ clock: options.clock, onError: options.onError }, r === true ? undefined : r));
    super(info, { ...options, receiveTasks, jsonSchema: options.jsonSchema ?? peerJsonSchema, elicitationForms: options.elicitationForms ?? elicitationChecks });
    this.ownsTaskRuntime = receiveTasks !== undefined && receiveTasks !== r;
  }
}
