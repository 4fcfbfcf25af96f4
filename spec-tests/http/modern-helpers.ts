/**
 * Helpers for the modern-era (2026-07-28) Streamable HTTP tests: a dual-era handler over
 * the kernel with the inline tools of helpers.ts, and modern requests built by hand with
 * the request metadata headers of draft `basic/transports/streamable-http`.
 */
import type { HttpHandler, HttpHandlerOptions } from "../../src/transports/http-server.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { ACCEPT_BOTH, makeHandler, setupWith, SseReader, Tools, URL_ } from "./helpers.js";
import { createHttpHandler } from "../../src/transports/http-server.js";

export const MV = "2026-07-28";

/** A dual-era handler (2026-07-28 and 2025-11-25) with the inline tools. */
export function modernHandler(tools = new Tools(), options: Partial<HttpHandlerOptions> = {}): { handler: HttpHandler; tools: Tools } {
  const base = setupWith(tools);
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    createSession: (ctx) => {
      const s = base();
      return { ...s, options: { ...s.options, versions: [MV, "2025-11-25"], capabilities: { tools: { listChanged: true }, logging: {}, resources: { subscribe: true } } }, onOpen: (e) => (ctx.era === "modern" ? tools.endpoints.push(e) : s.onOpen?.(e, ctx.sessionId)) };
    },
    ...options,
  });
  return { handler, tools };
}

/** A legacy-only handler (the kernel's default versions). */
export const legacyHandler = (): HttpHandler => makeHandler().handler;

/** A modern request: `_meta` with the protocol version and (empty) client capabilities. */
export function modernRequest(id: number | string, method: string, params: JsonObject = {}, meta: JsonObject = {}): JsonObject {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": MV, "io.modelcontextprotocol/clientCapabilities": {}, ...meta } } };
}

/** The headers a conforming client sends for `msg` (override or drop any with `extra`; `null` drops). */
export function modernHeaders(msg: JsonObject, extra: Record<string, string | null> = {}): Record<string, string> {
  const params = msg.params as JsonObject | undefined;
  const h: Record<string, string | null> = { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-protocol-version": MV, "mcp-method": msg.method as string };
  const name = msg.method === "resources/read" ? params?.uri : msg.method === "tools/call" || msg.method === "prompts/get" ? params?.name : undefined;
  if (typeof name === "string") h["mcp-name"] = name;
  Object.assign(h, extra);
  const out: Record<string, string> = {};
  for (const k in h) if (h[k] !== null) out[k] = h[k]!;
  return out;
}

/** POSTs a modern message with its headers (adjusted by `extra`). */
export function postModern(handler: HttpHandler, msg: JsonObject, extra: Record<string, string | null> = {}, signal?: AbortSignal): Promise<Response> {
  return handler(new Request(URL_, { method: "POST", headers: modernHeaders(msg, extra), body: JSON.stringify(msg), signal }));
}

/** The JSON-RPC body of a JSON response. */
export async function bodyOf(r: Response): Promise<any> {
  assert(r.headers.get("content-type")?.startsWith("application/json"), `JSON response expected, got ${r.headers.get("content-type")}`);
  return r.json();
}

function assert(cond: unknown, message: string): void {
  if (!cond) throw new Error(message);
}

/** The final response of a modern POST, whether it came as one JSON body or on an SSE stream. */
export async function answerOf(r: Response): Promise<any> {
  if (r.headers.get("content-type") !== "text/event-stream") return bodyOf(r);
  const reader = new SseReader(r);
  for (;;) {
    const { msg } = await reader.message();
    if ("id" in msg) return msg;
  }
}
