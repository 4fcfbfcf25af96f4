/**
 * The options of an `McpClient` and `McpClientCore` (`../client.ts`), their per-call
 * options, and the checks the constructor runs on them: a misspelled option name, a
 * handler that is no function or under a name that is no handler, are refused at once
 * rather than leaving the client without the capability it meant to declare.
 *
 * Spec: 2025-11-25 `basic/lifecycle` (the capabilities a client declares follow from its
 * handlers: `client/{sampling,elicitation,roots}`), `basic/utilities/tasks` (`receiveTasks`)
 * and the `io.modelcontextprotocol/tasks` extension (`tasks`).
 *
 * Theory of operation. Types and two checks, nothing that runs per request: the client
 * reads its options as it goes (`./features.ts` its handlers on each request).
 */
import type { Clock } from "../../driver/clock.js";
import type { Callback } from "../../driver/listener.js";
import type { RequestContext, RequestHandler, RequestOptions } from "../../driver/endpoint.js";
import type { JsonObject, JsonValue } from "../../jsonrpc/types.js";
import type { ElicitationChecks } from "../../schema/elicitation.js";
import type { JsonSchemaValidator } from "../../schema/json-schema.js";
import type { SessionOptions, SessionOutput } from "../../session/types.js";
import { isObject } from "../connection.js";
import { knownNames, misspelled } from "../option-names.js";
import type { TaskRuntime, TaskRuntimeOptions } from "../tasks.js";
import type { ListChangedHandlers } from "./list-changed.js";
import type { ClientCapabilities, CreateMessageParams, CreateMessageAnswer, ElicitParams, ElicitResult, Root } from "../types.js";

/** {@link CreateMessageParams} as a client receives them: JSON, so `metadata` is a JSON object (what 2026-07-28 types it; 2025-11-25 any object). */
export type ReceivedCreateMessageParams = CreateMessageParams & { metadata?: { [key: string]: JsonValue } };

/** What the client does when the server asks. Each handler may throw an {@link McpError} to answer with an error. */
export interface ClientHandlers {
  /** `sampling/createMessage`: run the model (after the user approved, as the spec asks). The params are JSON, as received: `metadata` a JSON object. */
  sampling?: Callback<(params: ReceivedCreateMessageParams, ctx: RequestContext) => CreateMessageAnswer | Promise<CreateMessageAnswer>> | undefined;
  /** `elicitation/create`: ask the user. Any `content` it returns with a decline, a cancel or for a URL-mode request is dropped (content goes with an accepted form only). */
  elicitation?: Callback<(params: ElicitParams, ctx: RequestContext) => ElicitResult | Promise<ElicitResult>> | undefined;
  /** `roots/list`: the roots to expose now. */
  roots?: Callback<(ctx: RequestContext) => Root[] | Promise<Root[]>> | undefined;
}

