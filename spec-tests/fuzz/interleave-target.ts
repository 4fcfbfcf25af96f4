/**
 * Fuzz target for whole sessions of the product API: a real McpServer and McpClient, over
 * the memory pair or in-process Streamable HTTP (the handler's fetch function as the
 * client's `fetch`), driven through random interleavings of what an application and a
 * network do.
 *
 * Spec: 2025-11-25 `basic/index` (every request gets one response), `basic/utilities/
 * cancellation` (a cancelled request is not answered), `basic/utilities/progress` (no
 * progress after the operation completed), `basic/lifecycle` (closing fails what is
 * pending), `basic/transports` (Streamable HTTP resumption, DELETE; the deprecated HTTP+SSE
 * transport of the Backwards Compatibility section), `basic/utilities/tasks`; draft `basic/
 * versioning`, `mrtr`, `subscriptions/listen` and the `io.modelcontextprotocol/tasks`
 * extension (SEP-2663) in the modern modes.
 *
 * Theory of operation. The input is a mode and a list of abstract operations, each with
 * two numbers in [0, 1) that pick its arguments against the state the run has reached
 * (which pending gate to release, which call to abort), so the input is plain JSON and
 * replays exactly. Time is a ManualClock given to everything (server, client, handler, the
 * HTTP client's `sleep`); nothing sleeps, and async work runs only when the driver yields
 * turns of the event loop (`settle` ops, a few each), so microtask bursts are interleaved
 * with ops as the seed says. Slow work is gated: a tool or a client handler waits on a
 * promise that the driver resolves or rejects, in random order.
 *
 * Ops: tool calls (fast, gated, with progress, asking the client to elicit or sample, with
 * the server's own abortable ask), AbortSignal cancellations, releasing or failing gates in
 * any order, clock advances (each timer fired from the event loop, as a runtime would),
 * registrations (list_changed), listen / unlisten and
 * resource updates, a kept tool context used after its call (progress, log, elicit,
 * sample), client close, server close (HTTP: at once, or a drain of random length), and
 * on HTTP: SSE connections closed by the server (resumed by the client), the session
 * terminated or DELETEd (renewed by the client on its next request). Tasks: task tools
 * (optional, required, asking the client inside the task, sampling the client as a task of
 * the client's own through `receiveTasks`, with progress) called as tasks or plainly (under
 * the extension the server makes a task of the call and callTool waits), tasks/get,
 * tasks/result or waitForTask (extension: polls, answering input_required with tasks/update),
 * tasks/cancel, tasks/list, each at random points, with TTLs from 0 to past the ceiling and
 * clock jumps past them; in some runs a task store whose every write waits on a gate (and
 * may be refused), and the extension's cooperative cancel. Prompts and resources registered
 * and removed under the client's `listChanged` watch of all three lists, and (modern) results
 * with or without a `cacheTtlMs` caching hint. Mode `http-sse`: the client falls back to the
 * deprecated HTTP+SSE transport the handler serves beside its MCP endpoint (its session
 * ends with its stream: no resumption).
 *
 * Invariants, checked at quiescence (every gate released, the clock run past every
 * timeout), then again after closing everything:
 * - every call the application made settles once, with a result or an McpError of a code
 *   the spec defines; once the client has heard its connection close (a turn after
 *   `onClose`), whatever settles is a -32000 rejection;
 * - no request is answered twice on the wire (a replayed SSE event is the same event), nor
 *   answered after its receiver was handed its cancellation, nor given progress after its
 *   answer (the last two over memory, where the tap sees one order; a 2025-11-25 task's
 *   token lives on after its CreateTaskResult until the task is seen to end);
 * - the endpoints' tables (kernel inbound and outbound, served and pending requests) are
 *   empty, an open subscription's listen excepted, and a task-augmented request given up
 *   (kept as `abandoned-task` until its hard deadline to cancel the task its answer names);
 * - while both sides are up, tools/list, prompts/list, resources/list and the client's
 *   listChanged copies match the registries;
 * - tasks: every task is terminal or waits on its requestor (input_required); a terminal
 *   task's tasks/result (extension: tasks/get) answers at once, with no time passing; another
 *   session sees none of a 2025-11-25 session's tasks (tasks/get, result, cancel -32602,
 *   tasks/list empty); past every TTL the server's and the client's task runtimes hold
 *   nothing (table, waiters, runs, streams, writes) and the store no record;
 * - no error reached onError (but the documented ones: a listen not acknowledged in time, a
 *   closed server's 503), no unhandled rejection;
 * - after closing: every subscription's `ended` and every drain settled, the clock holds no
 *   timer, and (HTTP) every response body has ended.
 *
 * Long runs: `npm run fuzz -- --target interleave --iterations 2000 --seed 1`.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/driver/clock.js";
import { McpError, type Endpoint } from "../../src/driver/endpoint.js";
import { McpClient } from "../../src/api/client.js";
import { McpServer, ServerContext, type ToolConfig } from "../../src/api/server.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import type { Transport } from "../../src/api/transport.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { createSseDecoder, feedSse } from "../../src/framing/sse.js";
import { pick } from "../harness/random.js";
import { int, type Rng } from "./generate.js";
import type { FuzzTarget } from "./target.js";
import type { TaskRuntime } from "../../src/api/tasks.js";
import { MemoryTaskStore, type TaskStore } from "../../src/api/tasks-store.js";
import type { TaskTableState } from "../../src/tasks/types.js";
import { isTerminalStatus } from "../../src/tasks/status.js";

/** A task runtime's table (private: read for the invariants only). */
const tableOf = (rt: TaskRuntime): TaskTableState => (rt as any).table;

export type Mode = "memory" | "memory-modern" | "http" | "http-modern" | "http-sse";
export const MODES: Mode[] = ["memory", "memory-modern", "http", "http-modern", "http-sse"];
type Op = [kind: string, a: number, b: number];
export type InterleaveInput = { mode: Mode; ops: Op[] };

const OPS: [string, number][] = [
  ["call", 14],
  ["abort", 5],
  ["release", 12],
  ["settle", 16],
  ["advance", 5],
  ["register", 3],
  ["unregister", 2],
  ["listen", 3],
  ["unlisten", 2],
  ["updated", 3],
  ["ping", 2],
  ["client-close", 0.6],
  ["server-close", 0.6],
  ["drop-streams", 2],
  ["terminate", 0.7],
  ["delete", 0.7],
  ["stale-ctx", 3],
  ["abort-server", 3],
  ["task-call", 6],
  ["task-plain", 2],
  ["task-get", 3],
  ["task-result", 4],
  ["task-cancel", 3],
  ["task-list", 1],
  ["register-prompt", 1],
  ["register-resource", 1],
  ["unregister-other", 1.5],
];
const OPS_TOTAL = OPS.reduce((n, [, w]) => n + w, 0);

