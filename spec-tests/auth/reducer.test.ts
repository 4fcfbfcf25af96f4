// Spec: the design card's kernel rules applied to draft basic/authorization's client: the
// OAuth flow is a pure reducer (requests and the redirect are outputs, responses and the
// callback are inputs), its state is plain JSON that continues exactly after a round
// trip, and an input that does not fit the phase is a diagnostic, never a throw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createOAuthState, stepOAuth, type OAuthInput, type OAuthOutput, type OAuthState } from "../../src/auth/client-flow.js";

const MCP = "https://mcp.test/mcp";
const config = { serverUrl: MCP, redirectUri: "http://127.0.0.1:1/cb", clientName: "c" };
const PKCE = { verifier: "v".repeat(43), challenge: "c".repeat(43) };
const asMeta = { issuer: "https://as.test", authorization_endpoint: "https://as.test/authorize", token_endpoint: "https://as.test/token", registration_endpoint: "https://as.test/register", code_challenge_methods_supported: ["S256"] };

/** Plays a scripted authorization server: answers each http output by URL. */
function play(
  state: OAuthState,
  first: OAuthInput,
  answers: (url: string, body?: string) => { status: number; body: unknown },
  callback: (sentState: string) => Record<string, string> = (st) => ({ code: "the-code", state: st, iss: "https://as.test" }),
): { state: OAuthState; outputs: OAuthOutput[] } {
  const all: OAuthOutput[] = [];
  const queue = [first];
  while (queue.length) {
    const step = stepOAuth(state, queue.shift()!);
    state = step.state;
    for (const o of step.outputs) {
      all.push(o);
      if (o.type === "http") {
        const a = answers(o.request.url, o.request.body);
        queue.push({ type: "response", now: 5, requestId: o.request.requestId, status: a.status, body: JSON.stringify(a.body) });
      }
      if (o.type === "redirect") queue.push({ type: "callback", now: 6, params: callback(new URL(o.url).searchParams.get("state")!) });
    }
  }
  return { state, outputs: all };
}

const server = (url: string) => {
  if (url.includes("oauth-protected-resource")) return { status: 200, body: { resource: MCP, authorization_servers: ["https://as.test"] } };
  if (url.endsWith("/.well-known/oauth-authorization-server")) return { status: 200, body: asMeta };
  if (url.endsWith("/register")) return { status: 201, body: { client_id: "id-1" } };
  if (url.endsWith("/token")) return { status: 200, body: { access_token: "AT", token_type: "bearer", expires_in: 10, refresh_token: "RT" } };
  return { status: 404, body: {} };
};
const start: OAuthInput = { type: "authorize", now: 1, challenge: 'Bearer resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp", scope="mcp"', pkce: PKCE, state: "st" };

test("design card: the OAuth flow is deterministic: the same inputs give the same outputs and state", () => {
  const a = play(createOAuthState(config), start, server);
  const b = play(createOAuthState(config), start, server);
  assert.deepEqual(a, b);
  const last = a.outputs.at(-1)!;
  assert.equal(last.type, "authorized");
  assert.deepEqual((last as Extract<OAuthOutput, { type: "authorized" }>).tokens, { accessToken: "AT", tokenType: "Bearer", issuer: "https://as.test", resource: "https://mcp.test/mcp", refreshToken: "RT", expiresAt: 10_005, scope: "mcp" });
  assert.deepEqual(a.outputs.filter((o) => o.type === "http").map((o) => (o as { request: { method: string; url: string } }).request.method + " " + new URL((o as { request: { url: string } }).request.url).pathname), [
    "GET /.well-known/oauth-protected-resource/mcp",
    "GET /.well-known/oauth-authorization-server",
    "POST /register",
    "POST /token",
  ]);
});

