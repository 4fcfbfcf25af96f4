/**
 * What a tool, resource reader, prompt getter or completer gets besides its arguments.
 *
 * Spec: 2025-11-25 `basic/utilities/{progress,cancellation}`, `server/utilities/logging`,
 * `client/{sampling,elicitation,roots}`: while handling a request a server may report
 * progress on it, log, and ask the client for a model completion, for user input or for
 * its roots; the client may cancel it.
 *
 * Theory of operation. A thin view over the driver's {@link RequestContext}: in the legacy
 * era every call here becomes a kernel input tied to the request being handled
 * (`related`), so a transport with one stream per request (Streamable HTTP) sends it on
 * that request's stream. Requests made from here are cancelled with the request they
 * serve, and with the caller's signal when it passes one. It is a class, not an object of
 * closures, so one allocation per request is all it costs.
 *
 * In the modern era (2026-07-28) there are no server-to-client requests: the same
 * `elicit` / `sample` / `listRoots` calls become multi round-trip input (draft
 * `basic/patterns/mrtr`). The handler runs again on each retry; its k-th ask is answered
 * from the client's `inputResponses` (or from earlier rounds' answers, carried in the
 * sealed `requestState`), and an ask with no answer yet ends the attempt with
 * `input_required` naming every open ask. So a handler written once serves both eras,
 * provided what it does before an ask is safe to repeat.
 */
import { answeredModernRequest, McpError, type RequestContext, type RequestOptions, type RequestPeer } from "../driver/endpoint.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject, OutgoingParams, RequestId } from "../jsonrpc/types.js";
import type { LoggingLevel } from "../session/types.js";
import { isModernVersion, type ProtocolVersion } from "../model/versions.js";
import { assertElicitParams, checkedElicitResult, withoutUnaskedContent } from "./elicitation.js";
import type { ElicitationChecks } from "../schema/elicitation.js";
import { acceptsTaskAugmented, predatesTasks } from "../tasks/capabilities.js";
import { createdTaskIdOf } from "../tasks/wire.js";
import { inputRequired, type InputRequest, type InputRequests, type InputRequiredResult, type InputResponses, type InputRetry } from "./mrtr.js";
import type { CreateMessageParams, CreateMessageResult, ElicitFormParams, ElicitParams, ElicitResult, ListRootsResult } from "./types.js";
import { isStandardSchema, jsonSchemaOf, standardParser, type StandardOutput, type StandardSchema } from "./standard-schema.js";
import { issuesError } from "../schema/json-type.js";
import { escapeSegment, type Issue } from "../schema/validate.js";
import { INPUT_REQUESTS, inputAnswerIssues, methodSpec } from "../model/methods.js";
import { eitherSignal, isThenable } from "../driver/listener.js";
import { invalidParamsError } from "../model/schema-errors.js";
import { samplingAnswerIssues } from "../model/constraints.js";
import { ProtocolError } from "./server/errors.js";
import { inputRequiredProblem } from "../modern/server.js";

/** Form-mode `elicitation/create` params whose `requestedSchema` is a validation library's schema `S`. */
export type ElicitFormWith<S extends StandardSchema> = Omit<ElicitFormParams, "requestedSchema"> & { requestedSchema: S };

/** An elicitation's result whose accepted `content` is `C`, a library's parsed value. */
export type ElicitResultWith<C> = Omit<ElicitResult, "content"> & { content?: C };

/** Options of a request a handler sends to the client. */
export type PeerRequestOptions = Omit<RequestOptions, "related">;

/** Methods a modern request turns into input requests instead of sending. */
const INPUT_METHODS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/**
 * The failures of requests handlers made to the client (`ctx.elicit`, `ctx.sample`, …),
 * each with the method it failed on. A prompt or resource handler that lets one escape has
 * failed itself: its request is answered `-32603` naming the inner failure (`server.ts`),
 * not with the inner error's code, which would answer `prompts/get` as if that method did
 * not exist (the kernel's `-32601` "cannot send elicitation/create") or its params were
 * wrong (a client's `-32602`).
 */
const innerFailures = new WeakMap<object, string>();

