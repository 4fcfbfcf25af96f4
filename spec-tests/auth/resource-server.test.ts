// Spec: draft basic/authorization ("Access Token Usage", "Token Handling", "Error
// Handling", "Scope Challenge Handling") and authorization-server-discovery ("Protected
// Resource Metadata Discovery Requirements"); RFC 9728 §3, §5.1; RFC 6750 §3.1.
import { test } from "node:test";
import { LongBody } from "../harness/long-body.js";
import assert from "node:assert/strict";
import { authInfo, protectedResource, type VerifiedToken } from "../../src/auth/resource-server.js";
import { bearerChallenge } from "../../src/auth/www-authenticate.js";
import { McpServer } from "../../src/api/server.js";
import { createHttpHandler } from "../../src/transports/http-server.js";

const MCP = "http://mcp.test/mcp";
const PRM = "http://mcp.test/.well-known/oauth-protected-resource/mcp";
const tokens: Record<string, VerifiedToken> = {
  good: { scopes: ["mcp"], audience: MCP, subject: "alice", issuer: "http://as.test" },
  writer: { scopes: ["mcp", "files"], audience: [MCP, "http://other.test"], subject: "bob" },
  elsewhere: { scopes: ["mcp"], audience: "http://other.test/mcp" },
  expired: { scopes: ["mcp"], audience: MCP, expiresAt: 999 },
  foreign: { scopes: ["mcp"], audience: MCP, issuer: "http://rogue-as.test" },
};
const seen: (string | undefined)[] = [];
const diagnostics: string[] = [];
const handler = protectedResource(
  async (req) => {
    seen.push(authInfo(req)?.token.subject);
    return Response.json({ jsonrpc: "2.0", id: 1, result: {} });
  },
  {
    resource: MCP,
    authorizationServers: ["http://as.test"],
    scopesSupported: ["mcp"],
    metadata: { resource_name: "test server" },
    verifyToken: async (t) => {
      if (t === "explode") throw new Error("verifier down");
      return tokens[t];
    },
    requiredScopes: (body) => ((body as { params?: { name?: string } })?.params?.name === "write_file" ? ["mcp", "files:write", "audit"] : ["mcp"]),
    now: () => 1000,
    onDiagnostic: (d) => diagnostics.push(JSON.stringify(d)),
  },
);
const call = (token: string | undefined, body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" }, url = MCP) =>
  handler(new Request(url, { method: "POST", headers: { "content-type": "application/json", ...(token !== undefined ? { authorization: token } : {}) }, body: JSON.stringify(body) }));

test("RFC 9728 / authorization-server-discovery: MCP servers MUST serve Protected Resource Metadata with authorization_servers, at both well-known URIs", async () => {
  for (const url of [PRM, "http://mcp.test/.well-known/oauth-protected-resource"]) {
    const res = await handler(new Request(url));
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.resource, MCP);
    assert.deepEqual(doc.authorization_servers, ["http://as.test"]);
    assert.deepEqual(doc.scopes_supported, ["mcp"]);
    assert.equal(doc.resource_name, "test server");
  }
  assert.equal((await handler(new Request(PRM, { method: "POST", body: "{}" }))).status, 405);
  assert.equal((await handler(new Request(PRM, { method: "OPTIONS" }))).status, 204);
  assert.equal(await (await handler(new Request(PRM, { method: "HEAD" }))).text(), "");
});

test("authorization-server-discovery: a request without a token gets 401 with WWW-Authenticate naming resource_metadata and scope", async () => {
  const res = await call(undefined);
  assert.equal(res.status, 401);
  const c = bearerChallenge(res.headers.get("www-authenticate"))!;
  assert.equal(c.params.resource_metadata, PRM);
  assert.equal(c.params.scope, "mcp");
  assert.equal(c.params.error, undefined, "no error code when no credentials were sent (RFC 6750 §3.1)");
});

