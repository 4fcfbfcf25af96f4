// Methods of the application's own extensions, declared in the session options
// (`extensionMethods`) on both sides.
// Spec: draft basic/versioning "Extension Negotiation" and docs/extensions/overview
// (extensions are capabilities beyond the core protocol, with methods of their own: the
// tasks extension adds tasks/get, tasks/update, tasks/cancel); 2025-11-25 basic/index
// (JSON-RPC: "Requests MUST include a string method", params an object; an unknown method
// is -32601); basic/lifecycle (the initialization phase MUST be the first interaction).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rawClient, rejection, SERVER } from "./setup.js";
import { until } from "../http/helpers.js";
import { McpClient, McpServer } from "../../src/api/index.js";
import type { DeclaredMethods } from "../../src/model/methods.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";

const SEARCH = "com.example/search";
const CONFIRM = "com.example/confirm";
const INDEXED = "notifications/com.example/indexed";
const HELLO = "notifications/com.example/hello";

/** What both sides of the example extension declare. */
const EXTENSION: DeclaredMethods = {
  [SEARCH]: { kind: "request", from: "client" },
  [CONFIRM]: { kind: "request", from: "server" },
  [INDEXED]: { kind: "notification", from: "server" },
  [HELLO]: { kind: "notification", from: "client" },
};

