// Spec: draft basic/authorization/authorization-server-discovery and basic/authorization
// ("Canonical Server URI", "Scope Challenge Handling"); RFC 6750 §3 and RFC 9728 §5.1 for
// the WWW-Authenticate syntax.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bearerChallenge, formatBearerChallenge, parseWwwAuthenticate } from "../../src/auth/www-authenticate.js";
import {
  authorizationServerMetadataProblem,
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  protectedResourceMetadataProblem,
  isClientIdMetadataUrl,
  protectedResourceMetadataUrls,
  resourceMatchesServer,
} from "../../src/auth/metadata.js";

test("authorization-server-discovery: clients MUST be able to parse WWW-Authenticate (quoted, unquoted, several challenges)", () => {
  const h = 'Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="needs \\"write\\""';
  const all = parseWwwAuthenticate(h);
  assert.deepEqual(all.map((c) => c.scheme), ["basic", "bearer"]);
  const b = bearerChallenge(h)!;
  assert.equal(b.params.scope, "files:read files:write");
  assert.equal(b.params.error, "insufficient_scope");
  assert.equal(b.params.resource_metadata, "https://mcp.example.com/.well-known/oauth-protected-resource");
  assert.equal(b.params.error_description, 'needs "write"');
  assert.equal(bearerChallenge("bearer realm=mcp")!.params.realm, "mcp");
  assert.equal(bearerChallenge("Basic realm=x"), undefined);
  assert.deepEqual(parseWwwAuthenticate(""), []);
  assert.deepEqual(parseWwwAuthenticate(null), []);
});

test("authorization-server-discovery (RFC 9110 §11.6.1, §11.4: a challenge is a scheme then a token68 or auth-params; several per header): a token68 challenge before Bearer does not hide it", () => {
  for (const first of ["Negotiate abc==", "Negotiate a/b", "Negotiate abc=", "Negotiate a+b/c-d.e_f~g"]) {
    const h = `${first}, Bearer error="insufficient_scope", scope="a b"`;
    assert.deepEqual(parseWwwAuthenticate(h).map((c) => c.scheme), ["negotiate", "bearer"], h);
    assert.deepEqual({ ...bearerChallenge(h)!.params }, { error: "insufficient_scope", scope: "a b" }, h);
  }
  // Auth-params are still auth-params, and a token68 last in the header is no param.
  assert.deepEqual({ ...bearerChallenge('Bearer realm="x", error=invalid_token')!.params }, { realm: "x", error: "invalid_token" });
  assert.deepEqual({ ...bearerChallenge("Bearer abc==")!.params }, {});
});

test("security: a __proto__ auth-param is an ordinary key, never the prototype", () => {
  const c = bearerChallenge('Bearer __proto__="x", scope="a"')!;
  assert.equal(Object.getPrototypeOf(c.params), null);
  assert.equal(c.params.__proto__, "x");
  assert.equal(c.params.scope, "a");
});

test("security: CR or LF never reaches a header: such values are dropped from a challenge, as are values outside printable ASCII", () => {
  const v = formatBearerChallenge({ scope: "a\r\nSet-Cookie: x", error: "invalid_token", resource_metadata: 'https://h/"q"' });
  assert.doesNotMatch(v, /[\r\n]/);
  assert.equal(v, 'Bearer error="invalid_token", resource_metadata="https://h/\\"q\\""');
  assert.equal(bearerChallenge(v)!.params.resource_metadata, 'https://h/"q"');
  assert.equal(formatBearerChallenge({}), "Bearer");
  // RFC 6750 §3: scope and error_description are printable ASCII; a header above U+00FF cannot even be built.
  for (const scope of ["tools:天気", "tools:météo"]) assert.equal(formatBearerChallenge({ error: "insufficient_scope", scope }), 'Bearer error="insufficient_scope"', scope);
});

test("authorization-server-discovery: PRM well-known URIs are tried path-inserted first, then at the root", () => {
  assert.deepEqual(protectedResourceMetadataUrls("https://example.com/public/mcp"), [
    "https://example.com/.well-known/oauth-protected-resource/public/mcp",
    "https://example.com/.well-known/oauth-protected-resource",
  ]);
  assert.deepEqual(protectedResourceMetadataUrls("https://example.com/"), ["https://example.com/.well-known/oauth-protected-resource"]);
  // RFC 9728 §3.1: inserted "between the host component and the path and/or query components": the query stays.
  assert.deepEqual(protectedResourceMetadataUrls("https://example.com/?tenant=a"), ["https://example.com/.well-known/oauth-protected-resource?tenant=a", "https://example.com/.well-known/oauth-protected-resource"]);
});

test("authorization-server-discovery: issuers with a path MUST try OAuth insertion, OIDC insertion, OIDC appending, in that order", () => {
  assert.deepEqual(authorizationServerMetadataUrls("https://auth.example.com/tenant1"), [
    "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
    "https://auth.example.com/.well-known/openid-configuration/tenant1",
    "https://auth.example.com/tenant1/.well-known/openid-configuration",
  ]);
  assert.deepEqual(authorizationServerMetadataUrls("https://auth.example.com"), [
    "https://auth.example.com/.well-known/oauth-authorization-server",
    "https://auth.example.com/.well-known/openid-configuration",
  ]);
});

