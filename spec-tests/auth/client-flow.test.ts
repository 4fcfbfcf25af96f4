// Spec: draft basic/authorization (index: "Authorization Flow Steps", "Authorization
// Response Validation", "Resource Parameter Implementation", "Scope Selection Strategy",
// "Step-Up Authorization Flow", "Refresh Tokens"), authorization-server-discovery and
// client-registration; 2025-03-26 basic/authorization for the fallbacks. The client is
// the real reducer run by its fetch adapter, against the test authorization server and
// the real resource-server wrapper, routed in-process.
import { test } from "node:test";
import { LongBody } from "../harness/long-body.js";
import assert from "node:assert/strict";
import { followAuthorizationRedirect, OAuthError, oauthFetch, type OAuthFetchAuthorizationCodeOptions, type OAuthSaved } from "../../src/auth/oauth-fetch.js";
import { protectedResource } from "../../src/auth/resource-server.js";
import { TestAuthServer, redirectingFetch, routeFetch, type AuthServerOptions } from "./fixtures/auth-server.js";

const MCP = "https://mcp.test/mcp";
const REDIRECT = "http://127.0.0.1:9999/callback";
const WRITE = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write" } };

interface World {
  as: TestAuthServer;
  client: ReturnType<typeof oauthFetch>;
  post: (body?: unknown) => Promise<Response>;
  mcpAuth: (string | null)[];
  /** Another run of the client (a restart) against the same servers, e.g. with `saved`. */
  rerun: (clientOptions: Partial<OAuthFetchAuthorizationCodeOptions>) => (body?: unknown) => Promise<Response>;
}

function world(asOptions: Partial<AuthServerOptions> = {}, clientOptions: Partial<OAuthFetchAuthorizationCodeOptions> = {}, rs: { scopes?: string[]; writeScopes?: string[] } = {}): World {
  const as = new TestAuthServer({ issuer: "https://as.test", ...asOptions });
  const mcpAuth: (string | null)[] = [];
  const resource = protectedResource(
    async (req) => {
      mcpAuth.push(req.headers.get("authorization"));
      return Response.json({ jsonrpc: "2.0", id: 1, result: {} });
    },
    {
      resource: MCP,
      authorizationServers: [as.options.issuer],
      scopesSupported: rs.scopes ?? ["mcp"],
      verifyToken: as.verifyToken,
      requiredScopes: (body) => {
        const name = (body as { params?: { name?: string } })?.params?.name;
        const base = rs.scopes ?? ["mcp"];
        return name === "write" ? [...base, ...(rs.writeScopes ?? ["files:write"])] : name === "admin" ? [...base, "admin"] : base;
      },
      now: () => as.now,
    },
  );
  const routes: Record<string, (r: Request) => Promise<Response>> = { "https://mcp.test": resource };
  routes[new URL(as.options.issuer).origin] = as.handle;
  const f = routeFetch(routes);
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "test client", fetch: f, openAuthorization: followAuthorizationRedirect(f), now: () => as.now, ...clientOptions });
  const poster = (c: ReturnType<typeof oauthFetch>) => (body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" }) => c(MCP, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const options = { serverUrl: MCP, redirectUri: REDIRECT, clientName: "test client", fetch: f, openAuthorization: followAuthorizationRedirect(f), now: () => as.now };
  const rerun = (more: Partial<OAuthFetchAuthorizationCodeOptions>) => poster(oauthFetch({ ...options, ...clientOptions, ...more }));
  return { as, client, post: poster(client), mcpAuth, rerun };
}

const paths = (as: TestAuthServer) => as.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);

test("authorization flow: 401 → PRM from WWW-Authenticate → AS metadata → DCR → PKCE S256 authorization with resource → token → the request is retried with the token", async () => {
  const w = world();
  const res = await w.post();
  assert.equal(res.status, 200);
  assert.deepEqual(paths(w.as), ["GET /.well-known/oauth-authorization-server", "POST /register", "GET /authorize", "POST /token"]);
  const reg = w.as.registrations[0];
  // client-registration: MUST specify application_type; native for a loopback redirect.
  assert.equal(reg.application_type, "native");
  assert.deepEqual(reg.redirect_uris, [REDIRECT]);
  assert.deepEqual(reg.grant_types, ["authorization_code", "refresh_token"], "SHOULD include refresh_token in grant_types");
  const q = w.as.authorizations[0];
  assert.equal(q.get("code_challenge_method"), "S256");
  assert.match(q.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
  // RFC 8707: resource MUST be in both the authorization and the token request, canonical.
  assert.equal(q.get("resource"), MCP);
  assert.equal(w.as.tokenRequests[0].form.get("resource"), MCP);
  assert.equal(q.get("scope"), "mcp", "the challenge's scope");
  assert.match(q.get("state")!, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(w.as.tokenRequests[0].form.get("grant_type"), "authorization_code");
  assert.ok(w.as.tokenRequests[0].form.get("code_verifier")!.length >= 43);
  // Authorization MUST be included in every HTTP request to the server.
  assert.match(w.mcpAuth[0]!, /^Bearer at-/);
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.tokenRequests.length, 1, "the token is reused");
  assert.equal(w.client.state.phase, "authorized");
});

test("client-registration: Client ID Metadata Documents are used when the AS advertises them (no registration)", async () => {
  const w = world({ cimd: true }, { clientMetadataUrl: "https://client.example/metadata.json" });
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.registrations.length, 0);
  assert.equal(w.as.authorizations[0].get("client_id"), "https://client.example/metadata.json");
  assert.equal(w.as.tokenRequests[0].form.get("client_id"), "https://client.example/metadata.json");
});

