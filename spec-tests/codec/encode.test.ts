// Spec: 2025-11-25 basic/transports (stdio) and draft basic/transports/stdio — "Messages
// are delimited by newlines, and MUST NOT contain embedded newlines": the codec's output
// is compact JSON with no raw line break. basic/index — "Messages": what one side encodes
// is what the other decodes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, encode, tryEncode } from "../../src/jsonrpc/codec.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { validatorFor } from "../../src/schema/types.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

const MESSAGES: JsonRpcMessage[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { text: "line 1\nline 2\r\nline 3", tab: "\t", nul: "\u0000" } } },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1, message: "a\u2028b\u2029c" } },
  { jsonrpc: "2.0", id: "r", result: { content: [{ type: "text", text: "héllo 🎉\n" }], isError: false } },
  { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
  { jsonrpc: "2.0", id: 9, error: { code: -32602, message: "bad", data: { nested: ["\n"] } } },
];

test("stdio — MUST NOT contain embedded newlines: encode never emits a raw LF or CR", () => {
  for (const m of MESSAGES) {
    const text = encode(m);
    assert.equal(text.indexOf("\n"), -1);
    assert.equal(text.indexOf("\r"), -1);
  }
  const batch = encode(MESSAGES);
  assert.equal(batch.indexOf("\n"), -1);
});

test("round trip: decode(encode(m)) gives back m, and encode(decode(x)) is compact x", () => {
  for (const m of MESSAGES) {
    const d = decode(encode(m));
    assert.ok(d.kind !== "invalid" && d.kind !== "batch", d.kind);
    assert.deepEqual(d.message, m);
    assert.equal(encode(d.message), encode(m));
  }
  const pretty = JSON.stringify(MESSAGES[0], null, 2);
  const d = decode(pretty);
  assert.ok(d.kind === "request");
  assert.equal(encode(d.message), JSON.stringify(MESSAGES[0]));
  const b = decode(encode(MESSAGES), { allowBatch: true });
  assert.ok(b.kind === "batch");
  assert.equal(b.items.length, MESSAGES.length);
});

test("encode is deterministic: the same message built the same way gives the same text", () => {
  const build = (): JsonRpcMessage => ({ jsonrpc: "2.0", id: 3, method: "x", params: { b: 1, a: [2, { c: 3 }] } });
  assert.equal(encode(build()), encode(build()));
  assert.equal(encode(build()), '{"jsonrpc":"2.0","id":3,"method":"x","params":{"b":1,"a":[2,{"c":3}]}}');
});

test("tryEncode reports, as a value, what has no JSON form: BigInt, a cycle, a throwing or empty toJSON", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const bad: unknown[] = [
    { jsonrpc: "2.0", id: 1, result: { n: 10n } },
    { jsonrpc: "2.0", id: 1, result: cyclic },
    { jsonrpc: "2.0", id: 1, result: { toJSON: () => { throw new Error("no"); } } },
    { toJSON: () => undefined },
    { toJSON: () => { throw "not an Error"; } },
  ];
  for (const m of bad) {
    const r = tryEncode(m as JsonRpcMessage);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && typeof r.reason === "string" && r.reason.length > 0);
  }
  const good = tryEncode(MESSAGES[2]);
  assert.deepEqual(good, { ok: true, text: JSON.stringify(MESSAGES[2]) });
});

test("encode never throws: an unencodable response becomes a -32603 reply to the same request", () => {
  const text = encode({ jsonrpc: "2.0", id: "q", result: { n: 1n } as unknown as Record<string, unknown> });
  const d = decode(text);
  assert.ok(d.kind === "error");
  assert.equal(d.message.id, "q");
  assert.equal(d.message.error.code, ErrorCode.InternalError);
});

test("encode never throws: an unencodable request, batch or id-hiding value becomes a -32603 with id null", () => {
  const cases: unknown[] = [
    { jsonrpc: "2.0", id: 1, method: "x", params: { n: 1n } },
    [{ jsonrpc: "2.0", id: 1, result: { n: 1n } }],
    new Proxy({}, { get: () => { throw new Error("trap"); } }),
    Object.defineProperty({ toJSON: () => undefined }, "id", { get: () => { throw new Error("x"); } }),
  ];
  for (const m of cases) {
    const d = decode(encode(m as JsonRpcMessage));
    assert.ok(d.kind === "error");
    assert.equal(d.message.id, null);
    assert.equal(d.message.error.code, ErrorCode.InternalError);
  }
});

test("basic/index (2025-11-25 schema: JSONRPCErrorResponse's id is optional, a RequestId when present) + transports (an error response that has no id): an error whose request id could not be read goes on the wire without id, alone or in a batch, and reads back as id null", () => {
  const parseError = decode("{not json");
  assert.equal(parseError.kind, "invalid");
  const reply = (parseError as Extract<typeof parseError, { kind: "invalid" }>).reply;
  assert.equal(reply.id, null, "the message model keeps null: the id could not be read");
  const text = encode(reply);
  assert.deepEqual(JSON.parse(text), { jsonrpc: "2.0", error: { code: ErrorCode.ParseError, message: "Parse error: message is not valid JSON" } });
  assert.deepEqual(decode(text), { kind: "error", message: reply });
  const batch = JSON.parse(encode([reply, { jsonrpc: "2.0", id: 3, error: { code: -32600, message: "x" } }]));
  assert.deepEqual(batch.map((m: object) => "id" in m), [false, true]);
  for (const v of ["2025-11-25", "2026-07-28"] as const) {
    assert.equal(validatorFor(v, "JSONRPCErrorResponse")!(JSON.parse(text)), null, `${v} schema takes it`);
    assert.notEqual(validatorFor(v, "JSONRPCErrorResponse")!({ ...reply }), null, `${v} schema refuses "id": null`);
  }
  // The official SDK's reader (1.x; 2.x has the same schema) refuses "id": null and takes this.
  assert.equal(JSONRPCMessageSchema.safeParse(JSON.parse(text)).success, true);
  assert.equal(JSONRPCMessageSchema.safeParse({ ...reply }).success, false);
});
