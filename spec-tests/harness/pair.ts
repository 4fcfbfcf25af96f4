/**
 * A client and a server session wired back to back on virtual time.
 *
 * Messages go through the real codec (encode on one side, `receive` of the text on the
 * other) and are delivered in FIFO order only when `run()` is called, so tests can
 * interleave inputs exactly as a network could (a cancellation crossing a response, say).
 * Time moves only by `advance(ms)`; nothing sleeps.
 */
import { encode } from "../../src/jsonrpc/codec.js";
import type { JsonObject, JsonRpcMessage, RequestId } from "../../src/jsonrpc/types.js";
import { createSession, step } from "../../src/session/session.js";
import type { SessionInput, SessionOptions, SessionOutput, SessionState } from "../../src/session/types.js";

export type Role = "client" | "server";

/** What the application on one side does with a request it is handed. */
export type Handler = (req: Extract<SessionOutput, { type: "request" }>, pair: Pair) => void;

export const CLIENT_INFO = { name: "test-client", version: "1.0.0" };
export const SERVER_INFO = { name: "test-server", version: "1.0.0" };

export class Pair {
  now = 0;
  readonly client: SessionState;
  readonly server: SessionState;
  /** Every non-send output, per side, in order. */
  readonly events: Record<Role, SessionOutput[]> = { client: [], server: [] };
  /** Every message on the wire, in order. */
  readonly wire: { from: Role; text: string }[] = [];
  /** Steps taken, per side, for transcripts. */
  readonly inputs: Record<Role, SessionInput[]> = { client: [], server: [] };
  private queue: { to: Role; text: string }[] = [];
  handlers: Partial<Record<Role, Handler>> = {};
  closedBy: Partial<Record<Role, string>> = {};

  constructor(client: Partial<SessionOptions> = {}, server: Partial<SessionOptions> = {}) {
    this.client = createSession({ role: "client", info: CLIENT_INFO, capabilities: {}, ...client });
    this.server = createSession({ role: "server", info: SERVER_INFO, capabilities: { tools: {} }, ...server });
  }

  state(role: Role): SessionState {
    return role === "client" ? this.client : this.server;
  }

  /** Feeds one input to one side; its sends are queued for the other side. Returns the outputs. */
  feed(role: Role, input: SessionInput): SessionOutput[] {
    this.inputs[role].push(structuredClone(input));
    const { outputs } = step(this.state(role), input);
    for (const o of outputs) {
      if (o.type === "send") {
        const text = encode(o.message);
        this.wire.push({ from: role, text });
        this.queue.push({ to: role === "client" ? "server" : "client", text });
      } else {
        this.events[role].push(o);
        if (o.type === "close") this.closedBy[role] = o.reason;
        if (o.type === "request") this.handlers[role]?.(o, this);
      }
    }
    return outputs;
  }

  /** Delivers queued messages until the wire is quiet (bounded, so a bug cannot loop forever). */
  run(limit = 10_000): void {
    for (let i = 0; this.queue.length > 0; i++) {
      if (i >= limit) throw new Error("pair did not go quiet");
      const { to, text } = this.queue.shift()!;
      this.feed(to, { type: "receive", now: this.now, data: text });
    }
  }

  /** Drops what is on the wire (a lost message). */
  dropQueued(): { to: Role; text: string }[] {
    return this.queue.splice(0);
  }

  /** Injects raw text as if the other side had sent it. */
  inject(to: Role, text: string): SessionOutput[] {
    return this.feed(to, { type: "receive", now: this.now, data: text });
  }

  /** Advances virtual time and ticks both sides. */
  advance(ms: number): void {
    this.now += ms;
    this.feed("client", { type: "tick", now: this.now });
    this.feed("server", { type: "tick", now: this.now });
    this.run();
  }

  /** Runs the handshake to completion. */
  handshake(): void {
    this.feed("client", { type: "open", now: this.now });
    this.run();
  }

  /** The application on `role` sends a request; returns its id. */
  request(role: Role, method: string, params?: JsonObject, extra: { timeoutMs?: number; progress?: boolean } = {}): RequestId {
    const outputs = this.feed(role, { type: "request", now: this.now, method, params, ...extra });
    const first = outputs[0];
    if (first.type === "send") return (first.message as { id: RequestId }).id;
    if (first.type === "error") return first.id;
    throw new Error("request produced neither a send nor an error");
  }

  respond(role: Role, id: RequestId, result: JsonObject): void {
    this.feed(role, { type: "respond", now: this.now, id, result });
  }

  /** Events of one type on one side. */
  of<T extends SessionOutput["type"]>(role: Role, type: T): Extract<SessionOutput, { type: T }>[] {
    return this.events[role].filter((e): e is Extract<SessionOutput, { type: T }> => e.type === type);
  }

  /** Parsed messages one side sent. */
  sent(role: Role): JsonRpcMessage[] {
    return this.wire.filter((w) => w.from === role).map((w) => JSON.parse(w.text) as JsonRpcMessage);
  }

  /** The last message one side sent. */
  lastSent(role: Role): JsonRpcMessage & Record<string, unknown> {
    const s = this.sent(role);
    return s[s.length - 1] as JsonRpcMessage & Record<string, unknown>;
  }
}

/** Sends one raw message to a fresh session and returns the parsed reply messages and events. */
export function sendsOf(outputs: SessionOutput[]): (JsonRpcMessage & Record<string, any>)[] {
  return outputs.filter((o): o is Extract<SessionOutput, { type: "send" }> => o.type === "send").map((o) => o.message as JsonRpcMessage & Record<string, any>);
}
