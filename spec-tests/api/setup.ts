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