/** A server of the extension: `com.example/search` answers through `fallback`; the `index` tool asks the client to confirm and tells it when done. */
function extensionServer(versions: readonly string[], heard: unknown[]): McpServer {
  const server = new McpServer(SERVER, {
    session: { versions: [...versions] as never, extensionMethods: EXTENSION },
    fallback: (method, params) => {
      if (method === SEARCH) return params?.q === "bad" ? ([1, 2] as never) : { hits: [`${String(params?.q)} 1`, `${String(params?.q)} 2`] };
      throw new McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` });
    },
  });
  server.onNotification(HELLO, (params) => heard.push(params));
  server.tool("announce", {}, (_args, ctx) => {
    ctx.notify(INDEXED, { documents: 3 });
    return { content: [] };
  });
  server.tool("index", {}, async (_args, ctx) => {
    const confirmed = await ctx.request(CONFIRM, { what: "reindex" });
    ctx.notify(INDEXED, { documents: 3 });
    return { content: [{ type: "text", text: `confirmed: ${JSON.stringify(confirmed)}` }] };
  });
  return server;
}

test("extension methods (2025-11-25): declared on both sides, a client request, a server request, and a notification each way go through; the answers are the handlers'", async () => {
  const heard: unknown[] = [];
  const indexed: unknown[] = [];
  const c = await connect(extensionServer(["2025-11-25"], heard), {
    session: { versions: ["2025-11-25"], extensionMethods: EXTENSION },
    fallback: (method, params) => (method === CONFIRM ? { ok: true, what: params?.what ?? null } : Promise.reject(new McpError({ code: ErrorCode.MethodNotFound, message: method }))),
  });
  c.client.onNotification(INDEXED, (params) => indexed.push(params));
  assert.deepEqual(await c.client.request(SEARCH, { q: "mcp" }), { hits: ["mcp 1", "mcp 2"] });
  const result = await c.client.callTool("index");
  assert.deepEqual(result.content, [{ type: "text", text: 'confirmed: {"ok":true,"what":"reindex"}' }]);
  assert.deepEqual(indexed, [{ documents: 3 }]);
  c.client.notify(HELLO, { from: "client" });
  for (let i = 0; i < 5 && heard.length === 0; i++) await new Promise<void>((r) => setImmediate(r));
  assert.deepEqual(heard, [{ from: "client" }]);
  // JSON-RPC's shape still holds: a result that is no object is the handler's error, -32603 to the peer.
  const bad = await rejection(c.client.request(SEARCH, { q: "bad" }));
  assert.equal(bad.code, -32603);
});

test("extension methods (2026-07-28): a declared request of a modern client is served statelessly, its result stamped as every modern result is; notifications go either way, the server's with the request it relates to", async () => {
  const heard: unknown[] = [];
  const indexed: unknown[] = [];
  const c = await connect(extensionServer(["2026-07-28"], heard), { session: { versions: ["2026-07-28"], extensionMethods: EXTENSION } });
  c.client.onNotification(INDEXED, (params) => indexed.push(params));
  // Notifications go either way in 2026-07-28 (draft basic/index): the server's with the request it relates to.
  await c.client.callTool("announce");
  assert.deepEqual(indexed, [{ documents: 3 }]);
  c.client.notify(HELLO, { from: "modern client" });
  await until(() => heard.length > 0);
  assert.deepEqual(heard, [{ from: "modern client" }]);
  const result = await c.client.request(SEARCH, { q: "draft" });
  assert.deepEqual(result.hits, ["draft 1", "draft 2"]);
  const answer = c.wire.find((w) => w.from === "server" && w.message.result?.hits !== undefined)!.message.result;
  assert.equal(answer.resultType, "complete");
  assert.deepEqual(answer._meta["io.modelcontextprotocol/serverInfo"], SERVER);
});

test("extension methods: what is not declared, or declared the other way, is refused as before (-32601), and a declared one waits for initialization like any request", async () => {
  // Declared by the server only: the client refuses to send it, naming why.
  const c = await connect(extensionServer(["2025-11-25"], []), { session: { versions: ["2025-11-25"] } });
  const local = await rejection(c.client.request(SEARCH, { q: "x" }));
  assert.equal(local.code, ErrorCode.MethodNotFound);
  // Declared as the server's: the client may not send it.
  const wrongWay = await connect(extensionServer(["2025-11-25"], []), { session: { versions: ["2025-11-25"], extensionMethods: EXTENSION } });
  assert.equal((await rejection(wrongWay.client.request(CONFIRM, {}))).code, ErrorCode.MethodNotFound);

  const raw = rawClient(extensionServer(["2025-11-25"], []));
  const early = await raw.request(1, SEARCH, { q: "x" });
  assert.deepEqual([early.error.code, early.error.message], [ErrorCode.InvalidRequest, `"${SEARCH}" is not allowed before initialization completes`]);
  await raw.initialize("2025-11-25");
  assert.deepEqual((await raw.request(2, SEARCH, { q: "y" })).result, { hits: ["y 1", "y 2"] });
  assert.equal((await raw.request(3, "com.example/undeclared", {})).error.code, ErrorCode.MethodNotFound);
  assert.equal((await raw.request(4, CONFIRM, {})).error.code, ErrorCode.MethodNotFound, "a server's request, sent by the client");
  // MCP's params are objects: an array is refused by the codec, for every method alike.
  assert.equal((await raw.request(5, SEARCH, [1, 2] as never)).error.code, ErrorCode.InvalidRequest);
  assert.equal((await raw.request(6, SEARCH, { q: "z" })).result.hits[0], "z 1", "and the connection goes on");
});

test("extension methods: a declaration that would redefine the protocol's method, a name JSON-RPC reserves, or a malformed entry is refused where the server or client is built", () => {
  const build = (extensionMethods: unknown) => () => new McpServer(SERVER, { session: { extensionMethods: extensionMethods as DeclaredMethods } });
  assert.throws(build({ "tools/call": { kind: "request", from: "client" } }), /^TypeError: session.extensionMethods: "tools\/call" is a method of the protocol, which a declaration cannot redefine$/);
  assert.throws(build({ "tasks/update": { kind: "request", from: "client" } }), /"tasks\/update" is a method of the protocol/, "the tasks extension's, which the kernel implements");
  assert.throws(build({ "rpc.discover": { kind: "request", from: "client" } }), /^TypeError: session.extensionMethods: "rpc.discover": JSON-RPC reserves names that begin with "rpc."/);
  assert.throws(build({ "x/y": { kind: "call", from: "client" } }), /"x\/y": kind must be "request" or "notification"/);
  assert.throws(build({ "x/y": { kind: "request", from: "peer" } }), /"x\/y": from must be "client", "server" or "both"/);
  assert.throws(build([]), /^TypeError: session.extensionMethods: must be an object/);
  assert.throws(() => new McpClient({ name: "c", version: "1" }, { fallback: "no" as never }), /^TypeError: McpClient options: fallback must be a function$/);
});

// 2025-11-25 basic/transports (Streamable HTTP: the session's requests and notifications
// each way), draft basic/transports/streamable-http (every modern request a POST with its
// Mcp-Method header; Mcp-Name only for the methods that name something).
test("extension methods over Streamable HTTP, in both eras: the client's request and notification; the server's notification on a call's stream (and in 2025-11-25 its request)", async () => {
  for (const versions of [["2025-11-25"], ["2026-07-28"]] as const) {
    const indexed: unknown[] = [];
    const heard: unknown[] = [];
    const server = extensionServer(versions, heard);
    const srv = await serveNode(createHttpHandler({ path: "/mcp", createSession: server.httpSession() }), { port: 0, host: "127.0.0.1" });
    const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [...versions], extensionMethods: EXTENSION }, fallback: () => ({ ok: true }) });
    client.onNotification(INDEXED, (params) => indexed.push(params));
    try {
      await client.connect(httpClientTransport(`${srv.url}/mcp`));
      assert.deepEqual((await client.request(SEARCH, { q: "http" })).hits, ["http 1", "http 2"], versions[0]);
      if (versions[0] === "2025-11-25") {
        assert.deepEqual((await client.callTool("index")).content, [{ type: "text", text: 'confirmed: {"ok":true}' }]);
      } else {
        // 2026-07-28 has no server-to-client requests: the notification rides on the call's stream.
        assert.deepEqual((await client.callTool("announce")).content, []);
      }
      assert.deepEqual(indexed, [{ documents: 3 }], versions[0]);
      client.notify(HELLO, { from: versions[0] });
      await until(() => heard.length > 0);
      assert.deepEqual(heard, [{ from: versions[0] }], `${versions[0]}: the client's notification, on a POST of its own`);
    } finally {
      await client.close();
      await srv.close();
    }
  }
});

