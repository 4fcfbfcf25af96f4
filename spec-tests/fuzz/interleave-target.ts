/**
 * Fuzz target for whole sessions of the product API: a real McpServer and McpClient, over
 * the memory pair or in-process Streamable HTTP (the handler's fetch function as the
 * client's `fetch`), driven through random interleavings of what an application and a
 * network do.
 *
 * Spec: 2025-11-25 `basic/index` (every request gets one response), `basic/utilities/
 * cancellation` (a cancelled request is not answered), `basic/utilities/progress` (no
 * progress after the operation completed), `basic/lifecycle` (closing fails what is
 * pending), `basic/transports` (Streamable HTTP resumption, DELETE); draft `basic/
 * versioning`, `mrtr`, `subscriptions/listen` in the modern modes.
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
 * terminated or DELETEd (renewed by the client on its next request).
 *
 * Invariants, checked at quiescence (every gate released, the clock run past every
 * timeout), then again after closing everything:
 * - every call the application made settles once, with a result or an McpError of a code
 *   the spec defines; once the client has heard its connection close (a turn after
 *   `onClose`), whatever settles is a -32000 rejection;
 * - no request is answered twice on the wire (a replayed SSE event is the same event), nor
 *   answered after its receiver was handed its cancellation, nor given progress after its
 *   answer (the last two over memory, where the tap sees one order);
 * - the endpoints' tables (kernel inbound and outbound, served and pending requests) are
 *   empty, an open subscription's listen excepted;
 * - while both sides are up, tools/list and the client's listChanged copy match the registry;
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

export type Mode = "memory" | "memory-modern" | "http" | "http-modern";
export const MODES: Mode[] = ["memory", "memory-modern", "http", "http-modern"];
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
];
const OPS_TOTAL = OPS.reduce((n, [, w]) => n + w, 0);

/** Codes a call may reject with: the JSON-RPC ones and those MCP defines. */
const SPEC_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32002, -32020, -32021, -32022, -32042, -32001, -32000, -32800]);
const TOOLS = ["fast", "slow", "slow-progress", "elicit", "sample", "slow-elicit", "elicit-abortable", "fast"];
const URIS = ["res://a", "res://b"];
const URL_ = "http://127.0.0.1/mcp";

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
    });

  // --- the server
  const server = new McpServer({ name: "fuzz-server", version: "1" }, {
    clock,
    wallClock: () => clock.now(),
    requestState: PLAIN_STATE,
    onError: (e) => void hookErrors.push(e),
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
  for (const uri of URIS) server.resource(uri, { name: uri }, () => ({ contents: [{ uri, text: uri }] }));
  const dynamic = new Map<string, { remove(): void }>();
  let dynamicSeq = 0;

  // --- the client
  const client = new McpClient(
    { name: "fuzz-client", version: "1" },
    {
      clock,
      onError: (e) => void hookErrors.push(e),
      session: { versions: modern ? ["2026-07-28"] : ["2025-11-25"], requestTimeoutMs: 10_000 },
      listChanged: { tools: { debounceMs: 300, onChanged: (error, tools) => void (watched = error !== null ? `failed: ${error.message}` : tools?.map((t) => t.name).sort()) } },
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
    const tapped: Transport = {
      send: (t) => s.send(t),
      onMessage: (fn) => s.onMessage((text, local) => {
        wire.push({ dir: "c2s", at: "recv", session: "", msg: JSON.parse(text) });
        fn(text, local);
      }),
      onClose: (fn) => s.onClose(fn),
      close: () => s.close(),
    };
    serverEndpoint = server.connect(tapped);
    serverEndpoints.push(serverEndpoint);
    const clientEnd: Transport = {
      send: (t) => c.send(t),
      onMessage: (fn) => c.onMessage((text, local) => {
        wire.push({ dir: "s2c", at: "recv", session: "", msg: JSON.parse(text) });
        fn(text, local);
      }),
      onClose: (fn) => c.onClose(fn),
      close: () => c.close(),
    };
    await client.connect(clientEnd);
  } else {
    const h = createHttpHandler({
      clock,
      createSession: server.httpSession(),
      onDiagnostic: () => {},
    });
    handler = h;
    const tapBody = (res: Response, session: string): Response => {
      if (res.body === null) return res;
      const type = res.headers.get("content-type") ?? "";
      const [mine, theirs] = res.body.tee();
      const n = ++bodySeq;
      openBodies.add(n);
      void (async () => {
        const reader = mine.getReader();
        const dec = createSseDecoder();
        const chunks: Uint8Array[] = [];
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (type.startsWith("text/event-stream")) {
              for (const o of feedSse(dec, value)) if (o.type === "event" && o.data !== "") wire.push({ dir: "s2c", at: "send", session: `${session}#${o.id ?? `b${n}`}`, msg: JSON.parse(o.data) });
            } else chunks.push(value);
          }
          if (chunks.length > 0) {
            const text = Buffer.concat(chunks).toString("utf8");
            const v = JSON.parse(text);
            for (const m of Array.isArray(v) ? v : [v]) wire.push({ dir: "s2c", at: "send", session: `${session}#b${n}`, msg: m });
          }
        } catch {
          // a body cancelled by its reader: the tee's branch errors or ends
        } finally {
          openBodies.delete(n);
        }
      })();
      return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
    const fetchFn = async (input: string, init: RequestInit): Promise<Response> => {
      const req = new Request(input, init);
      const sid = req.headers.get("mcp-session-id") ?? "";
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
      if (TRACE.on && req.method !== "POST") console.log(`t=${clock.now()} ${req.method} last-event-id=${req.headers.get("last-event-id")} -> ${res.status}`);
      const session = res.headers.get("mcp-session-id") ?? sid;
      if (session !== "" && !modern) {
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
    await client.connect(httpClientTransport(URL_, { fetch: fetchFn, sleep }));
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
        c.afterClientClose = clientClosed;
        c.afterCloseHeard = closeHeard;
      },
    );
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
      case "delete":
        if (handler !== undefined && sessionId !== undefined) {
          void handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } })).then((r) => r.body?.cancel());
        }
        break;
    }
  }

  const where = (): string => `\nops: ${log.join(" | ")}\ncalls: ${calls.map((c) => `${c.n}:${c.what}=${c.outcome === undefined ? "pending" : c.outcome.ok ? "ok" : String((c.outcome.error as Error).message)}`).join(", ")}\ngates: ${gates.filter((g) => !g.done).map((g) => g.what).join(", ")}`;

  // --- quiescence: every gate released, time past every timeout
  for (let round = 0; round < 20; round++) {
    await settle(4);
    for (const g of gates) if (!g.done) g.resolve();
    await settle(4);
    // The client's own requests too (a listChanged walk, a retry waiting on its backoff).
    const own = Object.values(client.connection?.state.outbound ?? {}).filter((r) => r.method !== "subscriptions/listen").length;
    if (calls.every((c) => c.settled > 0) && gates.every((g) => g.done) && own === 0) break;
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
  const registry = [...TOOLS.filter((t, i) => TOOLS.indexOf(t) === i), ...dynamic.keys()].sort();

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
    for (const c of calls) {
      assert.equal(c.settled, 1, `call ${c.n} (${c.what}) settled ${c.settled} times${where()}`);
      const o = c.outcome!;
      if (!o.ok) {
        assert.ok(o.error instanceof McpError, `call ${c.n} (${c.what}) rejected with a non-McpError: ${String(o.error)}${where()}`);
        assert.ok(SPEC_CODES.has(o.error.code), `call ${c.n} (${c.what}) rejected with code ${o.error.code}: ${o.error.message}${where()}`);
      }
      if (c.afterCloseHeard && !c.what.startsWith("stale")) {
        assert.ok(!o.ok && (o.error as McpError).code === -32000, `call ${c.n} (${c.what}) settled after the client heard its connection close, with ${o.ok ? "a result" : (o.error as McpError).code}${where()}`);
      }
      // (A server's stale request is the server's: the client's close fails it as the server's transport sees it.)
      if (c.afterClientClose && !c.what.startsWith("stale")) {
        assert.ok(!o.ok && (o.error as McpError).code === -32000, `call ${c.n} (${c.what}) settled after the client closed with ${o.ok ? "a result" : (o.error as McpError).code}${where()}`);
      }
    }
    // The endpoints' tables at quiescence.
    const ce = client.connection;
    if (ce !== undefined) {
      // An open subscription's listen request is the one outbound request that may stay (modern).
      const outbound = Object.values(ce.state.outbound).filter((r) => r.method !== "subscriptions/listen");
      assert.deepEqual(outbound, [], `client outbound left${where()}`);
      const listens = Object.keys(ce.state.outbound).length - outbound.length;
      assert.equal(ce.state.inboundCount, 0, `client inbound left: ${JSON.stringify(ce.state.inbound)}${where()}`);
      assert.equal((ce as any).pending.size - listens, 0, `client pending left${where()}`);
      assert.equal((ce as any).handling.size, 0, `client handling left${where()}`);
    }
    for (const se of serverEndpoints) {
      // A legacy listen's subscriptions are the kernel's to keep while they hold.
      assert.equal(se.state.outboundCount, 0, `server outbound left: ${JSON.stringify(se.state.outbound)}${where()}`);
      const inbound = Object.keys(se.state.inbound).filter((k) => !Object.hasOwn(se.state.subscriptions, k));
      assert.deepEqual(inbound, [], `server inbound left: ${JSON.stringify(se.state.inbound)}${where()}`);
      assert.equal((se as any).pending.size, 0, `server pending left${where()}`);
      assert.equal((se as any).handling.size, 0, `server handling left: ${[...(se as any).handling.entries()].map((e: any) => e[1].method)}${where()}`);
    }
    checkWire(wire, where);
    for (const c of calls) count(`${mode} ${c.what.split(" ")[0]} ${c.outcome!.ok ? "ok" : (c.outcome as { error: McpError }).error.code}`);
    for (const s of wire) if (s.at === "send" && typeof s.msg.method === "string") count(`${mode} wire ${s.dir} ${s.msg.method}`);

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
    assert.deepEqual(hookErrors.map(String).filter((e) => !/did not acknowledge the subscription/.test(e) && !(serverClosed && /HTTP 503/.test(e))), [], `errors reached onError${where()}`);
    assert.deepEqual(unhandled.map(String), [], `unhandled rejections${where()}`);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
}