test("design card: state is plain JSON; a round-tripped state continues exactly like the original (mid-flow, at the redirect)", () => {
  let state = createOAuthState(config);
  const outs: OAuthOutput[] = [];
  let step = stepOAuth(state, start);
  // Walk to the redirect.
  while (!step.outputs.some((o) => o.type === "redirect")) {
    const http = step.outputs.find((o) => o.type === "http") as Extract<OAuthOutput, { type: "http" }>;
    const a = server(http.request.url);
    step = stepOAuth(step.state, { type: "response", now: 2, requestId: http.request.requestId, status: a.status, body: JSON.stringify(a.body) });
  }
  state = step.state;
  const copy = JSON.parse(JSON.stringify(state)) as OAuthState;
  const cb: OAuthInput = { type: "callback", now: 3, params: { code: "c", state: "st", iss: "https://as.test" } };
  assert.deepEqual(stepOAuth(copy, cb), stepOAuth(state, cb));
  outs.push(...stepOAuth(state, cb).outputs);
  assert.equal(outs[0].type, "http");
});

test("design card: the flow's state shares no object with the application: editing the authorized output's tokens, or the saved object it was created from, changes nothing", () => {
  const run = play(createOAuthState(config), start, server);
  const out = run.outputs.find((o) => o.type === "authorized") as Extract<OAuthOutput, { type: "authorized" }>;
  const before = JSON.stringify(run.state);
  delete (out.tokens as { refreshToken?: string }).refreshToken;
  out.tokens.accessToken = "edited";
  assert.equal(JSON.stringify(run.state), before);
  const saved = { tokens: { accessToken: "AT", tokenType: "Bearer", issuer: "https://as.test", resource: MCP, refreshToken: "RT" }, credentials: { "https://as.test": { clientId: "id-1", authMethod: "none" as const, via: "dynamic" as const } } };
  const restored = createOAuthState(config, saved);
  const kept = JSON.stringify(restored);
  saved.tokens.accessToken = "edited";
  saved.credentials["https://as.test"].clientId = "edited";
  assert.equal(JSON.stringify(restored), kept);
});

test("design card: inputs that do not fit the phase are diagnostics; network errors fail the flow with a reason", () => {
  const s0 = createOAuthState(config);
  assert.equal(stepOAuth(s0, { type: "callback", now: 1, params: { code: "x" } }).outputs[0].type, "diagnostic");
  assert.equal(stepOAuth(s0, { type: "response", now: 1, requestId: 42, status: 200, body: "{}" }).outputs[0].type, "diagnostic");
  const s1 = stepOAuth(s0, start);
  const id = (s1.outputs[0] as Extract<OAuthOutput, { type: "http" }>).request.requestId;
  const failed = stepOAuth(s1.state, { type: "network-error", now: 2, requestId: id, message: "ECONNREFUSED" });
  assert.deepEqual(failed.outputs, [{ type: "failed", reason: "network error: ECONNREFUSED" }]);
  assert.equal(failed.state.phase, "failed");
  // Refresh without a refresh token asks for a new authorization.
  assert.deepEqual(stepOAuth(s0, { type: "refresh", now: 1 }).outputs, [{ type: "failed", reason: "no refresh token", reauthorize: true }]);
});

test("design card (the reducer never throws) + RFC 8414 §2 (the lists are JSON arrays): authorization server metadata whose optional lists are null, a number or an object is read as leaving them out: the authorization code flow completes, where it threw a TypeError (a serializer's null grant_types_supported stopped every client)", () => {
  for (const odd of [{ grant_types_supported: null }, { token_endpoint_auth_methods_supported: 7 }, { scopes_supported: {} }, { scopes_supported: 5, grant_types_supported: "refresh_token", token_endpoint_auth_methods_supported: null }]) {
    const answering = (url: string) => (url.endsWith("/.well-known/oauth-authorization-server") ? { status: 200, body: { ...asMeta, ...odd } } : server(url));
    const { state, outputs } = play(createOAuthState(config), start, answering);
    assert.equal(state.phase, "authorized", JSON.stringify(odd));
    assert.equal(outputs.at(-1)?.type, "authorized");
    // Saved and restored, the same metadata lets a refresh go out.
    const restored = createOAuthState(config, { tokens: state.tokens!, credentials: state.credentials, serverMetadata: { ...asMeta, ...odd } as never });
    assert.equal(stepOAuth(restored, { type: "refresh", now: 20 }).outputs[0]?.type, "http", JSON.stringify(odd));
  }
  // A code_challenge_methods_supported that is no list is no advertised S256: refused, not thrown on.
  const noList = play(createOAuthState(config), start, (url) => (url.endsWith("/.well-known/oauth-authorization-server") ? { status: 200, body: { ...asMeta, code_challenge_methods_supported: "S256" } } : server(url)));
  assert.match((noList.outputs.find((o) => o.type === "failed") as { reason: string }).reason, /does not advertise PKCE S256/);
});