test("client-registration: pre-registered credentials come first; client_secret_basic and client_secret_post as the AS supports", async () => {
  const basic = world({ dcr: false, authMethods: ["client_secret_basic"], preRegistered: { clientId: "pre id", clientSecret: "s3cr:t", method: "client_secret_basic" } }, { preRegistered: { clientId: "pre id", clientSecret: "s3cr:t" } });
  assert.equal((await basic.post()).status, 200);
  const tr = basic.as.tokenRequests[0];
  assert.match(tr.authorization!, /^Basic /);
  assert.equal(tr.form.get("client_secret"), null);
  assert.equal(Buffer.from(tr.authorization!.slice(6), "base64").toString(), "pre+id:s3cr%3At", "RFC 6749 §2.3.1 form-encodes both halves");

  const post = world({ dcr: false, authMethods: ["client_secret_post"], preRegistered: { clientId: "pre", clientSecret: "sec", method: "client_secret_post" } }, { preRegistered: { clientId: "pre", clientSecret: "sec" } });
  assert.equal((await post.post()).status, 200);
  assert.equal(post.as.tokenRequests[0].form.get("client_secret"), "sec");
  assert.equal(post.as.tokenRequests[0].authorization, undefined);
});

test("client-registration: DCR asks for the auth method the AS supports and uses the secret it is given", async () => {
  const w = world({ authMethods: ["client_secret_post"] });
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.registrations[0].token_endpoint_auth_method, "client_secret_post");
  assert.equal(w.as.tokenRequests[0].form.get("client_secret"), "secret-1");
  const none = world({ authMethods: ["none", "client_secret_basic"] });
  assert.equal((await none.post()).status, 200);
  assert.equal(none.as.registrations[0].token_endpoint_auth_method, "none");
  assert.equal(none.as.tokenRequests[0].form.get("client_id"), "dyn-1");
});

test("client-registration Authorization Server Binding: pre-registered credentials for another issuer are an error, never sent", async () => {
  const w = world({ preRegistered: { clientId: "pre", method: "none" } }, { preRegistered: { clientId: "pre", issuer: "https://old-as.test" } });
  await assert.rejects(w.post(), (e: Error) => e instanceof OAuthError && /pre-registered client belongs to https:\/\/old-as.test/.test(e.message));
  assert.equal(w.as.authorizations.length, 0);
});

test("client-registration Authorization Server Binding: when PRM moves to a new AS the client MUST re-register there, keeping credentials per issuer", async () => {
  const as1 = new TestAuthServer({ issuer: "https://as1.test" });
  const as2 = new TestAuthServer({ issuer: "https://as2.test" });
  let current = as1;
  const resource = (req: Request) =>
    protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [current.options.issuer], verifyToken: current.verifyToken })(req);
  const f = routeFetch({ "https://mcp.test": resource, "https://as1.test": as1.handle, "https://as2.test": as2.handle });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  current = as2;
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.equal(as2.registrations.length, 1, "registered anew with the new AS");
  assert.equal(as2.authorizations[0].get("client_id"), "dyn-1");
  assert.deepEqual(Object.keys(client.state.credentials).sort(), ["https://as1.test", "https://as2.test"]);
  assert.equal(client.state.tokens!.issuer, "https://as2.test");
});

test("index Token Handling (MUST NOT send tokens other than ones issued by the server's AS; MUST respond appropriately to 401): a refreshed token refused with 401 leads to discovery, which finds the new AS", async () => {
  const as1 = new TestAuthServer({ issuer: "https://as1.test", refresh: true });
  const as2 = new TestAuthServer({ issuer: "https://as2.test", refresh: true });
  let current = as1;
  const sent: (string | null)[] = [];
  const resource = (req: Request) => {
    if (new URL(req.url).pathname === "/mcp") sent.push(req.headers.get("authorization"));
    return protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [current.options.issuer], verifyToken: current.verifyToken })(req);
  };
  const f = routeFetch({ "https://mcp.test": resource, "https://as1.test": as1.handle, "https://as2.test": as2.handle });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  // The server moves to as2; as1 still refreshes its tokens, which the server no longer accepts.
  current = as2;
  sent.length = 0;
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.deepEqual(as1.tokenRequests.map((t) => t.form.get("grant_type")), ["authorization_code", "refresh_token"], "one refresh at the old AS, then no more");
  assert.equal(as2.authorizations.length, 1, "full authorization with the new AS");
  assert.equal(client.state.tokens!.issuer, "https://as2.test");
  assert.equal(sent.length, 3, "the old token, the refreshed one, then the new AS's");
  sent.length = 0;
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.equal(sent.length, 1);
  assert.equal(as1.tokenRequests.length, 2, "as1 is not contacted again");

  // Bounded: a server that refuses every token gets one refresh and one authorization per call, then its 401 back.
  current = new TestAuthServer({ issuer: "https://as2.test", refresh: true }); // same issuer, knows none of the tokens
  sent.length = 0;
  const before = as2.authorizations.length;
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 401);
  assert.equal(sent.length, 3);
  assert.equal(as2.authorizations.length, before + 1);
});

