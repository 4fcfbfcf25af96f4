// Spec: draft basic/authorization end to end, as a user wires it: McpServer behind the
// Streamable HTTP handler wrapped by protectedResource, McpClient over the fetch client
// whose fetch is oauthFetch. "Authorization MUST be included in every HTTP request from
// client to server" — including the session's later POSTs, GET stream and DELETE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { authInfo, protectedResource } from "../../src/auth/resource-server.js";
import { followAuthorizationRedirect, OAuthError, oauthFetch } from "../../src/auth/oauth-fetch.js";
import { TestAuthServer, routeFetch } from "./fixtures/auth-server.js";

test("basic/authorization end to end: an unauthenticated McpClient authorizes through OAuth and then calls a tool; every HTTP request carried the token", async () => {
  const as = new TestAuthServer({ issuer: "http://127.0.0.1:7001" });
  const server = new McpServer({ name: "protected", version: "1.0.0" });
  server.tool("whoami", { description: "the caller" }, () => ({ content: [{ type: "text", text: "ok" }] }));
  const mcp = createHttpHandler({
    sessionIdleMs: 0,
    createSession: server.httpSession({ principalOf: (req) => authInfo(req)?.token.subject }),
  });
  const subjects = new Set<string | undefined>();
  let unauthenticated = 0;
  const guarded = protectedResource(
    async (req) => {
      subjects.add(authInfo(req)?.token.subject);
      return mcp(req);
    },
    { resource: "http://127.0.0.1:7000/mcp", authorizationServers: [as.options.issuer], scopesSupported: ["mcp"], verifyToken: as.verifyToken },
  );
  const counting = async (req: Request) => {
    if (!req.headers.get("authorization") && !new URL(req.url).pathname.startsWith("/.well-known")) unauthenticated++;
    return guarded(req);
  };
  const f = routeFetch({ "http://127.0.0.1:7000": counting, "http://127.0.0.1:7001": as.handle });
  const authFetch = oauthFetch({ serverUrl: "http://127.0.0.1:7000/mcp", redirectUri: "http://127.0.0.1:7002/cb", clientName: "e2e", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  const client = new McpClient({ name: "e2e", version: "1.0.0" });
  await client.connect(httpClientTransport("http://127.0.0.1:7000/mcp", { fetch: authFetch }));
  const r = await client.callTool("whoami", {});
  assert.equal((r.content[0] as { text: string }).text, "ok");
  assert.deepEqual([...subjects], ["dyn-1"], "the handler saw the principal");
  assert.equal(unauthenticated, 1, "only the very first request went without a token");
  await client.close();
});

test("basic/utilities/tasks Isolation + extensions/tasks: with authorization a task is bound to its principal; another user's client cannot read or cancel it", async () => {
  const server = new McpServer({ name: "tasks", version: "1.0.0" }, { session: { versions: ["2026-07-28", "2025-11-25"] } });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  server.tool("job", { execution: { taskSupport: "optional" } }, async () => {
    await gate;
    return { content: [{ type: "text" as const, text: "done" }] };
  });
  const users: Record<string, string> = { "token-alice": "alice", "token-bob": "bob" };
  const guarded = protectedResource(createHttpHandler({ createSession: server.httpSession({ principalOf: (req) => authInfo(req)?.token.subject }) }), {
    resource: "http://127.0.0.1:7000/mcp",
    authorizationServers: ["http://127.0.0.1:7001"],
    verifyToken: async (t) => (users[t] ? { scopes: [], audience: "http://127.0.0.1:7000/mcp", subject: users[t] } : undefined),
  });
  const clientAs = async (token: string) => {
    const client = new McpClient({ name: token, version: "1.0.0" }, { tasks: true, session: { versions: ["2026-07-28"] } });
    const fetch = (url: string, init?: RequestInit) => guarded(new Request(url, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }));
    await client.connect(httpClientTransport("http://127.0.0.1:7000/mcp", { fetch }));
    return client;
  };
  const alice = await clientAs("token-alice");
  const bob = await clientAs("token-bob");
  const id = alice.taskIdOf(await alice.callToolAsTask("job", {}))!;
  assert.ok(id, "a task was created");
  assert.equal((await alice.getTask(id)).status, "working");
  await assert.rejects(bob.getTask(id), (e: { code?: number }) => e.code === -32602, "bob cannot see alice's task");
  await assert.rejects(bob.cancelTask(id), (e: { code?: number }) => e.code === -32602);
  release();
  const result = await alice.waitForTask(id, { intervalMs: 0 });
  assert.deepEqual((result as { content: unknown }).content, [{ type: "text", text: "done" }]);
  await alice.close();
  await bob.close();
});

test("2025-11-25 basic/transports Session Management → security_best_practices#session-hijacking: a legacy session is bound to the principal that opened it; another user's valid token with its MCP-Session-Id gets the 404 of an unknown session (POST, GET, DELETE)", async () => {
  const server = new McpServer({ name: "bound", version: "1.0.0" });
  const callers: string[] = [];
  server.tool("whoami", { description: "the caller" }, () => ({ content: [{ type: "text", text: "served" }] }));
  const users: Record<string, string> = { "token-alice": "alice", "token-bob": "bob" };
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({ principalOf: (req) => authInfo(req)?.token.subject }) });
  const guarded = protectedResource(
    async (req) => {
      callers.push(authInfo(req)!.token.subject!);
      return mcp(req);
    },
    {
      resource: "http://127.0.0.1:7000/mcp",
      authorizationServers: ["http://127.0.0.1:7001"],
      verifyToken: async (t) => (users[t] ? { scopes: [], audience: "http://127.0.0.1:7000/mcp", subject: users[t] } : undefined),
    },
  );
  const send = (method: string, token: string, sid: string | undefined, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: method === "GET" ? "text/event-stream" : "application/json, text/event-stream" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (sid !== undefined) Object.assign(headers, { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" });
    return guarded(new Request("http://127.0.0.1/mcp", { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }));
  };
  const init = await send("POST", "token-alice", undefined, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "alice", version: "1" } } });
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  assert.equal((await send("POST", "token-alice", sid, { jsonrpc: "2.0", method: "notifications/initialized" })).status, 202);
  const unknown = await (await send("POST", "token-bob", "no-such-session", { jsonrpc: "2.0", id: 2, method: "ping" })).text();
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };
  const hijack = await send("POST", "token-bob", sid, call);
  assert.equal(hijack.status, 404);
  assert.equal(await hijack.text(), unknown, "the same answer as for a session that does not exist");
  const stream = await send("GET", "token-bob", sid);
  assert.equal(stream.status, 404);
  assert.equal(await stream.text(), unknown);
  const del = await send("DELETE", "token-bob", sid);
  assert.equal(del.status, 404);
  assert.equal(await del.text(), unknown);
  assert.equal(mcp.sessionCount, 1, "bob's DELETE ended nothing");
  // Alice's session serves on.
  const mine = await send("POST", "token-alice", sid, call);
  assert.equal(mine.status, 200);
  assert.match(await mine.text(), /served/);
  assert.equal((await send("DELETE", "token-alice", sid)).status, 204);
  assert.equal(mcp.sessionCount, 0);
});