test("basic/authorization Token Handling: invalid, expired, wrongly-addressed and foreign tokens MUST receive HTTP 401", async () => {
  for (const [token, why] of [["Bearer nope", /invalid/], ["Bearer expired", /expired/], ["Bearer elsewhere", /not issued for this resource/], ["Bearer foreign", /does not trust/], ["Bearer explode", /invalid/]] as const) {
    const res = await call(token);
    assert.equal(res.status, 401, token);
    const c = bearerChallenge(res.headers.get("www-authenticate"))!;
    assert.equal(c.params.error, "invalid_token");
    assert.match(c.params.error_description, why);
    assert.equal((await res.json()).error, "invalid_token");
  }
  // The tokens themselves appear in no diagnostic.
  for (const d of diagnostics) assert.doesNotMatch(d, /nope|elsewhere|foreign|explode/);
});

test("basic/authorization Access Token Usage: access tokens MUST NOT be in the query string; such a request is refused with 400", async () => {
  const res = await call("Bearer good", undefined, `${MCP}?access_token=good`);
  assert.equal(res.status, 400);
  assert.equal(bearerChallenge(res.headers.get("www-authenticate"))!.params.error, "invalid_request");
});

test("basic/authorization Runtime Insufficient Scope Errors: 403 insufficient_scope naming every scope the operation needs, with resource_metadata", async () => {
  const body = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_file" } };
  const res = await call("Bearer good", body);
  assert.equal(res.status, 403);
  const c = bearerChallenge(res.headers.get("www-authenticate"))!;
  assert.equal(c.params.error, "insufficient_scope");
  assert.equal(c.params.scope, "mcp files:write audit", "all required scopes in one challenge");
  assert.equal(c.params.resource_metadata, PRM);
  // Servers MUST account for scope hierarchies: `files` covers `files:write` (but not `audit`).
  const res2 = await call("Bearer writer", body);
  assert.equal(res2.status, 403);
  assert.match(bearerChallenge(res2.headers.get("www-authenticate"))!.params.error_description, /audit$/);
});

test("basic/authorization Runtime Insufficient Scope Errors: a 2025-03-26 batch (a client may ask for that version) needs every scope any member needs: requiredScopes is asked member by member, so a per-tool check cannot be stepped around by wrapping the call in a batch (found by review: it got 200)", async () => {
  const write = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_file" } };
  const list = { jsonrpc: "2.0", id: 3, method: "tools/list" };
  for (const batch of [[write], [list, write]]) {
    const res = await call("Bearer good", batch);
    assert.equal(res.status, 403, JSON.stringify(batch));
    assert.equal(bearerChallenge(res.headers.get("www-authenticate"))!.params.scope, "mcp files:write audit");
  }
  assert.equal((await call("Bearer good", [list, list])).status, 200, "a batch whose members need no more passes");
});

test("RFC 8707 §2 (a query MAY scope requests to an application) + RFC 9728 §3.1: a resource with a query keeps it: the metadata names it, the challenge's resource_metadata carries it, a token for exactly it passes; one for the bare URL, another query or an empty one is another resource's (found by review: the query was dropped, so tenants shared one audience)", async () => {
  const resource = "https://x.example/mcp?tenant=a";
  const audiences: Record<string, string> = { same: resource, sameUpper: "HTTPS://X.EXAMPLE/mcp?tenant=a", bare: "https://x.example/mcp", other: "https://x.example/mcp?tenant=b", empty: "https://x.example/mcp?" };
  const h = protectedResource(async () => new Response("ok"), { resource, authorizationServers: ["https://as.example"], verifyToken: async (t) => ({ scopes: [], audience: audiences[t] }) });
  const status = async (t: string) => (await h(new Request(resource, { method: "POST", headers: { authorization: `Bearer ${t}` }, body: "{}" }))).status;
  for (const t of ["same", "sameUpper"]) assert.equal(await status(t), 200, t);
  for (const t of ["bare", "other", "empty"]) assert.equal(await status(t), 401, t);
  const metadataUrl = "https://x.example/.well-known/oauth-protected-resource/mcp?tenant=a";
  assert.equal((await (await h(new Request(metadataUrl))).json()).resource, resource);
  const challenge = bearerChallenge((await h(new Request(resource, { method: "POST", body: "{}" }))).headers.get("www-authenticate"))!;
  assert.equal(challenge.params.resource_metadata, metadataUrl);
});

test("RFC 9728 + CORS: a preflight for the metadata document is allowed the headers it asks for (a browser client's MCP-Protocol-Version), as the document is public", async () => {
  const res = await handler(new Request(PRM, { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "GET", "access-control-request-headers": "mcp-protocol-version" } }));
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-headers"), "mcp-protocol-version");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
});