test("Scope Selection Strategy: without a challenge scope use PRM scopes_supported; omit scope when neither exists", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  const make = (prmScopes: string[] | undefined) => {
    const mcp = async (req: Request) => {
      const url = new URL(req.url);
      if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) return Response.json({ resource: MCP, authorization_servers: ["https://as.test"], ...(prmScopes ? { scopes_supported: prmScopes } : {}) });
      if (req.headers.get("authorization")) return Response.json({ ok: true });
      return new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });
    };
    const f = routeFetch({ "https://mcp.test": mcp, "https://as.test": as.handle });
    return { f, client: oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) }) };
  };
  const withScopes = make(["a", "b"]);
  assert.equal((await withScopes.client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.equal(as.authorizations[0].get("scope"), "a b");
  const without = make(undefined);
  assert.equal((await without.client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.equal(as.authorizations[1].has("scope"), false);
  // No resource_metadata in the challenge: the well-known URIs, path-inserted first.
  assert.ok(as.requests.every((r) => !r.url.includes("oauth-protected-resource")));
});

test("Step-Up Authorization Flow: a 403 insufficient_scope re-authorizes with the union of scopes and retries the request once", async () => {
  const w = world();
  assert.equal((await w.post()).status, 200);
  const res = await w.post(WRITE);
  assert.equal(res.status, 200);
  assert.equal(w.as.authorizations.length, 2);
  assert.equal(w.as.authorizations[1].get("scope"), "mcp files:write");
  assert.equal(w.as.registrations.length, 1, "the registration is reused");
});

test("Step-Up Authorization Flow: retries are limited; a scope the AS never grants ends in a clear error", async () => {
  const w = world({ withhold: ["files:write"] }, { maxStepUps: 2 });
  assert.equal((await w.post()).status, 200);
  // Marked final (retryable: false): httpClientTransport then fails that request instead of re-sending it.
  await assert.rejects(w.post(WRITE), (e: Error) => e instanceof OAuthError && e.retryable === false && /insufficient_scope after 2 step-up attempts/.test(e.message));
  assert.equal(w.as.authorizations.length, 3, "the first authorization plus two step-ups");
  // A request that succeeds resets the budgets.
  assert.equal((await w.post()).status, 200);
  assert.deepEqual(w.client.state.stepUps, {});
});

test("Step-Up Authorization Flow (Clients SHOULD implement retry limits): a maxStepUps that is no whole number >= 0 (NaN from Number() of a missing setting, -1, 1.5) is a configuration error surfaced at the first authorization, never a limit that no count reaches (consent screens without end)", { timeout: 10_000 }, async () => {
  for (const bad of [Number.NaN, -1, 1.5]) {
    let opened = 0;
    let follow: (url: string) => Promise<string> = async () => "";
    const cap = async (url: string) => {
      if (++opened > 10) throw new Error("test cap: 10 authorization windows");
      return follow(url);
    };
    const w = world({ withhold: ["files:write"] }, { maxStepUps: bad, openAuthorization: cap });
    follow = followAuthorizationRedirect(routeFetch({ "https://as.test": w.as.handle }));
    await assert.rejects(w.post(WRITE), (e: Error) => e instanceof OAuthError && e.message === `maxStepUps ${bad} is not a whole number >= 0`, String(bad));
    assert.equal(opened, 0, String(bad));
  }
});

test("Step-Up Authorization Flow: attempts are tracked per operation (the scope set it is challenged for): one that can never get its scope leaves another its own step-up", async () => {
  const w = world({ withhold: ["files:write"] }, { maxStepUps: 2 });
  assert.equal((await w.post()).status, 200);
  await assert.rejects(w.post(WRITE), (e: Error) => e instanceof OAuthError && /after 2 step-up attempts/.test(e.message));
  // Right away, with no success in between: "admin" is another operation and gets its step-up.
  const admin = await w.post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "admin" } });
  assert.equal(admin.status, 200);
  assert.equal(w.as.authorizations.length, 4, "the first authorization, two failed step-ups for write, one for admin");
  assert.match(w.as.authorizations[3].get("scope") ?? "", /\badmin\b/);
});

