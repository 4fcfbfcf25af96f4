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
 */
import { MIN_PEER_DELAY_MS, systemClock, type Clock } from "../driver/clock.js";
import { TASKS_EXTENSION } from "../model/meta.js";
import { isModernVersion, isProtocolVersion } from "../model/versions.js";
import { methodSpec } from "../model/methods.js";
import { inputRequiredProblem } from "../modern/server.js";
import { McpError, toRpcError, type Endpoint, type RequestContext, type RequestOptions } from "../driver/endpoint.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { idKey, type Implementation, type LoggingLevel, type PeerInfo, type SessionOptions, type SessionOutput } from "../session/types.js";
import { callListener } from "../driver/listener.js";
import { attach, checkSessionOptions, isObject, mergeCapabilities } from "./connection.js";
import { knownNames, refuseMisspelledOptions } from "./option-names.js";
import { assertElicitParams, checkedElicitResult, withoutUrlContent } from "./elicitation.js";
import { ToolOutputs } from "./tool-outputs.js";
import { issuesText, peerJsonSchema, type JsonSchemaValidator } from "../schema/json-schema.js";
import { implementationIssues } from "../session/session.js";
import { elicitationChecks, type ElicitationChecks } from "../schema/elicitation.js";
import { augmentationFor, checkTaskAugmentation, predatesTasks, taskSupportOf, type ToolTaskSupport } from "../tasks/capabilities.js";
import { isTaskStatus, TASK_STATUSES } from "../tasks/status.js";
import { createdTaskIdOf, modernTaskIdOf, relatedTaskOf, withRelatedTask } from "../tasks/wire.js";
import type { TaskOwner } from "../tasks/types.js";
import { progressTokenOf } from "../session/progress.js";
import { TaskRuntime, type TaskRuntimeOptions } from "./tasks.js";
import { sessionOwner, withoutTaskField } from "./tasks-server.js";
import type { Transport } from "./transport.js";
import type {
  CallToolResult,
  StructuredContent,
  CompleteResult,
  CreateTaskResult,
  ListTasksResult,
  Task,
  CompletionReference,
  CreateMessageParams,
  CreateMessageAnswer,
  ElicitParams,
  ElicitResult,
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
  Root,
  Tool,
} from "./types.js";

/** What the client does when the server asks. Each handler may throw an {@link McpError} to answer with an error. */
export interface ClientHandlers {
  /** `sampling/createMessage`: run the model (after the user approved, as the spec asks). */
  sampling?(params: CreateMessageParams, ctx: RequestContext): CreateMessageAnswer | Promise<CreateMessageAnswer>;
  /** `elicitation/create`: ask the user. For a URL-mode request any `content` it returns is dropped (URL mode has none). */
  elicitation?(params: ElicitParams, ctx: RequestContext): ElicitResult | Promise<ElicitResult>;
  /** `roots/list`: the roots to expose now. */
  roots?(ctx: RequestContext): Root[] | Promise<Root[]>;
}

/** Options of an {@link McpClient}. */
export interface McpClientOptions {
  /** Capabilities merged over the derived ones, key by key (e.g. `{ elicitation: { form: {}, url: {} } }`). */
  capabilities?: JsonObject;
  handlers?: ClientHandlers;
  /** Session settings (versions, default timeout, limits). */
  session?: Omit<Partial<SessionOptions>, "role" | "info" | "capabilities" | "instructions">;
  /** The endpoint's clock (default: the system clock). */
  clock?: Clock;
  /** Where a throwing listener's error goes (default: rethrown on a microtask). */
  onError?(error: unknown): void;
  /**
   * Every kernel output of the connection after the client has acted on it: diagnostics (a
   * second of dropped log messages, `log-rate-limited`; a refused notification), `stale`
   * keep-alive misses, `initialized`, `renewed`, and `close` when the kernel ends the
   * connection itself (a fatal error, missed keep-alives; a close of the transport reaches
   * {@link McpClient.onClose} instead). For logs and metrics; what it throws goes to `onError`.
   */
  onEvent?(event: SessionOutput): void;
  /**
   * Declare the `io.modelcontextprotocol/tasks` extension (SEP-2663), so a 2026-07-28
   * server may answer a tool call with a task (default false). 2025-11-25 tasks need no
   * declaration here: the client asks per call ({@link McpClient.callToolAsTask}).
   */
  tasks?: boolean;
  /**
   * Be a 2025-11-25 task receiver for `sampling/createMessage` and `elicitation/create`
   * (see the class comment): `true`, or the task runtime's options (limits, TTL, clock, store).
   */
  receiveTasks?: boolean | TaskRuntimeOptions | TaskRuntime;
  /**
   * Checks a tool's `structuredContent` against the `outputSchema` that `tools/list` gave
   * for it (`server/tools`: "Clients SHOULD validate structured results against this
   * schema"); a result that breaks it, or of a tool whose schema does not compile, rejects
   * with `-32603` and the issues. {@link McpClient}: the built-in 2020-12 validator for
   * peer schemas (`peerJsonSchema`: unsafe patterns refused) unless `false`;
   * {@link McpClientCore}: only with one given.
   */
  jsonSchema?: JsonSchemaValidator | false;
  /**
   * Checks of elicitation forms (`client/elicitation`): a `requestedSchema` outside the
   * restricted subset is answered `-32602` without running the handler, and content from
   * the handler that does not match the form is not sent (the server gets `-32603`).
   * {@link McpClient}: the built-in checks unless `false`; {@link McpClientCore}: only when given.
   */
  elicitationForms?: ElicitationChecks | false;
}

