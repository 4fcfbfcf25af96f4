// Spec: `schema.json` of each version, as compiled by scripts/gen-validators.mjs: the
// JSON Schema keywords it uses (type, required, additionalProperties, items, enum,
// const, anyOf, allOf, minimum/maximum, maxItems, format) and how issues are reported.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_ISSUES, typeNames, validate, validatorFor, type Issue } from "../../src/schema/index.js";
import { SCHEMA_VERSIONS } from "../../src/model/versions.js";
import { definitions } from "./repo.js";

const paths = (issues: Issue[] | null) => (issues ?? []).map((i) => i.path);
const reasons = (issues: Issue[] | null) => (issues ?? []).map((i) => i.reason).join("; ");
const v = (version: (typeof SCHEMA_VERSIONS)[number] | "2024-11-05", type: string) => {
  const f = validatorFor(version, type);
  assert.ok(f, `${version} ${type}`);
  return f;
};

const TEXT = { type: "text", text: "hi" };
const META_2026 = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

test("typeNames lists every definition of each vendored schema, and nothing else", () => {
  for (const version of SCHEMA_VERSIONS) {
    assert.deepEqual(typeNames(version), Object.keys(definitions(version)).sort(), version);
  }
});

// versions.ts: "2024-11-05 is checked with 2025-03-26's" schema.
test("2024-11-05 is validated with the 2025-03-26 schema", () => {
  assert.deepEqual(typeNames("2024-11-05"), typeNames("2025-03-26"));
  assert.equal(validatorFor("2024-11-05", "CallToolResult"), validatorFor("2025-03-26", "CallToolResult"));
});

test("identical definitions of different versions share one validator", () => {
  assert.equal(validatorFor("2025-06-18", "TextContent"), validatorFor("2025-11-25", "TextContent"));
  assert.notEqual(validatorFor("2025-11-25", "CallToolResult"), validatorFor("2026-07-28", "CallToolResult"));
});

test("unknown type names and versions: no validator, and validate() reports an issue at the root", () => {
  assert.equal(validatorFor("2026-07-28", "NoSuchType"), undefined);
  assert.equal(validatorFor("2025-03-26", "DiscoverRequest"), undefined, "server/discover is 2026-07-28 only");
  assert.equal(validatorFor("1999-01-01" as never, "TextContent"), undefined);
  assert.equal(validatorFor(42 as never, "TextContent"), undefined);
  assert.deepEqual(typeNames("1999-01-01" as never), []);
  const r = validate("2026-07-28", "__proto__", {});
  assert.equal(r.ok, false);
  if (!r.ok) assert.deepEqual(paths(r.issues), [""]);
  assert.deepEqual(validate("2026-07-28", "TextContent", TEXT), { ok: true, value: TEXT });
});

// MCP types are open: additionalProperties absent means other keys are allowed (forward compatibility).
test("objects accept members the schema does not list", () => {
  assert.equal(v("2026-07-28", "TextContent")({ ...TEXT, futureField: { x: 1 } }), null);
});

test("type: each JSON type is told apart, integer is not a fraction, NaN and undefined are no JSON", () => {
  const size = v("2026-07-28", "Resource");
  const base = { name: "n", uri: "file:///a" };
  assert.equal(size({ ...base, size: 10 }), null);
  assert.match(reasons(size({ ...base, size: 1.5 })), /expected integer/);
  assert.match(reasons(size({ ...base, size: Number.NaN })), /expected integer/);
  const text = v("2026-07-28", "TextContent");
  for (const bad of [undefined, null, 1, true, [], () => 1, 10n, Symbol("s")]) {
    assert.deepEqual(paths(text({ type: "text", text: bad })), ["/text"], String(bad));
  }
  assert.match(reasons(text([])), /expected object/);
  assert.match(reasons(v("2026-07-28", "ContentBlock")("text")), /expected object/);
  assert.match(reasons(v("2026-07-28", "ProgressToken")(1.5)), /expected string or integer/);
  assert.match(reasons(v("2026-07-28", "ProgressNotificationParams")({ progressToken: 1, progress: "x" })), /expected number/);
  assert.match(reasons(v("2026-07-28", "CallToolResult")({ resultType: "complete", content: {} })), /expected array/);
  assert.match(reasons(v("2026-07-28", "CallToolResult")({ resultType: "complete", content: [], isError: 1 })), /expected boolean/);
});

