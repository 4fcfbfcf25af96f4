// Spec: draft basic/transports/streamable-http, "Value Encoding" (the page's table of
// encoding examples as golden cases), "Schema Extension" (x-mcp-header constraints) and
// "Server Validation" (CR/LF and other invalid characters), on the pure functions of
// src/transports/http/request-metadata.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeHeaderValue, encodeHeaderValue, headerMismatch, modernRequestHeaders, paramHeadersOf, unmirrorable } from "../../src/transports/http/request-metadata.js";

test("streamable-http (draft) Value Encoding: the page's encoding examples, both ways", () => {
  const table: Array<[string, string]> = [
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ];
  for (const [value, encoded] of table) {
    assert.equal(encodeHeaderValue(value), encoded, value);
    assert.equal(decodeHeaderValue(encoded), value, encoded);
  }
});

test("streamable-http (draft) Server Validation: a received value with CR, LF, NUL or non-ASCII is invalid (undefined), as is a sentinel that is not Base64 of UTF-8", () => {
  for (const raw of ["a\rb", "a\nb", "a\r\nX-Injected: 1", "a\0b", "\x7f", "é", "=?base64?not base64!?=", "=?base64?/w==?=", "=?base64?SGVsbG8?=", "=?base64?SGVs bG8=?=", "=?base64?SGVsbG8==?="]) assert.equal(decodeHeaderValue(raw), undefined, JSON.stringify(raw));
  assert.equal(decodeHeaderValue("tab\there"), "tab\there");
});

test("streamable-http (draft) Schema Extension: x-mcp-header declarations are read through properties only; every constraint violation invalidates the tool", () => {
  const ok = paramHeadersOf({ type: "object", properties: { a: { type: "string", "x-mcp-header": "A" }, n: { type: "object", properties: { b: { type: "integer", "x-mcp-header": "B" } } }, c: { type: "boolean", "x-mcp-header": "C" } } });
  assert.deepEqual(ok, { ok: true, headers: [{ name: "A", path: ["a"] }, { name: "B", path: ["n", "b"] }, { name: "C", path: ["c"] }] });
  const bad: Array<[string, unknown]> = [
    ["empty", { properties: { a: { type: "string", "x-mcp-header": "" } } }],
    ["not a token", { properties: { a: { type: "string", "x-mcp-header": "Bad Name" } } }],
    ["CR/LF", { properties: { a: { type: "string", "x-mcp-header": "A\r\n" } } }],
    ["duplicate, case-insensitively", { properties: { a: { type: "string", "x-mcp-header": "Dup" }, b: { type: "string", "x-mcp-header": "dup" } } }],
    ["type number", { properties: { a: { type: "number", "x-mcp-header": "A" } } }],
    ["under items", { properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } } }],
    ["under anyOf", { properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } }],
    ["at the root", { type: "string", "x-mcp-header": "A" }],
    // Keywords whose value maps names to subschemas: each entry is a schema, none reachable.
    ["under $defs, reached through $ref", { type: "object", properties: { a: { $ref: "#/$defs/r" } }, $defs: { r: { type: "string", "x-mcp-header": "A" } } }],
    ["under definitions", { type: "object", properties: { q: { type: "string" } }, definitions: { r: { type: "string", "x-mcp-header": "A" } } }],
    ["under patternProperties", { type: "object", patternProperties: { "^a": { type: "string", "x-mcp-header": "A" } } }],
    ["under dependentSchemas", { type: "object", dependentSchemas: { a: { properties: { b: { type: "string", "x-mcp-header": "A" } } } } }],
    ["under dependencies", { type: "object", dependencies: { a: { properties: { b: { type: "string", "x-mcp-header": "A" } } } } }],
    ["under contentSchema", { type: "object", properties: { a: { type: "string", contentSchema: { type: "string", "x-mcp-header": "A" } } } }],
  ];
  for (const [what, schema] of bad) assert.equal(paramHeadersOf(schema).ok, false, what);
  // Instances, not schemas: a key of that name inside const, default, enum or examples is data.
  const data = { type: "object", properties: { a: { type: "object", const: { "x-mcp-header": "A" }, default: { "x-mcp-header": "A" }, examples: [{ "x-mcp-header": "A" }] } } };
  assert.deepEqual(paramHeadersOf(data), { ok: true, headers: [] });
});

test("streamable-http (draft) Client Behavior: headers from the body; absent or null arguments send none; integers and booleans as text", () => {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const decl = [
    { name: "Region", path: ["region"] },
    { name: "N", path: ["n"] },
    { name: "Flag", path: ["flag"] },
    { name: "Gone", path: ["gone"] },
  ];
  const h = modernRequestHeaders({ method: "tools/call", params: { name: "q", arguments: { region: "eu", n: -7, flag: false, gone: null }, _meta: meta } }, decl);
  assert.deepEqual(h, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "q", "Mcp-Param-Region": "eu", "Mcp-Param-N": "-7", "Mcp-Param-Flag": "false" });
  const task = modernRequestHeaders({ method: "tasks/get", params: { taskId: "t-1", _meta: meta } }, undefined);
  assert.equal(task["Mcp-Name"], "t-1", "tasks extension: Mcp-Name carries params.taskId");
  // The server side accepts exactly what the client side produced.
  const sent = new Headers(h);
  const get = (n: string) => sent.get(n);
  assert.equal(headerMismatch(get, { method: "tools/call", params: { name: "q", arguments: { region: "eu", n: -7, flag: false, gone: null } } }, "2026-07-28", decl), null);
  assert.match(headerMismatch(get, { method: "tools/call", params: { name: "q", arguments: { region: "eu", n: -7, flag: true } } }, "2026-07-28", decl)!, /Mcp-Param-Flag/);
});

