// Spec: the SEP-1046 extension `io.modelcontextprotocol/oauth-client-credentials`
// (ext-auth specification/draft/oauth-client-credentials: "Client Credentials Flow",
// "Client Authentication Methods", "Server Metadata Requirements", "Flow Steps"), with the
// RFCs it builds on: RFC 6749 §4.4 (the grant) and §2.3.1 (client passwords), RFC 7523 §2.2
// and §3 (JWT client assertions), RFC 8707 (resource), RFC 8414 §2 (metadata). The client
// is the pure reducer, driven here by hand: no clock, no randomness, no I/O.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createOAuthState, stepOAuth, type OAuthAnyClientConfig, type OAuthInput, type OAuthOutput, type OAuthState } from "../../src/auth/client-flow.js";
import type { ClientCredentialsConfig } from "../../src/auth/client-credentials.js";

const MCP = "https://mcp.test/mcp";
const AS = "https://as.test";
const SECRET = "TOP-SECRET-v4lue";
const asMeta = {
  issuer: AS,
  token_endpoint: `${AS}/token`,
  grant_types_supported: ["client_credentials"],
  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
  token_endpoint_auth_signing_alg_values_supported: ["ES256"],
};
const prm = { resource: MCP, authorization_servers: [AS], scopes_supported: ["mcp:read"] };
const start: OAuthInput = { type: "authorize", now: 1_000, challenge: `Bearer resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp"` };
const cfg = (clientCredentials: ClientCredentialsConfig): OAuthAnyClientConfig => ({ serverUrl: MCP, clientCredentials });

type Answer = { status: number; body: unknown };
interface Run {
  state: OAuthState;
  outputs: OAuthOutput[];
  /** The HTTP requests, in order. */
  http: Extract<OAuthOutput, { type: "http" }>["request"][];
}

/** Plays the servers: each http output answered by `answers`, each client-assertion output by `sign`. */
function play(state: OAuthState, first: OAuthInput, answers: (url: string) => Answer = serve(), sign: (ask: Extract<OAuthOutput, { type: "client-assertion" }>) => OAuthInput = () => ({ type: "client-assertion", now: 3, assertion: "h.p.s" })): Run {
  const outputs: OAuthOutput[] = [];
  const queue = [first];
  while (queue.length) {
    const step = stepOAuth(state, queue.shift()!);
    state = step.state;
    for (const o of step.outputs) {
      outputs.push(o);
      if (o.type === "http") {
        const a = answers(o.request.url);
        queue.push({ type: "response", now: 2, requestId: o.request.requestId, status: a.status, body: JSON.stringify(a.body) });
      }
      if (o.type === "client-assertion") queue.push(sign(o));
    }
  }
  return { state, outputs, http: outputs.flatMap((o) => (o.type === "http" ? [o.request] : [])) };
}

function serve(meta: Record<string, unknown> = asMeta, token: Answer = { status: 200, body: { access_token: "AT", token_type: "Bearer", expires_in: 60 } }): (url: string) => Answer {
  return (url) => {
    if (url.includes("oauth-protected-resource")) return { status: 200, body: prm };
    if (url.endsWith("/.well-known/oauth-authorization-server")) return { status: 200, body: meta };
    if (url.endsWith("/token")) return token;
    return { status: 404, body: {} };
  };
}

const formOf = (r: { body?: string }) => new URLSearchParams(r.body ?? "");
const path = (r: { method: string; url: string }) => `${r.method} ${new URL(r.url).pathname}`;
const failure = (run: Run) => (run.outputs.find((o) => o.type === "failed") as { reason: string } | undefined)?.reason;
/** Every `failed` and `diagnostic` output, as one string: what a log of the outputs would hold. */
const logged = (run: Run) => JSON.stringify(run.outputs.filter((o) => o.type === "failed" || o.type === "diagnostic"));

test("SEP-1046 Flow Steps + RFC 6749 §4.4.2: with clientCredentials the flow is discovery (PRM, AS metadata), then one token request grant_type=client_credentials with resource (RFC 8707) and the Scope Selection Strategy's scope; no registration (\"Dynamic Client Registration is not used in this flow\"), no redirect, no PKCE; no redirectUri configured", () => {
  const run = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start);
  assert.deepEqual(run.http.map(path), ["GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/oauth-authorization-server", "POST /token"]);
  assert.ok(!run.outputs.some((o) => o.type === "redirect"), "no browser");
  const form = formOf(run.http[2]);
  assert.equal(form.get("grant_type"), "client_credentials");
  assert.equal(form.get("resource"), MCP, "RFC 8707: the canonical resource URI");
  assert.equal(form.get("scope"), "mcp:read", "scopes_supported of the PRM (no scope in the challenge)");
  assert.equal(form.get("code_verifier"), null);
  assert.equal(form.get("redirect_uri"), null);
  const last = run.outputs.at(-1) as Extract<OAuthOutput, { type: "authorized" }>;
  assert.deepEqual(last.tokens, { accessToken: "AT", tokenType: "Bearer", issuer: AS, resource: MCP, expiresAt: 2 + 60_000, scope: "mcp:read" });
  assert.deepEqual(JSON.parse(JSON.stringify(run.state)), run.state, "the state is plain JSON");
});