// 2025-11-25 Task: "Receivers MUST include the actual ttl duration (or null for unlimited)".
test("type lists with null: Task.ttl is an integer or null (2025-11-25)", () => {
  const task = v("2025-11-25", "Task");
  const t = { taskId: "t", status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z" };
  assert.equal(task({ ...t, ttl: null }), null);
  assert.equal(task({ ...t, ttl: 60000 }), null);
  assert.match(reasons(task({ ...t, ttl: "forever" })), /expected integer or null/);
  assert.deepEqual(paths(task({ ...t, ttl: 1, status: "sleeping" })), ["/status"]);
});

test("minimum/maximum are inclusive bounds (ModelPreferences priorities are 0..1)", () => {
  const prefs = v("2026-07-28", "ModelPreferences");
  assert.equal(prefs({ costPriority: 0, speedPriority: 1, intelligencePriority: 0.5 }), null);
  assert.deepEqual(prefs({ costPriority: 1.5 }), [{ path: "/costPriority", reason: "must be <= 1" }]);
  assert.deepEqual(prefs({ speedPriority: -0.1 }), [{ path: "/speedPriority", reason: "must be >= 0" }]);
  // draft server/utilities/caching: "Servers MUST provide a ttlMs value that is >= 0".
  const list = v("2026-07-28", "ListToolsResult");
  assert.deepEqual(paths(list({ resultType: "complete", tools: [], ttlMs: -1, cacheScope: "public" })), ["/ttlMs"]);
});

// completion: "values: An array of completion values. Must not exceed 100 items."
test("maxItems: a completion has at most 100 values", () => {
  const complete = v("2026-07-28", "CompleteResult");
  const values = (n: number) => ({ resultType: "complete", completion: { values: Array.from({ length: n }, (_, i) => String(i)) } });
  assert.equal(complete(values(100)), null);
  assert.deepEqual(complete(values(101)), [{ path: "/completion/values", reason: "expected at most 100 items" }]);
});

test("format byte: base64 data is checked leniently, uri needs a scheme, uri-template is not checked", () => {
  const image = v("2026-07-28", "ImageContent");
  assert.equal(image({ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }), null);
  assert.equal(image({ type: "image", mimeType: "image/png", data: "iVBORw0KGgo" }), null, "unpadded");
  assert.equal(image({ type: "image", mimeType: "image/png", data: "a-b_c" }), null, "URL-safe alphabet");
  assert.deepEqual(image({ type: "image", mimeType: "image/png", data: "not base64!" }), [{ path: "/data", reason: "expected base64 data" }]);
  const resource = v("2026-07-28", "Resource");
  for (const uri of ["file:///project/a.rs", "https://example.com/x", "memo://insights", "urn:isbn:0451450523"]) {
    assert.equal(resource({ name: "n", uri }), null, uri);
  }
  assert.deepEqual(resource({ name: "n", uri: "README.md" }), [{ path: "/uri", reason: "expected a URI with a scheme" }]);
  assert.match(reasons(resource({ name: "n", uri: 5 })), /expected string/);
  assert.equal(v("2026-07-28", "ResourceTemplate")({ name: "n", uriTemplate: "{+path}" }), null);
});

// Errata: schema.json is narrower than the normative schema.ts in two places.
test("errata: JSON values may be fractions and null (schema.ts JSONValue), elicitation answers may be fractions", () => {
  const caps = v("2026-07-28", "ClientCapabilities");
  assert.equal(caps({ experimental: { x: { ratio: 0.5, none: null, list: [1.5, null, "a", true, { deep: [] }] } } }), null);
  assert.match(reasons(caps({ experimental: { x: 1 } })), /expected object/);
  for (const version of ["2025-06-18", "2025-11-25", "2026-07-28"] as const) {
    const elicit = v(version, "ElicitResult");
    assert.equal(elicit({ action: "accept", content: { temperature: 36.6, name: "x", ok: true } }), null, version);
    assert.deepEqual(paths(elicit({ action: "accept", content: { bad: { nested: 1 } } })), ["/content/bad"], version);
  }
});

test("RFC 6901: ~ and / in keys are escaped as ~0 and ~1 in the issue path", () => {
  const caps = v("2026-07-28", "ClientCapabilities");
  assert.deepEqual(paths(caps({ experimental: { "a/b~c": 5 } })), ["/experimental/a~1b~0c"]);
  assert.deepEqual(paths(caps({ extensions: { "io.modelcontextprotocol/ui": [] } })), ["/extensions/io.modelcontextprotocol~1ui"]);
});

test("every issue is reported, up to a cap", () => {
  const tool = v("2026-07-28", "Tool");
  const r = tool({ name: 1, inputSchema: { type: "array" }, title: 2, icons: "x" });
  assert.deepEqual(paths(r).sort(), ["/icons", "/inputSchema/type", "/name", "/title"]);
  const list = v("2026-07-28", "ListToolsResult");
  const many = list({ resultType: "complete", ttlMs: 0, cacheScope: "public", tools: Array.from({ length: 100 }, () => ({})) });
  assert.equal(many?.length, MAX_ISSUES);
  const wide = v("2026-07-28", "ClientCapabilities")({ experimental: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])) });
  assert.equal(wide?.length, MAX_ISSUES);
});