test("streamable-http (draft) Server Validation: only Mcp-Name and Mcp-Param-* permit the Base64 sentinel; Mcp-Method is compared as sent (case-sensitive)", () => {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
  const msg = { method: "tools/list", params: { _meta: meta } };
  const headers = (method: string) => (n: string) => (n === "MCP-Protocol-Version" ? "2026-07-28" : n === "Mcp-Method" ? method : null);
  assert.equal(headerMismatch(headers("tools/list"), msg, "2026-07-28", undefined), null);
  assert.equal(decodeHeaderValue("=?base64?dG9vbHMvbGlzdA==?="), "tools/list");
  assert.match(headerMismatch(headers("=?base64?dG9vbHMvbGlzdA==?="), msg, "2026-07-28", undefined)!, /Mcp-Method/);
  assert.match(headerMismatch(headers("TOOLS/LIST"), msg, "2026-07-28", undefined)!, /Mcp-Method/);
  assert.match(headerMismatch(headers("tools/list\x01"), msg, "2026-07-28", undefined)!, /invalid characters/);
  // Mcp-Name still decodes the sentinel.
  const call = { method: "tools/call", params: { name: "q", _meta: meta } };
  const named = (n: string) => (n === "MCP-Protocol-Version" ? "2026-07-28" : n === "Mcp-Method" ? "tools/call" : n === "Mcp-Name" ? "=?base64?cQ==?=" : null);
  assert.equal(headerMismatch(named, call, "2026-07-28", undefined), null);
});

test("streamable-http (draft) Value Encoding: a value with control characters MUST be Base64-encoded, an inner tab included (SEP-2243 step 4: any of 0x00-0x1F or 0x7F); inner spaces stay plain", () => {
  assert.equal(encodeHeaderValue("tab\tinside"), "=?base64?dGFiCWluc2lkZQ==?=");
  assert.equal(encodeHeaderValue("\tindented"), "=?base64?CWluZGVudGVk?=", "SEP-2243 edge case: leading tab");
  assert.equal(encodeHeaderValue("a\x7fb"), "=?base64?YX9i?=");
  assert.equal(encodeHeaderValue("us west 1"), "us west 1", "SEP-2243 edge case: internal spaces only");
  // Server Validation: a tab is a valid field-value character (RFC 9110), so a plain one
  // from a client that did not encode it still decodes, and matches its body value.
  assert.equal(decodeHeaderValue("tab\tinside"), "tab\tinside");
});

test("streamable-http (draft) Schema Extension (integers MUST be within ±(2^53−1)) + Server Behavior (\"Client omits header but value is in body: non-conforming client\"): an annotated argument with no header text is named, so the call is refused, never sent without its header", () => {
  const decl = [{ name: "N", path: ["n"] }, { name: "Deep", path: ["o", "d"] }];
  const call = (args: unknown) => ({ method: "tools/call", params: { name: "t", arguments: args as never } });
  for (const ok of [{}, { n: 42, o: { d: "x" } }, { n: null }, { n: -(2 ** 53 - 1) }, { n: "text" }, { n: true }, { n: "\u{1F600}" }]) assert.equal(unmirrorable(call(ok), decl), null, JSON.stringify(ok));
  // A lone surrogate has no UTF-8 form to Base64-encode (Value Encoding).
  for (const bad of [{ n: 2 ** 53 }, { n: -(2 ** 60) }, { n: 1.5 }, { o: { d: [1] } }, { o: { d: { x: 1 } } }, { n: "a\ud800" }, { o: { d: "\udfffz" } }]) assert.match(unmirrorable(call(bad), decl)!, /cannot be mirrored into Mcp-Param-(N|Deep)/, JSON.stringify(bad));
  assert.equal(unmirrorable(call({ n: 2 ** 60 }), undefined), null, "no declarations known: nothing to mirror");
  assert.equal(unmirrorable({ method: "prompts/get", params: { arguments: { n: 2 ** 60 } } }, decl), null, "only tools/call mirrors arguments");
});

test("streamable-http (draft) Value Encoding (Base64 of \"the UTF-8 representation\") + Server Validation: an Mcp-Name value with a lone surrogate has no header form, so the request is refused before it is sent (the server would find U+FFFD in the header and answer -32020)", () => {
  for (const [method, params] of [["tools/call", { name: "t\ud800" }], ["prompts/get", { name: "\udc00p" }], ["resources/read", { uri: "file:///c\udfff" }]] as const) {
    assert.match(unmirrorable({ method, params }, undefined)!, /^params\.(name|uri) cannot be mirrored into Mcp-Name: it holds a lone surrogate/, method);
  }
  assert.equal(unmirrorable({ method: "tools/call", params: { name: "t\u{1F600}" } }, undefined), null, "a surrogate pair is one character");
});

test("streamable-http (draft) Server Validation: a mismatch message quotes the header and body values cut to ECHO_LIMIT characters, so a huge name's -32020 stays small", () => {
  const name = "n".repeat(50_000);
  const get = (n: string) => (n === "MCP-Protocol-Version" ? "2026-07-28" : n === "Mcp-Method" ? "tools/call" : n === "Mcp-Name" ? "other" : null);
  const why = headerMismatch(get, { method: "tools/call", params: { name } }, "2026-07-28", undefined)!;
  assert.match(why, /^Mcp-Name header value "other" does not match body value "n{200}… \(49800 more characters\)"$/);
});