test("RFC 6749 §2.3.1 (the server MUST support HTTP Basic for clients with a password; the body is NOT RECOMMENDED): client_secret_basic is the default, both halves form-encoded; client_secret_post only when configured or the only advertised method", () => {
  const basic = play(createOAuthState(cfg({ clientId: "svc id", clientSecret: "a:b" })), start).http[2];
  assert.equal(basic.headers.authorization, `Basic ${Buffer.from("svc+id:a%3Ab").toString("base64")}`);
  assert.equal(formOf(basic).get("client_secret"), null);
  assert.equal(formOf(basic).get("client_id"), null);
  const onlyPost = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, serve({ ...asMeta, token_endpoint_auth_methods_supported: ["client_secret_post"] })).http[2];
  assert.equal(onlyPost.headers.authorization, undefined);
  assert.equal(formOf(onlyPost).get("client_id"), "svc");
  assert.equal(formOf(onlyPost).get("client_secret"), SECRET);
  const configured = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET, authMethod: "client_secret_post" })), start).http[2];
  assert.equal(formOf(configured).get("client_secret"), SECRET);
  // RFC 8414 §2: no list at all means client_secret_basic.
  const unlisted = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, serve({ ...asMeta, token_endpoint_auth_methods_supported: undefined })).http[2];
  assert.match(unlisted.headers.authorization ?? "", /^Basic /);
});