test("draft Refresh Tokens (MUST keep refresh tokens confidential) + the reducer's promise that no failed output carries a secret: a token endpoint that echoes the refresh token or the code verifier it was sent in its error does not get them into the failure (blotted out)", () => {
  const rt = "rt-8f3a9c2e-long-lived";
  const done = play(createOAuthState(config), start, (url) => (url.endsWith("/token") ? { status: 200, body: { access_token: "AT", token_type: "Bearer", refresh_token: rt } } : server(url)));
  const echoRefresh = stepOAuth(done.state, { type: "refresh", now: 20 });
  const id = (echoRefresh.outputs[0] as Extract<OAuthOutput, { type: "http" }>).request.requestId;
  const refused = stepOAuth(echoRefresh.state, { type: "response", now: 21, requestId: id, status: 400, body: JSON.stringify({ error: `invalid_grant:${rt}` }) });
  assert.deepEqual(refused.outputs, [{ type: "failed", reason: "the token request was refused (invalid_grant:[refresh token])", reauthorize: true }]);
  const echoVerifier = play(createOAuthState(config), start, (url) => (url.endsWith("/token") ? { status: 400, body: { error: `bad_verifier_${PKCE.verifier}` } } : server(url)));
  const reason = (echoVerifier.outputs.find((o) => o.type === "failed") as { reason: string }).reason;
  assert.equal(reason, "the token request was refused (bad_verifier_[code verifier])");
});

test("basic/authorization: a callback whose state does not match, an error response, or a missing code fail without a token request", () => {
  const tokenRequests = (o: OAuthOutput[]) => o.filter((x) => x.type === "http" && x.request.url.endsWith("/token")).length;
  const walk = (params: (st: string) => Record<string, string>) => play(createOAuthState(config), start, server, params).outputs;
  const reasons = (o: OAuthOutput[]) => o.filter((x) => x.type === "failed").map((x) => (x as { reason: string }).reason);
  const wrongState = walk(() => ({ code: "c", state: "other", iss: "https://as.test" }));
  assert.match(reasons(wrongState)[0], /state does not match/);
  assert.equal(tokenRequests(wrongState), 0);
  assert.match(reasons(walk((st) => ({ error: "access_denied", error_description: "user said no", state: st, iss: "https://as.test" })))[0], /access_denied \(user said no\)/);
  assert.match(reasons(walk((st) => ({ state: st, iss: "https://as.test" })))[0], /no code/);
  // On an iss mismatch the error fields MUST NOT be acted on or displayed.
  const mismatch = reasons(walk((st) => ({ error: "evil_text", state: st, iss: "https://evil.test" })))[0];
  assert.match(mismatch, /another issuer/);
  assert.doesNotMatch(mismatch, /evil_text/);
});

test("RFC 6750 §2.1 (a Bearer credential is a b64token): an access token that could not go in an Authorization header (CR LF, a space, empty) fails the flow with a reason instead of being stored; an expires_in that is not a finite number of seconds ≥ 0 is no lifetime", () => {
  const answering = (body: object) => (url: string) => (url.endsWith("/token") ? { status: 200, body } : server(url));
  for (const bad of ["a\r\nX-Injected: 1", "", "a b", "tok=en"]) {
    const { state, outputs } = play(createOAuthState(config), start, answering({ access_token: bad, token_type: "Bearer" }));
    assert.equal(state.tokens, undefined, JSON.stringify(bad));
    const failure = outputs.find((o) => o.type === "failed") as { reason: string } | undefined;
    assert.match(failure?.reason ?? "", /cannot be sent as a Bearer credential/, JSON.stringify(bad));
  }
  for (const [expiresIn, expiresAt] of [[1e308, undefined], [-5, undefined], ["3600", undefined], [Number.NaN, undefined], [10, 10_005]] as const) {
    const { state } = play(createOAuthState(config), start, answering({ access_token: "AT.x-y_z~+/==", token_type: "Bearer", expires_in: expiresIn }));
    assert.equal(state.tokens?.accessToken, "AT.x-y_z~+/==");
    assert.equal(state.tokens?.expiresAt, expiresAt, String(expiresIn));
    assert.deepEqual(JSON.parse(JSON.stringify(state)), state, "the state survives a JSON round trip");
  }
});

