// Spec: draft basic/authorization/security-considerations ("Communication Security",
// "Authorization Code Protection"), client-registration ("Client ID Metadata Documents",
// "Authorization Server Binding"), authorization-server-discovery ("Protected Resource
// Metadata Discovery Requirements") and index ("MCP clients MUST use OAuth 2.0 Protected
// Resource Metadata for authorization server discovery"). The reducer is driven directly
// against a scripted set of documents, so every request it would make is visible.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createOAuthState, stepOAuth, type OAuthClientConfig, type OAuthHttpRequest, type OAuthInput, type OAuthOutput, type OAuthState } from "../../src/auth/client-flow.js";

const MCP = "https://mcp.example.com/mcp";
const PRM_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const base: OAuthClientConfig = { serverUrl: MCP, redirectUri: "http://127.0.0.1:9/cb", clientName: "c" };
const asMeta = (iss: string, extra: Record<string, unknown> = {}) => ({
  issuer: iss,
  authorization_endpoint: `${iss}/authorize`,
  token_endpoint: `${iss}/token`,
  registration_endpoint: `${iss}/register`,
  code_challenge_methods_supported: ["S256"],
  ...extra,
});
const prm = (issuer: string) => ({ [PRM_URL]: { resource: MCP, authorization_servers: [issuer] } });
const token = { access_token: "AT", token_type: "Bearer" };

interface Run {
  state: OAuthState;
  outputs: OAuthOutput[];
  requests: OAuthHttpRequest[];
  redirects: string[];
  failure?: string;
}

/** Runs one authorization: `docs` answers GETs and POSTs by URL (anything else is a 404); the callback carries a code. */
function run(config: OAuthClientConfig, docs: Record<string, unknown>, opts: { state?: OAuthState; challenge?: string; callback?: Record<string, string> } = {}): Run {
  let state = opts.state ?? createOAuthState(config);
  const r: Run = { state, outputs: [], requests: [], redirects: [] };
  const queue: OAuthInput[] = [{ type: "authorize", now: 0, challenge: opts.challenge ?? null, pkce: { verifier: "v".repeat(43), challenge: "c".repeat(43) }, state: "st" }];
  while (queue.length) {
    const step = stepOAuth(state, queue.shift()!);
    state = step.state;
    for (const o of step.outputs) {
      r.outputs.push(o);
      if (o.type === "http") {
        r.requests.push(o.request);
        const doc = docs[o.request.url];
        queue.push({ type: "response", now: 0, requestId: o.request.requestId, status: doc === undefined ? 404 : 200, body: JSON.stringify(doc ?? {}) });
      } else if (o.type === "redirect") {
        r.redirects.push(o.url);
        queue.push({ type: "callback", now: 0, params: opts.callback ?? { code: "CODE", state: "st" } });
      } else if (o.type === "failed") r.failure = o.reason;
    }
  }
  r.state = state;
  return r;
}

/** Every host the flow sent a request to or redirected to. */
const hosts = (r: Run) => [...r.requests.map((q) => q.url), ...r.redirects].map((u) => new URL(u).host);

test("security-considerations Communication Security: all authorization server endpoints MUST be served over HTTPS; an http authorization server is refused before anything is sent to it", () => {
  const http = "http://auth.example.com";
  const r = run(base, { ...prm(http), [`${http}/.well-known/oauth-authorization-server`]: asMeta(http), [`${http}/register`]: { client_id: "cid", client_secret: "SECRET" }, [`${http}/token`]: token });
  assert.match(r.failure!, /authorization_servers .*https/);
  assert.deepEqual(hosts(r), ["mcp.example.com"], "neither registration, redirect nor token request went to the http server");
});

test("security-considerations Communication Security: an https issuer whose metadata names an http authorization, token or registration endpoint is not used", () => {
  const iss = "https://auth.example.com";
  for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint"]) {
    const meta = asMeta(iss, { [field]: `http://auth.example.com/${field}` });
    const r = run(base, { ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: meta, [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token });
    assert.match(r.failure!, /no usable authorization server metadata/, field);
    assert.ok(r.outputs.some((o) => o.type === "diagnostic" && o.message.includes(field) && o.message.includes("not an https URL")), field);
    assert.equal(r.redirects.length, 0, field);
    assert.ok(r.requests.every((q) => q.method === "GET" && q.url.startsWith("https://")), `${field}: no code, verifier or secret sent`);
  }
});

