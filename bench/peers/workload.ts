/**
 * The one workload every comparison row runs, whatever the implementation: a
 * `get_weather` tool with two required string arguments and a one-text result (the
 * spec's own `server/tools` example), plus `hold`, a tool that does not answer until the
 * bench releases it, so a row can measure what a request in flight costs.
 *
 * Plain data and one small gate; no library imports, so a peer process that loads this
 * loads nothing but its own implementation (cold start measures that implementation).
 */

export const TOOL = "get_weather";
export const TOOL_DESCRIPTION = "Current weather for a location";
/** The input schema, as JSON Schema (ours) — the SDK peers express the same with zod. */
export const TOOL_SCHEMA = {
  type: "object",
  properties: { location: { type: "string" }, units: { type: "string" } },
  required: ["location", "units"],
} as const;
export const ARGS = { location: "San Francisco, CA", units: "metric" };
export const RESULT = { content: [{ type: "text" as const, text: "The weather in San Francisco is 18°C and sunny." }] };

export const HOLD = "hold";

/**
 * The floors' messages: the bytes our client and server put on the wire for one call in
 * each era, so a floor spends its JSON work on the same text. A 2026-07-28 request carries
 * the version, capabilities and identity in `_meta` (draft basic/index) and its result
 * `resultType` and `serverInfo`: roughly twice the bytes of the 2025-era pair.
 */
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
};
const MODERN_RESULT = { ...RESULT, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "bench", version: "1.0.0" } } };

/** The `tools/call` request of one call in `era`, as our client sends it. */
export function floorRequest(era: Era, id: number): object {
  const params = era === "legacy" ? { name: TOOL, arguments: ARGS } : { name: TOOL, arguments: ARGS, _meta: MODERN_META };
  return { jsonrpc: "2.0", id, method: "tools/call", params };
}

/** The result a floor echoes: the modern shape when the request named a version in `_meta`. */
export function floorResult(request: { params?: { _meta?: object } }): object {
  return request.params?._meta !== undefined ? MODERN_RESULT : RESULT;
}

/** Which protocol era a client asks for: 2025-11-25 `initialize`, or 2026-07-28 per-request. */
export type Era = "legacy" | "modern";

/**
 * Parks `hold` calls until {@link Gate.release}: `arrived` counts the calls the server's
 * handler has seen, so the bench knows when N requests are really in flight.
 */
export class Gate {
  arrived = 0;
  private waiting: (() => void)[] = [];
  /** The handler's side: resolves when released. */
  wait(): Promise<void> {
    this.arrived++;
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  /** Lets every parked call answer. */
  release(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}

/** A connected client, whichever implementation: what the rows drive. */
export interface Peer {
  /** One `tools/call` of {@link TOOL}; resolves with the result. */
  call(): Promise<unknown>;
  /** One `tools/call` of {@link HOLD}; resolves once the gate is released. */
  hold(): Promise<unknown>;
  close(): Promise<void>;
}

/** An HTTP server the bench started in-process. */
export interface HttpServerHandle {
  url: string;
  close(): Promise<void>;
}

/** Resolves once `gate` has seen `n` calls (polling on the event loop, never a timer). */
export async function arrivals(gate: Gate, n: number): Promise<void> {
  for (let spins = 0; gate.arrived < n; spins++) {
    if (spins > 1_000_000) throw new Error(`only ${gate.arrived} of ${n} calls arrived`);
    await new Promise<void>((r) => setImmediate(r));
  }
}