test("Step-Up Authorization Flow step 4 (retry \"no more than a few times\"; Clients SHOULD implement retry limits): a server asking for another scope on every try ends the call after maxStepUps re-authorizations", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  let n = 0;
  const mcp = async (req: Request) => {
    if (new URL(req.url).pathname.startsWith("/.well-known/oauth-protected-resource")) return Response.json({ resource: MCP, authorization_servers: ["https://as.test"] });
    if (++n > 20) throw new Error("test cap: 20 MCP requests for one call");
    return new Response(null, { status: 403, headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="s${n}"` } });
  };
  const f = routeFetch({ "https://mcp.test": mcp, "https://as.test": as.handle });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  await assert.rejects(client(MCP, { method: "POST", body: "{}" }), (e: Error) => e instanceof OAuthError && e.retryable === false && /insufficient_scope after 2 step-up attempts/.test(e.message));
  assert.equal(as.authorizations.length, 2, "the default limit of 2 step-ups, each for a new scope set");
  assert.equal(n, 3, "the request, then one retry per step-up");
});

test("basic/authorization (MUST respond appropriately to 401) + Step-Up Authorization Flow: concurrent 401s share one authorization, concurrent 403s one step-up", async () => {
  const w = world();
  const all = await Promise.all(Array.from({ length: 5 }, () => w.post()));
  assert.deepEqual(all.map((r) => r.status), [200, 200, 200, 200, 200]);
  assert.equal(w.as.authorizations.length, 1, "one consent screen for five requests");
  assert.equal(w.as.tokenRequests.length, 1);
  const writes = await Promise.all(Array.from({ length: 3 }, () => w.post(WRITE)));
  assert.deepEqual(writes.map((r) => r.status), [200, 200, 200]);
  assert.equal(w.as.authorizations.length, 2, "one step-up: the others' challenge is covered by the scopes it was granted");
});

test("basic/authorization (MUST respond appropriately to 401): concurrent 401s to a server that refuses every token (here: tokens for another audience) share its one authorization: a token another call's flow just obtained and the server refused at once is given back, not refreshed or authorized again (five consent screens for five requests)", { timeout: 10_000 }, async () => {
  for (const refresh of [false, true]) {
    const w = world({ audience: "https://elsewhere.test/mcp", refresh });
    const all = await Promise.all(Array.from({ length: 5 }, () => w.post()));
    assert.deepEqual(all.map((r) => r.status), [401, 401, 401, 401, 401], `refresh ${refresh}`);
    assert.equal(w.as.authorizations.length, 1, `refresh ${refresh}: one consent screen for five requests`);
    assert.deepEqual(w.as.tokenRequests.map((t) => t.form.get("grant_type")), ["authorization_code"], `refresh ${refresh}`);
  }
});

test("basic/authorization (MUST respond appropriately to 401): concurrent 401s share a failed authorization too: a user who declines is asked once for five requests, and each request fails with that refusal", async () => {
  let asked = 0;
  const w = world({}, { openAuthorization: async () => (asked++, "?error=access_denied&state=x") });
  const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => w.post()));
  assert.equal(asked, 1, "one consent screen");
  assert.deepEqual(outcomes.map((o) => o.status), ["rejected", "rejected", "rejected", "rejected", "rejected"]);
  const reasons = new Set(outcomes.map((o) => (o as PromiseRejectedResult).reason));
  assert.equal(reasons.size, 1, "the one failure");
  assert.ok([...reasons][0] instanceof OAuthError);
  assert.equal(w.as.tokenRequests.length, 0);
});

test("fetch's contract (an aborted request rejects at once with its signal's reason; README: oauthFetch is the transport's fetch) + basic/authorization: a request aborted while an authorization waits for the user settles at once, whether its own 401 started it or it waits behind it; the flow goes on for the others, and an aborted request is not sent after it", { timeout: 10_000 }, async () => {
  let release!: () => void;
  const consent = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const opened = new Promise<void>((r) => (asked = r));
  const w: World = world({}, {
    openAuthorization: async (url) => {
      asked();
      await consent;
      return (await w.as.handle(new Request(url))).headers.get("location")!;
    },
  });
  const send = (signal?: AbortSignal) => w.client(MCP, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", ...(signal ? { signal } : {}) });
  /** How `p` stands once everything already under way has run (no clock: the check queue). */
  const settled = (p: Promise<Response>) => Promise.race([p.then(() => "resolved", (e: unknown) => e), new Promise((r) => setImmediate(() => r("pending")))]);
  const first = new AbortController();
  const starter = send(first.signal); // its 401 starts the authorization
  await opened;
  const behind = new AbortController();
  const waiting = send(behind.signal); // waits for the authorization under way
  const other = send();
  first.abort("cancelled");
  behind.abort("timed out");
  assert.equal(await settled(starter), "cancelled", "the request whose 401 started the flow");
  assert.equal(await settled(waiting), "timed out", "a request waiting behind the flow");
  assert.equal(await settled(other), "pending", "the others still wait for the user");
  release();
  assert.equal((await other).status, 200, "the flow went on for the request still wanting it");
  await new Promise((r) => setImmediate(r));
  assert.equal(w.as.authorizations.length, 1);
  assert.equal(w.mcpAuth.length, 1, "with the token, the other request alone: no aborted request was sent after the flow");
});

test("Refresh Tokens: concurrent 401s with a refresh token held make one refresh; so do concurrent requests with an expired token", async () => {
  const w = world({ expiresIn: 60, refresh: true });
  assert.equal((await w.post()).status, 200);
  w.as.expireAll(); // revoked at the server, unexpired for the client: each request gets a 401
  const all = await Promise.all(Array.from({ length: 5 }, () => w.post()));
  assert.deepEqual(all.map((r) => r.status), [200, 200, 200, 200, 200]);
  assert.deepEqual(w.as.tokenRequests.map((t) => t.form.get("grant_type")), ["authorization_code", "refresh_token"]);
  w.as.now += 61_000;
  const later = await Promise.all(Array.from({ length: 5 }, () => w.post()));
  assert.deepEqual(later.map((r) => r.status), [200, 200, 200, 200, 200]);
  assert.equal(w.as.tokenRequests.length, 3, "one refresh before the requests");
  assert.equal(w.as.authorizations.length, 1);
});

test("Scope Selection Strategy: a re-authorization after a 401 keeps the scopes granted before ('When re-authorizing, clients SHOULD include these scopes alongside any previously granted scopes')", async () => {
  const w = world();
  assert.equal((await w.post(WRITE)).status, 200);
  assert.equal(w.as.authorizations.at(-1)!.get("scope"), "mcp files:write");
  // The token is revoked and there is no refresh token: 401 → authorize again, files:write included.
  w.as.expireAll();
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.authorizations.at(-1)!.get("scope"), "mcp files:write");
  // So the write operation needs no further authorization.
  const before = w.as.authorizations.length;
  assert.equal((await w.post(WRITE)).status, 200);
  assert.equal(w.as.authorizations.length, before);
});

test("Refresh Tokens: offline_access is added only when the AS lists it", async () => {
  const w = world({ scopesSupported: ["mcp", "offline_access"] });
  await w.post();
  assert.equal(w.as.authorizations[0].get("scope"), "mcp offline_access");
  const n = world({ scopesSupported: ["mcp"] });
  await n.post();
  assert.equal(n.as.authorizations[0].get("scope"), "mcp");
});

test("Refresh Tokens: an expired access token is refreshed (with resource) before the request, and a 401 with a refresh token refreshes first", async () => {
  const w = world({ expiresIn: 60, refresh: true });
  assert.equal((await w.post()).status, 200);
  w.as.now += 61_000;
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.authorizations.length, 1, "no new authorization");
  const refresh = w.as.tokenRequests[1].form;
  assert.equal(refresh.get("grant_type"), "refresh_token");
  assert.equal(refresh.get("resource"), MCP);
  // The server revokes the token early: 401 → refresh → retry.
  w.as.expireAll();
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.tokenRequests.length, 3);
  assert.equal(w.as.tokenRequests[2].form.get("grant_type"), "refresh_token");
});

for (const [name, opts, ok] of [
  ["iss supported and present and equal: proceed", { issSupported: true, issInRedirect: "correct" }, true],
  ["iss supported but absent: reject", { issSupported: true, issInRedirect: "omit" }, false],
  ["iss not advertised but present and wrong: reject", { issInRedirect: "wrong" }, false],
  ["iss not advertised and absent: proceed", { issInRedirect: "omit" }, true],
  ["iss differing only by a trailing slash: reject (no normalisation)", { issSupported: true, issInRedirect: "normalized" }, false],
] as const) {
  test(`Authorization Response Validation (RFC 9207): ${name}`, async () => {
    const w = world(opts);
    if (ok) assert.equal((await w.post()).status, 200);
    else {
      await assert.rejects(w.post(), OAuthError);
      // The code MUST NOT be transmitted to any token endpoint.
      assert.equal(w.as.tokenRequests.length, 0);
    }
  });
}

test("authorization-server-discovery: OIDC discovery by path insertion and by path appending for an issuer with a path", async () => {
  const order = ["/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"];
  for (const [metadata, tried] of [["oidc-insert", 2], ["oidc-append", 3]] as const) {
    const w = world({ issuer: "https://as.test/tenant1", metadata });
    assert.equal((await w.post()).status, 200, metadata);
    const probes = w.as.requests.filter((r) => r.method === "GET" && r.url.includes("well-known")).map((r) => new URL(r.url).pathname);
    assert.deepEqual(probes, order.slice(0, tried), "tried in the page's priority order, stopping at the first usable one");
    assert.equal(w.as.tokenRequests.length, 1);
  }
});

test("authorization-server-discovery: metadata whose issuer is not the expected one is not used; without other metadata the client stops", async () => {
  const w = world({ metadataIssuer: "https://honest.test" });
  await assert.rejects(w.post(), /no usable authorization server metadata/);
  assert.equal(w.as.authorizations.length, 0);
});

test("2025-11-25 security considerations: without code_challenge_methods_supported (S256) the client MUST refuse to proceed", async () => {
  const w = world({ pkce: false });
  await assert.rejects(w.post(), /PKCE S256/);
  assert.equal(w.as.authorizations.length, 0);
  assert.equal(w.as.registrations.length, 0);
});

test("RFC 9728 §3.3: PRM naming another resource is not used; the client never contacts the AS", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  const mcp = async (req: Request) =>
    new URL(req.url).pathname.includes("well-known")
      ? Response.json({ resource: "https://other.test/mcp", authorization_servers: ["https://as.test"] })
      : new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer resource_metadata="https://mcp.test/.well-known/oauth-protected-resource"' } });
  const f = routeFetch({ "https://mcp.test": mcp, "https://as.test": as.handle });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  await assert.rejects(client(MCP, { method: "POST", body: "{}" }), /names the resource https:\/\/other.test\/mcp/);
  assert.equal(as.requests.length, 0);
});

test("2025-03-26 authorization (protocolVersion \"2025-03-26\"): no PRM → the server's origin is the AS (its metadata, else the default /authorize /token /register)", async () => {
  for (const metadata of ["oauth", "none"] as const) {
    const as = new TestAuthServer({ issuer: "https://mcp.test", metadata });
    const mcp = async (req: Request) => {
      const url = new URL(req.url);
      if (url.pathname === "/mcp") return req.headers.get("authorization") ? Response.json({ ok: true }) : new Response(null, { status: 401 });
      return as.handle(req);
    };
    const f = routeFetch({ "https://mcp.test": mcp });
    const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f), protocolVersion: "2025-03-26" });
    assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200, metadata);
    assert.deepEqual(paths(as).slice(-3), ["POST /register", "GET /authorize", "POST /token"]);
  }
});

test("basic/authorization: tokens go to the MCP server only, never to another origin", async () => {
  const w = world();
  await w.post();
  let sent: string | null = "unset";
  const other = oauthFetch({
    serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", saved: { tokens: w.client.state.tokens! },
    fetch: async (_url, init) => {
      sent = new Headers(init?.headers).get("authorization");
      return new Response("ok");
    },
    openAuthorization: async () => "",
  });
  await other("https://elsewhere.test/x", {});
  assert.equal(sent, null);
  await other(MCP, {});
  assert.match(sent!, /^Bearer at-/);
});

test("client-registration: a refused registration is surfaced with the server's error, and secrets never appear in error messages", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  const refuse = async (req: Request) => (new URL(req.url).pathname === "/register" ? Response.json({ error: "invalid_redirect_uri", error_description: "native only" }, { status: 400 }) : as.handle(req));
  const rs = protectedResource(async () => new Response("ok"), { resource: MCP, authorizationServers: ["https://as.test"], verifyToken: as.verifyToken });
  const f = routeFetch({ "https://mcp.test": rs, "https://as.test": refuse });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  await assert.rejects(client(MCP, { method: "POST", body: "{}" }), /registration was refused \(invalid_redirect_uri: native only\)/);
  // A token endpoint that refuses the client: the error names the OAuth error, not the secret sent.
  const pre = world({ dcr: false, authMethods: ["client_secret_post"], preRegistered: { clientId: "p", clientSecret: "right", method: "client_secret_post" } }, { preRegistered: { clientId: "p", clientSecret: "wrong-secret-value" } });
  await assert.rejects(pre.post(), (e: Error) => /invalid_client/.test(e.message) && !e.message.includes("wrong-secret-value"));
});

test("authorization-server-discovery + Token Handling, hostile servers: a metadata or token response past 1 MiB fails the flow with a clear OAuthError and is cancelled, not buffered", async () => {
  for (const hostile of ["/.well-known/oauth-authorization-server", "/token"]) {
    const as = new TestAuthServer({ issuer: "https://as.test" });
    const body = new LongBody(8 << 20);
    const endless = () => new Response(body.stream(), { headers: { "content-type": "application/json" } });
    const resource = protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [as.options.issuer], verifyToken: as.verifyToken });
    const f = routeFetch({ "https://mcp.test": resource, "https://as.test": async (req) => (new URL(req.url).pathname === hostile ? endless() : as.handle(req)) });
    const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
    await assert.rejects(client(MCP, { method: "POST", body: "{}" }), (e: Error) => e instanceof OAuthError && /response body exceeds 1048576 bytes/.test(e.message), hostile);
    assert.ok(body.pulled <= (1 << 20) + 4 * LongBody.CHUNK_BYTES, `${hostile}: read ${body.pulled} bytes`);
    assert.equal(body.cancelled, 1, hostile);
  }
});

test("security-considerations Communication Security + Authorization Code Protection, redirects: a token or registration endpoint answering 307/308 to another origin over http gets nothing re-sent there (no code, PKCE verifier, refresh token or client secret); the flow fails with an OAuthError naming the redirect", async () => {
  const pre = { dcr: false, authMethods: ["client_secret_post"], preRegistered: { clientId: "p", clientSecret: "s3cret", method: "client_secret_post" } };
  for (const [what, path, status] of [["code exchange", "/token", 307], ["registration", "/register", 308], ["refresh", "/token", 307]] as const) {
    const as = new TestAuthServer({ issuer: "https://as.test", expiresIn: 60, refresh: true, ...(what === "registration" ? {} : pre) });
    let moved = what !== "refresh"; // a refresh: the token endpoint moves after the first authorization
    const stolen: string[] = [];
    const rs = protectedResource(async () => new Response("ok"), { resource: MCP, authorizationServers: ["https://as.test"], verifyToken: as.verifyToken, now: () => as.now });
    const f = redirectingFetch({
      "https://mcp.test": rs,
      "https://as.test": async (req) => (moved && new URL(req.url).pathname === path ? new Response(null, { status, headers: { location: `http://evil.test${path}` } }) : as.handle(req)),
      "http://evil.test": async (req) => (stolen.push(await req.text()), Response.json({ access_token: "evil", token_type: "Bearer", client_id: "evil" })),
    });
    const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f), now: () => as.now, ...(what === "registration" ? {} : { preRegistered: { clientId: "p", clientSecret: "s3cret" } }) });
    const post = () => client(MCP, { method: "POST", body: "{}" });
    if (what === "refresh") {
      assert.equal((await post()).status, 200);
      moved = true;
      as.now += 61_000;
    }
    await assert.rejects(post(), (e: Error) => e instanceof OAuthError && e.message.includes(`https://as.test${path} answered with a redirect (HTTP ${status})`), what);
    assert.deepEqual(stolen, [], `${what}: nothing was sent to the redirect's target`);
    assert.notEqual(client.state.tokens?.accessToken, "evil", what);
  }
});

