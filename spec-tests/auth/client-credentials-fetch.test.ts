// Spec: the SEP-1046 extension `io.modelcontextprotocol/oauth-client-credentials` as a user
// wires it: oauthFetch with `clientCredentials` against our own protectedResource and an
// in-test authorization server that checks what a strict one would (HTTP Basic per RFC 6749
// §2.3.1, RFC 7523 assertions verified with crypto.subtle, §3 claims, jti replay). Time is
// the servers' injected clock; keys are generated per test; nothing sleeps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { authInfo, protectedResource } from "../../src/auth/resource-server.js";
import { OAuthError, oauthFetch, type ClientCredentialsOptions, type OAuthFetchClientCredentialsOptions } from "../../src/auth/oauth-fetch.js";
import { ClientCredentialsServer, type ClientCredentialsServerOptions } from "./fixtures/client-credentials-server.js";
import { routeFetch, TestAuthServer } from "./fixtures/auth-server.js";

const MCP = "https://mcp.test/mcp";
const AS = "https://as.test";
const SECRET = "s3cr3t-Value";

const pem = (der: ArrayBuffer) => `-----BEGIN PRIVATE KEY-----\n${Buffer.from(der).toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END PRIVATE KEY-----\n`;

async function ecKey() {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  return { pair, pem: pem(await crypto.subtle.exportKey("pkcs8", pair.privateKey)), jwk: await crypto.subtle.exportKey("jwk", pair.privateKey) };
}

async function rsaKey() {
  const pair = await crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"]);
  return { pair, pem: pem(await crypto.subtle.exportKey("pkcs8", pair.privateKey)) };
}

interface World {
  as: ClientCredentialsServer;
  client: ReturnType<typeof oauthFetch>;
  post: (name?: string) => Promise<Response>;
  /** Each request that reached the MCP server: its Authorization header and the status it got. */
  mcp: { authorization: string | null; status: number }[];
}

function world(asOptions: Partial<ClientCredentialsServerOptions> & Pick<ClientCredentialsServerOptions, "client">, clientCredentials: ClientCredentialsOptions, more: Partial<OAuthFetchClientCredentialsOptions> = {}): World {
  const as = new ClientCredentialsServer({ issuer: AS, ...asOptions });
  const mcp: World["mcp"] = [];
  const guarded = protectedResource(async () => Response.json({ jsonrpc: "2.0", id: 1, result: {} }), {
    resource: MCP,
    authorizationServers: [AS],
    scopesSupported: ["mcp"],
    verifyToken: as.verifyToken,
    requiredScopes: (body) => ((body as { params?: { name?: string } })?.params?.name === "write" ? ["mcp", "files:write"] : ["mcp"]),
    now: () => as.now,
  });
  const counted = async (req: Request) => {
    const res = await guarded(req);
    if (!new URL(req.url).pathname.startsWith("/.well-known")) mcp.push({ authorization: req.headers.get("authorization"), status: res.status });
    return res;
  };
  const f = routeFetch({ "https://mcp.test": counted, [AS]: as.handle });
  const client = oauthFetch({ serverUrl: MCP, clientCredentials, fetch: f, now: () => as.now, ...more });
  const post = (name = "read") => client(MCP, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } }) });
  return { as, client, post, mcp };
}

/** The message an OAuthError rejection carries. */
async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof OAuthError, String(e));
    return e.message;
  }
  assert.fail("no rejection");
}