/** Codes a call may reject with: the JSON-RPC ones and those MCP defines. */
const SPEC_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32002, -32020, -32021, -32022, -32042, -32001, -32000, -32800]);
const TOOLS = ["fast", "slow", "slow-progress", "elicit", "sample", "slow-elicit", "elicit-abortable", "fast"];
/** Tools that may run as tasks (2025-11-25 `execution.taskSupport`; under the extension the server makes a task of their calls). */
const TASK_TOOLS = ["task-opt", "task-req", "task-elicit", "task-sample", "task-progress", "task-elicit-task"];
/** Task lifetimes: the runtime's default and ceiling, so a run's clock outlives every task. */
const TASK_TTL = { defaultTtlMs: 30_000, maxTtlMs: 60_000 };
const URIS = ["res://a", "res://b"];
const URL_ = "http://127.0.0.1/mcp";
const SSE_URL = "http://127.0.0.1/sse";

interface Gate {
  what: string;
  resolve(): void;
  reject(e: unknown): void;
  done: boolean;
}
interface Call {
  n: number;
  what: string;
  settled: number;
  outcome?: { ok: true } | { ok: false; error: unknown };
  afterClientClose: boolean;
  /** Settled a turn or more after the client heard its connection close. */
  afterCloseHeard: boolean;
  abort?: AbortController;
}

function generate(r: Rng): InterleaveInput {
  const mode = pick(r, MODES);
  const ops: Op[] = [];
  for (let i = 8 + int(r, 50); i > 0; i--) {
    let x = r() * OPS_TOTAL;
    let kind = OPS[0][0];
    for (const [k, w] of OPS) {
      if (x < w) {
        kind = k;
        break;
      }
      x -= w;
    }
    ops.push([kind, r(), r()]);
  }
  return { mode, ops };
}

/** Yields `n` turns of the event loop: microtasks and the in-process streams run, no time passes. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((res) => setImmediate(res));
}

function ok(text: string) {
  return { content: [{ type: "text" as const, text }] };
}

/**
 * MRTR `requestState` sealed with no crypto: WebCrypto's HMAC runs on the thread pool, so
 * when a signature came back, in turns of the event loop, varied from run to run.
 */
const PLAIN_STATE = { sign: (state: string) => `sealed.${state}`, verify: (token: string) => (token.startsWith("sealed.") ? token.slice(7) : undefined) };

/** One message as the tap saw it. */
interface Seen {
  dir: "c2s" | "s2c";
  /** "send": the side wrote it; "recv": the other side was handed it (memory only). */
  at: "send" | "recv";
  session: string;
  msg: any;
}