test("security-considerations Communication Security, redirects: a metadata GET follows a redirect that stays on https (a server may move its documents), not one to plain http, where anyone on the path could have written the document, endpoints included", async () => {
  for (const target of ["https://as.test/moved", "http://evil.test/moved"]) {
    const as = new TestAuthServer({ issuer: "https://as.test" });
    const rs = protectedResource(async () => new Response("ok"), { resource: MCP, authorizationServers: ["https://as.test"], verifyToken: as.verifyToken });
    const forged = { ...as.metadataDocument(), authorization_endpoint: "https://evil.example/authorize", token_endpoint: "https://evil.example/token", registration_endpoint: "https://evil.example/register" };
    const contacted: string[] = [];
    const f = redirectingFetch({
      "https://mcp.test": rs,
      "https://as.test": async (req) => {
        const path = new URL(req.url).pathname;
        if (path === as.metadataPath()) return new Response(null, { status: 301, headers: { location: target } });
        return path === "/moved" ? Response.json(as.metadataDocument()) : as.handle(req);
      },
      "http://evil.test": async () => Response.json(forged),
      "https://evil.example": async (req) => (contacted.push(req.url), new Response(null, { status: 500 })),
    });
    const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
    if (target.startsWith("https:")) {
      assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200, "an https redirect is followed");
      continue;
    }
    await assert.rejects(client(MCP, { method: "POST", body: "{}" }), (e: Error) => e instanceof OAuthError && e.message.includes(`redirected to ${target}, which is not https`));
    assert.deepEqual(contacted, [], "the forged document's endpoints were never used");
  }
});