test("security-considerations Communication Security: http is allowed on loopback hosts only (localhost, 127.0.0.0/8, [::1]) for local development", () => {
  for (const iss of ["http://localhost:8080", "http://127.0.0.1:8080", "http://127.5.6.7", "http://[::1]:8080"]) {
    const r = run(base, { ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token });
    assert.equal(r.failure, undefined, iss);
    assert.equal(r.state.phase, "authorized", iss);
  }
  // The 2025-03-26 fallback's authorization server (the MCP server's origin) is held to the same rule.
  const legacy = run({ ...base, serverUrl: "http://mcp.example.com/mcp", protocolVersion: "2025-03-26" }, {});
  assert.match(legacy.failure!, /http:\/\/mcp.example.com is not served over https/);
  assert.ok(legacy.requests.every((q) => q.url.includes("oauth-protected-resource")), "only the PRM probes of the resource itself");
});

test("security-considerations Communication Security: redirect URIs MUST be either localhost or use HTTPS; another is refused at the first step", () => {
  const iss = "https://auth.example.com";
  const docs = { ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  const bad = run({ ...base, redirectUri: "http://client.example.net/cb" }, docs);
  assert.match(bad.failure!, /redirect URI http:\/\/client.example.net\/cb .*localhost or use HTTPS/);
  assert.equal(bad.requests.length, 0, "nothing registered, nothing requested");
  assert.equal(bad.state.phase, "failed");
  for (const redirectUri of ["https://client.example.net/cb", "http://localhost:3000/callback", "http://127.0.0.1:9/cb"]) {
    assert.equal(run({ ...base, redirectUri }, docs).state.phase, "authorized", redirectUri);
  }
});

test("client-registration Client ID Metadata Documents: the client_id URL MUST use the https scheme and contain a path component; another is a configuration error, never sent", () => {
  const iss = "https://auth.example.com";
  const docs = { ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss, { client_id_metadata_document_supported: true }), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  for (const clientMetadataUrl of ["http://app.example.com/client.json", "https://app.example.com", "https://app.example.com/", "not a url"]) {
    const r = run({ ...base, clientMetadataUrl }, docs);
    assert.match(r.failure!, /client metadata URL .* is not an https URL with a path/, clientMetadataUrl);
    assert.equal(r.requests.length, 0, clientMetadataUrl);
  }
  const ok = run({ ...base, clientMetadataUrl: "https://app.example.com/client.json" }, docs);
  assert.equal(ok.state.phase, "authorized");
  assert.equal(new URL(ok.redirects[0]).searchParams.get("client_id"), "https://app.example.com/client.json");
});

test("client-registration Client ID Metadata Documents (priority: pre-registered, CIMD, DCR): the client_id sent is the configured metadata URL, not one saved by an earlier run; a saved URL the application has moved or dropped is not sent again", () => {
  const iss = "https://auth.example.com";
  const docs = { ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss, { client_id_metadata_document_supported: true }), [`${iss}/register`]: { client_id: "dcr-id" }, [`${iss}/token`]: token };
  const first = run({ ...base, clientMetadataUrl: "https://app.example.com/v1/client.json" }, docs);
  assert.equal(first.state.phase, "authorized");
  const saved = { credentials: first.state.credentials };
  const moved = { ...base, clientMetadataUrl: "https://app.example.com/v2/client.json" };
  const r = run(moved, docs, { state: createOAuthState(moved, saved) });
  assert.equal(new URL(r.redirects[0]).searchParams.get("client_id"), "https://app.example.com/v2/client.json");
  assert.equal(r.state.credentials[iss].clientId, "https://app.example.com/v2/client.json", "the refresh goes with the client the tokens were issued to");
  const dropped = run(base, docs, { state: createOAuthState(base, saved) });
  assert.equal(new URL(dropped.redirects[0]).searchParams.get("client_id"), "dcr-id", "without a metadata URL: Dynamic Client Registration");
});

