/**
 * The package root, `mcp-kernel`: the public API of every layer, runtime-neutral.
 *
 * Each layer also has its own entry point (`mcp-kernel/codec`, `/schema`, `/model`) so
 * a consumer that needs only the codec does not load the schema tables. This file is a
 * plain list: add a layer by adding its `export *` line. A name exported by two layers
 * is a compile error here (TS2308), which is the point: the root namespace stays flat.
 *
 * Nothing reachable from here imports a `node:` module, so this entry loads as it is in
 * Node, Deno, Bun and browsers (the build test walks the bundle's import graph to keep
 * it so). The adapters that need Node's built-ins (stdio on `process`, `node:http`,
 * child processes) are in `mcp-kernel/node` (`src/node.ts`).
 */
// The codec's modules by name, not its entry (`jsonrpc/index.ts`, re-exports only): through
// the entry, the bundle split it into an empty shared chunk that every importer of the root
// or of `mcp-kernel/codec` loaded for nothing (one more module, in a browser one more request).
export * from "./jsonrpc/types.js";
export * from "./jsonrpc/errors.js";
export * from "./jsonrpc/codec.js";
export * from "./schema/index.js";
// The framing layer: the pure incremental codecs the stdio and Web Streams transports (NDJSON)
// and the HTTP ones (SSE) run on, for an adapter of the application's own that feeds the
// kernel. Named, not `export *`: the modules also hold helpers for the transports.
export { createNdjsonDecoder, feedNdjson, endNdjson, encodeNdjsonLine } from "./framing/ndjson.js";
export type { NdjsonDecoder, NdjsonEncoded, NdjsonEvent, NdjsonOptions } from "./framing/ndjson.js";
export { createSseDecoder, feedSse, encodeSseEvent, encodeSsePrimingEvent, encodeSseRetry, encodeSseComment } from "./framing/sse.js";
export type { SseDecoder, SseEncoded, SseEventInit, SseOptions, SseOutput } from "./framing/sse.js";
export * from "./model/index.js";
export * from "./session/index.js";
export * from "./modern/index.js";
export * from "./driver/index.js";
export * from "./tasks/index.js";
export * from "./api/index.js";
export * from "./auth/index.js";

// Transports that need nothing but web-standard globals (streams, fetch, Request and
// Response), or the runtime's own global (`Deno`, `Bun`) and no import.
export { createMemoryPair, connectMemory, type MemoryPairOptions } from "./transports/memory.js";
export { webStreamsTransport, type WebStreamsOptions } from "./transports/web-streams.js";
export { StreamChannel, type ChannelOptions, type Framing, type FramingFault, type Sink } from "./transports/channel.js";
export {
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpCloseOptions,
  type HttpSessionContext,
  type HttpSessionSetup,
  type HttpDiagnostic,
} from "./transports/http-server.js";
// The types of HttpHandlerOptions' fields, so a consumer can name what it forwards.
export type { AllowList } from "./transports/http/headers.js";
export type { EventStoreLimits } from "./transports/http/event-log.js";
export type { HttpSseOptions } from "./transports/http/http-sse-server.js";
export { httpClientTransport, SESSION_EXPIRED, type HttpClientOptions, type HttpClientTransport, type ReconnectOptions } from "./transports/http-client.js";
export {
  superviseChild,
  describeExit,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type ChildEvents,
  type ExitStatus,
  type SpawnedChild,
  type SpawnFunction,
  type SpawnOptions,
  type StderrMode,
  type StdioChild,
} from "./transports/child.js";
export { denoServerTransport, denoSpawn } from "./transports/stdio-deno.js";
export { bunSpawn } from "./transports/stdio-bun.js";