test("SEP-1046 Client Authentication Methods (JWT Authentication, RECOMMENDED) + RFC 7523 §2.2: without a secret the flow asks for a client assertion (audience = the issuer, iss = sub = client_id) and sends nothing until it comes back; the token request carries client_assertion_type jwt-bearer and the assertion, and no client_id (SEP-1046: identification is the sub claim)", () => {
  const state = createOAuthState(cfg({ clientId: "svc" }));
  let step = stepOAuth(state, start);
  const walk = (body: unknown) => {
    const req = (step.outputs[0] as Extract<OAuthOutput, { type: "http" }>).request;
    step = stepOAuth(step.state, { type: "response", now: 2, requestId: req.requestId, status: 200, body: JSON.stringify(body) });
  };
  walk(prm);
  walk(asMeta);
  assert.deepEqual(step.outputs, [{ type: "client-assertion", clientId: "svc", audience: AS, alg: "ES256" }]);
  assert.equal(step.state.phase, "signing");
  // Plain JSON while it waits: a round-tripped state continues the same way.
  const copy = JSON.parse(JSON.stringify(step.state)) as OAuthState;
  const signed: OAuthInput = { type: "client-assertion", now: 3, assertion: "eyJ.eyJ.sig" };
  assert.deepEqual(stepOAuth(copy, signed), stepOAuth(step.state, signed));
  const req = (stepOAuth(step.state, signed).outputs[0] as Extract<OAuthOutput, { type: "http" }>).request;
  const form = formOf(req);
  assert.equal(req.url, `${AS}/token`);
  assert.equal(form.get("grant_type"), "client_credentials");
  assert.equal(form.get("client_assertion_type"), "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
  assert.equal(form.get("client_assertion"), "eyJ.eyJ.sig");
  assert.equal(form.get("client_id"), null);
  assert.equal(req.headers.authorization, undefined);
  assert.equal(form.get("resource"), MCP);
  // RS256 when configured; the assertion never lands in the state.
  const rs = play(createOAuthState(cfg({ clientId: "svc", signingAlgorithm: "RS256" })), start, serve({ ...asMeta, token_endpoint_auth_signing_alg_values_supported: ["RS256"] }));
  assert.deepEqual(rs.outputs.find((o) => o.type === "client-assertion"), { type: "client-assertion", clientId: "svc", audience: AS, alg: "RS256" });
  assert.ok(!JSON.stringify(rs.state).includes("h.p.s"), "the assertion is not kept");
});

test("design card (an input that does not fit the phase is a diagnostic, never a throw): a client assertion nobody asked for, in every phase either grant passes through; a signing failure fails the flow with its reason and sends nothing", () => {
  const assertion: OAuthInput = { type: "client-assertion", now: 1, assertion: "a.b.c" };
  const everything = serve({ ...asMeta, registration_endpoint: `${AS}/register`, authorization_endpoint: `${AS}/authorize`, code_challenge_methods_supported: ["S256"] });
  const answers = (url: string) => (url.endsWith("/register") ? { status: 201, body: { client_id: "dyn" } } : everything(url));
  const code: OAuthAnyClientConfig = { serverUrl: MCP, redirectUri: "http://127.0.0.1:1/cb", clientName: "c" };
  const states: OAuthState[] = [];
  for (const [config, first] of [
    [cfg({ clientId: "svc", clientSecret: SECRET }), start],
    [cfg({ clientId: "svc" }), start],
    [cfg({ clientId: "" }), start],
    [code, { ...start, pkce: { verifier: "v".repeat(43), challenge: "c".repeat(43) }, state: "st" }],
  ] as const) {
    let state = createOAuthState(config);
    const inputs: OAuthInput[] = [first];
    states.push(state);
    while (inputs.length) {
      const step = stepOAuth(state, inputs.shift()!);
      state = step.state;
      states.push(state);
      for (const o of step.outputs) {
        if (o.type === "http") inputs.push({ type: "response", now: 2, requestId: o.request.requestId, status: 200, body: JSON.stringify(answers(o.request.url).body) });
        if (o.type === "client-assertion") inputs.push({ type: "client-assertion", now: 3, assertion: "h.p.s" });
        if (o.type === "redirect") inputs.push({ type: "callback", now: 3, params: { code: "c", state: "st" } });
      }
    }
  }
  const others = states.filter((s) => s.phase !== "signing");
  for (const s of others) assert.deepEqual(stepOAuth(s, assertion).outputs.map((o) => o.type), ["diagnostic"], s.phase);
  assert.deepEqual([...new Set(others.map((s) => s.phase))].sort(), ["authorized", "authorizing", "exchanging", "failed", "idle", "registering", "resource-metadata", "server-metadata"]);
  const refused = play(createOAuthState(cfg({ clientId: "svc" })), start, serve(), () => ({ type: "client-assertion", now: 3, error: "the private key cannot sign ES256 assertions: the JWK is for RS256" }));
  assert.equal(failure(refused), "the client assertion could not be signed: the private key cannot sign ES256 assertions: the JWK is for RS256");
  assert.ok(!refused.http.some((r) => r.url.endsWith("/token")), "no token request");
  assert.equal(refused.state.phase, "failed");
});

test("SEP-1046 Server Metadata Requirements + RFC 8414 §2: an authorization server whose metadata lists grant_types_supported without client_credentials, token_endpoint_auth_methods_supported without the client's method, or token_endpoint_auth_signing_alg_values_supported without its algorithm fails the flow, in the metadata's terms, before any credential is sent", () => {
  const cases: [ClientCredentialsConfig, Record<string, unknown>, string][] = [
    [{ clientId: "svc", clientSecret: SECRET }, { ...asMeta, grant_types_supported: ["authorization_code", "refresh_token"] }, `the authorization server ${AS} does not support the client_credentials grant (grant_types_supported: authorization_code, refresh_token)`],
    [{ clientId: "svc" }, { ...asMeta, token_endpoint_auth_methods_supported: ["client_secret_basic"] }, `the authorization server ${AS} does not support the private_key_jwt client authentication method (token_endpoint_auth_methods_supported: client_secret_basic)`],
    [{ clientId: "svc", clientSecret: SECRET, authMethod: "client_secret_post" }, { ...asMeta, token_endpoint_auth_methods_supported: ["private_key_jwt"] }, `the authorization server ${AS} does not support the client_secret_post client authentication method (token_endpoint_auth_methods_supported: private_key_jwt)`],
    [{ clientId: "svc", clientSecret: SECRET }, { ...asMeta, token_endpoint_auth_methods_supported: ["private_key_jwt"] }, `the authorization server ${AS} does not support the client_secret_basic client authentication method (token_endpoint_auth_methods_supported: private_key_jwt)`],
    [{ clientId: "svc", signingAlgorithm: "RS256" }, asMeta, `the authorization server ${AS} does not accept RS256 client assertions (token_endpoint_auth_signing_alg_values_supported: ES256)`],
  ];
  for (const [cc, meta, reason] of cases) {
    const run = play(createOAuthState(cfg(cc)), start, serve(meta));
    assert.equal(failure(run), reason);
    assert.ok(!run.http.some((r) => r.url.endsWith("/token")), `no token request: ${reason}`);
    assert.ok(!run.outputs.some((o) => o.type === "client-assertion"), "nothing signed");
    assert.ok(!logged(run).includes(SECRET));
  }
  // Lists left out are not held against the client (servers that support the grant often omit them).
  const { grant_types_supported: _g, token_endpoint_auth_signing_alg_values_supported: _a, ...bare } = asMeta;
  assert.equal(play(createOAuthState(cfg({ clientId: "svc" })), start, serve(bare)).state.phase, "authorized");
  // A list of the wrong shape is read as left out, never thrown on.
  assert.equal(play(createOAuthState(cfg({ clientId: "svc" })), start, serve({ ...asMeta, grant_types_supported: "client_credentials", token_endpoint_auth_signing_alg_values_supported: 7 })).state.phase, "authorized");
});

test("RFC 8414 §2 (authorization_endpoint is REQUIRED unless no grant type that uses it is supported) and 2025-11-25 security-considerations (PKCE S256 refusal is about the code grant): a client credentials flow uses metadata with neither; the authorization code flow still refuses it", () => {
  const run = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start);
  assert.equal(run.state.phase, "authorized", "asMeta has no authorization_endpoint and no code_challenge_methods_supported");
  const code = play(createOAuthState({ serverUrl: MCP, redirectUri: "http://127.0.0.1:1/cb", clientName: "c" }), { ...start, pkce: { verifier: "v".repeat(43), challenge: "c".repeat(43) }, state: "st" }, serve());
  assert.match(failure(code) ?? "", /no usable authorization server metadata/);
  assert.match(logged(code), /authorization_endpoint is missing/);
  // A present authorization endpoint must still be https (Communication Security).
  const http = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, serve({ ...asMeta, authorization_endpoint: "http://as.test/authorize" }));
  assert.equal(http.state.phase, "failed");
  assert.match(logged(http), /authorization_endpoint is missing or not an https URL/);
});