test("Session Hijacking: a session opened without a principal (no authorization) is bound to none, as before", async () => {
  const server = new McpServer({ name: "open", version: "1.0.0" });
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({ principalOf: (req) => req.headers.get("x-user") ?? undefined }) });
  const post = (body: unknown, sid?: string, user?: string) =>
    mcp(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...(sid ? { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" } : {}), ...(user ? { "x-user": user } : {}) },
        body: JSON.stringify(body),
      }),
    );
  const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  const sid = init.headers.get("mcp-session-id")!;
  assert.equal((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sid)).status, 202);
  assert.equal((await post({ jsonrpc: "2.0", id: 2, method: "ping" }, sid, "carol")).status, 200);
});

test("README (an OAuthError is that request's failure, -32603, not re-sent) + basic/authorization: a user who closes the authorization window (openAuthorization rejects) fails the modern request once; the browser is not opened again for each re-issue", { timeout: 10_000 }, async () => {
  const as = new TestAuthServer({ issuer: "http://127.0.0.1:7001" });
  const server = new McpServer({ name: "protected", version: "1.0.0" }, { session: { versions: ["2026-07-28"] } });
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({}) });
  const guarded = protectedResource(mcp, { resource: "http://127.0.0.1:7000/mcp", authorizationServers: [as.options.issuer], scopesSupported: ["mcp"], verifyToken: as.verifyToken });
  const f = routeFetch({ "http://127.0.0.1:7000": guarded, "http://127.0.0.1:7001": as.handle });
  let opened = 0;
  const authFetch = oauthFetch({
    serverUrl: "http://127.0.0.1:7000/mcp",
    redirectUri: "http://127.0.0.1:7002/cb",
    clientName: "e2e",
    fetch: f,
    openAuthorization: async () => {
      opened++;
      throw new Error("the user closed the window");
    },
  });
  // The refusal surfaces from oauthFetch itself as an OAuthError saying why.
  await assert.rejects(authFetch("http://127.0.0.1:7000/mcp", { method: "POST", body: "{}" }), (e: unknown) => e instanceof OAuthError && /not completed: the user closed the window/.test(e.message));
  opened = 0;
  const client = new McpClient({ name: "e2e", version: "1.0.0" }, { session: { versions: ["2026-07-28"] } });
  await assert.rejects(client.connect(httpClientTransport("http://127.0.0.1:7000/mcp", { fetch: authFetch, sleep: async () => {} })), /the user closed the window/);
  assert.equal(opened, 1, "one authorization window for the request, not one per re-issue");
  await client.close();
});

