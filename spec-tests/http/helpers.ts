/**
 * Helpers for the Streamable HTTP tests: a handler over the real session kernel with a
 * tiny inline request handler, requests built by hand, and an SSE reader that awaits
 * events (no sleeps anywhere).
 */
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions, type HttpSessionSetup } from "../../src/transports/http-server.js";
import { createSseDecoder, feedSse, type SseOutput } from "../../src/framing/sse.js";
import { McpError, type Endpoint, type RequestContext } from "../../src/driver/endpoint.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { httpClientTransport, type HttpClientOptions, type HttpClientTransport } from "../../src/transports/http-client.js";

export const URL_ = "http://127.0.0.1/mcp";
export const ACCEPT_BOTH = "application/json, text/event-stream";

/** A promise with its resolver, for tools that wait on the test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the inline tools can be made to wait on, and what they saw. */
export class Tools {
  gates: Array<{ promise: Promise<void>; resolve(): void }> = [];
  contexts: RequestContext[] = [];
  endpoints: Endpoint[] = [];
  closed: string[] = [];
  /** The codes of the kernel's diagnostics, in order. */
  diagnostics: string[] = [];
  private started: Array<() => void> = [];
  /** The next gate `wait` uses; release it with `release()`. */
  gate(): { promise: Promise<void>; resolve(): void } {
    const d = deferred();
    this.gates.push(d);
    for (const f of this.started.splice(0)) f();
    return d;
  }
  /** Resolves once a `wait` tool is waiting on a gate. */
  waiting(): Promise<void> {
    return this.gates.length > 0 ? Promise.resolve() : new Promise((r) => this.started.push(r));
  }
  release(): void {
    this.gates.shift()?.resolve();
  }
}