test("anyOf with a discriminating constant: the claimed alternative is checked and its issues reported", () => {
  const block = v("2026-07-28", "ContentBlock");
  assert.deepEqual(block({ type: "image", data: "AA==" }), [{ path: "", reason: 'missing required property "mimeType"' }]);
  assert.deepEqual(block({ type: "video" }), [{ path: "/type", reason: 'expected one of "text", "image", "audio", "resource_link", "resource"' }]);
  assert.deepEqual(block({ text: "no type" }), [{ path: "", reason: 'missing required property "type"' }]);
  // ElicitRequestFormParams leaves `mode` optional ("form" when absent); URL mode requires it.
  const params = v("2026-07-28", "ElicitRequestParams");
  const schema = { type: "object", properties: {} };
  assert.equal(params({ message: "m", requestedSchema: schema }), null);
  assert.deepEqual(params({ mode: "url", message: "m" }), [{ path: "", reason: 'missing required property "url"' }]);
  assert.deepEqual(paths(params({ message: "m" })), [""]);
});

test("anyOf without a discriminator: valid if any alternative holds, else the closest alternatives explain", () => {
  const embedded = v("2026-07-28", "EmbeddedResource");
  assert.equal(embedded({ type: "resource", resource: { uri: "file:///a", blob: "AA==" } }), null);
  assert.equal(embedded({ type: "resource", resource: { uri: "file:///a", text: "a" } }), null);
  const both = embedded({ type: "resource", resource: { uri: "file:///a" } });
  assert.deepEqual(paths(both), ["/resource", "/resource"]);
  assert.match(reasons(both), /"text"/);
  assert.match(reasons(both), /"blob"/);
  // A string schema with a bad `type` member is reported as that member, not as every alternative.
  const prim = v("2026-07-28", "PrimitiveSchemaDefinition");
  assert.equal(prim({ type: "string", format: "email" }), null);
  assert.equal(prim({ type: "string", enum: ["a", "b"] }), null);
  assert.deepEqual(paths(prim({ type: "strin", format: "email" })), ["/type"]);
  // 2025-03-26 JSON-RPC batches: arrays of requests/notifications or of responses.
  const message = v("2025-03-26", "JSONRPCMessage");
  assert.equal(message([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }]), null);
  assert.equal(message([{ jsonrpc: "2.0", id: 1, result: {} }]), null);
  assert.notEqual(message([{ jsonrpc: "2.0" }]), null);
  assert.notEqual(message("x"), null);
});