export async function runInterleaving({ mode, ops }: InterleaveInput): Promise<void> {
  const clock = new ManualClock();
  const http = mode.startsWith("http");
  const modern = mode.endsWith("modern");
  /** The deprecated HTTP+SSE transport (2024-11-05): the client falls back to it from its first POST. */
  const oldSse = mode === "http-sse";
  const hookErrors: unknown[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown): void => void unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  const gates: Gate[] = [];
  const calls: Call[] = [];
  const wire: Seen[] = [];
  const log: string[] = [];
  /** Contexts of tools whose handler is over. */
  const contexts: ServerContext[] = [];
  const serverAborts: AbortController[] = [];
  /** Contexts of handlers still running: moved to `contexts` when their attempt is over (within one, an ask is the attempt's own input_required). */
  const kept: ServerContext[] = [];
  const finished = new WeakSet<ServerContext>();
  const gate = (what: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const g: Gate = { what, done: false, resolve: () => ((g.done = true), resolve()), reject: (e) => ((g.done = true), reject(e)) };
      gates.push(g);
      count(`gate ${what}`);
    });

  // --- the task store: in some runs each write waits on a gate (SEP-2663: CreateTaskResult only once the task is durably created), which may refuse it
  const records = new MemoryTaskStore();
  const gatedStore = ops.length % 4 < 2;
  const storeWrite = async (what: string, write: () => void): Promise<void> => {
    await gate(`store ${what}`).catch(() => {
      throw new Error(`fuzz store refused ${what}`);
    });
    write();
  };
  const store: TaskStore = gatedStore
    ? {
        get: (o, id) => records.get(o, id),
        list: (o) => records.list(o),
        put: (o, r) => storeWrite("put", () => records.put(o, r)),
        delete: (o, id) => storeWrite("delete", () => records.delete(o, id)),
      }
    : records;

  // --- the server
  const server = new McpServer({ name: "fuzz-server", version: "1" }, {
    clock,
    wallClock: () => clock.now(),
    requestState: PLAIN_STATE,
    onError: (e) => void hookErrors.push(e),
    tasks: { ...TASK_TTL, store, cooperativeCancel: ops.length % 3 === 0 },
    // Modern results with a caching hint (half the runs) or none (immediately stale).
    session: { cacheTtlMs: ops.length % 2 === 0 ? 0 : 5000 },
  });
  /** Registers a tool whose context is kept past its call (an application that holds on to one). */
  const tool = (name: string, config: ToolConfig, run: (a: JsonObject, ctx: ServerContext) => Promise<ReturnType<typeof ok>>): void => {
    server.tool(name, config, async (a, ctx) => {
      kept.push(ctx);
      try {
        return await run(a, ctx);
      } finally {
        finished.add(ctx);
      }
    });
  };
  server.tool("fast", {}, (_a, ctx) => (contexts.push(ctx), ok("fast")));
  tool("slow", { annotations: { readOnlyHint: true } }, async (_a, ctx) => {
    await gate("tool slow");
    return ok("slow");
  });
  tool("slow-progress", {}, async (_a, ctx) => {
    ctx.progress(1, 3);
    await gate("tool slow-progress 1");
    ctx.progress(2, 3);
    await gate("tool slow-progress 2");
    return ok("slow-progress");
  });
  tool("elicit", {}, async (_a, ctx) => {
    const r = await ctx.elicit({ mode: "form", message: "x?", requestedSchema: { type: "object", properties: { x: { type: "string" } } } });
    return ok(`elicit ${r.action}`);
  });
  tool("sample", {}, async (_a, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
    return ok(`sample ${r.model}`);
  });
  tool("slow-elicit", {}, async (_a, ctx) => {
    await gate("tool slow-elicit");
    const r = await ctx.elicit({ mode: "form", message: "y?", requestedSchema: { type: "object", properties: { x: { type: "string" } } } });
    return ok(`slow-elicit ${r.action}`);
  });
  tool("elicit-abortable", {}, async (_a, ctx) => {
    const ac = new AbortController();
    serverAborts.push(ac);
    const r = await ctx.elicit({ mode: "form", message: "z?", requestedSchema: { type: "object", properties: { x: { type: "string" } } } }, { signal: ac.signal, timeoutMs: 3000 });
    return ok(`elicit-abortable ${r.action}`);
  });
  // Tasks: a tool that waits, one that must be a task, one asking the client inside its task
  // (2025-11-25: on the tasks/result stream; extension: input_required), one sampling the
  // client as a task of the client's own (2025-11-25 receiveTasks), one with progress.
  tool("task-opt", { execution: { taskSupport: "optional" } }, async () => {
    await gate("task opt");
    return ok("task-opt");
  });
  tool("task-req", { execution: { taskSupport: "required" } }, async () => {
    await gate("task req");
    return ok("task-req");
  });
  tool("task-elicit", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ mode: "form", message: "t?", requestedSchema: { type: "object", properties: { x: { type: "string" } } } });
    return ok(`task-elicit ${r.action}`);
  });
  tool("task-sample", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5, task: { ttl: 20_000 } });
    return ok(`task-sample ${r.model}`);
  });
  tool("task-elicit-task", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ mode: "form", message: "u?", requestedSchema: { type: "object", properties: { x: { type: "string" } } }, task: { ttl: 15_000 } });
    return ok(`task-elicit-task ${r.action}`);
  });
  tool("task-progress", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    ctx.progress(1, 2);
    await gate("task progress");
    ctx.progress(2, 2);
    return ok("task-progress");
  });
  for (const uri of URIS) server.resource(uri, { name: uri }, () => ({ contents: [{ uri, text: uri }] }));
  server.prompt("p0", {}, () => ({ messages: [] }));
  /** Prompts and resources registered and removed as the run goes (list_changed for each list). */
  const prompts = new Map<string, { remove(): void }>([["p0", { remove() {} }]]);
  const resources = new Map<string, { remove(): void }>(URIS.map((u) => [u, { remove() {} }]));
  const dynamic = new Map<string, { remove(): void }>();
  let dynamicSeq = 0;

  // --- the client
  const client = new McpClient(
    { name: "fuzz-client", version: "1" },
    {
      clock,
      onError: (e) => void hookErrors.push(e),
      session: { versions: modern ? ["2026-07-28"] : ["2025-11-25"], requestTimeoutMs: 10_000 },
      // The extension's tasks (2026-07-28); a 2025-11-25 client receives the server's tasks.
      ...(modern ? { tasks: true } : { receiveTasks: TASK_TTL }),
      listChanged: {
        tools: { debounceMs: 300, onChanged: (error, tools) => void (watched = error !== null ? `failed: ${error.message}` : tools?.map((t) => t.name).sort()) },
        prompts: { debounceMs: 100, onChanged: (error, prompts) => void (watchedPrompts = error !== null ? `failed: ${error.message}` : prompts?.map((t) => t.name).sort()) },
        resources: { debounceMs: 0, onChanged: (error, resources) => void (watchedResources = error !== null ? `failed: ${error.message}` : resources?.map((t) => t.uri).sort()) },
      },
      handlers: {
        elicitation: async () => {
          await gate("client elicitation");
          const k = answers++ % 3;
          return k === 0 ? { action: "accept", content: { x: "y" } } : { action: k === 1 ? "decline" : "cancel" };
        },
        sampling: async () => {
          await gate("client sampling");
          return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
        },
      },
    },
  );
  let answers = 0;
  /** The tool names the client's listChanged watcher last handed over. */
  let watched: string[] | string | undefined;
  let watchedPrompts: string[] | string | undefined;
  let watchedResources: string[] | string | undefined;
  let changedOthers = false;
  let serverClosed = false;
  /** The client heard its connection close: every call settling from then on fails -32000. */
  let closeHeard = false;
  let changed = false;
  const drains: Promise<void>[] = [];
  let drained = 0;
  let clientClosed = false;
  const clientCloseReasons: string[] = [];
  client.onClose((reason) => {
    clientCloseReasons.push(reason);
    if (TRACE.on) console.log(`t=${clock.now()} client onClose: ${reason}`);
  });

  // --- the carrier
  let handler: HttpHandler | undefined;
  let serverEndpoint: Endpoint | undefined;
  let sessionId: string | undefined;
  const openBodies = new Set<number>();
  let bodySeq = 0;
  const serverEndpoints: Endpoint[] = [];
  if (!http) {
    const [s, c] = createMemoryPair({ onSend: (from, text) => void wire.push({ dir: from === 0 ? "s2c" : "c2s", at: "send", session: "", msg: JSON.parse(text) }) });
    // Each end, with what it receives put on the wire tap.
    const tapped = (end: Transport, dir: "c2s" | "s2c"): Transport => ({
      send: (t) => end.send(t),
      onMessage: (fn) => end.onMessage((text, local) => {
        wire.push({ dir, at: "recv", session: "", msg: JSON.parse(text) });
        fn(text, local);
      }),
      onClose: (fn) => end.onClose(fn),
      close: () => end.close(),
    });
    serverEndpoint = server.connect(tapped(s, "c2s"));
    serverEndpoints.push(serverEndpoint);
    await client.connect(tapped(c, "s2c"));
  } else {
    const h = createHttpHandler({
      clock,
      createSession: server.httpSession(),
      onDiagnostic: () => {},
      ...(oldSse ? { path: "/mcp", httpSse: { path: "/sse", messagesPath: "/messages" } } : {}),
    });
    handler = h;
    const tapBody = (res: Response, session0: string): Response => {
      let session = session0;
      if (res.body === null) return res;
      const type = res.headers.get("content-type") ?? "";
      // A pass-through, not a tee: the client cancelling its body must reach the server (a
      // tee cancels its source only once both branches have; the tap's never does), as
      // the old transport's session ends with its stream.
      const source = res.body.getReader();
      const n = ++bodySeq;
      openBodies.add(n);
      const dec = createSseDecoder();
      const chunks: Uint8Array[] = [];
      let over = false;
      const finish = (): void => {
        if (over) return;
        over = true;
        openBodies.delete(n);
        if (chunks.length === 0) return;
        const v = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        for (const m of Array.isArray(v) ? v : [v]) wire.push({ dir: "s2c", at: "send", session: `${session}#b${n}`, msg: m });
      };
      const observe = (value: Uint8Array): void => {
        if (!type.startsWith("text/event-stream")) return void chunks.push(value);
        for (const o of feedSse(dec, value)) {
          // The old transport's stream opens with the endpoint its POSTs go to, which names the session.
          if (o.type === "event" && o.event === "endpoint") {
            const sid = new URL(o.data, URL_).searchParams.get("sessionId") ?? "";
            sessionId = sid;
            const e = h.session(sid);
            if (e !== undefined && !serverEndpoints.includes(e)) serverEndpoints.push(e);
            session = sid;
            continue;
          }
          if (o.type === "event" && o.data !== "") wire.push({ dir: "s2c", at: "send", session: `${session}#${o.id || `b${n}`}`, msg: JSON.parse(o.data) });
        }
      };
      const theirs = new ReadableStream<Uint8Array>({
        async pull(ctl) {
          let r: ReadableStreamReadResult<Uint8Array>;
          try {
            r = await source.read();
          } catch (e) {
            finish();
            return ctl.error(e);
          }
          if (r.done) {
            finish();
            ctl.close();
          } else {
            observe(r.value);
            ctl.enqueue(r.value);
          }
        },
        cancel(reason) {
          finish();
          return source.cancel(reason);
        },
      });
      return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
    const fetchFn = async (input: string, init: RequestInit): Promise<Response> => {
      const req = new Request(input, init);
      const sid = req.headers.get("mcp-session-id") ?? new URL(req.url).searchParams.get("sessionId") ?? "";
      if (req.method === "POST") {
        const text = await req.clone().text();
        try {
          const v = JSON.parse(text);
          for (const m of Array.isArray(v) ? v : [v]) wire.push({ dir: "c2s", at: "send", session: sid, msg: m });
        } catch {
          // not ours to judge here
        }
      }
      const res = await h(req);
      if (TRACE.on) console.log(`t=${clock.now()} ${req.method} ${sid} last-event-id=${req.headers.get("last-event-id")} -> ${res.status}`);
      const session = res.headers.get("mcp-session-id") ?? sid;
      if (session !== "" && !modern && !oldSse) {
        sessionId = session;
        const e = h.session(session);
        if (e !== undefined && !serverEndpoints.includes(e)) serverEndpoints.push(e);
      }
      return tapBody(res, session);
    };
    const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
      new Promise<void>((resolve) => {
        const t = clock.schedule(clock.now() + ms, done);
        function done(): void {
          clock.cancel(t);
          signal.removeEventListener("abort", done);
          resolve();
        }
        if (signal.aborted) return done();
        signal.addEventListener("abort", done, { once: true });
      });
    await client.connect(httpClientTransport(oldSse ? SSE_URL : URL_, { fetch: fetchFn, sleep }));
  }

  // --- the calls
  let callSeq = 0;
  const track = (what: string, p: Promise<unknown>, abort?: AbortController): void => {
    const c: Call = { n: ++callSeq, what, settled: 0, afterClientClose: false, afterCloseHeard: false, abort };
    calls.push(c);
    p.then(
      () => {
        c.settled++;
        c.outcome = { ok: true };
        c.afterClientClose = clientClosed;
        c.afterCloseHeard = closeHeard;
      },
      (error: unknown) => {
        if (TRACE.on) console.log(`t=${clock.now()} call ${c.n} ${what} rejected: ${(error as Error).message}`);
        c.settled++;
        c.outcome = { ok: false, error };
        if (WATCH.code !== undefined && (error as McpError).code === WATCH.code) WATCH.seen.push(`${mode} ${what}: ${(error as Error).message}`);
        c.afterClientClose = clientClosed;
        c.afterCloseHeard = closeHeard;
      },
    );
  };
  /** Task ids the client learned (from a CreateTaskResult or an extension task), in order. */
  const taskIds: string[] = [];
  const learn = (r: JsonObject): void => {
    const id = client.taskIdOf(r);
    if (id !== undefined && !taskIds.includes(id)) taskIds.push(id);
  };
  /** A known task (b < 0.9), or one nobody made. */
  const someTask = (a: number, b: number): string => (taskIds.length > 0 && b < 0.9 ? taskIds[Math.floor(a * taskIds.length)] : "no-such-task");
  /** Per-call options from one number: a signal (kept for `abort`), a timeout. */
  const callOptions = (b: number): { ac?: AbortController; options: { signal?: AbortSignal; timeoutMs?: number } } => {
    const ac = b < 0.3 ? new AbortController() : undefined;
    const timeoutMs = b > 0.75 ? 1000 + Math.floor(b * 20_000) : undefined;
    return { ac, options: { signal: ac?.signal, timeoutMs } };
  };
  const subs: { close(): void; ended: Promise<unknown> }[] = [];
  const subEnds: { settled: boolean }[] = [];

  const settle = async (n: number): Promise<void> => {
    await turns(n);
    // Settled from a turn after the client heard the close on (what settled meanwhile may
    // have been decided before: a timeout fired by the clock before the close was delivered).
    if (clientCloseReasons.length > 0) closeHeard = true;
    // A context whose handler is over, a turn ago: its attempt is over too (until the
    // handler's promise has been taken, an ask joins the attempt, by design).
    for (const c of kept.splice(0)) (finished.has(c) ? contexts : kept).push(c);
  };

  for (const [kind, a, b] of ops) {
    log.push(`${kind} ${a.toFixed(3)} ${b.toFixed(3)}`);
    if (TRACE.on) console.log(`t=${clock.now()} op ${kind} ${a.toFixed(3)} ${b.toFixed(3)} server phases ${serverEndpoints.map((e) => e.state.phase.name)}`);
    switch (kind) {
      case "call": {
        const tool = TOOLS[Math.floor(a * TOOLS.length)];
        const withSignal = b < 0.4;
        const ac = withSignal ? new AbortController() : undefined;
        const timeoutMs = b > 0.8 ? 1000 + Math.floor(b * 5000) : undefined;
        const onProgress = b > 0.3 && b < 0.7 ? () => {} : undefined;
        track(`callTool ${tool}`, client.callTool(tool, {}, { signal: ac?.signal, timeoutMs, onProgress }), ac);
        break;
      }
      case "abort": {
        const open = calls.filter((c) => c.abort !== undefined && !c.abort.signal.aborted);
        if (open.length > 0) open[Math.floor(a * open.length)].abort!.abort("fuzz abort");
        break;
      }
      case "release": {
        const open = gates.filter((g) => !g.done);
        if (open.length > 0) {
          const g = open[Math.floor(a * open.length)];
          if (b < 0.8) g.resolve();
          else g.reject(b < 0.9 ? new Error("gate failed") : new McpError({ code: -32602, message: "gate refused" }));
        }
        break;
      }
      case "settle":
        await settle(1 + Math.floor(a * 4));
        break;
      case "advance":
        // As a runtime fires timers: from the event loop, once the microtasks queued before
        // have run, and with them run again after each (ManualClock.advance alone fires
        // them back to back, before anything queued: an order no runtime has). `b` says how
        // much else runs between timers (in-process streams move on with turns).
        await turns(1);
        await clock.runUntil(clock.now() + pick(() => a, [10, 100, 1000, 5000, 11_000, 60_000]), () => turns(b < 0.5 ? 1 : 3));
        break;
      case "register": {
        const name = `dyn-${++dynamicSeq}`;
        dynamic.set(name, server.tool(name, {}, () => ok(name)));
        changed = true;
        break;
      }
      case "register-prompt": {
        const name = `pr-${++dynamicSeq}`;
        prompts.set(name, server.prompt(name, {}, () => ({ messages: [] })));
        changedOthers = true;
        break;
      }
      case "register-resource": {
        const uri = `res://dyn-${++dynamicSeq}`;
        resources.set(uri, server.resource(uri, { name: uri }, () => ({ contents: [{ uri, text: uri }] })));
        changedOthers = true;
        break;
      }
      case "unregister-other": {
        // Never the static ones the run subscribes to (res://a, res://b) nor p0 (the prompts capability stays declared).
        const all = [...prompts.keys(), ...resources.keys()].filter((k) => k !== "p0" && !URIS.includes(k));
        if (all.length > 0) {
          const k = all[Math.floor(a * all.length)];
          const m = prompts.has(k) ? prompts : resources;
          m.get(k)!.remove();
          m.delete(k);
          changedOthers = true;
        }
        break;
      }
      case "unregister": {
        const names = [...dynamic.keys()];
        if (names.length > 0) {
          const name = names[Math.floor(a * names.length)];
          dynamic.get(name)!.remove();
          dynamic.delete(name);
          changed = true;
        }
        break;
      }
      case "listen": {
        const uri = URIS[Math.floor(a * URIS.length)];
        const p = client.listen({ toolsListChanged: b < 0.5, resourceSubscriptions: [uri] }, () => {});
        track(`listen ${uri}`, p);
        p.then(
          (s) => {
            subs.push(s);
            const e = { settled: false };
            subEnds.push(e);
            void s.ended.then(() => void (e.settled = true));
          },
          () => {},
        );
        break;
      }
      case "unlisten":
        if (subs.length > 0) subs.splice(Math.floor(a * subs.length), 1)[0].close();
        break;
      case "updated":
        server.notifyResourceUpdated(URIS[Math.floor(a * URIS.length)]);
        break;
      case "ping":
        if (!modern) track("ping", client.ping());
        break;
      case "client-close":
        await settle(2);
        clientClosed = true;
        client.close();
        break;
      case "server-close":
        serverClosed = true;
        if (handler === undefined) {
          await settle(2);
          server.close();
        }
        else if (b < 0.5) void handler.close();
        else drains.push(handler.close({ drainMs: pick(() => a, [0, 1000, 20_000, Infinity]) }).then(() => void drained++));
        break;
      case "drop-streams":
        handler?.closeConnections();
        break;
      case "terminate":
        if (handler !== undefined && sessionId !== undefined) handler.terminate(sessionId, "fuzz terminate");
        break;
      case "stale-ctx": {
        // A context kept past its request: what the application does with it must settle, and never reach the wire as progress for an answered request.
        if (contexts.length > 0) {
          const ctx = contexts[Math.floor(a * contexts.length)];
          if (b < 0.3) ctx.progress(9, 10);
          else if (b < 0.5) ctx.log("info", "late");
          else if (b < 0.8) track("stale elicit", ctx.elicit({ mode: "form", message: "late?", requestedSchema: { type: "object", properties: {} } }, { timeoutMs: 2000 }));
          else track("stale sample", ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "late" } }], maxTokens: 5 }));
        }
        break;
      }
      case "abort-server": {
        const open = serverAborts.filter((c) => !c.signal.aborted);
        if (open.length > 0) open[Math.floor(a * open.length)].abort("server abort");
        break;
      }
      case "task-call": {
        const name = TASK_TOOLS[Math.floor(a * TASK_TOOLS.length)];
        const ttl = pick(() => (b * 7) % 1, [undefined, 0, 500, 5000, 30_000, 100_000]);
        const { ac, options } = callOptions(b);
        const p = client.callToolAsTask(name, {}, { ttl }, { ...options, onProgress: b > 0.5 ? () => {} : undefined });
        track(`callToolAsTask ${name}`, p, ac);
        p.then(learn, () => {});
        break;
      }
      case "task-plain": {
        // Under the extension the server makes a task of it and callTool waits for it.
        const name = TASK_TOOLS[Math.floor(a * TASK_TOOLS.length)];
        const { ac, options } = callOptions(b);
        track(`callTool ${name}`, client.callTool(name, {}, options), ac);
        break;
      }
      case "task-get": {
        const id = someTask(a, b);
        track(`getTask ${id}`, client.getTask(id));
        break;
      }
      case "task-result": {
        const id = someTask(a, b);
        const { ac, options } = callOptions((b * 3) % 1);
        track(`waitForTask ${id}`, modern || b < 0.5 ? client.waitForTask(id, options) : client.getTaskResult(id, options), ac);
        break;
      }
      case "task-cancel": {
        const id = someTask(a, b);
        track(`cancelTask ${id}`, client.cancelTask(id));
        break;
      }
      case "task-list":
        if (!modern) track("listTasks", client.listTasks().then((r) => r.tasks.forEach((t) => learn({ task: t }))));
        break;
      case "delete":
        if (handler !== undefined && sessionId !== undefined && !oldSse) {
          void handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } })).then((r) => r.body?.cancel());
        }
        break;
    }
  }

  /**
   * The task invariants, at quiescence: every task is terminal or waits on its requestor
   * (input_required); a terminal one's tasks/result (extension: tasks/get) answers at once;
   * no 2025-11-25 task is visible to another session; after their TTL the runtimes hold
   * nothing.
   */
  const checkTasks = async (): Promise<void> => {
    const received = (client as any).features.tasksReceived as TaskRuntime | undefined;
    const runtimes: [string, TaskRuntime | undefined, boolean][] = [
      ["server", server.tasks, !serverClosed],
      // A client's own runtime stops with its connection (its tasks' work too), the table as it was.
      ["client", received, !clientClosed && clientCloseReasons.length === 0],
    ];
    for (const [who, rt, up] of runtimes) {
      if (rt === undefined || !up) continue;
      for (const rec of Object.values(tableOf(rt).tasks)) {
        count(`${mode} task ${who} ${rec.status}`);
        assert.ok(isTerminalStatus(rec.status) || rec.status === "input_required", `${who} task ${rec.taskId} is ${rec.status} at quiescence, with nothing left to wait for${where()}`);
      }
    }
    // A terminal task's outcome is there at once: no time passes for these.
    if (!clientClosed && !serverClosed && !closeHeard) {
      const probes: { id: string; settled: boolean; outcome?: string }[] = [];
      for (const id of taskIds) {
        const rec = server.tasks!.get(id);
        if (rec === undefined || !isTerminalStatus(rec.status)) continue;
        const probe: { id: string; settled: boolean; outcome?: string } = { id, settled: false };
        probes.push(probe);
        const p = modern ? client.getTask(id).then((t) => assert.equal(t.status, rec.status, `tasks/get of terminal task ${id}${where()}`)) : client.getTaskResult(id);
        p.then(
          () => ((probe.settled = true), (probe.outcome = "ok")),
          (e: unknown) => ((probe.settled = true), (probe.outcome = e instanceof McpError ? String(e.code) : String(e))),
        );
      }
      await settle(12);
      for (const p of probes) {
        assert.ok(p.settled, `tasks/result of terminal task ${p.id} did not answer at once${where()}`);
        assert.ok(p.outcome === "ok" || SPEC_CODES.has(Number(p.outcome)), `tasks/result of terminal task ${p.id}: ${p.outcome}${where()}`);
        count(`${mode} terminal-result ${p.outcome}`);
      }
    }
    // Another session sees none of this one's 2025-11-25 tasks (the extension's belong to no session, by design).
    if (!modern && !serverClosed) {
      const other = new McpClient({ name: "other", version: "1" }, { clock, session: { versions: ["2025-11-25"], requestTimeoutMs: 10_000 } });
      if (handler === undefined) {
        const [s, c] = createMemoryPair();
        server.connect(s);
        await other.connect(c);
      } else {
        const h = handler;
        await other.connect(httpClientTransport(oldSse ? SSE_URL : URL_, { fetch: async (input: string, init: RequestInit) => h(new Request(input, init)) }));
      }
      const ids = Object.keys(tableOf(server.tasks!).tasks);
      const seen: string[] = [];
      const probes = [
        other.listTasks().then((r) => void seen.push(...r.tasks.map((t) => `listed ${t.taskId}`)), (e) => void seen.push(`tasks/list ${e}`)),
        ...ids.flatMap((id) =>
          [other.getTask(id), other.getTaskResult(id, { timeoutMs: 1000 }), other.cancelTask(id)].map((p, i) =>
            p.then(
              () => void seen.push(`${["tasks/get", "tasks/result", "tasks/cancel"][i]} ${id} answered`),
              (e) => void (e instanceof McpError && e.code === -32602 ? undefined : seen.push(`${["tasks/get", "tasks/result", "tasks/cancel"][i]} ${id}: ${e}`)),
            ),
          ),
        ),
      ];
      let all = false;
      void Promise.all(probes).then(() => void (all = true));
      for (let i = 0; i < 50 && !all; i++) await settle(2);
      other.close();
      await settle(4);
      assert.ok(all, `another session's task probes did not settle${where()}`);
      assert.deepEqual(seen, [], `another session saw this one's tasks${where()}`);
      count(`${mode} isolation probed ${ids.length}`);
    }
    // Past every TTL the runtimes hold nothing.
    await clock.runUntil(clock.now() + TASK_TTL.maxTtlMs + 1000, () => turns(2));
    // The store's writes of what expired (a gated store's wait on the run's gates).
    for (let i = 0; i < 10; i++) {
      for (const g of gates) if (!g.done) g.resolve();
      await settle(4);
      if (TRACE.on) console.log(`ttl round ${i}: open gates ${gates.filter((g) => !g.done).map((g) => g.what)}, store ${records.records().map((r) => r.status)}`);
    }
    await settle(6);
    if (!serverClosed && !hookErrors.some((e) => /fuzz store refused delete/.test(String(e)))) {
      assert.deepEqual(records.records().map((r) => `${r.taskId} ${r.status}`), [], `the task store after every TTL${where()}`);
    }
    for (const [who, rt, up] of runtimes) {
      if (rt === undefined || !up) continue;
      const t = tableOf(rt);
      const r = rt as any;
      const left = {
        tasks: Object.keys(t.tasks).length,
        count: t.count,
        owners: Object.keys(t.owners).length,
        waiting: Object.keys(t.waiting).length,
        progress: Object.keys(t.progress).length,
        pending: r.pending.size,
        runs: r.runs.size,
        streams: r.streams.size,
        rounds: r.rounds.size,
        creating: r.creating.size,
        unstored: r.unstored.size,
        writing: r.writing.size,
      };
      assert.ok(Object.values(left).every((n) => n === 0), `${who} task runtime after every TTL: ${JSON.stringify(left)}${where()}`);
    }
  };

  const where = (): string => `\nops: ${log.join(" | ")}\ncalls: ${calls.map((c) => `${c.n}:${c.what}=${c.outcome === undefined ? "pending" : c.outcome.ok ? "ok" : String((c.outcome.error as Error).message)}`).join(", ")}\ngates: ${gates.filter((g) => !g.done).map((g) => g.what).join(", ")}`;

  // --- quiescence: every gate released, time past every timeout
  for (let round = 0; round < 20; round++) {
    await settle(4);
    for (const g of gates) if (!g.done) g.resolve();
    await settle(4);
    // The client's own requests too (a listChanged walk, a retry waiting on its backoff).
    const own = Object.values(client.connection?.state.outbound ?? {}).filter((r) => r.method !== "subscriptions/listen" && r.internal !== "abandoned-task").length;
    // And the server's (a task's tasks/result to the client's own task, which may wait on a GET stream the client opens again later).
    const theirs = serverEndpoints.reduce((n, e) => n + Object.values(e.state.outbound).filter((r) => r.internal !== "abandoned-task").length, 0);
    if (calls.every((c) => c.settled > 0) && gates.every((g) => g.done) && own === 0 && theirs === 0) break;
    await clock.runUntil(clock.now() + 11_000, () => turns(3));
  }
  await settle(6);
  // The client's copy of the tool list catches up with the registry (after a request, which
  // opens a legacy HTTP client's GET stream again or renews its session).
  let listed: string[] | undefined;
  if (changed && !clientClosed && !serverClosed) {
    listed = await client.listTools().then((r) => r.tools.map((t) => t.name).sort(), () => undefined);
    await clock.runUntil(clock.now() + 10_000, () => turns(3));
    await settle(4);
  }
  let listedPrompts: string[] | undefined;
  let listedResources: string[] | undefined;
  if (changedOthers && !clientClosed && !serverClosed) {
    listedPrompts = await client.listPrompts().then((r) => r.prompts.map((t) => t.name).sort(), () => undefined);
    listedResources = await client.listResources().then((r) => r.resources.map((t) => t.uri).sort(), () => undefined);
    await clock.runUntil(clock.now() + 10_000, () => turns(3));
    await settle(4);
  }
  const registry = [...TOOLS.filter((t, i) => TOOLS.indexOf(t) === i), ...TASK_TOOLS, ...dynamic.keys()].sort();

  if (TRACE.on) for (const w of wire) console.log(w.dir, w.at, w.session, JSON.stringify(w.msg).slice(0, 200));
  try {
    if (listed !== undefined) {
      assert.deepEqual(listed, registry, `tools/list at quiescence${where()}`);
      // A walk that failed is reported so, and waits for the next change (README).
      // None at all: no change reached it (they cancelled out between two flushes, or came
      // before the server had the client's notifications/initialized, when the kernel sends
      // no list_changed: the client's first tools/list, after it, has them).
      if (Array.isArray(watched)) assert.deepEqual(watched, registry, `the listChanged watcher's tools at quiescence${where()}`);
    }
    if (listedPrompts !== undefined) {
      assert.deepEqual(listedPrompts, [...prompts.keys()].sort(), `prompts/list at quiescence${where()}`);
      if (Array.isArray(watchedPrompts)) assert.deepEqual(watchedPrompts, listedPrompts, `the listChanged watcher's prompts at quiescence${where()}`);
    }
    if (listedResources !== undefined) {
      assert.deepEqual(listedResources, [...resources.keys()].sort(), `resources/list at quiescence${where()}`);
      if (Array.isArray(watchedResources)) assert.deepEqual(watchedResources, listedResources, `the listChanged watcher's resources at quiescence${where()}`);
    }
    for (const c of calls) {
      assert.equal(c.settled, 1, `call ${c.n} (${c.what}) settled ${c.settled} times${where()}`);
      const o = c.outcome!;
      if (!o.ok) {
        assert.ok(o.error instanceof McpError, `call ${c.n} (${c.what}) rejected with a non-McpError: ${String(o.error)}${where()}`);
        assert.ok(SPEC_CODES.has(o.error.code), `call ${c.n} (${c.what}) rejected with code ${o.error.code}: ${o.error.message}${where()}`);
      }
      // A 2025-11-25 client refuses a plain call of a tool it saw listed as task-only (-32601) without sending it, closed or not.
      const refusedHere = !modern && c.what === "callTool task-req" && !o.ok && (o.error as McpError).code === -32601;
      if (c.afterCloseHeard && !c.what.startsWith("stale") && !refusedHere) {
        assert.ok(!o.ok && (o.error as McpError).code === -32000, `call ${c.n} (${c.what}) settled after the client heard its connection close, with ${o.ok ? "a result" : (o.error as McpError).code}${where()}`);
      }
      // (A server's stale request is the server's: the client's close fails it as the server's transport sees it.)
      if (c.afterClientClose && !c.what.startsWith("stale") && !refusedHere) {
        assert.ok(!o.ok && (o.error as McpError).code === -32000, `call ${c.n} (${c.what}) settled after the client closed with ${o.ok ? "a result" : (o.error as McpError).code}${where()}`);
      }
    }
    // The endpoints' tables at quiescence.
    const ce = client.connection;
    if (ce !== undefined) {
      // An open subscription's listen request is the one outbound request that may stay (modern).
      // And (extension) a call given up, kept until its hard deadline to cancel the task its answer may name (by design, bounded).
      const outbound = Object.values(ce.state.outbound).filter((r) => r.method !== "subscriptions/listen" && r.internal !== "abandoned-task");
      assert.deepEqual(outbound, [], `client outbound left${where()}`);
      const listens = Object.values(ce.state.outbound).filter((r) => r.method === "subscriptions/listen").length;
      assert.equal(ce.state.inboundCount, 0, `client inbound left: ${JSON.stringify(ce.state.inbound)}${where()}`);
      assert.equal((ce as any).pending.size - listens, 0, `client pending left${where()}`);
      assert.equal((ce as any).handling.size, 0, `client handling left${where()}`);
    }
    for (const se of serverEndpoints) {
      // A legacy listen's subscriptions are the kernel's to keep while they hold.
      // A task-augmented request given up is kept to cancel its task (by design, bounded: abandonTaskRequest).
      const sent = Object.values(se.state.outbound).filter((r) => r.internal !== "abandoned-task");
      assert.deepEqual(sent, [], `server outbound left: ${JSON.stringify(se.state.outbound)}${where()}`);
      const inbound = Object.keys(se.state.inbound).filter((k) => !Object.hasOwn(se.state.subscriptions, k));
      assert.deepEqual(inbound, [], `server inbound left: ${JSON.stringify(se.state.inbound)}${where()}`);
      assert.equal((se as any).pending.size, 0, `server pending left${where()}`);
      assert.equal((se as any).handling.size, 0, `server handling left: ${[...(se as any).handling.entries()].map((e: any) => e[1].method)}${where()}`);
    }
    checkWire(wire, where);
    for (const c of calls) count(`${mode} ${c.what.split(" ")[0]} ${c.outcome!.ok ? "ok" : (c.outcome as { error: McpError }).error.code}`);
    for (const s of wire) if (s.at === "send" && typeof s.msg.method === "string") count(`${mode} wire ${s.dir} ${s.msg.method}`);
    await checkTasks();

    // --- close everything
    for (const s of subs) s.close();
    clientClosed = true;
    client.close();
    if (handler !== undefined) await handler.close();
    server.close();
    await settle(8);
    clock.advance(60_000);
    await settle(8);
    for (const e of subEnds) assert.ok(e.settled, `a subscription's ended never settled${where()}`);
    assert.equal(drained, drains.length, `a handler.close({ drainMs }) never resolved, after handler.close()${where()}`);
    assert.equal(clock.pendingTimers, 0, `${clock.pendingTimers} timers left after close${where()}`);
    assert.equal(openBodies.size, 0, `${openBodies.size} HTTP response bodies still open after close${where()}`);
    checkWire(wire, where);
    // A listChanged listen that got no acknowledgment in time goes to onError and is tried again (README).
    // And one a closed server refuses (503).
    // And the store's refusals the run made (README: the store's error reaches the server's onError).
    assert.deepEqual(hookErrors.map(String).filter((e) => !/did not acknowledge the subscription/.test(e) && !(serverClosed && /HTTP 503/.test(e)) && !/fuzz store refused/.test(e)), [], `errors reached onError${where()}`);
    assert.deepEqual(unhandled.map(String), [], `unhandled rejections${where()}`);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
}