test("basic/authorization: a valid token for this resource reaches the handler, which sees the principal; the server keeps serving after rejections", async () => {
  seen.length = 0;
  assert.equal((await call("Bearer good")).status, 200);
  assert.equal((await call("Bearer nope")).status, 401);
  assert.equal((await call("Bearer writer")).status, 200, "any of several audiences may name this resource");
  assert.deepEqual(seen, ["alice", "bob"]);
  // An unparseable body still reaches the handler (it answers the JSON-RPC parse error itself).
  const res = await handler(new Request(MCP, { method: "POST", headers: { authorization: "Bearer good" }, body: "{" }));
  assert.equal(res.status, 200);
});

test("basic/authorization Scope Challenge Handling: a scope the application derives from peer text (a tool named 天気) that is not ASCII cannot reach the challenge (RFC 6750 §3): the request still gets its 403, without that scope, instead of a thrown TypeError", async () => {
  const h = protectedResource(async () => Response.json({}), {
    resource: MCP,
    authorizationServers: ["http://as.test"],
    verifyToken: async (t) => tokens[t],
    requiredScopes: (body) => ["mcp", `tools:${(body as { params: { name: string } }).params.name}`],
    now: () => 1000,
  });
  const res = await h(new Request(MCP, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer good" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "天気" } }) }));
  assert.equal(res.status, 403);
  const c = bearerChallenge(res.headers.get("www-authenticate"))!;
  assert.equal(c.params.error, "insufficient_scope");
  assert.equal(c.params.scope, undefined);
});

test("basic/authorization: without requiredScopes, scopesSupported is what every request needs", async () => {
  const h = protectedResource(async () => new Response("ok"), { resource: "http://mcp.test/", authorizationServers: ["http://as.test"], verifyToken: async () => ({ scopes: [], audience: "http://mcp.test" }) });
  const ok = await h(new Request("http://mcp.test/", { headers: { authorization: "Bearer x" } }));
  assert.equal(ok.status, 200);
  const meta = await (await h(new Request("http://mcp.test/.well-known/oauth-protected-resource"))).json();
  assert.equal(meta.resource, "http://mcp.test");
  assert.equal(meta.scopes_supported, undefined);
  const h2 = protectedResource(async () => new Response("ok"), { resource: "http://mcp.test/", authorizationServers: ["http://as.test"], scopesSupported: ["s"], verifyToken: async () => ({ scopes: [], audience: "::bad::" }) });
  assert.equal((await h2(new Request("http://mcp.test/", { headers: { authorization: "Bearer x" } }))).status, 401);
});

test("basic/authorization Token Handling: a verifier answer of the wrong shape (no scopes list, no audience, scopes not strings) is an invalid token (an expiresAt of NaN, a `Date.parse` of garbage, too: it would never expire), 401 with the challenge, never a 500", async () => {
  for (const answer of [{ audience: "http://mcp.test" }, { scopes: ["s"] }, { scopes: "s", audience: "http://mcp.test" }, { scopes: [1], audience: "http://mcp.test" }, { scopes: [], audience: "http://mcp.test", expiresAt: "soon" }, { scopes: [], audience: "http://mcp.test", expiresAt: Number.NaN }, 42]) {
    const h = protectedResource(async () => new Response("ok"), { resource: "http://mcp.test/", authorizationServers: ["http://as.test"], verifyToken: async () => answer as never });
    const res = await h(new Request("http://mcp.test/", { headers: { authorization: "Bearer x" } }));
    assert.equal(res.status, 401, JSON.stringify(answer));
    assert.match(res.headers.get("www-authenticate") ?? "", /error="invalid_token"/, JSON.stringify(answer));
  }
});

test("2025-11-25 security best practices, Session Hijacking (README: httpSession({ principalOf }) binds each legacy session to the principal that opened it): a verifier's subject that is no string (a numeric user id) is the wrong shape, 401, since principalOf would read it as no principal and bind the session to nobody (found by review: another user's valid token then used and ended it)", async () => {
  const server = new McpServer({ name: "bound", version: "1.0.0" });
  const mcp = createHttpHandler({ sessionIdleMs: 0, allowedHosts: ["mcp.test"], createSession: server.httpSession({ principalOf: (req) => authInfo(req)?.token.subject }) });
  const subjects: Record<string, unknown> = { "token-alice": 1, "token-bob": 2, "token-carol": "3" };
  const guarded = protectedResource(mcp, {
    resource: MCP,
    authorizationServers: ["http://as.test"],
    verifyToken: async (t) => ({ scopes: [], audience: MCP, subject: subjects[t] }) as VerifiedToken,
  });
  const initialize = (token: string) =>
    guarded(
      new Request(MCP, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }),
      }),
    );
  const refused = await initialize("token-alice");
  assert.equal(refused.status, 401);
  assert.match(refused.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  assert.equal(mcp.sessionCount, 0, "no session bound to nobody was opened");
  const opened = await initialize("token-carol");
  assert.equal(opened.status, 200);
  await opened.text();
  assert.equal(mcp.sessionCount, 1);
  await mcp.close();
});