test("client-registration Authorization Server Binding: pre-registered credentials without an issuer are bound to the first one they are used with and never sent to another", () => {
  const honest = "https://auth.example.com";
  const evil = "https://evil.example";
  const config: OAuthClientConfig = { ...base, preRegistered: { clientId: "honest-id", clientSecret: "HONEST-SECRET" } };
  const docs = (iss: string) => ({ ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss), [`${iss}/token`]: token });
  const first = run(config, docs(honest));
  assert.equal(first.state.phase, "authorized");
  // The binding is recorded per issuer, without the secret (which stays in the configuration).
  assert.deepEqual(first.state.credentials[honest], { clientId: "honest-id", authMethod: "client_secret_basic", via: "pre-registered" });
  assert.doesNotMatch(JSON.stringify(first.state.credentials), /HONEST-SECRET/);
  // The server now names another authorization server: an error, before any request to it.
  const moved = run(config, docs(evil), { state: first.state });
  assert.match(moved.failure!, /pre-registered client belongs to https:\/\/auth.example.com/);
  assert.ok(!hosts(moved).includes("evil.example"));
  // The binding survives a restart through the saved credentials.
  const restarted = run(config, docs(evil), { state: createOAuthState(config, { credentials: first.state.credentials }) });
  assert.match(restarted.failure!, /belongs to https:\/\/auth.example.com/);
  assert.ok(!hosts(restarted).includes("evil.example"));
  // With an issuer configured the credentials are bound from the very first use.
  const configured = run({ ...base, preRegistered: { clientId: "honest-id", clientSecret: "HONEST-SECRET", issuer: honest } }, docs(evil));
  assert.match(configured.failure!, /belongs to https:\/\/auth.example.com/);
  assert.ok(!hosts(configured).includes("evil.example"));
});

test("security-considerations Authorization Code Protection + index: with no Protected Resource Metadata the client refuses (no invented metadata, PKCE never assumed) unless the flow is for a 2025-03-26 server", () => {
  const origin = "https://mcp.example.com";
  const docs = { [`${origin}/register`]: { client_id: "x" }, [`${origin}/token`]: token };
  const r = run(base, docs);
  assert.match(r.failure!, /no protected resource metadata/);
  assert.deepEqual(r.requests.map((q) => q.url), [PRM_URL, `${origin}/.well-known/oauth-protected-resource`], "only the PRM probes");
  assert.equal(r.redirects.length, 0);
  // 2025-03-26 "Fallbacks for Servers without Metadata Discovery": only when asked for.
  const legacy = run({ ...base, protocolVersion: "2025-03-26" }, docs);
  assert.equal(legacy.state.phase, "authorized");
  assert.deepEqual(legacy.requests.map((q) => new URL(q.url).pathname).slice(-2), ["/register", "/token"]);
});