test("SEP-1046 end to end (JWT Authentication, RECOMMENDED; RFC 7523 §2.2 and §3): an McpClient with a PKCS#8 PEM key gets a token with a signed assertion the authorization server verifies with crypto.subtle (iss = sub = client_id, aud = the issuer, short exp, random jti), then calls a tool; every HTTP request after the first carried the token", async () => {
  const key = await ecKey();
  const as = new ClientCredentialsServer({ issuer: "http://127.0.0.1:7001", client: { id: "svc", publicKey: key.pair.publicKey, alg: "ES256" }, expiresIn: 3600 });
  const server = new McpServer({ name: "protected", version: "1.0.0" });
  server.tool("whoami", { description: "the caller" }, (_args, ctx) => ({ content: [{ type: "text", text: authInfo(ctx.httpRequest)?.token.subject ?? "nobody" }] }));
  const mcp = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({ principalOf: (req) => authInfo(req)?.token.subject }) });
  const guarded = protectedResource(mcp, { resource: "http://127.0.0.1:7000/mcp", authorizationServers: [as.options.issuer], scopesSupported: ["mcp"], verifyToken: as.verifyToken, now: () => as.now });
  let unauthenticated = 0;
  const counting = async (req: Request) => {
    if (!req.headers.get("authorization") && !new URL(req.url).pathname.startsWith("/.well-known")) unauthenticated++;
    return guarded(req);
  };
  const f = routeFetch({ "http://127.0.0.1:7000": counting, "http://127.0.0.1:7001": as.handle });
  const authFetch = oauthFetch({ serverUrl: "http://127.0.0.1:7000/mcp", clientCredentials: { clientId: "svc", privateKey: key.pem }, fetch: f, now: () => as.now });
  const client = new McpClient({ name: "svc", version: "1.0.0" });
  await client.connect(httpClientTransport("http://127.0.0.1:7000/mcp", { fetch: authFetch }));
  const r = await client.callTool("whoami", {});
  assert.equal((r.content[0] as { text: string }).text, "svc", "the tool saw the client as the principal");
  assert.equal(unauthenticated, 1, "only the very first request went without a token");
  assert.equal(as.tokenRequests.length, 1);
  const form = as.tokenRequests[0].form;
  assert.equal(form.get("grant_type"), "client_credentials");
  assert.equal(form.get("resource"), "http://127.0.0.1:7000/mcp");
  assert.equal(form.get("scope"), "mcp");
  assert.equal(form.get("client_id"), null, "SEP-1046: the client is the assertion's sub");
  const [{ header, claims }] = as.assertions;
  assert.deepEqual(header, { alg: "ES256", typ: "JWT" });
  assert.equal(claims.iss, "svc");
  assert.equal(claims.sub, "svc");
  assert.equal(claims.aud, "http://127.0.0.1:7001");
  assert.equal(claims.iat, Math.floor(as.now / 1000));
  assert.equal((claims.exp as number) - (claims.iat as number), 60, "a short life");
  assert.match(claims.jti as string, /^[A-Za-z0-9_-]{22}$/, "128 random bits");
  assert.equal(as.requests.filter((r) => r.path === "/token").length, 1);
  await client.close();
});

test("SEP-1046 + RFC 6749 §4.4.3 (no refresh token): a 401 on a later request runs the grant again with a fresh assertion (new jti: the server refuses a replayed one), and the request is retried once", async () => {
  const key = await ecKey();
  const w = world({ client: { id: "svc", publicKey: key.pair.publicKey, alg: "ES256" } }, { clientId: "svc", privateKey: key.pem });
  assert.equal((await w.post()).status, 200);
  w.as.revokeAll();
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.tokenRequests.length, 2);
  assert.notEqual(w.as.assertions[0].claims.jti, w.as.assertions[1].claims.jti);
  assert.ok(w.as.tokenRequests.every((t) => t.form.get("grant_type") === "client_credentials"), "never a refresh_token grant");
  assert.deepEqual(w.mcp.map((m) => m.status), [401, 200, 401, 200]);
  assert.notEqual(w.mcp[1].authorization, w.mcp[3].authorization);
});