test("basic/authorization Token Handling (MUST NOT send tokens other than ones issued for this server) and client-registration Authorization Server Binding (MUST NOT reuse another server's credentials): saved state is checked when loaded, and tokens of another authorization server are neither refreshed nor kept", () => {
  const tokens = { accessToken: "AT-X", tokenType: "Bearer", issuer: "https://as-x.test", resource: MCP, refreshToken: "RT-X" };
  const dynamic = { clientId: "id-x", authMethod: "none", via: "dynamic" } as const;
  // Loaded: kept only when fit to send to this server.
  assert.equal(createOAuthState(config, { tokens }).phase, "authorized");
  assert.equal(createOAuthState({ ...config, serverUrl: "https://other.test/mcp" }, { tokens }).tokens, undefined, "issued for another resource");
  const { resource: _resource, ...unnamed } = tokens;
  assert.equal(createOAuthState(config, { tokens: unnamed as never }).tokens, undefined, "saved before tokens named their resource");
  assert.equal(createOAuthState(config, { tokens: { ...tokens, accessToken: "a\r\nX: 1" } }).tokens, undefined, "not a b64token");
  assert.equal(createOAuthState(config, { tokens: { ...tokens, expiresAt: "soon" as never } }).tokens, undefined);
  const creds = createOAuthState(config, { credentials: { "https://as-x.test": dynamic, a: "x" as never, b: { ...dynamic, clientId: 5 } as never, c: { ...dynamic, clientId: "" } } }).credentials;
  assert.deepEqual(Object.keys(creds), ["https://as-x.test"]);
  // The server now names another authorization server: the old tokens go; the refresh token never reaches the new one.
  const { state, outputs } = play(createOAuthState(config, { tokens }), start, server);
  const sent = outputs.filter((o) => o.type === "http").map((o) => (o as { request: { body?: string } }).request.body ?? "");
  assert.ok(sent.every((b) => !b.includes("RT-X")), "no request carried the other server's refresh token");
  assert.equal(state.tokens?.accessToken, "AT");
  assert.equal(state.tokens?.issuer, "https://as.test");
  // A refresh asked for with another issuer's tokens fails, asking for a full authorization, and sends nothing.
  const meta = { ...createOAuthState(config), phase: "authorized" as const, serverMetadata: asMeta, credentials: { "https://as.test": dynamic }, tokens };
  const refreshed = stepOAuth(meta as OAuthState, { type: "refresh", now: 1 });
  assert.deepEqual(refreshed.outputs.map((o) => o.type), ["failed"]);
  assert.equal((refreshed.outputs[0] as { reauthorize?: boolean }).reauthorize, true);
  assert.equal(refreshed.state.tokens, undefined);
});

test("RFC 6749 §5.2 invalid_client: dynamically registered credentials the token endpoint no longer accepts are forgotten, so the next attempt registers afresh", () => {
  let registrations = 0;
  let refuse = true;
  const answers = (url: string) => {
    if (url.endsWith("/register")) return { status: 201, body: { client_id: `id-${++registrations}` } };
    if (url.endsWith("/token") && refuse) return { status: 401, body: { error: "invalid_client" } };
    return server(url);
  };
  const first = play(createOAuthState(config), start, answers);
  assert.equal(first.state.phase, "failed");
  assert.equal(first.state.credentials["https://as.test"], undefined, "the refused registration is forgotten");
  refuse = false;
  const second = play(first.state, start, answers);
  assert.equal(registrations, 2);
  assert.equal(second.state.tokens?.accessToken, "AT");
});