test("RFC 6749 §4.4 (client credentials MUST only be used by confidential clients) and §4.4.3: a configuration that can never authenticate fails at once without a request; the authorization code grant without its randomness fails likewise", () => {
  const bad: [ClientCredentialsConfig, RegExp][] = [
    [{ clientId: "" }, /clientCredentials\.clientId is missing/],
    [{ clientId: "svc", authMethod: "client_secret_basic" }, /client_secret_basic needs a clientSecret/],
    [{ clientId: "svc", authMethod: "none" as never }, /authMethod "none" is none of/],
    [{ clientId: "svc", signingAlgorithm: "HS256" as never }, /signingAlgorithm "HS256" is none of ES256, RS256/],
  ];
  for (const [cc, reason] of bad) {
    const step = stepOAuth(createOAuthState(cfg(cc)), start);
    assert.deepEqual(step.outputs.map((o) => o.type), ["failed"]);
    assert.match((step.outputs[0] as { reason: string }).reason, reason);
  }
  const code = stepOAuth(createOAuthState({ serverUrl: MCP, redirectUri: "http://127.0.0.1:1/cb", clientName: "c" }), start);
  assert.deepEqual(code.outputs, [{ type: "failed", reason: "the authorize input carries no PKCE pair and state (the authorization code grant needs them)" }]);
});

test("RFC 6749 §4.4.3 (a refresh token SHOULD NOT be included): one the server sends anyway is not kept, so a refresh asks for the grant to run again; and offline_access (refresh tokens) is never added to the scope", () => {
  const run = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, serve({ ...asMeta, scopes_supported: ["mcp:read", "offline_access"] }, { status: 200, body: { access_token: "AT", token_type: "Bearer", refresh_token: "RT" } }));
  assert.equal(run.state.tokens?.refreshToken, undefined);
  assert.equal(formOf(run.http[2]).get("scope"), "mcp:read");
  assert.deepEqual(stepOAuth(run.state, { type: "refresh", now: 9 }).outputs, [{ type: "failed", reason: "no refresh token", reauthorize: true }]);
});

