// Spec: 2025-11-25 basic/transports ("Sending Messages to the Server", item 6: the server MAY
// send requests and notifications before the response, and these messages SHOULD relate to
// the originating client request; "Listening for Messages": what goes on the GET stream
// SHOULD be unrelated to any concurrently-running request) and basic/lifecycle (Timeouts:
// the sender SHOULD issue a cancellation notification). The server's cancellation of a
// request it sent on a client request's behalf goes on that request's POST stream, so a
// client that keeps no GET stream still hears it and its handler is aborted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { ManualClock } from "../../src/driver/clock.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { until, URL_ } from "./helpers.js";

const FORM = { message: "Which one?", requestedSchema: { type: "object" as const, properties: {} } };

/** A server and an HTTP client with no GET stream; `register` adds the tool (by default `ask`, whose elicit times out and which then waits for `finish`), handing over its elicit's settling. */
async function setUp(register?: (server: McpServer, elicit: (p: Promise<unknown>) => void) => void) {
  const clock = new ManualClock();
  const server = new McpServer({ name: "s", version: "1" }, { clock, session: { versions: ["2025-11-25"] } });
  let elicited: Promise<unknown> | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const keep = (p: Promise<unknown>) => void (elicited = p);
  if (register !== undefined) register(server, keep);
  else {
    server.tool("ask", {}, async (_args, ctx) => {
      keep(ctx.elicit(FORM, { timeoutMs: 1000 }).catch((e: unknown) => e));
      await elicited;
      // The tool goes on after its question is given up: its POST stream stays open.
      await finished;
      return { content: [] };
    });
  }
  const handler = createHttpHandler({ clock, createSession: server.httpSession() });
  const gets: string[] = [];
  const transport = httpClientTransport(URL_, {
    openGetStream: false,
    fetch: (url, init) => {
      if (init?.method === "GET") gets.push(String(url));
      return handler(new Request(url, init));
    },
  });
  let handlerSignal: AbortSignal | undefined;
  const client = new McpClient(
    { name: "c", version: "1" },
    { clock, session: { versions: ["2025-11-25"] }, handlers: { elicitation: (_params, ctx) => ((handlerSignal = ctx.signal), new Promise(() => {})) } },
  );
  await client.connect(transport);
  return { clock, client, handler, gets, finish, elicitedBy: () => elicited, handlerSignal: () => handlerSignal };
}

test("related cancellation (basic/transports item 6, basic/lifecycle Timeouts): a server request that times out while its tool runs is cancelled on the tool call's POST stream; the client, with no GET stream, aborts its handler", async () => {
  const t = await setUp();
  const call = t.client.callTool("ask", {});
  await until(() => t.handlerSignal() !== undefined, 200);
  assert.equal(t.handlerSignal()!.aborted, false);
  t.clock.advance(1500);
  await until(() => t.handlerSignal()!.aborted, 200);
  const err = await t.elicitedBy();
  assert.ok(err instanceof McpError && err.code === ErrorCode.RequestTimeout, "the tool's elicit timed out");
  assert.deepEqual(t.gets, [], "no GET stream was opened");
  t.finish();
  assert.deepEqual((await call).content, []);
  await t.client.close();
  t.handler.close();
});

test("related cancellation (basic/utilities/cancellation): the client cancelling a tool call cancels what the server asked on its behalf, on that call's stream before it closes; the client's handler is aborted", async () => {
  const t = await setUp();
  const abort = new AbortController();
  const call = t.client.callTool("ask", {}, { signal: abort.signal }).catch((e: unknown) => e);
  await until(() => t.handlerSignal() !== undefined, 200);
  abort.abort("changed my mind");
  const callErr = await call;
  assert.ok(callErr instanceof McpError && callErr.code === ErrorCode.RequestCancelled);
  await until(() => t.handlerSignal()!.aborted, 200);
  const err = await t.elicitedBy();
  assert.ok(err instanceof McpError && err.code === ErrorCode.RequestCancelled, "the server's elicit was cancelled with its tool call");
  assert.deepEqual(t.gets, []);
  t.finish();
  await t.client.close();
  t.handler.close();
});

test("related cancellation (basic/utilities/cancellation: cancel a request believed in progress; basic/transports item 6): a tool that answers while its elicitation is still pending (it raced the question against its own timeout) cancels that question on the call's POST stream, before the answer; the client aborts its handler and the user is asked nothing more", { timeout: 5000 }, async () => {
  const t = await setUp((server, keep) =>
    server.tool("race", {}, async (_args, ctx) => {
      keep(ctx.elicit(FORM).catch((e: unknown) => e));
      // The fallback wins the race: the tool answers without waiting for the user.
      await Promise.resolve();
      return { content: [{ type: "text", text: "default" }] };
    }),
  );
  const { client, gets, handler } = t;
  const result = await client.callTool("race", {});
  assert.deepEqual(result.content, [{ type: "text", text: "default" }]);
  assert.ok(t.handlerSignal() !== undefined, "the question reached the client");
  await until(() => t.handlerSignal()!.aborted, 200);
  const err = await t.elicitedBy();
  assert.ok(err instanceof McpError && err.code === ErrorCode.RequestCancelled && !err.fromPeer, "the tool's own elicit ends cancelled, not left pending");
  assert.deepEqual(gets, [], "no GET stream was opened: the cancellation came on the call's stream");
  await client.close();
  handler.close();
});