/** Set `TRACE.on` to print each op and the wire of a run (debugging one seed). */
export const TRACE = { on: false };

/** Counts over every run in this process, for seeing what a long run reached (`scripts/fuzz.mjs` does not print them). */
export const STATS: Record<string, number> = {};
function count(key: string): void {
  STATS[key] = (STATS[key] ?? 0) + 1;
}

/** The wire's ledger: each request answered at most once, never after its cancellation arrived, no progress after the answer. */
function checkWire(wire: Seen[], where: () => string): void {
  for (const [dir, back] of [["c2s", "s2c"], ["s2c", "c2s"]] as const) {
    const requests = new Map<string, any>();
    const answered = new Map<string, any>();
    const cancelledAt = new Map<string, number>();
    const tokens = new Map<string, string>();
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
      if (s.dir === dir && s.at === "recv" && m.method === "notifications/cancelled") cancelledAt.set(`${conn(s)}/${JSON.stringify(m.params?.requestId)}`, i);
      if (s.dir === back && s.at === "send" && m.method === undefined && m.id !== undefined && m.id !== null) {
        const key = `${conn(s)}/${JSON.stringify(m.id)}`;
        const prior = answered.get(key);
        // A replayed SSE event carries its first id: the same event, not a second answer.
        const replayed = prior !== undefined && /#\d+-\d+$/.test(s.session) && prior.event === s.session;
        assert.ok(prior === undefined || replayed, `${back} answered ${key} twice: ${JSON.stringify(prior?.msg)} and ${JSON.stringify(m)}${where()}`);
        answered.set(key, { msg: m, event: s.session, at: i });
        if (cancelledAt.has(key)) assert.fail(`${back} answered ${key} after it was handed its cancellation: ${JSON.stringify(m)}${where()}`);
      }
      // Progress after the answer (memory only: over HTTP the tap sees each stream apart, not their order).
      if (s.session === "" && s.dir === back && s.at === "send" && m.method === "notifications/progress") {
        const key = tokens.get(`/${JSON.stringify(m.params?.progressToken)}`);
        if (key !== undefined && answered.has(key)) assert.fail(`${back} sent progress for ${key} after answering it: ${JSON.stringify(m)}${where()}`);
      }
    });
  }
}

/** Whole sessions of McpServer and McpClient, interleaved at random. */
export const interleave: FuzzTarget<InterleaveInput> = {
  name: "interleave",
  spec: "basic/index + cancellation + progress + lifecycle + transports, whole API sessions: every call settles once, nothing leaks",
  generate,
  check: runInterleaving,
};