/** Options of {@link McpClientCore}: those of {@link McpClient}, where receiving tasks needs a runtime given. */
/** The options of McpClient (McpClientCore's are the same, with a narrower `receiveTasks`). */
const CLIENT_OPTION_NAMES = /* @__PURE__ */ knownNames<McpClientOptions>()(["capabilities", "handlers", "session", "clock", "onError", "onEvent", "tasks", "receiveTasks", "jsonSchema", "elicitationForms"]);

/** The handlers a client can have: each one makes the client declare its capability. */
const HANDLER_NAMES = /* @__PURE__ */ knownNames<ClientHandlers>()(["sampling", "elicitation", "roots"]);

/**
 * Refuses a handler that is not a function, and a function under a name that is no handler
 * (`sampler` declared nothing, and every server request for sampling got `-32601`).
 */
function checkHandlers(handlers: ClientHandlers | undefined): void {
  if (handlers === undefined) return;
  if (!isObject(handlers)) throw new TypeError("handlers must be an object: { sampling, elicitation, roots }");
  for (const [name, fn] of Object.entries(handlers)) {
    if (HANDLER_NAMES.includes(name)) {
      if (fn !== undefined && typeof fn !== "function") throw new TypeError(`handlers.${name} must be a function`);
    } else if (typeof fn === "function") {
      throw new TypeError(`handlers.${name} is not a client handler (they are ${HANDLER_NAMES.join(", ")})`);
    }
  }
}

export interface McpClientCoreOptions extends Omit<McpClientOptions, "receiveTasks"> {
  /** Be a 2025-11-25 task receiver through this runtime (`new TaskRuntime({ clock })`). */
  receiveTasks?: TaskRuntime;
}

/** Per-call options: cancellation, timeout, progress, and (2026-07-28) the log level the call asks for. */
export type CallOptions = Omit<RequestOptions, "related">;

type Listener = (params: JsonObject | undefined) => void;

/**
 * Bounds on the server's `pollIntervalMs` (SEP-2663 "Task Polling": "Clients SHOULD
 * respect"): below the floor a server (by mistake: 0, 1) would have the client poll in a
 * tight loop; past the ceiling one task would wait for days between polls. The floor is
 * the one every wait a peer suggests is held to (an SSE `retry` too).
 */
const MIN_POLL_INTERVAL_MS = MIN_PEER_DELAY_MS;
const MAX_POLL_INTERVAL_MS = 60_000;

/** A signal that aborts when `a` or `b` does, with its reason. */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const either = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) either.abort(s.reason);
    else s.addEventListener("abort", () => either.abort(s.reason), { once: true });
  }
  return either.signal;
}

/** True when `work` settles first, false when `signal` aborts first (a rejection after it is dropped). */
function untilAborted(work: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      () => (signal.removeEventListener("abort", onAbort), resolve(true)),
      (e: unknown) => (signal.removeEventListener("abort", onAbort), signal.aborted ? resolve(false) : reject(e)),
    );
  });
}

/** The wait before the next `tasks/get`: the server's suggestion when it is a non-negative integer ("integer milliseconds"), else `fallback` (default 1 s); within the bounds. */
function pollInterval(suggested: unknown, fallback = 1000): number {
  const ms = Number.isInteger(suggested) && (suggested as number) >= 0 ? (suggested as number) : fallback;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, ms));
}