test("2025-11-25 basic/transports Session Management (clients SHOULD DELETE a session they no longer need: a courtesy) + basic/authorization: the DELETE close() sends with an expired token and no refresh token gets its 401 and ends there; no authorization (a login window while the application closes) is started for it", { timeout: 10_000 }, async () => {
  const as = new TestAuthServer({ issuer: "http://127.0.0.1:7001", expiresIn: 60 });
  const server = new McpServer({ name: "protected", version: "1.0.0" }, { session: { versions: ["2025-11-25"] } });
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({}) });
  const guarded = protectedResource(mcp, { resource: "http://127.0.0.1:7000/mcp", authorizationServers: [as.options.issuer], scopesSupported: ["mcp"], verifyToken: as.verifyToken, now: () => as.now });
  const f = routeFetch({ "http://127.0.0.1:7000": guarded, "http://127.0.0.1:7001": as.handle });
  let opened = 0;
  const authorize = followAuthorizationRedirect(f);
  const authFetch = oauthFetch({ serverUrl: "http://127.0.0.1:7000/mcp", redirectUri: "http://127.0.0.1:7002/cb", clientName: "e2e", fetch: f, now: () => as.now, openAuthorization: (url) => (opened++, authorize(url)) });
  let deleted: Promise<Response> | undefined;
  const fetch = (input: string, init: RequestInit) => {
    const res = authFetch(input, init);
    if (init.method === "DELETE") deleted = res;
    return res;
  };
  const client = new McpClient({ name: "e2e", version: "1.0.0" }, { session: { versions: ["2025-11-25"] } });
  await client.connect(httpClientTransport("http://127.0.0.1:7000/mcp", { fetch, openGetStream: false }));
  assert.equal(opened, 1);
  as.now += 61_000; // the token expired; there is no refresh token
  await client.close();
  assert.ok(deleted, "close() sent the DELETE");
  assert.equal((await deleted).status, 401, "the DELETE went with the token held, and its 401 ended it");
  assert.equal(opened, 1, "no authorization window for the courtesy DELETE");
});