test("authorization-server-discovery: a resource_metadata URL from the challenge that does not answer is followed by the well-known URIs, in their order", () => {
  const iss = "https://auth.example.com";
  const docs = { ...prm(iss), [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  const r = run(base, docs, { challenge: 'Bearer resource_metadata="https://mcp.example.com/prm-moved"' });
  assert.equal(r.state.phase, "authorized");
  assert.deepEqual(r.requests.slice(0, 2).map((q) => q.url), ["https://mcp.example.com/prm-moved", PRM_URL]);
  // A hint equal to a well-known URI is not asked twice.
  const none = run(base, {}, { challenge: `Bearer resource_metadata="${PRM_URL}"` });
  assert.deepEqual(none.requests.map((q) => q.url), [PRM_URL, "https://mcp.example.com/.well-known/oauth-protected-resource"]);
});

test("RFC 7636 Appendix B (PKCE S256, which draft basic/authorization requires): createPkce turns the RFC's 32 octets into its code_verifier and code_challenge", async () => {
  const { createPkce } = await import("../../src/auth/oauth-fetch.js");
  // The RFC's example octets stand in for the random source, for this one call only.
  const octets = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];
  const random = globalThis.crypto.getRandomValues;
  globalThis.crypto.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
    (array as unknown as Uint8Array).set(octets);
    return array;
  };
  try {
    assert.deepEqual(await createPkce(), { verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" });
  } finally {
    globalThis.crypto.getRandomValues = random;
  }
});

test("index Scope Selection Strategy (Clients MUST NOT assume any particular set relationship between the challenged scope set and scopes_supported; MUST treat the challenge's scopes as authoritative): a challenge asking for a scope outside scopes_supported, and not for one inside it, is asked for as it is", () => {
  const iss = "https://auth.example.com";
  const docs = { [PRM_URL]: { resource: MCP, authorization_servers: [iss], scopes_supported: ["a", "b"] }, [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  const r = run(base, docs, { challenge: `Bearer resource_metadata="${PRM_URL}", scope="b c"` });
  assert.equal(r.failure, undefined);
  assert.equal(new URL(r.redirects[0]).searchParams.get("scope"), "b c", "neither narrowed to scopes_supported nor widened by it");
  const registration = JSON.parse(r.requests.find((q) => q.url.endsWith("/register"))!.body!);
  assert.equal(registration.scope, "b c");
});

test("security-considerations Authorization Code Protection (OpenID Connect Discovery 1.0: MCP clients MUST verify the presence of code_challenge_methods_supported; if absent they MUST refuse to proceed; S256 MUST be used): an OpenID provider without it, or with plain only, gets no registration and no redirect", () => {
  const iss = "https://auth.example.com";
  const oidc = (extra: Record<string, unknown>) => {
    const { code_challenge_methods_supported: _, ...meta } = asMeta(iss);
    return { ...prm(iss), [`${iss}/.well-known/openid-configuration`]: { ...meta, ...extra }, [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  };
  for (const extra of [{}, { code_challenge_methods_supported: ["plain"] }]) {
    const r = run(base, oidc(extra));
    assert.match(r.failure ?? "", /PKCE S256/, JSON.stringify(extra));
    assert.deepEqual(r.redirects, []);
    assert.ok(r.requests.every((q) => q.method === "GET"), "nothing registered");
  }
  const ok = run(base, oidc({ code_challenge_methods_supported: ["plain", "S256"] }));
  assert.equal(ok.state.phase, "authorized");
  assert.equal(new URL(ok.redirects[0]).searchParams.get("code_challenge_method"), "S256");
});

test("index Authorization Response Validation (clients MUST NOT apply scheme or host case folding, default-port elision, trailing-slash or percent-encoding normalization before comparing iss): each such variant of the recorded issuer is a mismatch, and the code goes to no token endpoint", () => {
  const iss = "https://auth.example.com/~t";
  const docs = { ...prm(iss), [`https://auth.example.com/.well-known/oauth-authorization-server/~t`]: asMeta(iss, { authorization_response_iss_parameter_supported: true }), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  for (const variant of ["https://AUTH.example.com/~t", "HTTPS://auth.example.com/~t", "https://auth.example.com:443/~t", "https://auth.example.com/~t/", "https://auth.example.com/%7Et"]) {
    const r = run(base, docs, { callback: { code: "CODE", state: "st", iss: variant } });
    assert.match(r.failure ?? "", /another issuer/, variant);
    assert.ok(!r.requests.some((q) => q.url.endsWith("/token")), `${variant}: no token request`);
  }
  assert.equal(run(base, docs, { callback: { code: "CODE", state: "st", iss } }).state.phase, "authorized");
});

test("security-considerations Communication Security (implementations MUST follow OAuth 2.1 §1.5: tokens in header fields are protected by TLS; RFC 6750 §5.3): no token is obtained for, or restored for, an MCP server on plain http off loopback, so none is ever sent there in clear text; loopback http stays allowed", () => {
  const plain = "http://mcp.example.com/mcp";
  const iss = "https://auth.example.com";
  const docs = { "http://mcp.example.com/.well-known/oauth-protected-resource/mcp": { resource: plain, authorization_servers: [iss] }, [`${iss}/.well-known/oauth-authorization-server`]: asMeta(iss), [`${iss}/register`]: { client_id: "cid" }, [`${iss}/token`]: token };
  const r = run({ ...base, serverUrl: plain }, docs);
  assert.match(r.failure ?? "", /the MCP server http:\/\/mcp.example.com is not served over https/);
  assert.deepEqual(r.requests, [], "nothing discovered, registered or exchanged");
  assert.equal(r.state.tokens, undefined);
  // Tokens an application saved for it are not taken up either.
  const saved = { tokens: { accessToken: "AT", tokenType: "Bearer", issuer: iss, resource: plain } };
  const restored = createOAuthState({ ...base, serverUrl: plain }, saved);
  assert.equal(restored.tokens, undefined);
  assert.equal(restored.phase, "idle");
  // On a loopback host (local development) both still work.
  const local = "http://127.0.0.1:7000/mcp";
  const localDocs = { "http://127.0.0.1:7000/.well-known/oauth-protected-resource/mcp": { resource: local, authorization_servers: [iss] }, ...docs };
  assert.equal(run({ ...base, serverUrl: local }, localDocs).state.phase, "authorized");
  assert.equal(createOAuthState({ ...base, serverUrl: local }, { tokens: { ...saved.tokens, resource: local } }).tokens?.accessToken, "AT");
});