test("README (save: what an application persists between runs): a save that throws or rejects fails nothing: the request goes on with the tokens obtained (held in memory), the next one too, and the save's error goes to onError", async () => {
  for (const save of [() => { throw new Error("disk full"); }, async () => { throw new Error("disk full"); }]) {
    const errors: unknown[] = [];
    const w = world({}, { save, onError: (e) => void errors.push(e) });
    assert.equal((await w.post()).status, 200, "the request that got the tokens");
    assert.deepEqual(errors.map(String), ["Error: disk full"]);
    assert.equal((await w.post()).status, 200, "the next request, with the same tokens");
    assert.equal(w.as.authorizations.length, 1);
  }
});

test("README (save: what an application persists between runs; the flow's state is changed only by its steps): a save that edits what it is handed (keeping the refresh token, not the short-lived access token) leaves the flow's own tokens alone: the next request still carries its Bearer token, with no new authorization", async () => {
  const kept: unknown[] = [];
  const w = world({}, {
    save: (s) => {
      delete (s.tokens as { accessToken?: string } | undefined)?.accessToken;
      if (s.tokens !== undefined) s.tokens.scope = "edited";
      for (const c of Object.values(s.credentials ?? {})) c.clientId = "edited";
      kept.push(s);
    },
  });
  assert.equal((await w.post()).status, 200);
  assert.equal(kept.length, 1);
  assert.equal(w.client.state.tokens?.scope, "mcp");
  assert.ok(Object.values(w.client.state.credentials).every((c) => c.clientId !== "edited"), "the flow's credentials are its own");
  assert.equal((await w.post()).status, 200, "the next request, with the token the flow holds");
  assert.match(w.mcpAuth.at(-1) ?? "", /^Bearer at-/);
  assert.equal(w.as.authorizations.length, 1, "no second authorization");
  assert.equal(w.as.tokenRequests.length, 1);
});