/** Most task ids remembered with the method whose result their task delivers. */
const MAX_TASK_METHODS = 10_000;

/** Most tools whose `execution.taskSupport` is remembered (a server listing more leaves the rest as if never listed). */
const MAX_TOOL_TASK_SUPPORT = 10_000;

/**
 * Why a `tasks/get` answer about `taskId` cannot be acted on, or undefined (SEP-2663 "Task
 * Polling": the answer is the task asked for, with a known status; "If the status is
 * completed, the server MUST return … a result field containing the final result"; a failed
 * one "the error that occurred", a JSON-RPC error; an input_required one "an inputRequests
 * field", each entry an input request the client treats "as they would the equivalent
 * standalone server-to-client request": one of elicitation, sampling and roots (draft
 * `basic/patterns/mrtr`), with valid params, that `capabilities` declared, checked as an
 * `input_required` answer is). Never a `tasks/*` request, which would reach this client's
 * own task runtime.
 */
function invalidTaskAnswer(taskId: string, task: Task, capabilities: JsonObject): string | undefined {
  const id = JSON.stringify(taskId);
  if (task.taskId !== taskId) return `asked for task ${id}, it answered about ${JSON.stringify(task.taskId)}`;
  if (!isTaskStatus(task.status)) return `task ${id} has status ${JSON.stringify(task.status)}, which is none of ${TASK_STATUSES.join(", ")}`;
  const r = task.result;
  if (task.status === "completed" && (typeof r !== "object" || r === null || Array.isArray(r))) return `task ${id} is completed but carries no result object`;
  const e = task.error as { code?: unknown; message?: unknown } | undefined;
  if (task.status === "failed" && e !== undefined && (typeof e !== "object" || e === null || !Number.isInteger(e.code) || typeof e.message !== "string")) return `task ${id} failed with an error that is no JSON-RPC error (an integer code and a string message)`;
  if (task.status !== "input_required") return undefined;
  if (task.inputRequests === undefined) return `task ${id} is input_required without the inputRequests it MUST include`;
  const problem = inputRequiredProblem(true, "tasks/get", { inputRequests: task.inputRequests as JsonObject }, capabilities);
  return problem === null ? undefined : `task ${id}: ${problem.message}`;
}

function closedError(reason: string): McpError {
  return new McpError({ code: ErrorCode.ConnectionClosed, message: `connection closed: ${reason}` });
}