test("client-registration Authorization Server Binding and RFC 8707: saved authorization server metadata is restored only for a server the pre-registered client belongs to, and a refresh after a restart names the resource the grant named", () => {
  const tokens = { accessToken: "AT-Y", tokenType: "Bearer", issuer: "https://as-y.test", resource: "https://mcp.test", refreshToken: "RT-Y" };
  const metaY = { ...asMeta, issuer: "https://as-y.test", authorization_endpoint: "https://as-y.test/authorize", token_endpoint: "https://as-y.test/token" };
  const preX = { ...config, preRegistered: { clientId: "cid-x", clientSecret: "SECRET-OF-X", issuer: "https://as-x.test" } };
  const bound = createOAuthState(preX, { tokens, serverMetadata: metaY });
  assert.equal(bound.serverMetadata, undefined, "Y's metadata is not the pre-registered client's server");
  const refused = stepOAuth(bound, { type: "refresh", now: 1 });
  assert.deepEqual(refused.outputs.map((o) => o.type), ["failed"], "nothing is sent to Y");
  // Without pre-registration the metadata is restored, and the refresh goes out for the grant's resource (a prefix of the server URL here).
  const free = createOAuthState(config, { tokens, serverMetadata: metaY, credentials: { "https://as-y.test": { clientId: "cid-y", authMethod: "none", via: "dynamic" } } });
  assert.equal(free.resource, "https://mcp.test");
  const out = stepOAuth(free, { type: "refresh", now: 1 }).outputs[0] as { type: string; request?: { url: string; body?: string } };
  assert.equal(out.request?.url, "https://as-y.test/token");
  assert.equal(new URLSearchParams(out.request?.body).get("resource"), "https://mcp.test");
});

const redirects = (outputs: OAuthOutput[]) => outputs.filter((o) => o.type === "redirect").map((o) => new URL((o as { url: string }).url));
const requests = (outputs: OAuthOutput[]) => outputs.filter((o) => o.type === "http").map((o) => (o as Extract<OAuthOutput, { type: "http" }>).request);
const noIss = (st: string) => ({ code: "the-code", state: st });

test("index Step-Up Authorization Flow (the union of the previously requested scopes and the challenge's: 'previously granted permissions are preserved') across runs, and RFC 6749 §5.1 (an omitted scope is the one requested): the saved grant's scope stays in a step-up and through a refresh", () => {
  const dynamic = { clientId: "id-1", authMethod: "none", via: "dynamic" } as const;
  const saved = { tokens: { accessToken: "AT0", tokenType: "Bearer", issuer: "https://as.test", resource: MCP, scope: "a", refreshToken: "RT" }, credentials: { "https://as.test": dynamic } };
  const stepUp: OAuthInput = { type: "authorize", now: 1, challenge: 'Bearer error="insufficient_scope", scope="b"', pkce: PKCE, state: "st" };
  const { outputs } = play(createOAuthState(config, saved), stepUp, server);
  assert.equal(redirects(outputs)[0].searchParams.get("scope"), "a b", "a new run's step-up keeps the saved grant's scope");
  // A refresh answered without `scope` keeps the tokens' scope (it asked for exactly that).
  const restored = createOAuthState(config, { ...saved, tokens: { ...saved.tokens, scope: "a b" }, serverMetadata: asMeta });
  const refreshed = play(restored, { type: "refresh", now: 1 }, (url) => (url.endsWith("/token") ? { status: 200, body: { access_token: "AT2", token_type: "Bearer" } } : server(url)));
  assert.equal(new URLSearchParams(requests(refreshed.outputs)[0].body).get("scope"), "a b");
  assert.equal(refreshed.state.tokens?.accessToken, "AT2");
  assert.equal(refreshed.state.tokens?.scope, "a b");
});