test("README (openAuthorization resolves with the redirect back, its path and query, or its query string): a loopback server's req.url (/callback?code=…&state=…) completes the authorization, as the full URL and the query string do", async () => {
  for (const form of ["url", "path", "query"] as const) {
    const w: World = world({}, {
      openAuthorization: async (url) => {
        const back = new URL((await w.as.handle(new Request(url))).headers.get("location")!);
        return form === "url" ? back.href : form === "path" ? `${back.pathname}${back.search}` : back.search;
      },
    });
    assert.equal((await w.post()).status, 200, form);
    assert.equal(w.as.tokenRequests.length, 1, form);
  }
});

test("README (the flow's state is plain JSON; OAuthFetch.state): the state oauthFetch exposes holds the client configuration only, not its fetch, openAuthorization, save, onError, now or an earlier run's saved tokens: structuredClone and a JSON round trip each give the state itself", async () => {
  const w = world({}, { saved: { credentials: {} }, save: () => {}, onError: () => {} });
  assert.equal((await w.post()).status, 200);
  const state = w.client.state;
  assert.deepEqual(Object.keys(state.config).sort(), ["clientName", "redirectUri", "serverUrl"]);
  assert.deepEqual(structuredClone(state), state, "no function in it to refuse the copy");
  assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
});

test("Refresh Tokens, across runs: what save() holds (the tokens, their credentials and their authorization server's metadata) lets the next run refresh a token that expired meanwhile, with no new authorization; metadata of another issuer is not taken", async () => {
  let saved: OAuthSaved | undefined;
  const w = world({ expiresIn: 60, refresh: true }, { save: (s) => void (saved = JSON.parse(JSON.stringify(s))) });
  assert.equal((await w.post()).status, 200);
  assert.equal(saved?.serverMetadata?.issuer, "https://as.test");
  w.as.now += 61_000;
  assert.equal((await w.rerun({ saved })()).status, 200);
  assert.equal(w.as.authorizations.length, 1, "no new authorization after the restart");
  assert.deepEqual(w.as.tokenRequests.map((t) => t.form.get("grant_type")), ["authorization_code", "refresh_token"]);
  // Saved metadata that names another issuer than the tokens' is not used: discovery, then a full authorization.
  w.as.now += 61_000;
  const foreign = { ...saved!, serverMetadata: { ...saved!.serverMetadata!, issuer: "https://evil.test" } };
  assert.equal((await w.rerun({ saved: foreign })()).status, 200);
  assert.equal(w.as.authorizations.length, 2);
});

/** An answer in Latin-1, as nginx's and Apache's error pages often are: each character one byte ("é" is 0xE9, not UTF-8). */
const latin1 = (status: number, text: string, type = "text/html; charset=iso-8859-1") => new Response(Uint8Array.from(text, (c) => c.charCodeAt(0)), { status, headers: { "content-type": type } });

test("authorization-server-discovery, bodies that are not UTF-8: a Protected Resource Metadata 404 whose page is Latin-1 is still a 404, so the next well-known URI is tried", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  const resource = protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [as.options.issuer], verifyToken: as.verifyToken });
  const tried: string[] = [];
  const mcp = async (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path.includes("well-known")) tried.push(path);
    return path === "/.well-known/oauth-protected-resource/mcp" ? latin1(404, "<h1>Pas trouvé</h1>") : resource(req);
  };
  const f = routeFetch({ "https://mcp.test": mcp, "https://as.test": as.handle });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.deepEqual(tried, ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]);
});