test("2025-11-25 security best practices, Session Hijacking, and basic/utilities/tasks (receivers MUST bind tasks to the authorization context): behind protectedResource, httpSession() with no principalOf binds each legacy session to the token's subject, so another user's valid token naming it gets 404; principalOf: () => undefined opts out", async () => {
  const subjects: Record<string, string> = { "token-alice": "alice", "token-bob": "bob" };
  const served = (principalOf?: () => undefined) => {
    const server = new McpServer({ name: "bound", version: "1.0.0" });
    server.tool("who", {}, (_a, ctx) => ({ content: [{ type: "text", text: String(ctx.principal) }] }));
    const mcp = createHttpHandler({ sessionIdleMs: 0, allowedHosts: ["mcp.test"], createSession: server.httpSession(principalOf === undefined ? {} : { principalOf }) });
    return { mcp, guarded: protectedResource(mcp, { resource: MCP, authorizationServers: ["http://as.test"], verifyToken: async (t) => (t in subjects ? { scopes: [], audience: MCP, subject: subjects[t] } : undefined) }) };
  };
  const post = (h: (r: Request) => Promise<Response>, token: string, body: object, session?: string) =>
    h(new Request(MCP, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...(session ? { "mcp-session-id": session } : {}) }, body: JSON.stringify(body) }));
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "who", arguments: {} } };
  for (const [label, optOut, bobStatus] of [["default", undefined, 404], ["opted out", () => undefined, 200]] as const) {
    const { mcp, guarded } = served(optOut);
    const opened = await post(guarded, "token-alice", initialize);
    assert.equal(opened.status, 200, label);
    await opened.text();
    const session = opened.headers.get("mcp-session-id")!;
    await (await post(guarded, "token-alice", { jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
    const own = await post(guarded, "token-alice", call, session);
    assert.equal(own.status, 200, label);
    assert.match(await own.text(), optOut === undefined ? /"text":"alice"/ : /"text":"undefined"/, label);
    const other = await post(guarded, "token-bob", call, session);
    assert.equal(other.status, bobStatus, `${label}: another user's token on the session`);
    await other.text();
    await mcp.close();
  }
});

test("basic/authorization + CORS: a preflight (which never carries a token) reaches the inner handler; a cross-origin 401 is readable, challenge included", async () => {
  let inner = 0;
  const wrapped = protectedResource(
    async (req) => {
      inner++;
      return new Response(null, { status: 204, headers: { "access-control-allow-origin": req.headers.get("origin")! } });
    },
    { resource: MCP, authorizationServers: ["http://as.test"], verifyToken: async () => undefined },
  );
  const origin = "http://localhost:5173";
  const pre = await wrapped(new Request(MCP, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } }));
  assert.equal(pre.status, 204);
  assert.equal(inner, 1);
  // OPTIONS that is not a preflight is an ordinary request: it needs a token.
  assert.equal((await wrapped(new Request(MCP, { method: "OPTIONS" }))).status, 401);
  const denied = await wrapped(new Request(MCP, { method: "POST", headers: { origin, "content-type": "application/json" }, body: "{}" }));
  assert.equal(denied.status, 401);
  assert.equal(denied.headers.get("access-control-allow-origin"), origin);
  assert.match(denied.headers.get("access-control-expose-headers")!, /www-authenticate/);
  assert.ok(bearerChallenge(denied.headers.get("www-authenticate")!)?.params.resource_metadata);
  assert.equal(inner, 1);
  const noOrigin = await wrapped(new Request(MCP, { method: "POST", body: "{}" }));
  assert.equal(noOrigin.headers.get("access-control-allow-origin"), null);
});