/** Server session setup with tools: echo, wait (logs, waits for a gate, logs, answers), needs-sampling (fails with -32021 after an await), sample (asks the client), sample-unencodable (asks the client with a BigInt in the params), log-unencodable (logs a BigInt, then a string), result-unencodable (answers a BigInt; logs first with `log: true`). */
export function setupWith(tools: Tools, extra: Partial<HttpSessionSetup> = {}, sessionOptions: Partial<HttpSessionSetup["options"]> = {}): () => HttpSessionSetup {
  return () => ({
    options: { role: "server", info: { name: "http-test", version: "1.0.0" }, capabilities: { tools: { listChanged: true }, logging: {} }, ...sessionOptions },
    onRequest: async (method: string, params: JsonObject | undefined, ctx: RequestContext) => {
      tools.contexts.push(ctx);
      if (method === "tools/list") return { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
      if (method !== "tools/call") throw new Error("unexpected " + method);
      const name = params?.name;
      const args = (params?.arguments ?? {}) as JsonObject;
      if (name === "echo") return { content: [{ type: "text", text: String(args.text ?? "") }] };
      if (name === "wait") {
        const g = tools.gate();
        ctx.log("info", "one");
        await g.promise;
        ctx.log("info", "two");
        return { content: [{ type: "text", text: "waited" }] };
      }
      if (name === "burst") {
        for (let i = 1; i <= Number(args.count); i++) ctx.log("info", "line " + i);
        return { content: [{ type: "text", text: "burst" }] };
      }
      if (name === "needs-sampling") {
        // Decides after an await, as a handler that looks something up first would.
        await Promise.resolve();
        throw new McpError({ code: -32021, message: "sampling is required", data: { requiredCapabilities: { sampling: {} } } });
      }
      if (name === "sample") {
        const r = await ctx.request("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
        return { content: [{ type: "text", text: String((r.content as JsonObject).text) }] };
      }
      if (name === "log-unencodable") {
        // A log whose data has no JSON form is dropped (and reported); the next one and the answer go out.
        ctx.log("info", { n: 1n as never });
        ctx.log("info", "fine");
        return { content: [{ type: "text", text: "logged" }] };
      }
      if (name === "result-unencodable") {
        if (args.log === true) ctx.log("info", "streamed first");
        return { content: [{ type: "text", text: "n" }], structuredContent: { n: 1n as never } };
      }
      if (name === "sample-unencodable") {
        // Application data with no JSON form in a request to the client: the handler must hear at once.
        try {
          await ctx.request("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5, metadata: { n: 1n as never } });
          return { content: [{ type: "text", text: "sent" }] };
        } catch (e) {
          return { content: [{ type: "text", text: `${(e as McpError).code} ${(e as Error).message}` }] };
        }
      }
      throw new Error("no such tool");
    },
    onOpen: (e) => {
      tools.endpoints.push(e);
    },
    onClose: (reason) => {
      tools.closed.push(reason);
    },
    onEvent: (o) => {
      if (o.type === "diagnostic") tools.diagnostics.push(o.code);
    },
    ...extra,
  });
}

/** A value nested `depth` objects deep, to go past a `maxDepth`. */
export function nested(depth: number): JsonObject {
  let value: JsonObject = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A handler over the kernel with the inline tools. */
export function makeHandler(tools = new Tools(), options: Partial<HttpHandlerOptions> = {}): { handler: HttpHandler; tools: Tools } {
  const handler = createHttpHandler({ createSession: setupWith(tools), sessionIdleMs: 0, ...options });
  return { handler, tools };
}

/** Headers of a POST with the spec's Accept and Content-Type, plus session and version when given. */
export function postHeaders(session?: string, version?: string, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { accept: ACCEPT_BOTH, "content-type": "application/json", ...extra };
  if (session !== undefined) h["mcp-session-id"] = session;
  if (version !== undefined) h["mcp-protocol-version"] = version;
  return h;
}

/** POSTs one message (or raw text). */
export function post(handler: HttpHandler, body: unknown, session?: string, version?: string, extra: Record<string, string> = {}): Promise<Response> {
  return handler(new Request(URL_, { method: "POST", headers: postHeaders(session, version, extra), body: typeof body === "string" ? body : JSON.stringify(body) }));
}

/** GETs the stream (optionally resuming). */
export function get(handler: HttpHandler, session: string, version: string, lastEventId?: string, extra: Record<string, string> = {}): Promise<Response> {
  const h: Record<string, string> = { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": version, ...extra };
  if (lastEventId !== undefined) h["last-event-id"] = lastEventId;
  return handler(new Request(URL_, { method: "GET", headers: h }));
}

export function initializeMessage(version = "2025-11-25", id: number | string = 0): JsonObject {
  return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: version, capabilities: { sampling: {} }, clientInfo: { name: "c", version: "1" } } };
}

/** Initializes a session and confirms it; returns the session id. */
export async function open(handler: HttpHandler, version = "2025-11-25"): Promise<string> {
  const r = await post(handler, initializeMessage(version));
  if (r.status !== 200) throw new Error("initialize failed: " + r.status + " " + (await r.text()));
  const sid = r.headers.get("mcp-session-id")!;
  await r.text();
  const n = await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, sid, version);
  if (n.status !== 202) throw new Error("initialized failed: " + n.status);
  return sid;
}

export function call(id: number, name: string, args: JsonObject = {}): JsonObject {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** Reads an SSE response event by event. `retry` outputs are recorded in `retries`, not returned. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = createSseDecoder();
  private queue: SseOutput[] = [];
  retries: number[] = [];
  ended = false;

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  /** The next event (priming events included, data ""), or undefined at end of stream. */
  async next(): Promise<{ id: string; data: string } | undefined> {
    const e = await this.nextEvent();
    return e === undefined ? undefined : { id: e.id, data: e.data };
  }

  /** The next event with its type (`message` unless the stream named another), or undefined at end of stream. */
  async nextEvent(): Promise<{ event: string; id: string; data: string } | undefined> {
    for (;;) {
      const o = this.queue.shift();
      if (o !== undefined) {
        if (o.type === "retry") this.retries.push(o.ms);
        else if (o.type === "event") return { event: o.event, id: o.id, data: o.data };
        continue;
      }
      if (this.ended) return undefined;
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        continue;
      }
      this.queue.push(...feedSse(this.decoder, value));
    }
  }

  /** The next message event (skipping priming), parsed, with its event id. */
  async message(): Promise<{ id: string; msg: any }> {
    for (;;) {
      const e = await this.next();
      if (e === undefined) throw new Error("stream ended");
      if (e.data !== "") return { id: e.id, msg: JSON.parse(e.data) };
    }
  }

  /** Every remaining event until the end of the stream. */
  async rest(): Promise<{ id: string; data: string }[]> {
    const out: { id: string; data: string }[] = [];
    for (let e = await this.next(); e !== undefined; e = await this.next()) out.push(e);
    return out;
  }

  /** The client goes away. */
  async cancel(): Promise<void> {
    await this.reader.cancel();
  }
}

/** Yields to the event loop until `cond()` holds (no timers: each turn is one setImmediate); throws after `maxTurns` turns. */
export async function until(cond: () => boolean, maxTurns = Infinity): Promise<void> {
  for (let turn = 0; !cond(); turn++) {
    if (turn >= maxTurns) throw new Error(`the condition did not hold within ${maxTurns} turns`);
    await new Promise((r) => setImmediate(r));
  }
}

/** The messages in a list of events (priming skipped). */
export function messages(events: { data: string }[]): any[] {
  return events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data));
}

/** How a test's fetch plays an odd server: it sees each request (and its body), and may call the real handler. */
export type Wrap = (req: Request, next: () => Promise<Response>, body: string) => Promise<Response>;

/** A client transport whose fetch goes through `wrap` to `handler`; no GET stream unless asked, and sleeps return at once. */
export function wrappedTransport(handler: HttpHandler, wrap: Wrap, options: Partial<HttpClientOptions> = {}): HttpClientTransport {
  return httpClientTransport(URL_, {
    openGetStream: false,
    sleep: async () => {},
    ...options,
    fetch: async (url, init) => {
      const req = new Request(url, init);
      const body = typeof init.body === "string" ? init.body : "";
      return wrap(req, () => handler(req), body);
    },
  });
}