function abortedError(): McpError {
  return new McpError({ code: ErrorCode.RequestCancelled, message: "aborted" });
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
  /** The tasks this client runs for the server, when it receives tasks. */
  private readonly tasksReceived: TaskRuntime | undefined;
  /** This session's tasks: the only owner there is on a client. */
  private readonly taskOwner: TaskOwner = sessionOwner();

  /** What {@link McpClient.waitForTask} waits on (the time between polls, the handlers answering a task's input), each stopped with the error that ends it. */
  private readonly waits = new Set<(e: McpError) => void>();
  /** Tasks (extension) whose input requests this client's handlers are answering: the stop of each round (see answerTaskInput). */
  private readonly taskInputs = new Map<string, Set<AbortController>>();
  /** Why the connection closed, once it has. */
  private closedReason: string | undefined;

  /** The tools' output schemas, when this client checks structured results. */
  private readonly outputs: ToolOutputs | undefined;
  /** Task id → the method whose result its task delivers, for the tasks this client's own requests created (a task created elsewhere goes unchecked). */
  private readonly taskMethods = new Map<string, string>();
  /** Tool name → its `execution.taskSupport` as `tools/list` last gave it (2025-11-25 Tool-Level Negotiation). */
  private readonly toolTaskSupport = new Map<string, ToolTaskSupport>();

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
    const issues = implementationIssues("client", info, options.session?.versions);
    if (issues) throw new TypeError(`invalid client info: ${issuesText(issues)}`);
    this.tasksReceived = options.receiveTasks;
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
    if (this.tasksReceived !== undefined) {
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
    if (this.closedReason !== undefined) throw new McpError({ code: ErrorCode.InvalidRequest, message: `this client is closed (${this.closedReason}): create a new McpClient to connect again` });
    if (this.endpoint !== undefined) throw new McpError({ code: ErrorCode.InvalidRequest, message: "already connected" });
    const options: SessionOptions = { ...this.options.session, role: "client", info: this.info, capabilities: this.capabilities };
    let fatal: string | undefined;
    const endpoint = attach(
      transport,
      options,
      {
        onRequest: (method, params, ctx) => this.serve(method, params ?? {}, ctx).then((result) => relatedResult(method, params, result)),
        onNotification: (method, params) => {
          // The listed tools changed: a tool's `taskSupport` is unknown again until the next `tools/list`.
          if (method === "notifications/tools/list_changed") this.forgetTools();
          this.emit(method, params);
        },
        onEvent: (o) => {
          if (o.type === "renewed") this.renewed(o.peer);
          const fn = this.options.onEvent;
          if (fn !== undefined) callListener(fn, o, undefined, this.options.onError);
        },
        // A fatal protocol error: the kernel's reason is the one worth reporting.
        onClose: (reason) => (fatal = reason),
        onTransportClose: (reason) => {
          this.tasksReceived?.close();
          const why = fatal ?? reason;
          this.endWaits(why);
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
    this.version = version;
    this.peer = peer;
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

  /** The server's capabilities, once connected. */
  get serverCapabilities(): JsonObject | undefined {
    return this.peer?.capabilities;
  }

  /** The negotiated protocol version, once connected. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  /** The server's `instructions`, if it gave any. */
  get instructions(): string | undefined {
    return this.peer?.instructions;
  }

  /** Sends any request; resolves with its result. */
  request(method: string, params?: JsonObject, options?: CallOptions): Promise<JsonObject> {
    if (this.endpoint === undefined) return notConnected();
    const state = this.endpoint.state;
    const id = state.nextId;
    let sent = this.endpoint.request(method, params, options);
    if (method === "tools/call" && isModernVersion(this.version)) {
      // A retry after -32020 sends what went out now: the application may edit its arguments
      // once the call is made. The session keeps such a copy for its MRTR retries and never
      // edits it; that one serves here too, so a call copies its params once.
      const first = params === undefined ? undefined : (state.outbound[idKey(id)]?.params ?? jsonCopy(params) ?? params);
      sent = sent.catch((e: unknown) => this.afterHeaderMismatch(e, first, options));
    }
    // Only a request that can be answered with a task pays for remembering it (a promise more).
    if (this.mayCreateTask(method, params)) sent = sent.then((r) => (this.rememberTask(method, r), r));
    if (method === "tools/list") return sent.then((r) => (this.learnTools(r), r));
    if (this.outputs === undefined) return sent;
    // Only a tool with a known output schema pays for the check (a promise more per call).
    if (method === "tools/call" && this.outputs.has(params?.name)) return sent.then((r) => this.outputs!.check(params?.name, r));
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
   * {@link McpClient.callToolAsTask}.
   */
  callTool<S extends StructuredContent = { [key: string]: unknown }>(name: string, args?: JsonObject, options?: CallOptions): Promise<CallToolResult<S>> {
    if (this.toolTaskMode(name) === "required") {
      return Promise.reject(new McpError({ code: ErrorCode.MethodNotFound, message: `tool ${name} requires task augmentation (execution.taskSupport "required"): call it with callToolAsTask` }));
    }
    return this.request("tools/call", args === undefined ? { name } : { name, arguments: args }, options) as Promise<CallToolResult<S>>;
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
  callToolAsTask(name: string, args?: JsonObject, task: { ttl?: number } = {}, options?: CallOptions): Promise<CreateTaskResult | CallToolResult> {
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

  /** `tasks/get`: the task's status now (extension: with its result, error or input requests inlined). */
  getTask(taskId: string, options?: CallOptions): Promise<Task> {
    return this.request("tasks/get", { taskId }, options) as Promise<Task>;
  }

  /**
   * `tasks/result` (2025-11-25): blocks until the task is terminal, then resolves with the
   * request's result, or rejects with its error. For a task this client created, a result
   * that is not what the request returns rejects with `-32603` (see {@link McpClient.waitForTask}).
   */
  async getTaskResult(taskId: string, options?: CallOptions): Promise<JsonObject> {
    return this.checkTaskResult(taskId, await this.request("tasks/result", { taskId }, options));
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
    for (const moot of this.taskInputs.get(taskId) ?? []) moot.abort();
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
   * SHOULD respect") is honoured within {@link MIN_POLL_INTERVAL_MS} and
   * {@link MAX_POLL_INTERVAL_MS}; one that is not a non-negative integer is ignored for
   * `intervalMs` (default 1 s). Rejects with the task's JSON-RPC error when it failed,
   * with `-32800` when it was cancelled (extension), with `-32603` on a `tasks/get` answer
   * that breaks the extension's rules (another task, an unknown status, a completed task
   * without its `result` object, a failed one whose error is no JSON-RPC error, input
   * requests missing or not ones a standalone request could be) and on a final result that
   * is not the creating method's (a task this client created), with `-32000` at once when the connection closes and
   * `-32800` when `options.signal` aborts, even while this client's handlers answer the
   * task's input requests (their signal aborts then; it also aborts once the task stops
   * asking, and the wait goes on to what `tasks/get` says: see answerTaskInput).
   */
  async waitForTask(taskId: string, options: CallOptions & { intervalMs?: number } = {}): Promise<JsonObject> {
    if (!isModernVersion(this.version)) return this.getTaskResult(taskId, options);
    const clock = this.options.clock ?? systemClock;
    const ms = options.timeoutMs;
    // 0 is no timeout, as for any request.
    if (ms === undefined || !(ms > 0)) return this.pollTask(taskId, options, clock);
    // The caller's timeoutMs bounds the whole wait, as tasks/result's does in 2025-11-25: polls, sleeps and input handlers alike.
    const limit = new AbortController();
    const onAbort = (): void => limit.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted === true) limit.abort();
    let expired = false;
    const timer = clock.schedule(clock.now() + ms, () => ((expired = true), limit.abort()), true);
    try {
      return await this.pollTask(taskId, { ...options, signal: limit.signal }, clock);
    } catch (e) {
      throw expired ? new McpError({ code: ErrorCode.RequestTimeout, message: `request timed out after ${ms} ms` }) : e;
    } finally {
      clock.cancel(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The extension's wait: `tasks/get` until the task is terminal (see {@link McpClient.waitForTask}). */
  private async pollTask(taskId: string, options: CallOptions & { intervalMs?: number }, clock: Clock): Promise<JsonObject> {
    const answered = new Set<string>();
    for (;;) {
      const task = await this.getTask(taskId, options);
      const invalid = invalidTaskAnswer(taskId, task, this.capabilities);
      if (invalid !== undefined) throw new McpError({ code: ErrorCode.InternalError, message: `invalid tasks/get answer from the server: ${invalid}` });
      if (task.status === "completed") return this.checkTaskResult(taskId, task.result as JsonObject);
      if (task.status === "failed") throw new McpError(task.error ?? { code: ErrorCode.InternalError, message: task.statusMessage ?? "task failed" });
      if (task.status === "cancelled") throw new McpError({ code: ErrorCode.RequestCancelled, message: task.statusMessage ?? "task cancelled" });
      // Tasks extension: "the client MUST inspect" inputRequests; it answers them with its own handlers, as in an input_required round.
      if (task.status === "input_required" && task.inputRequests !== undefined && (await this.answerTaskInput(taskId, task, answered, options, clock))) continue;
      await this.sleep(clock, pollInterval(task.pollIntervalMs, options.intervalMs), options.signal);
    }
  }

  /**
   * Whether the answer to `method` may be a task: a 2025-11-25 request augmented with `task`,
   * or, under the extension this client declared, a method it lets become one.
   */
  private mayCreateTask(method: string, params: JsonObject | undefined): boolean {
    if (!isProtocolVersion(this.version) || methodSpec(this.version, method)?.taskAugmentable !== true) return false;
    return isModernVersion(this.version) ? this.options.tasks === true : params?.task !== undefined;
  }

  /**
   * Whether a `tools/call` of `name` may (or must) be task-augmented in this session: never
   * outside 2025-11-25 tasks or without the server's `tasks.requests.tools.call`, else as
   * the tool's listed `taskSupport` says; a tool never listed may be tried.
   */
  private toolTaskMode(name: string): "required" | "allowed" | "forbidden" {
    if (isModernVersion(this.version) || predatesTasks(this.version)) return "forbidden";
    return augmentationFor("tools/call", this.peer?.capabilities, this.toolTaskSupport.get(name) ?? "optional");
  }

  /** What one `tools/list` result shows of its tools: their `execution.taskSupport` and (when checked) output schemas ({@link McpClientCore.forgetTools} undoes it). */
  private learnTools(result: JsonObject): void {
    this.outputs?.learn(result);
    if (!Array.isArray(result.tools)) return;
    for (const tool of result.tools as { name?: unknown }[]) {
      const name = tool?.name;
      if (typeof name !== "string" || (this.toolTaskSupport.size >= MAX_TOOL_TASK_SUPPORT && !this.toolTaskSupport.has(name))) continue;
      this.toolTaskSupport.set(name, taskSupportOf(tool));
    }
  }

  /** Remembers which method created the task `result` names, if it names one. */
  private rememberTask(method: string, result: JsonObject): void {
    const taskId = this.taskIdOf(result);
    if (taskId === undefined) return;
    if (this.taskMethods.size >= MAX_TASK_METHODS) this.taskMethods.delete(this.taskMethods.keys().next().value as string);
    this.taskMethods.set(taskId, method);
  }

  /**
   * The final result of task `taskId`, checked against the result of the method that
   * created it when this client knows it (2025-11-25 basic/utilities/tasks: "receivers MUST
   * return from tasks/result exactly what the underlying request would have returned"; the
   * extension inlines that result). A task's result is never another task nor an
   * `input_required` round. Throws `-32603` as a direct answer like it would.
   */
  private checkTaskResult(taskId: string, result: JsonObject): JsonObject {
    const method = this.taskMethods.get(taskId);
    if (method === undefined || !isProtocolVersion(this.version)) return result;
    this.taskMethods.delete(taskId);
    const interim = this.taskIdOf(result) !== undefined || result.resultType === "input_required";
    // The extension inlines the result as a plain JSONObject (SEP-2663's own example has no resultType): it is the complete shape.
    const final = isModernVersion(this.version) && result.resultType === undefined ? { ...result, resultType: "complete" } : result;
    const issues = interim ? [{ path: "/resultType", reason: "must be a final result" }] : methodSpec(this.version, method)?.validateResult?.(final);
    if (issues) throw new McpError({ code: ErrorCode.InternalError, message: `the result of task ${JSON.stringify(taskId)} is no valid ${method} result`, data: { issues } });
    return result;
  }

  /** Waits `ms` on `clock` between polls; rejects when `signal` aborts or the connection closes (see {@link McpClientCore.stoppable}). */
  private sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return this.stoppable(signal, (stopped) =>
      new Promise<void>((resolve) => {
        // Held: the caller awaits this wait (see Clock.schedule); closing cancels it, so it keeps no process alive.
        const handle = clock.schedule(clock.now() + ms, resolve, true);
        stopped.addEventListener("abort", () => clock.cancel(handle), { once: true });
      }),
    );
  }

  /**
   * Runs `work` under a signal of its own that aborts when `signal` does or the connection
   * closes; the promise then rejects at once, with `-32800` or `-32000` as pending requests
   * do, whether or not `work` heeds its signal (a user who never answers an elicitation).
   */
  private stoppable<T>(signal: AbortSignal | undefined, work: (stopped: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortedError());
    if (this.closedReason !== undefined) return Promise.reject(closedError(this.closedReason));
    const own = new AbortController();
    return new Promise<T>((resolve, reject) => {
      const done = (): void => {
        this.waits.delete(stop);
        signal?.removeEventListener("abort", onAbort);
      };
      const stop = (e: McpError): void => {
        done();
        own.abort(e);
        reject(e);
      };
      const onAbort = (): void => stop(abortedError());
      this.waits.add(stop);
      signal?.addEventListener("abort", onAbort, { once: true });
      work(own.signal).then(
        (v) => (done(), resolve(v)),
        (e: unknown) => (done(), reject(e)),
      );
    });
  }

  /** The connection closed: waits between polls and on a task's input reject as pending requests do (`-32000`); their timers go, their handlers see their signal abort. */
  private endWaits(reason: string): void {
    this.closedReason ??= reason;
    for (const stop of [...this.waits]) stop(closedError(reason));
  }

  /**
   * Runs this client's handlers on the task's input requests not answered yet and sends
   * the answers with `tasks/update`; false when there was nothing new to answer. A handler
   * that fails rejects the wait with its error (the task is left to the caller to cancel).
   *
   * While they run (a person may take minutes), `tasks/get` is asked every poll interval:
   * once the task no longer asks for them (cancelled, expired, failed, or answered by
   * another client), their signal aborts and the wait goes back to `tasks/get`, which
   * settles it, as a 2025-11-25 handler learns from `notifications/cancelled` that its
   * request is moot. {@link McpClient.cancelTask} from this client stops them at once.
   */
  private async answerTaskInput(taskId: string, task: Task, answered: Set<string>, options: CallOptions & { intervalMs?: number }, clock: Clock): Promise<boolean> {
    const requests = task.inputRequests!;
    const keys = Object.keys(requests).filter((k) => !answered.has(k));
    if (keys.length === 0) return false;
    const responses: JsonObject = {};
    const moot = new AbortController();
    const rounds = this.taskInputs.get(taskId) ?? new Set<AbortController>();
    this.taskInputs.set(taskId, rounds);
    rounds.add(moot);
    const answer = async (key: string, signal: AbortSignal): Promise<void> => {
      const { method, params } = requests[key];
      const ctx: RequestContext = {
        id: `task:${taskId}:${key}`,
        method,
        signal,
        progress: () => {},
        request: () => Promise.reject(new McpError({ code: ErrorCode.InvalidRequest, message: "a task's input request cannot send requests of its own" })),
        notify: () => {},
        log: () => {},
        protocolVersion: this.version,
      };
      const result = await this.serve(method, (params ?? {}) as JsonObject, ctx).catch((e: unknown) => {
        const error = toRpcError(e);
        throw new McpError({ ...error, message: `the ${method} input of task ${taskId} could not be provided: ${error.message}` });
      });
      Object.defineProperty(responses, key, { value: result, enumerable: true, writable: true, configurable: true });
    };
    try {
      // The handlers' signal aborts, and the wait rejects at once, when the caller aborts or the connection closes.
      const answeredAll = await this.stoppable(options.signal, (stopped) => {
        void this.watchTaskInput(taskId, keys, pollInterval(task.pollIntervalMs, options.intervalMs), clock, moot);
        const signal = eitherSignal(stopped, moot.signal);
        return untilAborted(Promise.all(keys.map((key) => answer(key, signal))), moot.signal);
      });
      // The task moved on: the next tasks/get says how.
      if (!answeredAll) return true;
    } finally {
      moot.abort();
      rounds.delete(moot);
      if (rounds.size === 0) this.taskInputs.delete(taskId);
    }
    for (const key of keys) answered.add(key);
    await this.updateTask(taskId, responses, options);
    return true;
  }

  /**
   * Asks `tasks/get` every `ms` while this client's handlers answer the task's `keys`;
   * aborts `moot` once the task no longer asks for all of them, or is gone (`-32602`).
   * Ends when `moot` aborts or the connection closes (the wait between asks rejects); any
   * other failure of one `tasks/get` (a timeout) is asked again at the next interval.
   */
  private async watchTaskInput(taskId: string, keys: readonly string[], ms: number, clock: Clock, moot: AbortController): Promise<void> {
    for (;;) {
      try {
        await this.sleep(clock, ms, moot.signal);
      } catch {
        return;
      }
      try {
        const task = await this.getTask(taskId, { signal: moot.signal });
        const asking = task.status === "input_required" ? task.inputRequests : undefined;
        if (asking === undefined || keys.some((k) => !Object.hasOwn(asking, k))) return moot.abort();
      } catch (e) {
        if (e instanceof McpError && e.code === ErrorCode.InvalidParams) return moot.abort();
      }
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

  /** Subscribes to `notifications/resources/updated` for `uri`. */
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
    this.endpoint?.notify("notifications/roots/list_changed");
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

  /** Listens for the connection closing, from either side. */
  onClose(fn: (reason: string) => void): () => void {
    this.closeListeners.add(fn);
    return () => void this.closeListeners.delete(fn);
  }

  /** Closes the connection: pending requests and {@link McpClient.waitForTask} waits reject with `-32000`. */
  close(): void {
    this.endpoint?.closed("client closed");
    this.endWaits("client closed");
    this.transport?.close();
  }

  private emit(method: string, params: JsonObject | undefined): void {
    const set = this.listeners.get(method);
    if (set === undefined) return;
    for (const fn of set) callListener(fn, params, undefined, this.options.onError);
  }

  /**
   * Draft `basic/transports/streamable-http` ("Client Behavior"): after a `-32020`
   * HeaderMismatch to a `tools/call` (its `Mcp-Param-*` headers missing, say, because no
   * `tools/list` had shown the tool's `x-mcp-header` declarations) the client SHOULD call
   * `tools/list` and retry with the right headers. The HTTP transport learns them from
   * the list as it passes through. One list and one retry, whose failure is final.
   */
  private async afterHeaderMismatch(e: unknown, params: JsonObject | undefined, options: CallOptions | undefined): Promise<JsonObject> {
    if (!(e instanceof McpError) || e.code !== ErrorCode.HeaderMismatch) throw e;
    const listing = options === undefined ? undefined : { signal: options.signal, timeoutMs: options.timeoutMs };
    try {
      for await (const tool of this.iterateTools(listing)) if (tool.name === params?.name) break;
    } catch {
      // No list, no better headers: the call's own error is the one to report.
      throw e;
    }
    return this.endpoint!.request("tools/call", params, options);
  }

  private async *paginate<T>(method: string, key: string, options?: CallOptions): AsyncGenerator<T> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const result = (await this.request(method, cursor === undefined ? undefined : { cursor }, options)) as Page;
      yield* result[key] as T[];
      cursor = result.nextCursor;
      // A server that hands back a cursor it already gave would loop for ever.
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new McpError({ code: ErrorCode.InternalError, message: `${method}: the server repeated a cursor` });
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }

  private async serve(method: string, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const h = this.options.handlers ?? {};
    switch (method) {
      case "sampling/createMessage":
        if (h.sampling !== undefined) return this.maybeAsTask(method, params, ctx, (p, c) => h.sampling!(p as CreateMessageParams, c));
        break;
      case "elicitation/create": {
        const elicit = h.elicitation;
        if (elicit === undefined) break;
        const forms = this.options.elicitationForms;
        if (!forms) return this.maybeAsTask(method, params, ctx, async (p, c) => withoutUrlContent(p, await elicit(p as ElicitParams, c)));
        // client/elicitation: the form's schema is checked on receipt, the handler's content before it goes out.
        assertElicitParams(forms, params);
        return this.maybeAsTask(method, params, ctx, async (p, c) => checkedElicitResult(forms, p, withoutUrlContent(p, await elicit(p as ElicitParams, c)), "the elicitation handler's content"));
      }
      case "tasks/get":
      case "tasks/result":
      case "tasks/list":
      case "tasks/cancel":
        if (this.tasksReceived !== undefined) return this.tasksReceived.request(method, params, ctx, this.taskOwner, "legacy");
        break;
      case "roots/list":
        if (h.roots !== undefined) return { roots: await h.roots(ctx) };
        break;
    }
    throw new McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` });
  }

  /**
   * Runs `handler` as a task when the request is task-augmented and this client declared
   * task support for it; otherwise at once ("MUST process requests of that type normally,
   * ignoring any task-augmentation metadata").
   */
  private async maybeAsTask(method: string, params: JsonObject, ctx: RequestContext, handler: (params: JsonObject, ctx: RequestContext) => JsonObject | Promise<JsonObject>): Promise<JsonObject> {
    const tasks = this.tasksReceived;
    const check = tasks === undefined ? undefined : checkTaskAugmentation({ method, params, capabilities: this.capabilities, version: ctx.protocolVersion });
    if (tasks === undefined || check?.kind !== "task") return handler(withoutTaskField(params), ctx);
    const extra: { ttl?: number; progressToken?: string | number } = {};
    if (check.requestedTtl !== undefined) extra.ttl = check.requestedTtl;
    const token = progressTokenOf(params);
    if (token !== undefined) extra.progressToken = token;
    return tasks.create(ctx, this.taskOwner, "legacy", withoutTaskField(params), async (p, c) => handler(p, c), extra);
  }
}

/**
 * The answer to a request the server sent about one of its tasks (an elicitation a task
 * needs, say) carries the same related-task key: 2025-11-25 `basic/utilities/tasks`,
 * "All requests, notifications, and responses related to a task MUST include" it, the
 * `CreateTaskResult` of a task this client runs for such a request included (its own
 * task is named by its `task.taskId`; the page exempts only the `tasks/get`, `tasks/list`
 * and `tasks/cancel` results). A `tasks/*` answer names its task itself (and
 * `tasks/result`'s is the client's own task).
 */
function relatedResult(method: string, params: JsonObject | undefined, result: JsonObject): JsonObject {
  const taskId = method.startsWith("tasks/") ? undefined : relatedTaskOf(params);
  return taskId === undefined ? result : withRelatedTask(result, taskId);
}

/**
 * An MCP client. With {@link McpClientOptions.receiveTasks} it runs the server's
 * task-augmented requests through its own {@link TaskRuntime}; {@link McpClientCore} is the
 * same client with the runtime left out.
 */
export class McpClient extends McpClientCore {
  constructor(info: Implementation, options: McpClientOptions = {}) {
    const r = options.receiveTasks;
    const receiveTasks = r === undefined || r === false ? undefined : r instanceof TaskRuntime ? r : new TaskRuntime({ clock: options.clock, ...(r === true ? {} : r) });
    super(info, { ...options, receiveTasks, jsonSchema: options.jsonSchema ?? peerJsonSchema, elicitationForms: options.elicitationForms ?? elicitationChecks });
  }
}