test("2025-03-26 authorization, bodies that are not UTF-8: metadata absent behind Latin-1 404 pages still falls back to the server's origin and its default /register /authorize /token", async () => {
  const as = new TestAuthServer({ issuer: "https://mcp.test", metadata: "none" });
  const mcp = async (req: Request) => {
    const url = new URL(req.url);
    if (url.pathname === "/mcp") return req.headers.get("authorization") ? Response.json({ ok: true }) : new Response(null, { status: 401 });
    return url.pathname.startsWith("/.well-known/") ? latin1(404, "<h1>Pas trouvé</h1>") : as.handle(req);
  };
  const f = routeFetch({ "https://mcp.test": mcp });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f), protocolVersion: "2025-03-26" });
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.deepEqual(paths(as), ["POST /register", "GET /authorize", "POST /token"]);
});

test("Refresh Tokens, bodies that are not UTF-8: a refresh refused with 400 invalid_grant whose error_description is Latin-1 leads to a new authorization, as any refused refresh does", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test", expiresIn: 60, refresh: true });
  const resource = protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [as.options.issuer], verifyToken: as.verifyToken, now: () => as.now });
  const refuseRefresh = async (req: Request) =>
    new URL(req.url).pathname === "/token" && (await req.clone().text()).includes("grant_type=refresh_token")
      ? latin1(400, '{"error":"invalid_grant","error_description":"jeton expiré"}', "application/json")
      : as.handle(req);
  const f = routeFetch({ "https://mcp.test": resource, "https://as.test": refuseRefresh });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f), now: () => as.now });
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  as.now += 61_000;
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.equal(as.authorizations.length, 2, "the refused refresh was followed by a new authorization");
});

test("Refresh Tokens (re-authorize when the refresh is refused, RFC 6749 §5.2's 4xx): a token endpoint that fails with 503 or 429 refused nothing: the call fails with an OAuthError, no new authorization (consent screen) is started, and the next call refreshes with the same refresh token", async () => {
  for (const status of [503, 429]) {
    const as = new TestAuthServer({ issuer: "https://as.test", expiresIn: 60, refresh: true });
    const resource = protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [as.options.issuer], verifyToken: as.verifyToken, now: () => as.now });
    let down = false;
    const flaky = async (req: Request) => (down && new URL(req.url).pathname === "/token" ? Response.json({ error: "temporarily_unavailable" }, { status }) : as.handle(req));
    const f = routeFetch({ "https://mcp.test": resource, "https://as.test": flaky });
    const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f), now: () => as.now });
    assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
    const refreshToken = client.state.tokens?.refreshToken;
    as.now += 61_000;
    down = true;
    await assert.rejects(client(MCP, { method: "POST", body: "{}" }), (e: unknown) => e instanceof OAuthError && /temporarily_unavailable/.test(e.message));
    assert.equal(as.authorizations.length, 1, `${status}: no new authorization`);
    down = false;
    assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
    assert.equal(as.authorizations.length, 1, `${status}: refreshed, not re-authorized`);
    assert.equal(as.tokenRequests.at(-1)?.form.get("refresh_token"), refreshToken);
  }
});

test("authorization-server-discovery, bodies that are not UTF-8: metadata answered 200 in Latin-1 is no usable document, and the failure says the body is not valid UTF-8 (not a network error)", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  const resource = protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [as.options.issuer], verifyToken: as.verifyToken });
  const latinMetadata = async (req: Request) =>
    new URL(req.url).pathname.startsWith("/.well-known/") ? latin1(200, JSON.stringify({ ...as.metadataDocument(), service_documentation: "https://as.test/aide-été" }), "application/json") : as.handle(req);
  const f = routeFetch({ "https://mcp.test": resource, "https://as.test": latinMetadata });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  await assert.rejects(client(MCP, { method: "POST", body: "{}" }), (e: Error) => e instanceof OAuthError && /no usable authorization server metadata for https:\/\/as.test \(the body is not valid UTF-8\)/.test(e.message) && !/network error/.test(e.message));
  assert.equal(as.authorizations.length, 0);
});

test("RFC 6749 §5.2 invalid_client, bodies that are not UTF-8: a refusal whose error_description is Latin-1 still names invalid_client (its code is ASCII), so the dynamically registered credentials are forgotten and the next attempt registers afresh", async () => {
  const as = new TestAuthServer({ issuer: "https://as.test" });
  const resource = protectedResource(async () => Response.json({ ok: true }), { resource: MCP, authorizationServers: [as.options.issuer], verifyToken: as.verifyToken });
  let registrations = 0;
  let refuse = true;
  const forgetful = async (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === "/register") registrations++;
    if (path === "/token" && refuse) {
      refuse = false;
      return latin1(401, '{"error":"invalid_client","error_description":"client supprimé"}', "application/json");
    }
    return as.handle(req);
  };
  const f = routeFetch({ "https://mcp.test": resource, "https://as.test": forgetful });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: REDIRECT, clientName: "c", fetch: f, openAuthorization: followAuthorizationRedirect(f) });
  await assert.rejects(client(MCP, { method: "POST", body: "{}" }), (e: Error) => e instanceof OAuthError && /invalid_client/.test(e.message));
  assert.equal((await client(MCP, { method: "POST", body: "{}" })).status, 200);
  assert.equal(registrations, 2, "the refused client's credentials were forgotten and a new client registered");
});