test("2025-11-25 basic/transports Security Warning (an Origin present and invalid MUST get 403) + README Authorization (any other Host gets 403): behind protectedResource a refused Origin or Host gets the handler's 403 with or without a token, never a 401 challenge echoing that origin in CORS; an admitted one still gets the 401", async () => {
  const refusals: string[] = [];
  const inner = createHttpHandler({
    path: "/mcp",
    createSession: () => ({ options: { role: "server", info: { name: "s", version: "1" }, capabilities: {} } }),
    onDiagnostic: (d) => refusals.push(d.message),
  });
  const wrapped = protectedResource(inner, { resource: "http://127.0.0.1:3000/mcp", authorizationServers: ["http://as.test"], verifyToken: async () => undefined });
  const post = (headers: Record<string, string>) =>
    wrapped(new Request("http://127.0.0.1:3000/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers }, body: "{}" }));
  for (const [label, headers] of [
    ["an Origin outside allowedOrigins", { origin: "https://evil.example" }],
    ["a rebinding Host", { host: "evil.example" }],
  ] as const) {
    for (const auth of [{}, { authorization: "Bearer nope" }] as Record<string, string>[]) {
      const res = await post({ ...headers, ...auth });
      assert.equal(res.status, 403, label);
      assert.equal(res.headers.get("access-control-allow-origin"), null, `${label}: no CORS for a refused origin`);
      assert.equal(res.headers.get("www-authenticate"), null, label);
      assert.equal((await res.json()).error.code, -32600);
    }
  }
  assert.equal(refusals.length, 4, "the handler answered (and reported) each refusal");
  const admitted = await post({ origin: "http://localhost:5173" });
  assert.equal(admitted.status, 401);
  assert.equal(admitted.headers.get("access-control-allow-origin"), "http://localhost:5173");
  await admitted.body?.cancel();
});

test("basic/authorization Token Handling (MUST validate that access tokens were issued specifically for them) + RFC 8707 §2: an audience with another query is another resource, one with a fragment is no resource identifier: 401", async () => {
  const audiences: Record<string, string> = {
    query: "https://mcp.example.com/mcp?tenant=other",
    emptyQuery: "https://mcp.example.com/mcp?",
    fragment: "https://mcp.example.com/mcp#x",
    // Lenient where the canonical form is: case of scheme and host, default port, trailing slash.
    upper: "HTTPS://MCP.EXAMPLE.COM/mcp",
    port: "https://mcp.example.com:443/mcp",
    slash: "https://mcp.example.com/mcp/",
  };
  const h = protectedResource(async () => new Response("ok"), {
    resource: "https://mcp.example.com/mcp",
    authorizationServers: ["https://as.example.com"],
    verifyToken: async (t) => ({ scopes: [], audience: audiences[t] }),
  });
  const status = async (t: string) => (await h(new Request("https://mcp.example.com/mcp", { method: "POST", headers: { authorization: `Bearer ${t}` }, body: "{}" }))).status;
  for (const t of ["query", "emptyQuery", "fragment"]) assert.equal(await status(t), 401, t);
  for (const t of ["upper", "port", "slash"]) assert.equal(await status(t), 200, t);
});

test("RFC 6750 §3.1: another authentication scheme gets 401 without an error code; a malformed Bearer header is 400 invalid_request (the MCP error table's 'Malformed authorization request')", async () => {
  const basic = await call("Basic Zm9vOmJhcg==");
  assert.equal(basic.status, 401);
  const c = bearerChallenge(basic.headers.get("www-authenticate"))!;
  assert.equal(c.params.error, undefined, "an unsupported method is treated like no credentials");
  assert.equal(c.params.resource_metadata, PRM);
  for (const header of ["Bearer a b", "Bearer ", "Bearer", "bearer tok en"]) {
    const res = await call(header);
    assert.equal(res.status, 400, header);
    assert.equal(bearerChallenge(res.headers.get("www-authenticate"))!.params.error, "invalid_request", header);
    assert.equal((await res.json()).error, "invalid_request");
  }
  // The server keeps serving.
  assert.equal((await call("Bearer good")).status, 200);
});

test("basic/authorization + basic/transports (HTTP error status for input the server cannot accept): with requiredScopes, a POST body past maxBodyBytes is answered 413 after reading at most that much, and never reaches the handler", async () => {
  const long = new LongBody(16 << 20);
  const endless = long.stream();
  seen.length = 0;
  const res = await handler(new Request(MCP, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer good", origin: "http://page.test" }, body: endless, duplex: "half" } as RequestInit));
  assert.equal(res.status, 413);
  const body = (await res.json()) as { error: { code: number; message: string } };
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /request body exceeds 4194304 bytes/);
  assert.equal(res.headers.get("access-control-allow-origin"), "http://page.test");
  assert.ok(long.pulled <= (4 << 20) + 4 * LongBody.CHUNK_BYTES, `read ${long.pulled} bytes`);
  assert.ok(long.cancelled > 0, "the body stream was cancelled");
  assert.deepEqual(seen, []);
  // The option, and a body within it, which the handler still gets whole.
  const small = protectedResource(async (req) => Response.json({ length: (await req.text()).length }), {
    resource: MCP,
    authorizationServers: ["http://as.test"],
    verifyToken: async (t) => tokens[t],
    requiredScopes: () => ["mcp"],
    maxBodyBytes: 100,
  });
  const post = (text: string) => small(new Request(MCP, { method: "POST", headers: { authorization: "Bearer good" }, body: text }));
  assert.equal((await post("x".repeat(101))).status, 413);
  assert.deepEqual(await (await post("x".repeat(100))).json(), { length: 100 });
});

test("basic/authorization Runtime Insufficient Scope Errors (the scopes the operation needs) + Token Handling (validate before processing): a body whose read for requiredScopes is cut off (the request's signal aborted mid-body) is answered 400 and never reaches the handler, even if the rest of it still arrives (found by review: it ran, a files:write call on a token without that scope)", { timeout: 10_000 }, async () => {
  let handled: string | undefined;
  const guarded = protectedResource(
    async (req) => {
      handled = await req.text();
      return Response.json({ jsonrpc: "2.0", id: 1, result: {} });
    },
    {
      resource: MCP,
      authorizationServers: ["http://as.test"],
      verifyToken: async (t) => tokens[t],
      requiredScopes: (body) => ((body as { params?: { name?: string } } | undefined)?.params?.name === "write_file" ? ["files:write"] : ["mcp"]),
    },
  );
  const encoder = new TextEncoder();
  let pulls = 0;
  let secondPull!: () => void;
  const waiting = new Promise<void>((r) => (secondPull = r));
  let source!: ReadableStreamDefaultController<Uint8Array>;
  // Pulled only on demand: the second pull is the wrapper's read waiting for the rest.
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (source = c),
      pull: (c) => {
        if (++pulls === 1) c.enqueue(encoder.encode('{"jsonrpc":"2.0","id":1,"method":"tools/call",'));
        else secondPull();
      },
    },
    { highWaterMark: 0 },
  );
  const client = new AbortController();
  const answer = guarded(new Request(MCP, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer good" }, body, duplex: "half", signal: client.signal } as RequestInit));
  await waiting;
  client.abort();
  source.enqueue(encoder.encode('"params":{"name":"write_file","arguments":{}}}'));
  source.close();
  const res = await answer;
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32700);
  assert.equal(handled, undefined, "the handler never saw the request");
});

test("basic/authorization Token Handling (expired tokens get 401): against a clock that reads a real date, a verifier's expiresAt in seconds (a JWT's exp, as the official SDKs' verifiers give it) is read as seconds; in milliseconds, as milliseconds", async () => {
  const NOW = Date.UTC(2026, 11, 7); // ms
  const answers: Record<string, VerifiedToken> = {
    "seconds-ahead": { scopes: ["mcp"], audience: MCP, expiresAt: NOW / 1000 + 3600 },
    "seconds-past": { scopes: ["mcp"], audience: MCP, expiresAt: NOW / 1000 - 1 },
    "ms-ahead": { scopes: ["mcp"], audience: MCP, expiresAt: NOW + 3600_000 },
    "ms-past": { scopes: ["mcp"], audience: MCP, expiresAt: NOW - 1 },
    // A millisecond time before 1973 would read as centuries ahead in seconds: it stays milliseconds, and has expired.
    "ms-1972": { scopes: ["mcp"], audience: MCP, expiresAt: Date.UTC(1972, 0, 1) },
    "zero": { scopes: ["mcp"], audience: MCP, expiresAt: 0 },
  };
  const guarded = protectedResource(async () => Response.json({ jsonrpc: "2.0", id: 1, result: {} }), {
    resource: MCP,
    authorizationServers: ["http://as.test"],
    verifyToken: async (t) => answers[t],
    now: () => NOW,
  });
  const status = async (token: string) => (await guarded(new Request(MCP, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" }))).status;
  assert.deepEqual(await Promise.all(Object.keys(answers).map(status)), [200, 401, 200, 401, 401, 401]);
});

test("README (options checked where they are given): protectedResource refuses options it would misread, naming them: a misspelled requiredScopes (every operation then needed only scopesSupported, per-tool scopes never enforced), a maxBodyBytes that is no number (no bound at all), no verifyToken, a requiredScopes that is a list (the official SDK's shape: every request failed) rather than a function", () => {
  const base = { resource: MCP, authorizationServers: ["http://as.test"], verifyToken: async () => undefined };
  const inner = async () => new Response("ok");
  const cases: [() => unknown, RegExp][] = [
    [() => protectedResource(inner, { ...base, requiredScope: () => ["files:write"] } as never), /protectedResource: unknown option "requiredScope"; did you mean "requiredScopes"\?/],
    [() => protectedResource(inner, { ...base, scopeSupported: ["mcp"] } as never), /did you mean "scopesSupported"\?/],
    [() => protectedResource(inner, { ...base, maxBodyBytes: "1mb" } as never), /protectedResource: maxBodyBytes must be a number >= 0 \(got "1mb"\)/],
    [() => protectedResource(inner, { ...base, verifyToken: undefined } as never), /protectedResource: verifyToken must be a function/],
    // The official SDK's shape, ported as is: every request failed with "options.requiredScopes is not a function".
    [() => protectedResource(inner, { ...base, requiredScopes: ["files:write"] } as never), /protectedResource: requiredScopes must be a function \(body, request\) => string\[\]; scopes every request needs go in scopesSupported/],
    [() => protectedResource(base as never, inner as never), /protectedResource takes the fetch-style handler to protect first/],
  ];
  for (const [build, message] of cases) assert.throws(build, (e: unknown) => (e instanceof TypeError || e instanceof RangeError) && message.test(e.message), String(message));
  // Options given as undefined are left out; other unknown names are left alone.
  protectedResource(inner, { ...base, scopesSupported: undefined, requiredScopes: undefined, maxBodyBytes: undefined, metadata: undefined, now: undefined, onDiagnostic: undefined, scopeSatisfies: undefined, tenant: "x" } as never);
});


test("authorization-server-discovery (the Protected Resource Metadata document MUST include authorization_servers containing at least one authorization server) + README (options checked where they are given): protectedResource refuses no authorization servers, or one given as a string (spread into characters in the document, and its issuer check a substring match that trusted a token from \"auth\"), and scopesSupported given as a string", async () => {
  const base = { resource: MCP, authorizationServers: ["http://as.test"], verifyToken: async () => undefined };
  const inner = async () => new Response("ok");
  const cases: [() => unknown, RegExp][] = [
    [() => protectedResource(inner, { ...base, authorizationServers: [] }), /protectedResource: authorizationServers must be a non-empty list of issuer URLs/],
    [() => protectedResource(inner, { ...base, authorizationServers: "http://as.test" } as never), /authorizationServers must be a non-empty list/],
    [() => protectedResource(inner, { ...base, authorizationServers: undefined } as never), /authorizationServers must be a non-empty list/],
    [() => protectedResource(inner, { ...base, scopesSupported: "mcp" } as never), /protectedResource: scopesSupported must be a list of scopes/],
  ];
  for (const [build, message] of cases) assert.throws(build, (e: unknown) => e instanceof TypeError && message.test(e.message), String(message));
});