test("RFC 7523 §2.2 with a JWK or a CryptoKey: ES256 from a private JWK (its kid goes in the JWS header), RS256 from a CryptoKey; the private key never enters the flow's state", async () => {
  const ec = await ecKey();
  const jwk = { ...ec.jwk, kid: "key-1" };
  const w = world({ client: { id: "svc", publicKey: ec.pair.publicKey, alg: "ES256" } }, { clientId: "svc", privateKey: jwk });
  assert.equal((await w.post()).status, 200);
  assert.deepEqual(w.as.assertions[0].header, { alg: "ES256", typ: "JWT", kid: "key-1" });
  const state = JSON.stringify(w.client.state);
  assert.ok(!state.includes(jwk.d!), "the JWK's private part is not in the state");
  assert.equal("privateKey" in (w.client.state.config.clientCredentials ?? {}), false);

  const rsa = await rsaKey();
  const r = world({ client: { id: "svc", publicKey: rsa.pair.publicKey, alg: "RS256" } }, { clientId: "svc", privateKey: rsa.pair.privateKey, signingAlgorithm: "RS256" });
  assert.equal((await r.post()).status, 200);
  assert.equal(r.as.assertions[0].header.alg, "RS256");
  const p = world({ client: { id: "svc", publicKey: rsa.pair.publicKey, alg: "RS256" } }, { clientId: "svc", privateKey: rsa.pem, signingAlgorithm: "RS256" });
  assert.equal((await p.post()).status, 200, "RS256 from PKCS#8 PEM");
  assert.ok(!JSON.stringify(p.client.state).includes(rsa.pem.split("\n")[1]), "the PEM is not in the state");
});

test("RFC 6749 §2.3.1 (client_secret_basic) through oauthFetch, and an expired token (injected clock) is replaced before it is sent: the server never sees it", async () => {
  const w = world({ client: { id: "svc", secret: SECRET }, expiresIn: 60 }, { clientId: "svc", clientSecret: SECRET });
  assert.equal((await w.post()).status, 200);
  assert.match(w.as.tokenRequests[0].authorization ?? "", /^Basic /);
  const first = w.mcp[1].authorization;
  w.as.now += 61_000;
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.tokenRequests.length, 2);
  assert.deepEqual(w.mcp.map((m) => m.status), [401, 200, 200], "no request went out with the expired token");
  assert.notEqual(w.mcp[2].authorization, first);
  // Within its life the token is reused.
  assert.equal((await w.post()).status, 200);
  assert.equal(w.as.tokenRequests.length, 2);
});

test("basic/authorization Step-Up Authorization Flow (client_credentials clients MAY step up, retrying no more than a few times): a 403 insufficient_scope runs the grant again with the union of scopes; a scope the server never grants ends in an OAuthError after maxStepUps", async () => {
  const w = world({ client: { id: "svc", secret: SECRET } }, { clientId: "svc", clientSecret: SECRET });
  assert.equal((await w.post("write")).status, 200);
  assert.deepEqual(w.as.tokenRequests.map((t) => t.form.get("scope")), ["mcp", "mcp files:write"]);
  const never = world({ client: { id: "svc", secret: SECRET }, withhold: ["files:write"] }, { clientId: "svc", clientSecret: SECRET }, { maxStepUps: 1 });
  assert.match(await rejection(never.post("write")), /insufficient_scope after 1 step-up attempts/);
  assert.equal(never.as.tokenRequests.length, 2, "bounded");
});

test("SEP-1046 Security Considerations (client credential protection): a wrong secret surfaces as an OAuthError naming invalid_client, without the secret; an authorization server without the grant fails before any credential is sent", async () => {
  const wrong = world({ client: { id: "svc", secret: "the-right-one" } }, { clientId: "svc", clientSecret: SECRET });
  const message = await rejection(wrong.post());
  assert.equal(message, "the client_credentials token request was refused (invalid_client: the authorization server did not accept the client id and its secret or key)");
  assert.ok(!message.includes(SECRET));
  const noGrant = world({ client: { id: "svc", secret: SECRET }, grantTypes: ["authorization_code"] }, { clientId: "svc", clientSecret: SECRET });
  assert.equal(await rejection(noGrant.post()), `the authorization server ${AS} does not support the client_credentials grant (grant_types_supported: authorization_code)`);
  assert.equal(noGrant.as.tokenRequests.length, 0);
});

