/**
 * A server and a client of the product API, connected over the in-memory pair, on a
 * manual clock (no real timers), with every message on the wire recorded.
 */
import { ManualClock } from "../../src/driver/clock.js";
import { McpClient, type McpClientOptions } from "../../src/api/client.js";
import { McpServer, type McpServerOptions } from "../../src/api/server.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import type { Endpoint } from "../../src/driver/endpoint.js";

export const CLIENT = { name: "api-test-client", version: "1.0.0" };
export const SERVER = { name: "api-test-server", version: "2.0.0" };

export interface Connected {
  server: McpServer;
  client: McpClient;
  endpoint: Endpoint;
  clock: ManualClock;
  /** Every message text, with the side that sent it. */
  wire: { from: "server" | "client"; message: any }[];
  /** Messages of one method sent by one side. */
  sent(from: "server" | "client", method: string): any[];
}

/** Connects `server` (or a new one, set up by `setup`) to a new client. */
export async function connect(
  setup: McpServer | ((s: McpServer) => void) = () => {},
  clientOptions: Omit<McpClientOptions, "clock"> = {},
  serverOptions: McpServerOptions = {},
): Promise<Connected> {
  const clock = new ManualClock();
  let server: McpServer;
  if (setup instanceof McpServer) server = setup;
  else {
    server = new McpServer(SERVER, { clock, ...serverOptions });
    setup(server);
  }
  const wire: Connected["wire"] = [];
  const [s, c] = createMemoryPair({ onSend: (i, text) => wire.push({ from: i === 0 ? "server" : "client", message: JSON.parse(text) }) });
  const endpoint = server.connect(s);
  const client = new McpClient(CLIENT, { clock, ...clientOptions });
  await client.connect(c);
  return { server, client, endpoint, clock, wire, sent: (from, method) => wire.filter((w) => w.from === from && w.message.method === method).map((w) => w.message) };
}

/** A promise and its resolver. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Rejection of `p`, or a failure if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

/** A client that writes raw JSON-RPC to a server: for what {@link McpClient} never sends. */
export interface RawClient {
  /** Every message the server sent, parsed. */
  inbox: any[];
  send(message: object): void;
  /** Sends a request and resolves with its answer (the response or error message). */
  request(id: number | string, method: string, params?: object): Promise<any>;
  /** The 2025 handshake: `initialize` with `version` and `capabilities`, then `notifications/initialized`. */
  initialize(version: string, capabilities?: object, clientInfo?: object): Promise<any>;
}

/** Connects a {@link RawClient} to `server` over the memory pair. */
export function rawClient(server: McpServer): RawClient {
  const [s, c] = createMemoryPair();
  server.connect(s);
  const inbox: any[] = [];
  c.onMessage((text) => inbox.push(JSON.parse(text)));
  const send = (message: object): void => c.send(JSON.stringify(message));
  // The memory pair delivers on microtasks and handlers may await more: wait turns of the event loop, never time.
  const answer = async (id: number | string): Promise<any> => {
    for (let turn = 0; turn < 100; turn++) {
      const m = inbox.find((x) => x.id === id && x.method === undefined);
      if (m !== undefined) return m;
      await new Promise<void>((r) => setImmediate(r));
    }
    throw new Error(`no answer to request ${JSON.stringify(id)}`);
  };
  const request = (id: number | string, method: string, params?: object): Promise<any> => {
    send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return answer(id);
  };
  return {
    inbox,
    send,
    request,
    async initialize(version, capabilities = {}, clientInfo = CLIENT) {
      const r = await request("init", "initialize", { protocolVersion: version, capabilities, clientInfo });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return r;
    },
  };
}
