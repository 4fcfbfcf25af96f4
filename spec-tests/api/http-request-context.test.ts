/**
 * `ctx.httpRequest`: the HTTP request that carried the request a handler serves, so a tool
 * reads its headers and, behind `protectedResource`, the token it came with (the SDK's
 * `extra.requestInfo` and `extra.authInfo`).
 *
 * Spec: 2025-11-25 `basic/authorization`, Token Handling ("MCP servers MUST validate access
 * tokens" on every request; "authorization MUST be included in every HTTP request from
 * client to server, even if they are part of the same logical session"), so each request
 * of a session may come with its own token (a refreshed one, wider scopes after a step-up),
 * and a handler deciding by scope must see that request's; draft `basic/transports/
 * streamable-http` (a modern request is its own HTTP request).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { authInfo, protectedResource } from "../../src/auth/resource-server.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";
import { MODERN_VERSIONS } from "../../src/model/versions.js";
import { deferred } from "../http/helpers.js";

const RESOURCE = "http://127.0.0.1/mcp";
const TOKENS: Record<string, string[]> = { "token-read": ["files:read"], "token-write": ["files:read", "files:write"] };

/** A server whose `delete` tool checks the scope of the very request, and whose `whoami` echoes a header. */
function server(): McpServer {
  const s = new McpServer({ name: "scoped", version: "1.0.0" });
  s.tool("delete", {}, (_args, ctx) => {
    const scopes = authInfo(ctx.httpRequest)?.scopes ?? [];
    if (!scopes.includes("files:write")) return { content: [{ type: "text", text: "needs files:write" }], isError: true };
    return { content: [{ type: "text", text: "deleted" }] };
  });
  s.tool("whoami", {}, (_args, ctx) => ({ content: [{ type: "text", text: ctx.httpRequest?.headers.get("x-trace") ?? "no request" }] }));
  return s;
}

/** A guarded handler, and a fetch that sends whichever token `current.token` names. */
function guarded(mcp: (req: Request) => Promise<Response>) {
  const current = { token: "token-read", trace: "t0" };
  const handler = protectedResource(mcp, {
    resource: RESOURCE,
    authorizationServers: ["http://127.0.0.1:7001"],
    verifyToken: async (t) => (TOKENS[t] ? { scopes: TOKENS[t], audience: RESOURCE, subject: "alice" } : undefined),
  });
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    req.headers.set("authorization", `Bearer ${current.token}`);
    req.headers.set("x-trace", current.trace);
    return handler(req);
  };
  return { current, fetch };
}

const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

test("basic/authorization Token Handling: in one legacy session, each tool call sees the token of its own HTTP request (a wider one after a step-up)", async () => {
  for (const stateless of [false, true]) {
    const mcp = createHttpHandler({ sessionIdleMs: 0, stateless, createSession: server().httpSession({ principalOf: (req) => authInfo(req)?.token.subject }) });
    const { current, fetch } = guarded(mcp);
    const client = new McpClient({ name: "c", version: "1" });
    await client.connect(httpClientTransport(RESOURCE, { fetch, openGetStream: false }));
    assert.equal(text(await client.callTool("delete", {})), "needs files:write");
    current.token = "token-write";
    assert.equal(text(await client.callTool("delete", {})), "deleted");
    current.token = "token-read";
    assert.equal(text(await client.callTool("delete", {})), "needs files:write", "the scope is the request's, not the session's");
    current.trace = "t1";
    assert.equal(text(await client.callTool("whoami", {})), "t1");
    current.trace = "t2";
    assert.equal(text(await client.callTool("whoami", {})), "t2");
    await client.close();
  }
});

test("streamable-http (draft): a modern request's ctx.httpRequest is that request, token and headers", async () => {
  const mcp = createHttpHandler({ createSession: server().httpSession() });
  const { current, fetch } = guarded(mcp);
  const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [...MODERN_VERSIONS] } });
  await client.connect(httpClientTransport(RESOURCE, { fetch }));
  current.token = "token-write";
  current.trace = "modern";
  assert.equal(text(await client.callTool("delete", {})), "deleted");
  assert.equal(text(await client.callTool("whoami", {})), "modern");
  await client.close();
});

test("ctx.httpRequest under the node:http bridge's fast path (no Fetch objects until read): the request's headers", async () => {
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: server().httpSession() });
  const node = await serveNode(mcp, { port: 0, host: "127.0.0.1" });
  try {
    let trace = "a";
    const client = new McpClient({ name: "c", version: "1" });
    await client.connect(httpClientTransport(`${node.url}/mcp`, { requestHeaders: () => ({ "x-trace": trace }) }));
    assert.equal(text(await client.callTool("whoami", {})), "a");
    trace = "b";
    assert.equal(text(await client.callTool("whoami", {})), "b");
    await client.close();
  } finally {
    await node.close();
  }
});

test("ctx.httpRequest is undefined off HTTP (in memory, stdio)", async () => {
  const s = server();
  const [a, b] = createMemoryPair();
  s.connect(a);
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(b);
  assert.equal(text(await client.callTool("whoami", {})), "no request");
  assert.equal(text(await client.callTool("delete", {})), "needs files:write");
  await client.close();
});

test("basic/utilities/tasks: a tool running as a task keeps the HTTP request that created it", async () => {
  const s = new McpServer({ name: "t", version: "1" });
  const gate = deferred();
  s.tool("job", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
    await gate.promise;
    return { content: [{ type: "text", text: `${ctx.taskId !== undefined} ${ctx.httpRequest?.headers.get("x-trace")}` }] };
  });
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: s.httpSession() });
  const { current, fetch } = guarded(mcp);
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(httpClientTransport(RESOURCE, { fetch, openGetStream: false }));
  await client.listTools();
  current.trace = "creator";
  const taskId = client.taskIdOf(await client.callToolAsTask("job", {}))!;
  current.trace = "poller";
  const result = client.getTaskResult(taskId);
  gate.resolve();
  assert.equal(text((await result) as { content: unknown[] }), "true creator");
  await client.close();
});

test("ctx.httpRequest is let go once the request is answered (a context kept on does not keep the request and its body)", async () => {
  const s = new McpServer({ name: "kept", version: "1" });
  const kept: { httpRequest: Request | undefined }[] = [];
  s.tool("keep", {}, (_args, ctx) => {
    kept.push(ctx);
    return { content: [{ type: "text", text: String(ctx.httpRequest !== undefined) }] };
  });
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: s.httpSession() });
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(httpClientTransport(RESOURCE, { fetch: (input, init) => mcp(new Request(input, init)), openGetStream: false }));
  assert.equal(text(await client.callTool("keep", {})), "true");
  assert.equal(kept[0].httpRequest, undefined);
  await client.close();
});