test("basic/authorization (MUST respond appropriately to 401): calls under way together share a failed grant as they share a granted one: ten concurrent calls with a wrong secret make one token request and all fail with its OAuthError; a call made after it runs the grant again", async () => {
  const wrong = world({ client: { id: "svc", secret: "the-right-one" } }, { clientId: "svc", clientSecret: SECRET });
  const messages = await Promise.all(Array.from({ length: 10 }, () => rejection(wrong.post())));
  assert.deepEqual(new Set(messages), new Set(["the client_credentials token request was refused (invalid_client: the authorization server did not accept the client id and its secret or key)"]));
  assert.equal(wrong.as.tokenRequests.length, 1, "one token request for ten calls");
  assert.match(await rejection(wrong.post()), /invalid_client/);
  assert.equal(wrong.as.tokenRequests.length, 2, "a later call is not refused on the strength of an old failure");
});

test("RFC 7523 §2.2 keys that cannot sign: no key, a SEC 1 PEM, an RSA key for ES256, a public JWK: each an OAuthError saying what is wrong, quoting no key material, with no token request", async () => {
  const ec = await ecKey();
  const rsa = await rsaKey();
  const body = ec.pem.split("\n")[1];
  const sec1 = ec.pem.replace(/PRIVATE KEY/g, "EC PRIVATE KEY");
  const { d: _d, ...publicJwk } = ec.jwk;
  const cases: [ClientCredentialsOptions["privateKey"], string][] = [
    [undefined, "the client assertion could not be signed: private_key_jwt needs clientCredentials.privateKey (or give a clientSecret)"],
    [sec1, `the client assertion could not be signed: the private key is a "EC PRIVATE KEY" PEM, not PKCS#8 ("PRIVATE KEY"; openssl pkcs8 -topk8 -nocrypt converts it)`],
    ["not a key", "the client assertion could not be signed: the private key is not PEM text (-----BEGIN PRIVATE KEY----- … -----END PRIVATE KEY-----)"],
    [rsa.pem, "the client assertion could not be signed: the private key cannot sign ES256 assertions: the PKCS#8 key is not an ECDSA P-256 key"],
    [rsa.pair.privateKey, "the client assertion could not be signed: the private key cannot sign ES256 assertions: the CryptoKey is not the private half of an ECDSA P-256 key, usable for signing"],
    [ec.pair.publicKey, "the client assertion could not be signed: the private key cannot sign ES256 assertions: the CryptoKey is not the private half of an ECDSA P-256 key, usable for signing"],
    [publicJwk, `the client assertion could not be signed: the private key cannot sign ES256 assertions: the JWK holds no private key (no "d")`],
    [{ ...ec.jwk, alg: "RS256" }, "the client assertion could not be signed: the private key cannot sign ES256 assertions: the JWK is for RS256"],
  ];
  for (const [privateKey, expected] of cases) {
    const w = world({ client: { id: "svc", publicKey: ec.pair.publicKey, alg: "ES256" } }, { clientId: "svc", ...(privateKey !== undefined ? { privateKey } : {}) });
    const message = await rejection(w.post());
    assert.equal(message, expected);
    assert.ok(!message.includes(body.slice(0, 16)) && !message.includes(ec.jwk.d!), "no key material");
    assert.equal(w.as.tokenRequests.length, 0);
  }
});

test("oauthFetch's options (typed: openAuthorization is required exactly when there is no clientCredentials): an untyped caller's authorization code configuration without openAuthorization gets an OAuthError saying so, not a TypeError", async () => {
  const as = new TestAuthServer({ issuer: AS });
  const guarded = protectedResource(async () => Response.json({}), { resource: MCP, authorizationServers: [AS], verifyToken: as.verifyToken });
  const f = routeFetch({ "https://mcp.test": guarded, [AS]: as.handle });
  const client = oauthFetch({ serverUrl: MCP, redirectUri: "http://127.0.0.1:1/cb", clientName: "c", fetch: f } as never);
  assert.equal(await rejection(client(MCP, { method: "POST", body: "{}" })), "the flow asks to open the authorization URL, and no openAuthorization is configured");
});