test("authorization-server-discovery ('The responsibility for selecting which authorization server to use lies with the MCP client') + client-registration priority (pre-registered first): of several listed, the pre-registered client's server, else one whose credentials are saved, else the first", () => {
  const [A, B] = ["https://as-a.test", "https://as-b.test"];
  const twoServers = (url: string) => {
    const origin = new URL(url).origin;
    if (url.includes("oauth-protected-resource")) return { status: 200, body: { resource: MCP, authorization_servers: [A, B] } };
    if (url.endsWith("/.well-known/oauth-authorization-server")) return { status: 200, body: { ...asMeta, issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register` } };
    return server(url);
  };
  const run = (state: OAuthState) => {
    const r = play(state, start, twoServers, noIss);
    return { ...r, sent: requests(r.outputs).map((q) => `${q.method} ${q.url}`), to: redirects(r.outputs).map((u) => `${u.origin} ${u.searchParams.get("client_id")}`) };
  };
  const pre = run(createOAuthState({ ...config, preRegistered: { clientId: "pre-b", issuer: B } }));
  assert.deepEqual(pre.to, [`${B} pre-b`], "the pre-registered client's server, though listed second");
  assert.ok(pre.sent.every((s) => !s.includes(A)), "nothing goes to A");
  assert.equal(pre.state.tokens?.issuer, B);
  const saved = run(createOAuthState(config, { credentials: { [B]: { clientId: "dyn-b", authMethod: "none", via: "dynamic" } } }));
  assert.deepEqual(saved.to, [`${B} dyn-b`], "the server whose credentials were saved: no second registration");
  assert.ok(saved.sent.every((s) => !s.includes("/register")));
  const fresh = run(createOAuthState(config));
  assert.deepEqual(fresh.to, [`${A} id-1`], "else the first listed");
  // Tokens held from B (a step-up, say): B again, whose grant the union of scopes extends.
  const both = { [A]: { clientId: "dyn-a", authMethod: "none" as const, via: "dynamic" as const }, [B]: { clientId: "dyn-b", authMethod: "none" as const, via: "dynamic" as const } };
  const held = run(createOAuthState(config, { credentials: both, tokens: { accessToken: "AT", tokenType: "Bearer", issuer: B, resource: MCP, scope: "a" } }));
  assert.deepEqual(held.to, [`${B} dyn-b`], "the server that issued the tokens held");
  // A pre-registered client not bound yet outranks saved dynamic credentials: the first listed.
  const unbound = run(createOAuthState({ ...config, preRegistered: { clientId: "pre" } }, { credentials: { [B]: both[B] } }));
  assert.deepEqual(unbound.to, [`${A} pre`], "saved dynamic credentials do not steer a pre-registered client");
  // Pre-registered for a server not listed: still the binding error, nothing sent to an authorization server.
  const elsewhere = run(createOAuthState({ ...config, preRegistered: { clientId: "pre-c", issuer: "https://as-c.test" } }));
  assert.match((elsewhere.outputs.at(-1) as { reason: string }).reason, /belongs to https:\/\/as-c.test/);
  assert.ok(elsewhere.sent.every((s) => s.startsWith("GET https://mcp.test/")));
});

test("2025-03-26 authorization, Fallbacks for Servers without Metadata Discovery (for servers that do not implement the metadata; its flow: 404 → default endpoints) and Server Metadata Discovery (clients SHOULD send MCP-Protocol-Version): metadata that fails validation, or an error status, fails with its reason", () => {
  const legacy = { ...config, protocolVersion: "2025-03-26" };
  const origin = (metadata: { status: number; body: unknown }) => (url: string) =>
    url.includes("oauth-protected-resource") ? { status: 404, body: {} } : url.endsWith("/.well-known/oauth-authorization-server") ? metadata : server(url);
  const absent = play(createOAuthState(legacy), start, origin({ status: 404, body: {} }), noIss);
  assert.deepEqual(redirects(absent.outputs).map((u) => u.origin + u.pathname), ["https://mcp.test/authorize"], "absent metadata: the defaults");
  const metadataRequest = requests(absent.outputs).find((q) => q.url.endsWith("/oauth-authorization-server"))!;
  assert.equal(metadataRequest.headers["mcp-protocol-version"], "2025-03-26");
  const ext = "https://idp.test";
  const cases: [string, { status: number; body: unknown }, RegExp][] = [
    ["another issuer", { status: 200, body: { ...asMeta, issuer: ext } }, /issuer "https:\/\/idp.test"/],
    ["issuer with a trailing slash", { status: 200, body: { ...asMeta, issuer: "https://mcp.test/" } }, /issuer "https:\/\/mcp.test\/"/],
    ["a server error", { status: 500, body: {} }, /HTTP 500/],
  ];
  for (const [label, metadata, why] of cases) {
    const { outputs } = play(createOAuthState(legacy), start, origin(metadata), noIss);
    assert.deepEqual(redirects(outputs), [], label);
    assert.ok(requests(outputs).every((q) => q.url.includes("/.well-known/")), `${label}: nothing is registered or sent to invented endpoints`);
    assert.match((outputs.at(-1) as { reason: string }).reason, why, label);
  }
  // The header belongs to the 2025-03-26 discovery only.
  assert.ok(requests(play(createOAuthState(config), start, server).outputs).every((q) => q.headers["mcp-protocol-version"] === undefined));
});

test("RFC 9728 §3.1 (the well-known string goes between the host and the path and/or query) and §3.3 (resource identical to the identifier the URL was built from): a server URL's query stays in the path-inserted URL and in the resource parameter the metadata names", () => {
  const tenant = "https://mcp.test/mcp?tenant=a";
  const prm = (resource: string) => (url: string) => (url.includes("oauth-protected-resource") ? { status: 200, body: { resource, authorization_servers: ["https://as.test"] } } : server(url));
  const first: OAuthInput = { ...start, challenge: "Bearer" };
  const same = play(createOAuthState({ ...config, serverUrl: tenant }), first, prm(tenant));
  assert.equal(requests(same.outputs)[0].url, "https://mcp.test/.well-known/oauth-protected-resource/mcp?tenant=a");
  assert.equal(redirects(same.outputs)[0].searchParams.get("resource"), tenant);
  assert.equal(new URLSearchParams(requests(same.outputs).at(-1)!.body).get("resource"), tenant);
  // Metadata for the path without a query names that (wider) resource; one for another query is not this server's.
  assert.equal(redirects(play(createOAuthState({ ...config, serverUrl: tenant }), first, prm(MCP)).outputs)[0].searchParams.get("resource"), MCP);
  const other = play(createOAuthState({ ...config, serverUrl: tenant }), first, prm("https://mcp.test/mcp?tenant=b"));
  assert.match((other.outputs.at(-1) as { reason: string }).reason, /names the resource https:\/\/mcp.test\/mcp\?tenant=b/);
});

test("index Step-Up Authorization Flow (Clients SHOULD implement retry limits, per resource and operation) + design card (state is plain JSON): a challenge whose scope is named like a member of Object.prototype (\"constructor\", \"toString\", \"__proto__\") is limited like any other and counted as a number; it read the inherited member, so the count became a string and no step-up was ever the last", () => {
  for (const scope of ["constructor", "toString", "__proto__", "ordinary"]) {
    let state: OAuthState = createOAuthState({ ...config, maxStepUps: 2 });
    const kinds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = stepOAuth(state, { type: "authorize", now: 1, challenge: `Bearer error="insufficient_scope", scope="${scope}"`, pkce: PKCE, state: "st" });
      state = r.state;
      kinds.push(r.outputs.map((o) => o.type).join(","));
    }
    assert.deepEqual(kinds, ["http", "http", "failed", "failed"], scope);
    assert.ok(Object.hasOwn(state.stepUps, scope), scope);
    assert.equal(typeof state.stepUps[scope], "number", scope);
    assert.deepEqual(JSON.parse(JSON.stringify(state)), state, scope);
  }
});

test("design card (an input that does not fit is a diagnostic, never a throw): an input of unknown type, one that is no object, and a network error whose message is no string (what fetch threw, handed on as it is) give a step; the first returned undefined, the second and third threw out of stepOAuth", () => {
  const s0 = createOAuthState(config);
  for (const input of [{ type: "bogus", now: 0 }, null, undefined, "authorize"]) {
    const step = stepOAuth(s0, input as unknown as OAuthInput);
    assert.equal(step?.state, s0, JSON.stringify(input));
    assert.deepEqual(step.outputs.map((o) => o.type), ["diagnostic"], JSON.stringify(input));
  }
  const started = stepOAuth(s0, { type: "authorize", now: 0, challenge: null, pkce: PKCE, state: "st" }).state;
  const requestId = started.waitingOn!;
  for (const message of [Symbol("offline"), new TypeError("fetch failed"), { toString(): string { throw new Error("unreadable"); } }]) {
    const step = stepOAuth(started, { type: "network-error", now: 1, requestId, message } as unknown as OAuthInput);
    assert.equal(step.outputs.length, 1);
    assert.ok(step.outputs[0].type === "failed" || step.outputs[0].type === "diagnostic");
    assert.doesNotThrow(() => JSON.stringify(step));
  }
  const failed = stepOAuth(started, { type: "network-error", now: 1, requestId, message: new TypeError("fetch failed") as unknown as string }).outputs[0];
  assert.ok(failed.type === "failed" && failed.reason === "network error: fetch failed", JSON.stringify(failed));
});