// draft basic/patterns/mrtr: InputResponses values are "the client's result for each request".
test("anyOf tried in turn reports the closest alternative at the right place (InputResponses)", () => {
  const responses = v("2026-07-28", "InputResponses");
  assert.equal(responses({ a: { action: "accept", content: { name: "x" } }, b: { roots: [{ uri: "file:///r" }] } }), null);
  assert.deepEqual(paths(responses({ a: { action: "accept", content: { name: {} } } })), ["/a/content/name"]);
  assert.deepEqual(paths(responses({ b: { roots: [{ uri: 5 }] } })), ["/b/roots/0/uri"]);
});

test("InputRequiredResult | X unions are kept as the schema states them (any resultType matches)", () => {
  // See methods.test.ts for the resultType dispatch the protocol defines on top.
  const response = v("2026-07-28", "CallToolResultResponse");
  assert.equal(response({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required", requestState: "s" } }), null);
  assert.deepEqual(paths(response({ jsonrpc: "2.0", id: 1, result: 5 })), ["/result"]);
});

test("allOf is checked as one object: GetTaskResult is a Result and a Task (2025-11-25)", () => {
  const r = v("2025-11-25", "GetTaskResult")({ taskId: "t", status: "working" });
  assert.deepEqual(paths(r), ["", "", ""]);
  assert.match(reasons(r), /createdAt/);
  // An error code pinned by allOf [Error, {code: const}].
  const mismatch = v("2026-07-28", "HeaderMismatchError");
  assert.equal(mismatch({ jsonrpc: "2.0", id: 1, error: { code: -32020, message: "m" } }), null);
  assert.deepEqual(mismatch({ jsonrpc: "2.0", id: 1, error: { code: -32600, message: "m" } }), [{ path: "/error/code", reason: "expected -32020" }]);
  assert.deepEqual(paths(mismatch({ jsonrpc: "2.0", id: 1, error: { code: "x", message: "m" } })), ["/error/code", "/error/code"]);
});

test("requests of 2026-07-28 need the per-request _meta", () => {
  const params = v("2026-07-28", "CallToolRequestParams");
  assert.equal(params({ name: "t", _meta: META_2026 }), null);
  assert.deepEqual(params({ name: "t" }), [{ path: "", reason: 'missing required property "_meta"' }]);
  assert.deepEqual(paths(params({ name: "t", _meta: { ...META_2026, "io.modelcontextprotocol/logLevel": "loud" } })), ["/_meta/io.modelcontextprotocol~1logLevel"]);
});

test("objects: a required member is found even when not enumerable, and issues follow the schema's key order whatever the members' order (the fast pass over own keys falls back to the member-by-member check)", () => {
  const check = v("2025-11-25", "CallToolRequestParams");
  const hidden = (name: unknown) => Object.defineProperty({ arguments: {} }, "name", { value: name, enumerable: false });
  assert.equal(check(hidden("get_weather")), null);
  assert.deepEqual(paths(check(hidden(5))), ["/name"]);
  const forward = check({ name: 7, arguments: 5 });
  assert.equal(forward?.length, 2);
  assert.deepEqual(check({ arguments: 5, name: 7 }), forward);
  // Within a union's trial (quiet), the same: CallToolResult's content items are a union.
  const result = v("2025-11-25", "CallToolResult");
  assert.equal(result({ content: [Object.defineProperty({ type: "text" }, "text", { value: "hi", enumerable: false })] }), null);
  assert.deepEqual(paths(result({ content: [{ text: 5, type: "text" }] })), ["/content/0/text"]);
});