/** The method of the request to the client whose failure `e` is, if it is one. */
export function innerRequestOf(e: unknown): string | undefined {
  return typeof e === "object" && e !== null ? innerFailures.get(e) : undefined;
}
/** Where earlier rounds' answers travel inside this layer's own `requestState`. */
const ANSWERS = "mcp-kernel/answers";
/**
 * The keys the last round asked for, beside them, each with the method it asked (`{ key:
 * method }`): the only `inputResponses` a retry may answer, each held to that method's
 * result schema. State sealed when this was a bare list of keys holds no method: its
 * answers are not taken, and the handler asks again.
 */
const ASKED = "mcp-kernel/asked";

/** Who is to blame in the error when the client's elicitation answer breaks the form. */
const CLIENT_CONTENT = "the client's elicitation content";

/** The client's `elicitation/create` answer as a handler gets it: content only for an accepted form, checked against the form when the server has form checks. */
function elicitAnswer(forms: ElicitationChecks | undefined, params: JsonObject | undefined, result: JsonObject): JsonObject {
  const kept = withoutUnaskedContent(params, result);
  return forms === undefined ? kept : checkedElicitResult(forms, params, kept, CLIENT_CONTENT);
}

/** The rejection of a modern-era ask that has no answer yet; the attempt ends in `input_required`. */
export class InputPending extends Error {
  override name = "InputPending";
  constructor(readonly key: string) {
    super(`input ${key} is requested from the client (input_required)`);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Where a request came from, as far as a transport adapter knows: what
 * {@link ServerContext.sessionId} and {@link ServerContext.principal} read. One object per
 * session (or per modern request), shared by its requests' contexts.
 */
export interface RequestOrigin {
  /** The `MCP-Session-Id` of the legacy HTTP session; absent for a modern request. */
  readonly session?: string;
  /** Who the request speaks for, as `httpSession({ principalOf })` named it. */
  readonly principal?: string;
}

/** The context of one request a server handles. */
export class ServerContext {
  private asks = 0;
  private open: InputRequests | undefined;
  private answered: InputResponses | undefined;
  /** Issues of this retry's answers against the methods their keys asked (set with `answered`). */
  private invalid: Issue[] | undefined;
  /** The attempt is over ({@link ServerContext.pendingInput} was taken): an ask now could reach no client. */
  private over = false;

  /**
   * @param rc the driver's context of the request. @param meta the request's `_meta`, if any.
   * @param retry the MRTR retry fields, when the handler runs again after `input_required`.
   */
  constructor(
    private readonly rc: RequestContext,
    readonly meta: JsonObject | undefined,
    private readonly retry?: InputRetry,
    /** Checks of elicitation forms both ways (`elicitation.ts`), when the server has them. */
    private readonly forms?: ElicitationChecks,
    /** The session and principal the request came with (`McpServer.httpSession`), shared, not copied. */
    private readonly origin?: RequestOrigin,
  ) {}

  /**
   * The id of the legacy HTTP session the request came on, as `McpServer.httpSession()`
   * serves it: a Streamable HTTP session's `MCP-Session-Id` (2025-11-25 `basic/transports`,
   * "Session Management"), an HTTP+SSE session's `sessionId`; the id its client holds, to
   * log, or to reach the session later with `handler.session(id)?.notify(…)`. Undefined over
   * stdio, in memory (`McpServer.connect`), for a modern (2026-07-28) request and for a
   * stateless handler's POST, which belong to no session. Read-only.
   */
  get sessionId(): string | undefined {
    return this.origin?.session;
  }

  /**
   * Who the request speaks for: what `McpServer.httpSession({ principalOf })` named for
   * the legacy session (from its `initialize`, to which the session is bound) or for the
   * modern request (from its own HTTP request). Undefined without `principalOf`, when it
   * named no one, and over stdio or in memory. Read-only.
   */
  get principal(): string | undefined {
    return this.origin?.principal;
  }

  /**
   * The HTTP request that carried this request, over HTTP (Streamable HTTP, HTTP+SSE), while it is served
   * (a task's work: the one that created the task): its headers, and behind
   * `protectedResource` its token (`authInfo(ctx.httpRequest)`: scopes, client id, expiry,
   * as checked at the gate for this very request). Undefined over stdio and in memory, and
   * once the request is answered. Its headers only: the handler has read the body.
   */
  get httpRequest(): Request | undefined {
    return this.rc.httpRequest;
  }

  /** The task this tool call runs as (2025-11-25 tasks, or the tasks extension); undefined when it runs as a plain call. */
  get taskId(): string | undefined {
    return this.rc.taskId;
  }

  /**
   * MRTR (draft `basic/patterns/mrtr`): the client's answers to the input requests of
   * the handler's last `input_required`, by key; undefined on a first attempt. A key may
   * be missing (the client need not answer): ask again rather than fail.
   */
  get inputResponses(): InputResponses | undefined {
    return this.retry?.inputResponses;
  }

  /** MRTR: the `requestState` the handler returned last time, already verified; undefined if none. */
  get requestState(): string | undefined {
    return this.retry?.requestState;
  }

  /** Aborted when the client cancels the request or the connection closes: stop work then. */
  get signal(): AbortSignal {
    return this.rc.signal;
  }

  /** The JSON-RPC id of the request being handled. */
  get requestId(): RequestId {
    return this.rc.id;
  }

  /** The protocol version the request is read under, when known. */
  get protocolVersion(): string | undefined {
    return this.rc.protocolVersion;
  }

  /**
   * What the client declared (info, capabilities), when known: in a legacy session its
   * handshake; for a modern request, the request's own `_meta` (`info` absent when it
   * carries no `clientInfo`).
   */
  get client(): RequestPeer | undefined {
    return this.rc.peer;
  }

  /** Reports progress; a no-op unless the client asked for progress on this request. Values must increase. */
  progress(progress: number, total?: number, message?: string): void {
    this.rc.progress(progress, total, message);
  }

  /** Sends a log message tied to this request (filtered by the level the client set). */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.rc.log(level, data, logger);
  }

  /**
   * Asks the client for input (`elicitation/create`). Rejects if the client did not declare
   * the mode. A form's `requestedSchema` may be a validation library's schema of an object
   * (`standard-schema.ts`): it goes out as the JSON Schema the library writes, and accepted
   * content comes back as the library parsed it (content it refuses rejects with `-32603`,
   * as content outside a JSON Schema form does).
   */
  elicit<S extends StandardSchema<unknown, object>>(params: ElicitFormWith<S>, options?: PeerRequestOptions): Promise<ElicitResultWith<StandardOutput<S>>>;
  elicit(params: ElicitParams, options?: PeerRequestOptions): Promise<ElicitResult>;
  elicit(params: ElicitParams | ElicitFormWith<StandardSchema>, options?: PeerRequestOptions): Promise<ElicitResult | ElicitResultWith<unknown>> {
    const schema = params.mode === "url" ? undefined : params.requestedSchema;
    if (!isStandardSchema(schema)) return this.requestOrTask("elicitation/create", params as JsonObject, options) as Promise<ElicitResult>;
    let requestedSchema: Record<string, unknown>;
    try {
      requestedSchema = jsonSchemaOf(schema, "elicitation requestedSchema");
    } catch (e) {
      return Promise.reject(e);
    }
    const parse = standardParser(schema);
    return this.requestOrTask("elicitation/create", { ...params, requestedSchema } as JsonObject, options).then(async (result) => {
      if (result.action !== "accept" || result.content === undefined) return result as ElicitResult;
      const parsed = await parse(result.content);
      if (parsed.issues !== undefined) throw new McpError({ code: ErrorCode.InternalError, ...issuesError(`${CLIENT_CONTENT} does not match the requested schema`, parsed.issues) });
      return { ...(result as ElicitResult), content: parsed.value };
    });
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Rejects without
   * `sampling`. Params with `task` go as {@link ServerContext.requestAsTask} sends them (its
   * `ttl`), so this still resolves with the completion.
   */
  sample(params: CreateMessageParams, options?: PeerRequestOptions): Promise<CreateMessageResult> {
    // client/sampling: with no tools offered, or toolChoice "none", the "Model MUST NOT use
    // any tools" ("Both parties SHOULD validate"): a client that answers a tool use anyway
    // (another SDK's) is refused here, as McpClient refuses its own handler's.
    return this.requestOrTask("sampling/createMessage", params, options).then((result) => {
      const issues = samplingAnswerIssues(params, result);
      if (issues) throw new McpError({ code: ErrorCode.InternalError, ...issuesError("the client's sampling answer uses a tool the request did not allow", issues) });
      return result as CreateMessageResult;
    });
  }

  /**
   * {@link ServerContext.request}, or for params with `task`, {@link ServerContext.requestAsTask}
   * with its `ttl`: sent plainly, a task-capable client answers a `CreateTaskResult`, which
   * is not the result the caller waits for, and its task was never waited on.
   */
  private requestOrTask(method: string, params: JsonObject, options: PeerRequestOptions | undefined): Promise<JsonObject> {
    if (params.task === undefined) return this.request(method, params, options);
    const { task, ...plain } = params;
    const ttl = (task as { ttl?: number } | null)?.ttl;
    return this.requestAsTask(method, plain, { ...options, ttl });
  }

  /** Asks the client for its roots (`roots/list`). Rejects without `roots`. */
  listRoots(options?: PeerRequestOptions): Promise<ListRootsResult> {
    return this.request("roots/list", undefined, options) as Promise<ListRootsResult>;
  }

  /**
   * Sends any request to the client on behalf of this one (modern era: see the class
   * comment). With the server's form checks, an `elicitation/create` form is checked both
   * ways (`elicitation.ts`): its schema before it goes out, the client's content when it
   * comes back.
   */
  request(method: string, outgoing?: OutgoingParams, options?: PeerRequestOptions): Promise<JsonObject> {
    const params = outgoing as JsonObject | undefined;
    if (method !== "elicitation/create") return this.send(method, params, options);
    const forms = this.forms;
    try {
      if (forms !== undefined) assertElicitParams(forms, params);
    } catch (e) {
      return Promise.reject(e);
    }
    // Content a client sent with anything but an accepted form is dropped (`elicitation.ts`).
    return this.send(method, params, options).then((r) => elicitAnswer(forms, params, r));
  }

  private send(method: string, params: JsonObject | undefined, options: PeerRequestOptions | undefined): Promise<JsonObject> {
    if (INPUT_METHODS.has(method) && isModernVersion(this.rc.protocolVersion)) {
      // Draft mrtr: "Servers MUST NOT send InputRequiredResult responses on any other client
      // requests" (completion/complete, resources/list): the ask can never reach the client.
      // It was left pending as if input_required would go out ("input ask-0 is requested").
      if (methodSpec(this.rc.protocolVersion as ProtocolVersion, this.rc.method)?.inputRequired !== true) {
        return Promise.reject(new McpError({ code: ErrorCode.InternalError, message: `${method} cannot be asked while serving ${this.rc.method} in ${this.rc.protocolVersion}: only tools/call, prompts/get and resources/read may ask the client for input` }));
      }
      // A context kept past its attempt (background work after the tool returned): the ask
      // would join no input_required answer, and rejected with the internal InputPending,
      // no McpError, claiming the input was requested.
      if (this.over) return Promise.reject(answeredModernRequest(method));
      return this.ask(method, params);
    }
    const tied = this.tiedSignal(options?.signal);
    return this.rc
      .request(method, params, { ...options, signal: tied.signal })
      .catch((e: unknown) => {
        if (typeof e === "object" && e !== null) innerFailures.set(e, method);
        throw e;
      })
      .finally(tied.done);
  }

  /**
   * The signal a request sent from here goes with: the caller's, if any, and this request's
   * own. Cancelling the tool call cancels the peer request whatever signal the caller gave
   * (the session cancels a plain call's on its own; a task's cancellation has only this
   * signal to reach it), so the client's prompt never outlives what it was asked for.
   */
  private tiedSignal(own: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
    if (own === undefined || own === this.rc.signal) return { signal: this.rc.signal, done: () => {} };
    return eitherSignal(own, this.rc.signal);
  }

  /**
   * Sends a request to the client as a 2025-11-25 task when the client declared task
   * support for `method` (`tasks.requests.sampling.createMessage`,
   * `tasks.requests.elicitation.create`): the client answers a `CreateTaskResult`, and this
   * then waits on `tasks/result` (which the receiver holds until the task is terminal) and
   * resolves with the request's own result. Aborting (`options.signal`, or this request's
   * cancellation) or a `timeoutMs` that expires on the wait sends `tasks/cancel`. A client
   * without that support, a session negotiated before 2025-11-25 (which has no tasks,
   * whatever the client declared), and the modern era (where input is gathered with
   * `input_required`) get the plain request instead.
   * `options.timeoutMs` applies to each request, the wait on `tasks/result` included.
   * An `elicitation/create` form is checked as {@link ServerContext.request} checks it.
   */
  async requestAsTask(method: string, outgoing: OutgoingParams = {}, options: PeerRequestOptions & { ttl?: number | undefined } = {}): Promise<JsonObject> {
    const params = outgoing as JsonObject;
    const { ttl, ...o } = options;
    const v = this.rc.protocolVersion;
    if (isModernVersion(v) || predatesTasks(v) || !acceptsTaskAugmented(this.rc.peer?.capabilities, method)) return this.request(method, params, o);
    // A form elicited as a task is checked like one elicited plainly, its result when it comes.
    const forms = method === "elicitation/create" ? this.forms : undefined;
    if (forms !== undefined) assertElicitParams(forms, params);
    const checked = (r: JsonObject): JsonObject => (method === "elicitation/create" ? elicitAnswer(forms, params, r) : r);
    const tied = this.tiedSignal(o.signal);
    const signal = tied.signal;
    try {
      const created = await this.rc.request(method, { ...params, task: ttl === undefined ? {} : { ttl } }, { ...o, signal });
      const taskId = createdTaskIdOf(created);
      // A receiver may still answer plainly (it need not make every request a task).
      if (taskId === undefined) return checked(created);
      let result: JsonObject;
      try {
        result = await this.rc.request("tasks/result", { taskId }, { ...o, signal });
      } catch (e) {
        // 2025-11-25 basic/utilities/cancellation: "For task-augmented requests, the tasks/cancel
        // request MUST be used". A wait given up (aborted, even before tasks/result went out, or
        // timed out) leaves the client's task running: cancel it. A task that ended answered
        // with its own error and is left alone. A local -32800 is a wait given up too (the
        // session cancels what was sent on a cancelled call's behalf), however the outputs
        // of that step are ordered against `signal`'s abort. Only a local -32001 is our wait's
        // timeout: the client's own -32001 is its task's error (draft schema.ts: -32000 to
        // -32019 are implementation-defined, receivers must not read a shared meaning in them).
        const gaveUp = e instanceof McpError && !e.fromPeer && (e.code === ErrorCode.RequestTimeout || e.code === ErrorCode.RequestCancelled);
        if (signal.aborted || gaveUp) void this.rc.request("tasks/cancel", { taskId }).catch(() => {});
        throw e;
      }
      return checked(result);
    } finally {
      tied.done();
    }
  }

  /** The k-th ask of this attempt: answered from this round or an earlier one, else pending. */
  private ask(method: string, params: JsonObject | undefined): Promise<JsonObject> {
    const key = `ask-${this.asks++}`;
    const answer = this.answers()[key];
    if (answer !== undefined) return Promise.resolve(answer);
    const request = (params === undefined ? { method } : { method, params }) as InputRequest;
    // An ask the request's client did not declare (a URL elicitation to a form-only client)
    // could only end the attempt in the kernel's -32021: it rejects now with that error and
    // is never left open, so the handler can fall back as it does when a legacy session
    // refuses the request; one the handler lets escape still answers the call -32021.
    const refused = inputRequiredProblem(true, method, { inputRequests: { [key]: request } }, this.rc.peer?.capabilities, true);
    if (refused?.code === ErrorCode.MissingRequiredClientCapability) return Promise.reject(new ProtocolError(refused));
    // Params its method refuses (a URL that is none; client/sampling: a user message with tool
    // results "MUST contain ONLY tool results") never go out either: left open, they failed the
    // whole call as an invalid input_required (-32603) whatever the handler did; rejected now
    // with the -32602 a legacy session refuses to send them with, so the handler can fall back.
    if (refused !== null) return Promise.reject(new McpError({ code: ErrorCode.InvalidParams, message: `invalid ${method} params`, data: { issues: INPUT_REQUESTS[method].validateParams(params) ?? [] } }));
    (this.open ??= {})[key] = request;
    return Promise.reject(new InputPending(key));
  }

  /**
   * Answers so far: earlier rounds' (from this layer's state) and this retry's, but only
   * for the keys the last round asked (listed in the sealed state). An answer to a key
   * never asked, such as one sent with the first request before any round, is ignored
   * (draft mrtr: servers SHOULD ignore what they do not recognize): it must not stand in
   * for the user's answer to an ask the client was never shown. A modern answer must be a
   * valid result of the method its key asked: the kernel checks each only against the
   * `InputResponse` union, so an `ElicitResult` would otherwise resolve `ctx.sample()`.
   * One that is not is kept out and recorded for {@link ServerContext.checkInputResponses}.
   */
  private answers(): InputResponses {
    if (this.answered === undefined) {
      let earlier: InputResponses = {};
      let asked: Record<string, unknown> = {};
      try {
        const state: unknown = this.retry?.requestState === undefined ? undefined : JSON.parse(this.retry.requestState);
        if (isPlainObject(state) && isPlainObject(state[ANSWERS])) earlier = state[ANSWERS] as InputResponses;
        if (isPlainObject(state) && isPlainObject(state[ASKED])) asked = state[ASKED];
      } catch {
        // Not ours: a handler's own requestState.
      }
      const given = this.retry?.inputResponses;
      const fresh: InputResponses = {};
      // A legacy session's answers are the client's responses to real requests, which the
      // kernel held to the result schema of the session's own version.
      const modern = isModernVersion(this.rc.protocolVersion);
      for (const key of Object.keys(asked)) {
        const method = asked[key];
        if (given === undefined || !Object.hasOwn(given, key) || typeof method !== "string" || !INPUT_METHODS.has(method)) continue;
        const issues = modern ? inputAnswerIssues(method, given[key]) : null;
        if (issues) (this.invalid ??= []).push(...issues.map((i) => ({ ...i, path: `/inputResponses/${escapeSegment(key)}${i.path}` })));
        else fresh[key] = given[key];
      }
      this.answered = { ...earlier, ...fresh };
    }
    return this.answered;
  }

  /**
   * MRTR Error Handling (draft mrtr: servers SHOULD validate that the client's
   * `InputResponses` "can be correctly parsed", a protocol error answered with a JSON-RPC
   * error): throws the `-32602` naming each answer that is no valid result of the method
   * its key asked, before the handler runs, so no handler sees it or can mistake it for a
   * tool failure.
   */
  checkInputResponses(): void {
    // Without answers there is nothing to refuse: the answers are gathered when first asked
    // for, not before every handler (a first attempt, the common call, built five objects).
    if (this.retry?.inputResponses === undefined) return;
    this.answers();
    if (this.invalid !== undefined) throw new ProtocolError(invalidParamsError(this.rc.method, this.invalid));
  }

  /**
   * When this attempt asked for input it has no answer to: the `input_required` answer
   * naming every open ask, carrying the answers so far. Whatever the handler did with the
   * rejection, an open ask means the request is not finished.
   */
  pendingInput(): InputRequiredResult | undefined {
    this.over = true;
    if (this.open === undefined) return undefined;
    const asked: Record<string, string> = {};
    for (const key of Object.keys(this.open)) asked[key] = this.open[key].method;
    return inputRequired(this.open, JSON.stringify({ [ANSWERS]: this.answers(), [ASKED]: asked }));
  }

  /**
   * Sends a notification tied to this request. A `notifications/progress` naming this
   * request's progress token (the official SDK's way to report progress) goes out as
   * {@link ServerContext.progress} would send it: the kernel sends progress itself, so
   * that values increase and updates are paced; one naming another token is refused.
   */
  notify(method: string, outgoing?: OutgoingParams): void {
    const params = outgoing as JsonObject | undefined;
    if (method === "notifications/progress" && params !== undefined && typeof params.progress === "number") {
      const token = this.meta?.progressToken;
      if (token !== undefined && params.progressToken === token) {
        return this.progress(params.progress, typeof params.total === "number" ? params.total : undefined, typeof params.message === "string" ? params.message : undefined);
      }
    }
    this.rc.notify(method, params);
  }
}

/**
 * Runs a handler with `ctx`; an attempt that left an ask open answers `input_required`
 * (modern era), whether the handler returned or threw. A handler that answers
 * synchronously is answered synchronously (no promise in between: a tool call's round
 * trip is a few microseconds); a promise, or any thenable, is waited for.
 */
export function withPendingInput<T>(ctx: ServerContext, run: () => T | PromiseLike<T>): T | InputRequiredResult | Promise<T | InputRequiredResult> {
  let value: T | PromiseLike<T>;
  try {
    ctx.checkInputResponses();
    value = run();
  } catch (e) {
    return pendingOrThrow(ctx, e);
  }
  if (!isThenable(value)) return ctx.pendingInput() ?? value;
  return Promise.resolve(value).then(
    (result) => ctx.pendingInput() ?? result,
    (e: unknown) => pendingOrThrow(ctx, e),
  );
}

/** What the handler threw: the `input_required` of an ask it left open, else the error itself. */
function pendingOrThrow(ctx: ServerContext, e: unknown): InputRequiredResult {
  const pending = ctx.pendingInput();
  if (pending !== undefined) return pending;
  throw e;
}