test("extension methods: a notification the client's session does not declare, or one the kernel sends itself, is not sent: a notification-refused diagnostic", async () => {
  const events: { type: string; code?: string; message?: string }[] = [];
  const c = await connect(extensionServer(["2025-11-25"], []), { session: { versions: ["2025-11-25"] }, onEvent: (e) => events.push(e as never) });
  const before = c.wire.length;
  c.client.notify(HELLO, { from: "client" });
  c.client.notify("notifications/cancelled", { requestId: 1 });
  assert.equal(c.wire.length, before, "nothing went out");
  assert.deepEqual(
    events.filter((e) => e.code === "notification-refused").map((e) => e.message),
    [`${HELLO} is not a client notification in 2025-11-25`, "notifications/cancelled is sent by the kernel; use the cancel or progress input"],
  );
});

// draft basic/versioning, Extension Negotiation: "If one party supports an extension but the
// other does not, the supporting party MUST either revert to core protocol behavior or
// reject the request with an appropriate error."
test("extension methods tied to an extension (extension: id): sent only to a peer that declared capabilities.extensions[id], taken only when this side declared it; refused otherwise (-32601 naming the capability)", async () => {
  const TIED: DeclaredMethods = { [SEARCH]: { kind: "request", from: "client", extension: "com.example/search" } };
  const serve = (declares: boolean) =>
    new McpServer(SERVER, {
      session: { versions: ["2025-11-25"], extensionMethods: TIED },
      capabilities: declares ? { extensions: { "com.example/search": {} } } : {},
      fallback: () => ({ hits: [] }),
    });
  const agreed = await connect(serve(true), { session: { versions: ["2025-11-25"], extensionMethods: TIED } });
  assert.deepEqual(await agreed.client.request(SEARCH, {}), { hits: [] });
  const refused = await connect(serve(false), { session: { versions: ["2025-11-25"], extensionMethods: TIED } });
  const local = await rejection(refused.client.request(SEARCH, {}));
  assert.deepEqual([local.code, local.fromPeer], [ErrorCode.MethodNotFound, false]);
  assert.match(local.message, /server\.extensions\.com\.example\/search/);
  // A client that sends it anyway (it declares the method without the tie) is refused by the server.
  const raw = rawClient(serve(false));
  await raw.initialize("2025-11-25");
  const answer = await raw.request(1, SEARCH, {});
  assert.equal(answer.error.code, ErrorCode.MethodNotFound);
  assert.throws(() => new McpServer(SERVER, { session: { extensionMethods: { "com.example/café": { kind: "request", from: "client" } } } }), /"com.example\/café": a method name is visible ASCII/);
  assert.throws(() => new McpServer(SERVER, { session: { extensionMethods: { [SEARCH]: { kind: "request", from: "client", extension: "search" } } } }), /extension must be an extension identifier/);
  // A slash alone is not enough: the _meta key rules hold its prefix and name (draft basic/versioning).
  assert.throws(() => new McpServer(SERVER, { session: { extensionMethods: { [SEARCH]: { kind: "request", from: "client", extension: "acme/x/" } } } }), /extension must be an extension identifier, a _meta key with a prefix/);
});