test("basic/authorization Step-Up Authorization Flow (client_credentials clients MAY step up; the union of scopes, bounded) and RFC 6749 §5.1 (an answer without scope grants the one requested): a 403 insufficient_scope challenge re-runs the grant with the union; past maxStepUps it stops", () => {
  const first = play(createOAuthState({ ...cfg({ clientId: "svc", clientSecret: SECRET }), maxStepUps: 1 }), start);
  const challenge = `Bearer error="insufficient_scope", scope="files:write", resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp"`;
  const up = play(first.state, { type: "authorize", now: 10, challenge });
  assert.equal(formOf(up.http.at(-1)!).get("scope"), "mcp:read files:write");
  assert.equal(up.state.tokens?.scope, "mcp:read files:write");
  const again = play(up.state, { type: "authorize", now: 11, challenge });
  assert.equal(failure(again), "the server still answers insufficient_scope after 1 step-up attempts");
  assert.equal(again.http.length, 0);
});

test("client-registration Authorization Server Binding (credentials MUST be associated with the issuer; MUST NOT be reused with another): client credentials are bound like pre-registered ones, recorded without their secret, and never sent to another authorization server", () => {
  const run = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start);
  assert.deepEqual(run.state.credentials, { [AS]: { clientId: "svc", authMethod: "client_secret_basic", via: "pre-registered" } });
  // The server now names another authorization server.
  const moved = (url: string): Answer => (url.includes("oauth-protected-resource") ? { status: 200, body: { ...prm, authorization_servers: ["https://other.test"] } } : serve()(url));
  const next = play(run.state, { type: "authorize", now: 10 }, moved);
  assert.equal(failure(next), `the server now uses the authorization server https://other.test, but the pre-registered client belongs to ${AS}`);
  assert.ok(next.http.every((r) => !r.url.startsWith("https://other.test")), "nothing went to the other server");
  // The binding survives a restart (saved credentials hold the record, never the key).
  const saved = { [AS]: { clientId: "svc", authMethod: "private_key_jwt" as const, via: "pre-registered" as const }, "https://x.test": { clientId: "x", authMethod: "private_key_jwt" as const, via: "dynamic" as const } };
  const restarted = createOAuthState(cfg({ clientId: "svc" }), { credentials: saved });
  assert.deepEqual(Object.keys(restarted.credentials), [AS], "a private_key_jwt record is only ever a binding record");
  assert.match(failure(play(restarted, start, moved)) ?? "", /the pre-registered client belongs to https:\/\/as\.test/);
  // A configured issuer is chosen among several listed.
  const listed = (url: string): Answer => (url.includes("oauth-protected-resource") ? { status: 200, body: { ...prm, authorization_servers: ["https://other.test", AS] } } : serve()(url));
  const chosen = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET, issuer: AS })), start, listed);
  assert.equal(chosen.state.tokens?.issuer, AS);
});

test("SEP-1046 Security Considerations (client credential protection): a refused token request says the grant and the error, and neither a failure nor a diagnostic carries the secret", () => {
  const run = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, serve(asMeta, { status: 401, body: { error: "invalid_client", error_description: `bad secret ${SECRET}` } }));
  assert.equal(failure(run), "the client_credentials token request was refused (invalid_client: the authorization server did not accept the client id and its secret or key)");
  assert.ok(!logged(run).includes(SECRET));
  assert.equal(run.state.phase, "failed");
  assert.deepEqual(Object.keys(run.state.credentials), [AS], "pre-registered credentials are the user's to fix: not forgotten");
  const status = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, serve(asMeta, { status: 400, body: { error: "unsupported_grant_type" } }));
  assert.equal(failure(status), "the client_credentials token request was refused (unsupported_grant_type)");
});

test("design card (the reducer never throws): clientCredentials given as null (untyped JavaScript) is no client credentials config: the authorization code flow runs, or says what it lacks", () => {
  const code = { serverUrl: MCP, redirectUri: "http://127.0.0.1:1/cb", clientName: "c", clientCredentials: null } as unknown as OAuthAnyClientConfig;
  const pkce = { verifier: "v".repeat(43), challenge: "c".repeat(43) };
  assert.doesNotThrow(() => stepOAuth(createOAuthState(code), { ...start, pkce, state: "st" }));
  const bare = { serverUrl: MCP, clientCredentials: null } as unknown as OAuthAnyClientConfig;
  const out = stepOAuth(createOAuthState(bare), start).outputs;
  assert.ok(out.some((o) => o.type === "failed"), JSON.stringify(out));
});

test("SEP-1046 Security Considerations (client credential protection): an authorization server that echoes the secret in its error does not get it into the failure (blotted out)", () => {
  const echo = serve(asMeta, { status: 401, body: { error: `bad-${SECRET}` } });
  const run = play(createOAuthState(cfg({ clientId: "svc", clientSecret: SECRET })), start, echo);
  assert.match(failure(run) ?? "", /bad-\[client secret\]/);
  assert.ok(!logged(run).includes(SECRET));
});
