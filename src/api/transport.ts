/**
 * Transport: the one seam between the product API and the outside world.
 *
 * Theory of operation. `McpServer` and `McpClient` never touch sockets, pipes or
 * streams. They speak to a `Transport`, which carries whole JSON-RPC messages as
 * text, one message per `send` call and one per `onMessage` callback. Framing
 * (newline-delimited JSON for stdio, SSE for HTTP) is the adapter's job and is done
 * with the pure framers in src/framing/; the transport hands over already-framed
 * message text. See the spec's "Transports" page (basic/transports.mdx) for what a
 * conforming transport carries.
 *
 * Contract every adapter keeps:
 * - `send(text)` queues one serialised JSON-RPC message (no trailing newline). It
 *   never throws; after `close()` it is a no-op.
 * - `onMessage(fn)` registers the single receiver of incoming message text. Messages
 *   are delivered in the order the peer sent them. A later call replaces the
 *   receiver. Messages that arrive before a receiver is registered are buffered. A
 *   receiver that throws (an endpoint rethrows its hook's error from `receive`) costs the
 *   transport nothing: that message counts as delivered, the next ones follow, and the
 *   error is rethrown on a fresh microtask (never taken for a broken connection).
 * - `onClose(fn)` registers the single close listener; it is called exactly once,
 *   with a human-readable reason, whether the close came from this side or the peer;
 *   one registered after the close is called at once (a connection made over a closed
 *   transport learns it is closed). A transport carries one connection: {@link attach}
 *   refuses one another endpoint is attached to.
 * - `close()` shuts the transport; idempotent.
 * - A transport with sessions of its own (Streamable HTTP) may start a new one with the
 *   server when the old one is gone; it then calls its `onSessionRenewed` listener with
 *   the server's new `InitializeResult`, so the client learns what the server is now. A
 *   wrapper around such a transport (logging, auth) must forward `onSessionRenewed` too,
 *   or the client goes on with its view of the old server.
 *
 * An in-process transport may also carry message *objects* (`sendValue` / `onValue`):
 * no JSON text at all, as the official SDKs' in-memory transport does. {@link attach}
 * uses them when the transport has them, for messages that are already JSON-shaped
 * (others, a `Date` or a BigInt in application data, go as text, so the peer sees what a
 * pipe would carry); the receiving kernel checks an object exactly as it checks parsed
 * text (`decodeValue`: nesting bounds, shape, then the schema).
 *
 * Implementations: src/transports/memory.ts (in-process pair), plus the stdio and
 * Web Streams adapters.
 */

import type { JsonObject, JsonRpcMessage } from "../jsonrpc/types.js";

/** A bidirectional carrier of JSON-RPC message text. See the module comment for the contract. */
export interface Transport {
  /** Send one serialised JSON-RPC message. Never throws; a no-op once closed. */
  send(text: string): void;
  /**
   * Register the receiver of incoming message text (one message per call, in order).
   * `local` is true for a message the transport wrote itself in the peer's place: the error
   * response for a request it could not carry (an HTTP POST that failed), which the client
   * then reports as its own error (`McpError.fromPeer` false), not the server's. A wrapper
   * transport must pass `local` on (`(text, local) => fn(text, local)`): without it such an
   * error reads as the server's.
   */
  onMessage(fn: (text: string, local?: boolean) => void): void;
  /** Register the listener called once when the transport closes, from either side. */
  onClose(fn: (reason: string) => void): void;
  /** Close the transport. Idempotent. */
  close(): void;
  /** Optional: register the single listener told when the transport started a new session with the server, with the server's new `InitializeResult`. */
  onSessionRenewed?(fn: (result: JsonObject) => void): void;
  /** Optional (in-process only): send the message object itself. The peer shares it: neither side may mutate it afterwards. */
  sendValue?(message: JsonRpcMessage): void;
  /** Optional (in-process only): register the receiver of message objects the peer sent with `sendValue` (unchecked values). */
  onValue?(fn: (value: unknown) => void): void;
}