test("authorization-server-discovery: metadata whose issuer differs from the one used to build the URL MUST NOT be used", () => {
  const good = { issuer: "https://honest.example", authorization_endpoint: "https://honest.example/a", token_endpoint: "https://honest.example/t" };
  assert.equal(authorizationServerMetadataProblem(good, "https://honest.example"), undefined);
  assert.match(authorizationServerMetadataProblem(good, "https://attacker.example")!, /issuer/);
  // Simple string comparison: a trailing slash is a different issuer.
  assert.match(authorizationServerMetadataProblem(good, "https://honest.example/")!, /issuer/);
  assert.match(authorizationServerMetadataProblem({ ...good, token_endpoint: "ftp://x" }, good.issuer)!, /token_endpoint/);
  assert.match(authorizationServerMetadataProblem({ ...good, authorization_endpoint: 3 }, good.issuer)!, /authorization_endpoint/);
  assert.match(authorizationServerMetadataProblem({ ...good, registration_endpoint: "nope" }, good.issuer)!, /registration_endpoint/);
  assert.match(authorizationServerMetadataProblem([], good.issuer)!, /object/);
});

test("authorization-server-discovery: the PRM document MUST include authorization_servers with at least one server", () => {
  const ok = { resource: "https://mcp.example.com/mcp", authorization_servers: ["https://as.example.com"] };
  assert.equal(protectedResourceMetadataProblem(ok), undefined);
  assert.match(protectedResourceMetadataProblem({ ...ok, authorization_servers: [] })!, /authorization_servers/);
  assert.match(protectedResourceMetadataProblem({ ...ok, authorization_servers: ["javascript:alert(1)"] })!, /http/);
  assert.match(protectedResourceMetadataProblem({ ...ok, resource: undefined })!, /resource/);
  assert.match(protectedResourceMetadataProblem({ ...ok, scopes_supported: "a b" })!, /scopes_supported/);
  assert.match(protectedResourceMetadataProblem(null)!, /object/);
});

test("basic/authorization Canonical Server URI: lower-case scheme and host, no fragment, no trailing slash", () => {
  assert.equal(canonicalResourceUri("HTTPS://MCP.Example.com/mcp/#frag"), "https://mcp.example.com/mcp");
  assert.equal(canonicalResourceUri("https://mcp.example.com/"), "https://mcp.example.com");
  assert.equal(canonicalResourceUri("https://mcp.example.com:8443"), "https://mcp.example.com:8443");
  assert.equal(resourceMatchesServer("https://mcp.example.com", "https://mcp.example.com/mcp"), true);
  assert.equal(resourceMatchesServer("https://mcp.example.com/mcp", "https://mcp.example.com/mcp"), true);
  assert.equal(resourceMatchesServer("https://mcp.example.com/other", "https://mcp.example.com/mcp"), false);
  assert.equal(resourceMatchesServer("https://mcp.example.com/m", "https://mcp.example.com/mcp"), false);
  assert.equal(resourceMatchesServer("https://evil.example.com/mcp", "https://mcp.example.com/mcp"), false);
  assert.equal(resourceMatchesServer("not a url", "https://mcp.example.com/mcp"), false);
});

test("RFC 9728 §3.3 (security: a peer's metadata is bounded work): a resource or issuer path of a long run of slashes is compared and trimmed without a regular expression over it (one that backtracks, /\\/+$/, takes quadratic time: minutes for the 1 MiB a metadata document may hold)", () => {
  const path = "/mcp" + "/".repeat(1 << 20) + "x";
  const resource = `https://mcp.example.com${path}`;
  // Every pattern a regular expression is run over is measured; the peer's path must not be one.
  const longest = { n: 0 };
  const methods = [Symbol.replace, Symbol.match, Symbol.search, Symbol.split, "exec"] as const;
  const saved = methods.map((m) => (RegExp.prototype as any)[m]);
  methods.forEach((m, i) => {
    (RegExp.prototype as any)[m] = function (this: RegExp, input: unknown, ...rest: unknown[]) {
      longest.n = Math.max(longest.n, String(input).length);
      if (String(input).length > 100_000) throw new Error(`a regular expression was run over ${String(input).length} characters`);
      return saved[i].call(this, input, ...rest);
    };
  });
  try {
    assert.equal(resourceMatchesServer(resource, "https://mcp.example.com/mcp"), false);
    assert.equal(resourceMatchesServer("https://mcp.example.com/mcp" + "/".repeat(1 << 20), "https://mcp.example.com/mcp"), true, "trailing slashes trimmed");
    assert.equal(canonicalResourceUri(resource).length, resource.length);
    assert.equal(authorizationServerMetadataUrls(resource)[0], `https://mcp.example.com/.well-known/oauth-authorization-server${path}`);
  } finally {
    methods.forEach((m, i) => ((RegExp.prototype as any)[m] = saved[i]));
  }
  assert.ok(longest.n <= 100_000, `longest regex input ${longest.n}`);
});

test("client-registration, Client ID Metadata Documents (the client_id URL MUST use https and contain a path, following RFC requirements: the CIMD draft forbids a fragment, user info and dot segments)", () => {
  for (const ok of ["https://c.example/c.json", "https://c.example/c.json?v=1", "https://c.example/a.b/c..json"]) assert.equal(isClientIdMetadataUrl(ok), true, ok);
  for (const bad of ["https://c.example/c.json#x", "https://u:p@c.example/c.json", "https://c.example/a/../c.json", "https://c.example/./c.json", "https://c.example/a/%2E%2e/c.json", "https://a.example\\x\\..\\c.json", "https://a.example/x/\t./c.json", "https://C.example/c.json", "https://c.example/", "http://c.example/c.json", 5]) {
    assert.equal(isClientIdMetadataUrl(bad), false, String(bad));
  }
});