/** Debugging: the messages of calls rejected with `WATCH.code`. */
export const WATCH: { code?: number; seen: string[] } = { seen: [] };

/** Set `TRACE.on` to print each op and the wire of a run (debugging one seed). */
export const TRACE = { on: false };

/** Counts over every run in this process, for seeing what a long run reached (`scripts/fuzz.mjs` does not print them). */
export const STATS: Record<string, number> = {};
function count(key: string): void {
  STATS[key] = (STATS[key] ?? 0) + 1;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** The wire's ledger: each request answered at most once, never after its cancellation arrived, no progress after the answer. */
function checkWire(wire: Seen[], where: () => string): void {
  for (const [dir, back] of [["c2s", "s2c"], ["s2c", "c2s"]] as const) {
    const requests = new Map<string, any>();
    const answered = new Map<string, any>();
    const cancelledAt = new Map<string, number>();
    const tokens = new Map<string, string>();
    /** Request key → the task its CreateTaskResult made; task ids seen to end. */
    const taskOf = new Map<string, string>();
    const ended = new Set<string>();
    const conn = (s: Seen): string => s.session.split("#")[0];
    wire.forEach((s, i) => {
      const m = s.msg;
      if (s.dir === dir && s.at === "send" && typeof m.method === "string" && m.id !== undefined) {
        const key = `${conn(s)}/${JSON.stringify(m.id)}`;
        requests.set(key, m);
        const token = m.params?._meta?.progressToken;
        if (token !== undefined) tokens.set(`${conn(s)}/${JSON.stringify(token)}`, key);
      }
      // The receiver's own view (memory only): the cancellation it was handed.
      if (s.dir === back && s.at === "send" && m.method === "notifications/tasks/status" && TERMINAL.has(m.params?.status)) ended.add(m.params.taskId);
      if (s.dir === dir && s.at === "recv" && m.method === "notifications/cancelled") cancelledAt.set(`${conn(s)}/${JSON.stringify(m.params?.requestId)}`, i);
      if (s.dir === back && s.at === "send" && m.method === undefined && m.id !== undefined && m.id !== null) {
        const key = `${conn(s)}/${JSON.stringify(m.id)}`;
        const prior = answered.get(key);
        // A replayed SSE event carries its first id: the same event, not a second answer.
        const replayed = prior !== undefined && /#\d+-\d+$/.test(s.session) && prior.event === s.session;
        assert.ok(prior === undefined || replayed, `${back} answered ${key} twice: ${JSON.stringify(prior?.msg)} and ${JSON.stringify(m)}${where()}`);
        answered.set(key, { msg: m, event: s.session, at: i });
        // A 2025-11-25 CreateTaskResult: the token lives on with the task, until it is seen to end.
        const created = m.result?.task?.taskId;
        if (typeof created === "string" && m.result?.task?.status !== undefined && !TERMINAL.has(m.result.task.status)) taskOf.set(key, created);
        // What tells a task ended: its status in an answer (tasks/get, tasks/cancel, tasks/result's related task) or a notification.
        const told = m.result?.taskId ?? m.result?._meta?.["io.modelcontextprotocol/related-task"]?.taskId ?? m.error?.data?._meta?.["io.modelcontextprotocol/related-task"]?.taskId;
        if (typeof told === "string" && (TERMINAL.has(m.result?.status) || m.result?.status === undefined)) ended.add(told);
        if (cancelledAt.has(key)) assert.fail(`${back} answered ${key} after it was handed its cancellation: ${JSON.stringify(m)}${where()}`);
      }
      // Progress after the answer (memory only: over HTTP the tap sees each stream apart, not their order).
      if (s.session === "" && s.dir === back && s.at === "send" && m.method === "notifications/progress") {
        const key = tokens.get(`/${JSON.stringify(m.params?.progressToken)}`);
        const task = key === undefined ? undefined : taskOf.get(key);
        if (task !== undefined && !ended.has(task)) return;
        if (key !== undefined && answered.has(key)) assert.fail(`${back} sent progress for ${key} after answering it: ${JSON.stringify(m)}${where()}`);
      }
    });
  }
}

/** Whole sessions of McpServer and McpClient, interleaved at random. */
export const interleave: FuzzTarget<InterleaveInput> = {
  name: "interleave",
  spec: "basic/index + cancellation + progress + lifecycle + transports + tasks, whole API sessions: every call settles once, nothing leaks",
  generate,
  check: runInterleaving,
};