/** Options of an {@link McpClient}. */
export interface McpClientOptions {
  /** Capabilities merged over the derived ones, key by key (e.g. `{ elicitation: { form: {}, url: {} } }`); a value typed with either version's `ClientCapabilities` of the schema will do. */
  capabilities?: ClientCapabilities | undefined;
  handlers?: ClientHandlers | undefined;
  /**
   * Serves the server's requests of methods the client has no handler for by name (default:
   * `-32601` Method not found): those of the application's extensions, declared in
   * `session.extensionMethods`. A protocol request whose handler is not given (sampling,
   * elicitation, roots) is not among them: its capability goes undeclared, and the kernel
   * refuses it before any handler.
   */
  fallback?: RequestHandler | undefined;
  /** Session settings (versions, default timeout, limits). */
  session?: Omit<Partial<SessionOptions>, "role" | "info" | "capabilities" | "instructions"> | undefined;
  /** The endpoint's clock (default: the system clock). */
  clock?: Clock | undefined;
  /** Where an error a listener throws goes: a notification listener's, `onEvent`'s, a request's `onProgress` (default: rethrown on a microtask). */
  onError?: Callback<(error: unknown) => void> | undefined;
  /**
   * Every kernel output of the connection after the client has acted on it: diagnostics (a
   * second of dropped log messages, `log-rate-limited`; a refused notification), `stale`
   * keep-alive misses, `initialized`, `renewed`, and `close` when the kernel ends the
   * connection itself (a fatal error, missed keep-alives; a close of the transport reaches
   * {@link McpClient.onClose} instead). For logs and metrics; what it throws goes to `onError`.
   */
  onEvent?: Callback<(event: SessionOutput) => void> | undefined;
  /**
   * Records the connection as a kernel transcript (`mcp-kernel/1`, which `replay` and
   * `mcp-kernel replay FILE` verify step for step): the header line when `connect` makes
   * the endpoint, then one line per kernel step (see `EndpointHooks.record`). Join them
   * with `"\n"`. What the handlers answered is an input of the kernel, so it is in the
   * transcript: a replay needs no handlers. What it throws goes to `onError`.
   */
  record?: Callback<(line: string) => void> | undefined;
  /**
   * Declare the `io.modelcontextprotocol/tasks` extension (SEP-2663), so a 2026-07-28
   * server may answer a tool call with a task (default false). 2025-11-25 tasks need no
   * declaration here: the client asks per call ({@link McpClient.callToolAsTask}).
   */
  tasks?: boolean | undefined;
  /**
   * Be a 2025-11-25 task receiver for `sampling/createMessage` and `elicitation/create`
   * (see `../client.ts`): `true`, or the task runtime's options (limits, TTL, clock, store).
   */
  receiveTasks?: boolean | TaskRuntimeOptions | TaskRuntime | undefined;
  /**
   * Checks a tool's `structuredContent` against the `outputSchema` that `tools/list` gave
   * for it (`server/tools`: "Clients SHOULD validate structured results against this
   * schema"); a result that breaks it, or of a tool whose schema does not compile, rejects
   * with `-32603` and the issues. {@link McpClient}: the built-in 2020-12 validator for
   * peer schemas (`peerJsonSchema`: unsafe patterns refused) unless `false`;
   * {@link McpClientCore}: only with one given.
   */
  jsonSchema?: JsonSchemaValidator | false | undefined;
  /**
   * Checks of elicitation forms (`client/elicitation`): a `requestedSchema` outside the
   * restricted subset is answered `-32602` without running the handler, and content from
   * the handler that does not match the form is not sent (the server gets `-32603`).
   * {@link McpClient}: the built-in checks unless `false`; {@link McpClientCore}: only when given.
   */
  elicitationForms?: ElicitationChecks | false | undefined;
  /**
   * Keeps the application's copy of the server's tools, prompts or resources current (the
   * official SDKs' option of the same name and shape): for each list named whose
   * `listChanged` the server declared, `connect()` starts listening (2026-07-28: a
   * `subscriptions/listen`), and each change, after `debounceMs` of quiet, lists it again
   * and calls `onChanged(null, items)` (see `./list-changed.ts`).
   */
  listChanged?: ListChangedHandlers | undefined;
}

/** The options of McpClient (McpClientCore's are the same, with a narrower `receiveTasks`). */
export const CLIENT_OPTION_NAMES = /* @__PURE__ */ knownNames<McpClientOptions>()(["capabilities", "handlers", "fallback", "session", "clock", "onError", "onEvent", "record", "tasks", "receiveTasks", "jsonSchema", "elicitationForms", "listChanged"]);

/** The handlers a client can have: each one makes the client declare its capability. */
const HANDLER_NAMES = /* @__PURE__ */ knownNames<ClientHandlers>()(["sampling", "elicitation", "roots"]);

/**
 * Whether a function under `name` was meant as a handler: a misspelling of one, or a name
 * that starts as one does (`sampler`, `elicit`, `rootsList`). Another function field (an
 * instance's `onLog`) is the application's own.
 */
function meantHandler(name: string): boolean {
  const start = name.slice(0, 4).toLowerCase();
  return misspelled(name, HANDLER_NAMES) !== undefined || HANDLER_NAMES.some((h) => h.startsWith(start) && start.length === 4);
}

/**
 * Refuses a handler that is not a function, and a function under a name meant as one that
 * is none (`sampler` declared nothing, and every server request for sampling got `-32601`).
 */
export function checkHandlers(handlers: ClientHandlers | undefined): void {
  if (handlers === undefined) return;
  if (!isObject(handlers)) throw new TypeError("handlers must be an object: { sampling, elicitation, roots }");
  for (const [name, fn] of Object.entries(handlers)) {
    if (HANDLER_NAMES.includes(name)) {
      if (fn !== undefined && typeof fn !== "function") throw new TypeError(`handlers.${name} must be a function`);
    } else if (typeof fn === "function" && meantHandler(name)) {
      throw new TypeError(`handlers.${name} is not a client handler (they are ${HANDLER_NAMES.join(", ")})`);
    }
  }
}

/** Options of {@link McpClientCore}: those of {@link McpClient}, where receiving tasks needs a runtime given. */
export interface McpClientCoreOptions extends Omit<McpClientOptions, "receiveTasks"> {
  /** Be a 2025-11-25 task receiver through this runtime (`new TaskRuntime({ clock })`). */
  receiveTasks?: TaskRuntime | undefined;
}

/** Per-call options: cancellation, timeout, progress, and (2026-07-28) the log level the call asks for. */
export type CallOptions = Omit<RequestOptions, "related">;

/** The options of a call, for its misspelling check. */
export const CALL_OPTION_NAMES = /* @__PURE__ */ knownNames<CallOptions>()(["timeoutMs", "signal", "onProgress", "logLevel"]);
