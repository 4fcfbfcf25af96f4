// Spec: 2025-11-25 and draft basic/index — "Messages" (JSON-RPC 2.0 as MCP restricts it):
// requests carry a string or integer id that MUST NOT be null; notifications MUST NOT
// include an id; responses carry exactly one of `result` (an object) and `error` (an
// integer code and a message); the error reply names the request's id unless it could
// not be read. Batches exist only in 2025-03-26 (schema `JSONRPCBatchRequest`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { decode, decodeValue, encode, oversizedStandIn, DEFAULT_LIMITS, MAX_BATCH_MESSAGES, type Decoded } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";

const PARSE = ErrorCode.ParseError;
const INVALID = ErrorCode.InvalidRequest;

/** Asserts `d` is invalid with exactly this reply code and id, and that the reply is a well-formed error response. */
function assertInvalid(d: Decoded, code: number, id: string | number | null, reasonIncludes?: string): void {
  assert.equal(d.kind, "invalid", `expected invalid, got ${d.kind}`);
  if (d.kind !== "invalid") return;
  assert.equal(d.reply.jsonrpc, "2.0");
  assert.equal(d.reply.error.code, code);
  assert.equal(d.reply.id, id);
  assert.equal(typeof d.reply.error.message, "string");
  assert.equal(typeof d.reason, "string");
  if (reasonIncludes !== undefined) assert.ok(d.reason.includes(reasonIncludes), `reason "${d.reason}" lacks "${reasonIncludes}"`);
  // The reply itself must decode as a valid error response: it is what goes on the wire.
  assert.equal(decode(encode(d.reply)).kind, "error");
}

// --- valid messages ---------------------------------------------------------------

const VALID: Array<[string, string, Decoded["kind"]]> = [
  ["request, integer id (basic/index — Requests MUST include a string or integer ID)", '{"jsonrpc":"2.0","id":1,"method":"ping"}', "request"],
  ["request, string id", '{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"x"}}', "request"],
  ["request, negative and zero ids", '{"jsonrpc":"2.0","id":-7,"method":"ping"}', "request"],
  ["request, 1.0 is the integer 1 in JSON", '{"jsonrpc":"2.0","id":1.0,"method":"ping"}', "request"],
  ["request, empty params object", '{"jsonrpc":"2.0","id":0,"method":"ping","params":{}}', "request"],
  ["notification (basic/index — Notifications MUST NOT include an ID)", '{"jsonrpc":"2.0","method":"notifications/initialized"}', "notification"],
  ["notification with params", '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5}}', "notification"],
  ["result response (basic/index — Result responses MUST include a result field)", '{"jsonrpc":"2.0","id":1,"result":{}}', "result"],
  ["error response (basic/index — Error responses MUST include an error field with a code and message)", '{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found"}}', "error"],
  ["error response with data", '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad","data":{"why":[1,2]}}}', "error"],
  ["error response with id null: a peer's parse-error reply (basic/index — except where the ID could not be read)", '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', "error"],
  ["whitespace around the message", ' \n\t{"jsonrpc":"2.0","method":"x"}\r\n ', "notification"],
];

for (const [name, text, kind] of VALID) {
  test(`decode valid: ${name}`, () => {
    const d = decode(text);
    assert.equal(d.kind, kind);
    assert.ok(d.kind !== "invalid" && d.kind !== "batch");
    // The same message comes out of bytes as out of text.
    assert.deepEqual(decode(new TextEncoder().encode(text)), d);
    assert.deepEqual(decodeValue(JSON.parse(text)), d);
  });
}

test("decode: an error response without id (2025-11-25 schema `id?: RequestId`) is returned with id null", () => {
  const d = decode('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}');
  assert.equal(d.kind, "error");
  assert.ok(d.kind === "error");
  assert.equal(d.message.id, null);
  assert.deepEqual(d.message.error, { code: -32600, message: "Invalid Request" });
});

test("decode: the decoded message is the parsed object, with every member kept", () => {
  const d = decode('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,{"b":null}]}}}');
  assert.ok(d.kind === "request");
  assert.deepEqual(d.message, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "t", arguments: { a: [1, { b: null }] } } });
});

// --- invalid messages: the exact reply -----------------------------------------------

const INVALID_CASES: Array<[string, string, number, string | number | null]> = [
  // JSON-RPC 2.0: -32700 "Invalid JSON was received", id null.
  ["not JSON", "{not json", PARSE, null],
  ["empty input", "", PARSE, null],
  ["truncated object", '{"jsonrpc":"2.0","id":1,"method":"x"', PARSE, null],
  ["trailing garbage", '{"jsonrpc":"2.0","method":"x"} x', PARSE, null],
  // basic/index — "All messages ... MUST follow the JSON-RPC 2.0 specification": jsonrpc is exactly "2.0".
  ['jsonrpc "1.0" on a request: id echoed', '{"jsonrpc":"1.0","id":1,"method":"x"}', INVALID, 1],
  ["jsonrpc missing on a request: id echoed", '{"id":"r1","method":"x"}', INVALID, "r1"],
  ["jsonrpc as number 2.0", '{"jsonrpc":2.0,"id":1,"method":"x"}', INVALID, 1],
  ["jsonrpc missing on a result", '{"id":1,"result":{}}', INVALID, null],
  ["jsonrpc wrong on an error response", '{"jsonrpc":"2","id":1,"error":{"code":1,"message":"m"}}', INVALID, null],
  // basic/index — "Requests MUST include a string or integer ID"; "the ID MUST NOT be null".
  ["request id null", '{"jsonrpc":"2.0","id":null,"method":"x"}', INVALID, null],
  ["request id fraction", '{"jsonrpc":"2.0","id":1.5,"method":"x"}', INVALID, null],
  ["request id boolean", '{"jsonrpc":"2.0","id":true,"method":"x"}', INVALID, null],
  ["request id object", '{"jsonrpc":"2.0","id":{"a":1},"method":"x"}', INVALID, null],
  ["request id array", '{"jsonrpc":"2.0","id":[1],"method":"x"}', INVALID, null],
  // JSON-RPC 2.0: method is a string.
  ["method a number: id echoed", '{"jsonrpc":"2.0","id":2,"method":5}', INVALID, 2],
  ["method null: id echoed", '{"jsonrpc":"2.0","id":2,"method":null}', INVALID, 2],
  ["method a number on a notification", '{"jsonrpc":"2.0","method":{}}', INVALID, null],
  // basic/index — params, when present, is an object ("params?: { [key: string]: unknown }"): arrays are not.
  ["params an array", '{"jsonrpc":"2.0","id":3,"method":"x","params":[1,2]}', INVALID, 3],
  ["params a string", '{"jsonrpc":"2.0","id":3,"method":"x","params":"p"}', INVALID, 3],
  ["params null", '{"jsonrpc":"2.0","id":"q","method":"x","params":null}', INVALID, "q"],
  ["params an array on a notification", '{"jsonrpc":"2.0","method":"x","params":[]}', INVALID, null],
  ["a request that is also a response", '{"jsonrpc":"2.0","id":4,"method":"x","result":{}}', INVALID, 4],
  // basic/index — a response has exactly one of result and error; replies to responses carry null.
  ["both result and error", '{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"m"}}', INVALID, null],
  ["neither method, result nor error: id echoed", '{"jsonrpc":"2.0","id":6}', INVALID, 6],
  ["neither, and no id", '{"jsonrpc":"2.0"}', INVALID, null],
  ["an empty object", "{}", INVALID, null],
  // basic/index — "Result responses MUST include the same ID as the request" (so: string or integer).
  ["result without id", '{"jsonrpc":"2.0","result":{}}', INVALID, null],
  ["result with id null", '{"jsonrpc":"2.0","id":null,"result":{}}', INVALID, null],
  ["result with fractional id", '{"jsonrpc":"2.0","id":0.5,"result":{}}', INVALID, null],
  // basic/index — result is "{ [key: string]: unknown }": an object.
  ["result an array", '{"jsonrpc":"2.0","id":7,"result":[]}', INVALID, null],
  ["result a string", '{"jsonrpc":"2.0","id":7,"result":"ok"}', INVALID, null],
  ["result null", '{"jsonrpc":"2.0","id":7,"result":null}', INVALID, null],
  // basic/index — "Error codes MUST be integers"; error has a code and a message.
  ["error code a fraction", '{"jsonrpc":"2.0","id":8,"error":{"code":1.5,"message":"m"}}', INVALID, null],
  ["error code a string", '{"jsonrpc":"2.0","id":8,"error":{"code":"-32600","message":"m"}}', INVALID, null],
  ["error without message", '{"jsonrpc":"2.0","id":8,"error":{"code":-32600}}', INVALID, null],
  ["error message not a string", '{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":7}}', INVALID, null],
  ["error a string", '{"jsonrpc":"2.0","id":8,"error":"boom"}', INVALID, null],
  ["error null", '{"jsonrpc":"2.0","id":8,"error":null}', INVALID, null],
  ["error an array", '{"jsonrpc":"2.0","id":8,"error":[]}', INVALID, null],
  ["error response with a boolean id", '{"jsonrpc":"2.0","id":false,"error":{"code":1,"message":"m"}}', INVALID, null],
  // JSON-RPC 2.0: a message is an object.
  ["a number", "42", INVALID, null],
  ["a string", '"hello"', INVALID, null],
  ["null", "null", INVALID, null],
  ["true", "true", INVALID, null],
];

for (const [name, text, code, id] of INVALID_CASES) {
  test(`decode invalid: ${name} -> ${code}, id ${JSON.stringify(id)}`, () => {
    assertInvalid(decode(text), code, id);
    if (code === INVALID) assertInvalid(decodeValue(JSON.parse(text)), code, id);
  });
}

test("decode: the reply message names the JSON-RPC error and never echoes the input", () => {
  const d = decode('{"jsonrpc":"2.0","id":1,"method":"x","params":"<script>secret</script>"}');
  assert.ok(d.kind === "invalid");
  assert.match(d.reply.error.message, /^Invalid Request: /);
  assert.ok(!d.reply.error.message.includes("secret"));
  const p = decode("{secret");
  assert.ok(p.kind === "invalid");
  assert.match(p.reply.error.message, /^Parse error: /);
  assert.ok(!p.reply.error.message.includes("secret"));
});

// --- UTF-8 ------------------------------------------------------------------------

// basic/transports — "JSON-RPC messages MUST be UTF-8 encoded": invalid bytes are a parse error.
const BAD_UTF8: Array<[string, number[]]> = [
  ["a lone continuation byte", [0x7b, 0x80, 0x7d]],
  ["0xFF", [0x22, 0xff, 0x22]],
  ["a truncated 3-byte sequence", [0x22, 0xe2, 0x82, 0x22]],
  ["an overlong encoding of '/'", [0x22, 0xc0, 0xaf, 0x22]],
  ["an encoded surrogate", [0x22, 0xed, 0xa0, 0x80, 0x22]],
];
for (const [name, bytes] of BAD_UTF8) {
  test(`decode bytes: invalid UTF-8 (${name}) -> -32700 id null`, () => {
    assertInvalid(decode(new Uint8Array(bytes)), PARSE, null, "UTF-8");
  });
}

test("decode bytes and text (RFC 8259 §8.1: parsers MAY ignore a byte order mark): multi-byte characters and a leading BOM are accepted, alike for bytes and for text (a stdio line or SSE event that kept one)", () => {
  const text = '{"jsonrpc":"2.0","method":"x","params":{"t":"héllo – 日本 🎉"}}';
  for (const input of [new TextEncoder().encode("\uFEFF" + text), "\uFEFF" + text]) {
    const d = decode(input);
    assert.ok(d.kind === "notification", typeof input);
    assert.equal(d.message.params?.t, "héllo – 日本 🎉");
  }
  // Only one, and only at the start: a second is JSON's to refuse.
  assert.equal(decode("\uFEFF\uFEFF" + text).kind, "invalid");
});

test("decode bytes: any byte view is read (a DataView, a subarray), anything else is -32600", () => {
  const bytes = new TextEncoder().encode('xx{"jsonrpc":"2.0","method":"x"}');
  const view = new DataView(bytes.buffer, 2);
  assert.equal(decode(view as unknown as Uint8Array).kind, "notification");
  assert.equal(decode(bytes.subarray(2)).kind, "notification");
  assertInvalid(decode(42 as unknown as string), INVALID, null);
  assertInvalid(decode(null as unknown as string), INVALID, null);
});

// --- batches ----------------------------------------------------------------------

test("batches: 2025-03-26 (allowBatch) decodes an array item by item, an invalid item stays in place", () => {
  const d = decode('[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":1.5,"method":"c"},[],7]', { allowBatch: true });
  assert.equal(d.kind, "batch");
  assert.ok(d.kind === "batch");
  assert.deepEqual(d.items.map((i) => i.kind), ["request", "notification", "invalid", "invalid", "invalid"]);
  assertInvalid(d.items[2], INVALID, null);
  assertInvalid(d.items[3], INVALID, null, "object");
  const v = decodeValue([{ jsonrpc: "2.0", id: 1, result: {} }], { allowBatch: true });
  assert.ok(v.kind === "batch");
  assert.equal(v.items[0].kind, "result");
});

test("batches: later versions (no allowBatch) answer an array with -32600 'batches are not supported'", () => {
  assertInvalid(decode('[{"jsonrpc":"2.0","id":1,"method":"a"}]'), INVALID, null, "batches are not supported");
  assertInvalid(decode('[{"jsonrpc":"2.0","id":1,"method":"a"}]', { allowBatch: false }), INVALID, null, "batches are not supported");
  assertInvalid(decodeValue([{ jsonrpc: "2.0", method: "a" }]), INVALID, null, "batches are not supported");
});

test("batches (none after 2025-03-26, basic/index): an array holding responses lists the ids they name in answers, so those requests can fail at once; one holding a request is marked holdsRequest (its reply tells the peer), one of responses only is not (no reply)", () => {
  const d = decode('[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","error":{"code":1,"message":"x"}},{"jsonrpc":"2.0","id":null,"error":{"code":2,"message":"y"}},{"jsonrpc":"2.0","method":"n"}]');
  assertInvalid(d, INVALID, null, "batches are not supported");
  assert.deepEqual(d.kind === "invalid" && d.answers, [1, "b"]);
  assert.ok(d.kind === "invalid" && d.holdsRequest === undefined, "a notification is no request: still no reply");
  const noId = decodeValue([{ jsonrpc: "2.0", result: {} }]);
  assert.deepEqual(noId.kind === "invalid" && noId.answers, [], "response-shaped, so no reply, though it names no request");
  const requests = decode('[{"jsonrpc":"2.0","id":1,"method":"a"}]');
  assert.ok(requests.kind === "invalid" && requests.answers === undefined && requests.holdsRequest === true);
  // Mixed: the peer's request must hear it was refused (the reply, id null, goes out), and ours still fail at once.
  const mixed = decode('[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":7,"method":"a"},{"jsonrpc":"2.0","id":"c","error":{"code":1,"message":"x"}}]');
  assert.ok(mixed.kind === "invalid" && mixed.holdsRequest === true);
  assert.deepEqual(mixed.answers, [1, "c"]);
});

test("batches (2025-03-26, JSON-RPC 2.0 §6): a member too deep is refused alone, a request's id echoed, a response malformed naming its request; the other members still run, and each may be as deep as a message sent alone (found by review: the whole batch was refused, its valid requests never answered)", () => {
  const deep = (n: number) => `${'{"a":'.repeat(n - 1)}{}${"}".repeat(n - 1)}`;
  const text = `[{"jsonrpc":"2.0","id":11,"method":"ping","params":${deep(70)}},{"jsonrpc":"2.0","id":12,"method":"ping"},{"jsonrpc":"2.0","id":"r","result":${deep(70)}},{"jsonrpc":"2.0","method":"n","params":${deep(63)}}]`;
  for (const d of [decode(text, { allowBatch: true }), decodeValue(JSON.parse(text), { allowBatch: true })]) {
    assert.ok(d.kind === "batch", JSON.stringify(d).slice(0, 200));
    assertInvalid(d.items[0], INVALID, 11, "maxDepth");
    assert.equal(d.items[1].kind, "request");
    assert.ok(d.items[2].kind === "invalid" && d.items[2].answers === "r" && d.items[2].reply.id === null);
    assert.equal(d.items[3].kind, "notification", "64 deep alone is within maxDepth 64, and so in a batch");
  }
  // Without batches the array is refused as before, and a message alone still too deep as a whole.
  assertInvalid(decode(text), INVALID, null);
  assertInvalid(decode(`{"jsonrpc":"2.0","id":1,"method":"x","params":${deep(64)}}`, { allowBatch: true }), INVALID, 1, "maxDepth");
});

test("basic/index: a message with an id and neither a method nor a result or an error echoes the id and names it in orAnswers (it may be an answer that lost its result); with no readable id it names none", () => {
  const d = decode('{"jsonrpc":"2.0","id":6}');
  assertInvalid(d, INVALID, 6);
  assert.ok(d.kind === "invalid" && d.orAnswers === 6 && d.answers === undefined);
  const none = decode('{"jsonrpc":"2.0","id":1.5}');
  assert.ok(none.kind === "invalid" && none.orAnswers === undefined);
  // With params (found by fuzzing): a request that lost its method, never an answer.
  const request = decode('{"jsonrpc":"2.0","id":6,"params":{}}');
  assertInvalid(request, INVALID, 6);
  assert.ok(request.kind === "invalid" && request.orAnswers === undefined);
});

test("batches (2025-03-26): a batch of more than MAX_BATCH_MESSAGES is refused whole with one -32600 (no id), as an array where batches are not allowed, its responses' ids in answers; one of MAX_BATCH_MESSAGES is decoded member by member (found by review: a 3 MB batch of {} drew a million error replies, 95 MB)", () => {
  const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const at = decode(`[${Array(MAX_BATCH_MESSAGES).fill(ping).join(",")}]`, { allowBatch: true });
  assert.ok(at.kind === "batch" && at.items.length === MAX_BATCH_MESSAGES);
  const over = decode(`[${Array(MAX_BATCH_MESSAGES).fill("{}").join(",")},${ping},{"jsonrpc":"2.0","id":"r","result":{}}]`, { allowBatch: true });
  assertInvalid(over, INVALID, null, `more than ${MAX_BATCH_MESSAGES} messages`);
  assert.ok(over.kind === "invalid" && over.holdsRequest === true);
  assert.deepEqual(over.kind === "invalid" && over.answers, ["r"]);
  assertInvalid(decodeValue(Array(MAX_BATCH_MESSAGES + 1).fill({}), { allowBatch: true }), INVALID, null, "more than");
  // So is one that also holds a member too deep.
  assertInvalid(decode(`[${Array(MAX_BATCH_MESSAGES).fill("{}").join(",")},${"[".repeat(100)}${"]".repeat(100)}]`, { allowBatch: true }), INVALID, null, "more than");
});

test("batches: JSON-RPC 2.0 — an empty array is an Invalid Request, batches allowed or not", () => {
  assertInvalid(decode("[]", { allowBatch: true }), INVALID, null, "empty");
  assertInvalid(decode("[]"), INVALID, null);
  assertInvalid(decodeValue([], { allowBatch: true }), INVALID, null, "empty");
});

// --- prototype pollution --------------------------------------------------------------

test("hostile keys: __proto__, constructor and prototype in params stay plain own data", () => {
  const text =
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"nested":{"__proto__":{"polluted":3}}}}';
  const d = decode(text);
  assert.ok(d.kind === "request");
  const params = d.message.params as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(params), Object.prototype);
  assert.equal(Object.getPrototypeOf(d.message), Object.prototype);
  assert.equal(Object.getPrototypeOf(params.nested), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(params, "__proto__"));
  assert.equal((params as { polluted?: unknown }).polluted, undefined);
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
  // Spread, the sanctioned copy, keeps the key as own data too.
  const copy = { ...params };
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal((copy as { polluted?: unknown }).polluted, undefined);
});

test("hostile keys: a top-level __proto__ does not lend a message its members", () => {
  assertInvalid(decode('{"__proto__":{"jsonrpc":"2.0","id":1,"method":"x"}}'), INVALID, null);
  const d = decode('{"jsonrpc":"2.0","method":"x","__proto__":{"id":1}}');
  assert.equal(d.kind, "notification");
  assert.equal(({} as { id?: unknown }).id, undefined);
});

// --- depth ------------------------------------------------------------------------

/** A request whose outermost object is depth 1 and whose deepest container is at `depth`. */
function requestOfDepth(depth: number, id: number | string = 9): string {
  // message (1) > params (2) > "n" chain of (depth - 2) more objects.
  const inner = depth - 2;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"x","params":${'{"n":'.repeat(inner)}{}${"}".repeat(inner)}}`;
}

test("depth: 64 levels (the default maxDepth) are accepted, 65 are -32600 naming maxDepth, id echoed", () => {
  assert.equal(DEFAULT_LIMITS.maxDepth, 64);
  assert.equal(decode(requestOfDepth(64)).kind, "request");
  assertInvalid(decode(requestOfDepth(65)), INVALID, 9, "maxDepth");
  assert.equal(decodeValue(JSON.parse(requestOfDepth(64))).kind, "request");
  assertInvalid(decodeValue(JSON.parse(requestOfDepth(65))), INVALID, 9, "maxDepth");
});

test("basic/index Responses, depth: a response nested past maxDepth names the request it answers (so that request fails at once) and is never answered", () => {
  const deep = `{"result":{"content":${"[".repeat(70)}${"]".repeat(70)}},"jsonrpc":"2.0","id":"r9"}`;
  for (const d of [decode(deep), decodeValue(JSON.parse(deep))]) {
    assert.ok(d.kind === "invalid");
    assert.equal(d.answers, "r9");
    assert.equal(d.reply.id, null);
    assert.match(d.reason, /exceeds maxDepth \(64\)/);
  }
  const deepError = decode(`{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m","data":${"[".repeat(70)}${"]".repeat(70)}}}`);
  assert.ok(deepError.kind === "invalid" && deepError.answers === 3);
});

test("RFC 8259 §6 (implementations may limit the range of numbers): a number past the double range, which would read as Infinity and go on as null, refuses the message whole: a request -32600 with its id, a response malformed naming its request; a finite one, or text merely shaped so, passes (found by fuzzing)", () => {
  assertInvalid(decode('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{"n":1e999}}}'), INVALID, 4, "beyond the range of a double");
  assertInvalid(decode(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":-${"9".repeat(309)}}}`), INVALID, null, "beyond the range");
  assertInvalid(decode(`{"jsonrpc":"2.0","id":5,"method":"x","params":{"n":${"9".repeat(300)}e10}}`), INVALID, 5, "beyond the range");
  const response = decode('{"jsonrpc":"2.0","id":"r1","result":{"resultType":"complete","ttlMs":1001e999,"tools":[]}}');
  assert.ok(response.kind === "invalid" && response.answers === "r1" && response.reply.id === null, JSON.stringify(response));
  // In a 2025-03-26 batch the member alone is refused, with its id; the others still run (JSON-RPC 2.0 §6; found by review: the whole batch was refused).
  const batch = decode('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"x","params":{"n":1e999}},{"jsonrpc":"2.0","id":"r","result":{"t":-1e999}}]', { allowBatch: true });
  assert.ok(batch.kind === "batch", JSON.stringify(batch));
  assert.equal(batch.items[0].kind, "request");
  assertInvalid(batch.items[1], INVALID, 2, "beyond the range");
  assert.ok(batch.items[2].kind === "invalid" && batch.items[2].answers === "r");
  // A parsed value (a framework's parse; an HTTP batch member re-parsed from its body) is held to the same rule (found by review: decodeValue let it through, so a batched response with Infinity resolved its request).
  assertInvalid(decodeValue({ jsonrpc: "2.0", id: 8, method: "x", params: { n: Infinity } }), INVALID, 8, "beyond the range");
  const parsedResponse = decodeValue({ jsonrpc: "2.0", id: "r2", result: { x: [1, -Infinity] } });
  assert.ok(parsedResponse.kind === "invalid" && parsedResponse.answers === "r2");
  const parsedBatch = decodeValue([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "x", params: { n: NaN } }], { allowBatch: true });
  assert.ok(parsedBatch.kind === "batch" && parsedBatch.items[0].kind === "request");
  assertInvalid((parsedBatch as { items: Decoded[] }).items[1], INVALID, 2, "beyond the range");
  // A caller-built value is walked twice: a getter that answers a cycle the second time is bounded, never an endless walk (found by review: out of memory).
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  let reads = 0;
  const twoFaced = { jsonrpc: "2.0", id: 10, method: "x", params: { get a() { return ++reads === 1 ? Infinity : cycle; } } };
  assertInvalid(decodeValue(twoFaced), INVALID, 10);
  // A getter that decodes another value meanwhile does not make the walk forget what it saw (found by review).
  const reentrant = { jsonrpc: "2.0", id: 11, method: "x", params: { x: Infinity, get y() { decodeValue({ jsonrpc: "2.0", method: "n" }); return 1; } } };
  assertInvalid(decodeValue(reentrant), INVALID, 11, "beyond the range");
  // Within the bounds first: a value too deep is refused as such, whatever numbers it holds.
  assertInvalid(decodeValue({ jsonrpc: "2.0", id: 9, method: "x", params: { n: Infinity, d: [[[[1]]]] } }, { maxDepth: 3 }), INVALID, 9, "maxDepth");
  for (const fine of ['{"jsonrpc":"2.0","id":6,"method":"x","params":{"n":1.7e308,"m":-1e-999,"s":"v2e100 and 1e999"}}', `{"jsonrpc":"2.0","id":7,"method":"x","params":{"n":${"9".repeat(208)}e99}}`]) {
    const d = decode(fine);
    assert.equal(d.kind, "request", fine.slice(0, 60));
  }
});

test("basic/index (2025-11-25: an error response's id is optional): one without id keeps its other members, as one with id null does, so it reads the same after a round trip (found by fuzzing)", () => {
  const d = decode('{"jsonrpc":"2.0","error":{"code":-32020,"message":"m"},"__proto__":[true],"x":1}');
  assert.ok(d.kind === "error");
  assert.equal(d.message.id, null);
  assert.deepEqual(Object.keys(d.message).sort(), ["__proto__", "error", "id", "jsonrpc", "x"]);
  assert.equal(Object.getPrototypeOf(d.message), Object.prototype, "a __proto__ member stays a member");
  const again = decode(encode(d.message));
  assert.ok(again.kind === "error");
  assert.deepEqual(again.message, d.message);
});

test("depth: arrays count like objects; a custom maxDepth applies", () => {
  const text = '{"jsonrpc":"2.0","method":"x","params":{"a":[[[1]]]}}'; // depth 5
  assert.equal(decode(text, { maxDepth: 5 }).kind, "notification");
  assertInvalid(decode(text, { maxDepth: 4 }), INVALID, null, "maxDepth");
  assertInvalid(decodeValue(JSON.parse(text), { maxDepth: 4 }), INVALID, null, "maxDepth");
  assertInvalid(decodeValue({}, { maxDepth: 0 }), INVALID, null, "maxDepth");
});

test("depth: brackets inside strings do not count as nesting", () => {
  const text = `{"jsonrpc":"2.0","method":"x","params":{"s":"${"[{".repeat(500)}"}}`;
  assert.equal(decode(text).kind, "notification");
});

test("depth: a 100000-deep array is rejected (-32600) without crashing, batches allowed or not", () => {
  const deep = "[".repeat(100000) + "]".repeat(100000);
  assertInvalid(decode(deep), INVALID, null);
  // As a 2025-03-26 batch it is one member, itself too deep: refused alone, with the same reply.
  const batch = decode(deep, { allowBatch: true });
  assert.ok(batch.kind === "batch" && batch.items.length === 1);
  assertInvalid(batch.items[0], INVALID, null, "maxDepth");
  const inParams = `{"jsonrpc":"2.0","id":"deep","method":"x","params":{"a":${"[".repeat(100000)}${"]".repeat(100000)}}}`;
  assertInvalid(decode(inParams), INVALID, "deep", "maxDepth");
  assertInvalid(decode(`{"jsonrpc":"2.0","id":1,"result":{"a":${"[".repeat(100000)}${"]".repeat(100000)}}}`), INVALID, null, "maxDepth");
});

test("depth: a cyclic caller-built value is cut off by the depth bound", () => {
  const params: Record<string, unknown> = {};
  params.self = params;
  assertInvalid(decodeValue({ jsonrpc: "2.0", id: 1, method: "x", params }), INVALID, 1, "maxDepth");
});

test("depth: a value sharing its children (an exponential walk) is cut off by the node budget", () => {
  let node: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) node = { a: node, b: node };
  assertInvalid(decodeValue({ jsonrpc: "2.0", method: "x", params: node }), INVALID, null, "maxBytes");
});

// --- maxBytes ---------------------------------------------------------------------

/** A notification of exactly `bytes` UTF-8 bytes, padded with `fill` (1, 2, 3 or 4 bytes per character). */
function notificationOfBytes(bytes: number, fill: string): string {
  const head = '{"jsonrpc":"2.0","method":"x","params":{"p":"';
  const tail = '"}}';
  const fillBytes = new TextEncoder().encode(fill).length;
  const room = bytes - head.length - tail.length;
  return head + fill.repeat(Math.floor(room / fillBytes)) + "a".repeat(room % fillBytes) + tail;
}

for (const fill of ["a", "é", "日", "🎉"]) {
  test(`maxBytes: measured in UTF-8 bytes exactly at the limit (fill ${JSON.stringify(fill)})`, () => {
    const limit = 3000;
    const at = notificationOfBytes(limit, fill);
    const over = notificationOfBytes(limit + 1, fill);
    assert.equal(new TextEncoder().encode(at).length, limit);
    assert.equal(decode(at, { maxBytes: limit }).kind, "notification");
    assert.equal(decode(new TextEncoder().encode(at), { maxBytes: limit }).kind, "notification");
    assertInvalid(decode(over, { maxBytes: limit }), INVALID, null, "maxBytes");
    assertInvalid(decode(new TextEncoder().encode(over), { maxBytes: limit }), INVALID, null, "maxBytes");
  });
}

test("maxBytes: the default is 4 MiB; a larger message is -32600 without being parsed", () => {
  assert.equal(DEFAULT_LIMITS.maxBytes, 4 * 1024 * 1024);
  const big = '{"jsonrpc":"2.0","id":1,"method":"x","params":{"p":"' + "a".repeat(4 * 1024 * 1024) + '"}}';
  assertInvalid(decode(big), INVALID, 1, "maxBytes");
  // Not JSON at all, yet over the limit: the size is judged first (nothing was parsed).
  assertInvalid(decode("x".repeat(4 * 1024 * 1024 + 1)), INVALID, null, "maxBytes");
});

test("maxBytes: a request's id is read from the start of an oversized message when it can be", () => {
  const pad = "a".repeat(5000);
  const cases: Array<[string, string | number | null]> = [
    [`{"jsonrpc":"2.0","id":17,"method":"x","params":{"p":"${pad}"}}`, 17],
    [`{"method":"tools/call","id":"s-\\"1\\"","params":{"p":"${pad}"}}`, 's-"1"'],
    [` { "jsonrpc" : "2.0" , "params" : {"n":[1,{"id":2}],"s":"}"}, "id" : -3 , "method":"x", "p":"${pad}"}`, -3],
    // Shaped like a response: its id names our request, so the reply carries null.
    [`{"jsonrpc":"2.0","id":17,"result":{"p":"${pad}"}}`, null],
    [`{"jsonrpc":"2.0","id":17,"error":{"code":1,"message":"${pad}"}}`, null],
    // An id that is not a valid request id, or that is never found within the window.
    [`{"jsonrpc":"2.0","id":1.5,"method":"x","params":{"p":"${pad}"}}`, null],
    [`{"jsonrpc":"2.0","id":null,"method":"x","params":{"p":"${pad}"}}`, null],
    // Past 2^53 a number names no one integer (the rule for a message that parses; found by fuzzing: the reply echoed it, and was no valid response).
    [`{"jsonrpc":"2.0","id":9007199254740994,"method":"x","params":{"p":"${pad}"}}`, null],
    [`{"jsonrpc":"2.0","id":1e+308,"method":"x","params":{"p":"${pad}"}}`, null],
    [`{"jsonrpc":"2.0","method":"x","params":{"p":"${pad}"},"id":9007199254740994}`, null],
    // An id at the very end (the last member of the top-level object) is read from the message's tail.
    [`{"jsonrpc":"2.0","method":"x","params":{"p":"${pad}"},"id":17}`, 17],
    [`{"jsonrpc":"2.0","method":"x","params":{"p":"${pad}"}, "id" : "a\\"b" }\n`, 'a"b'],
    // …but only as the top level's last member: inside params, or after a key that merely ends in "id", it names nothing.
    [`{"jsonrpc":"2.0","method":"x","params":{"p":"${pad}","id":17}}`, null],
    [`{"jsonrpc":"2.0","method":"x","params":{"p":"${pad}"},"xid":17}`, null],
    [`{"jsonrpc":"2.0","method":"x","params":{"p":"${pad}"},"p":"\\",\\"id\\":17}"}`, null],
    [`{"jsonrpc":"2.0","id":17,"params":{"p":"${pad}"},"method":"x"}`, null],
    [`[{"jsonrpc":"2.0","id":17,"method":"x","params":{"p":"${pad}"}}]`, null],
    [`{"jsonrpc" "2.0","id":17,"method":"x","params":{"p":"${pad}"}}`, null],
    [`{"jsonrpc":"2.0" "id":17,"method":"x","params":{"p":"${pad}"}}`, null],
    [`{jsonrpc:"2.0","id":17,"method":"x","params":{"p":"${pad}"}}`, null],
    [`{"jsonrpc":"2.0","id":17,"method":"x","params":{"p":"${pad}`, 17],
    [`{"id":17,"params":{"p":"${pad}"}}`, null],
    [`{"method":"x","id":${"1".repeat(5000)}}`, null],
  ];
  for (const [text, id] of cases) {
    assertInvalid(decode(text, { maxBytes: 4096 }), INVALID, id, "maxBytes");
    assertInvalid(decode(new TextEncoder().encode(text), { maxBytes: 4096 }), INVALID, id, "maxBytes");
  }
});

test("basic/index Responses, maxBytes: an oversized response names the request it answers (from its start, or its end as SDK 1.x writes {result, jsonrpc, id}), so that request can fail at once; it is never answered", () => {
  const pad = "a".repeat(5000);
  const cases: Array<[string, string | number | null]> = [
    [`{"jsonrpc":"2.0","id":17,"result":{"p":"${pad}"}}`, 17],
    [`{"jsonrpc":"2.0","id":"r-1","error":{"code":1,"message":"${pad}"}}`, "r-1"],
    [`{"result":{"content":[{"type":"text","text":"${pad}"}]},"jsonrpc":"2.0","id":9}`, 9],
    [`{"result":{"p":"${pad}"},"jsonrpc":"2.0","id":"s\\"}"}\r\n`, 's"}'],
    // The end shows no id of the top level: the response names nothing readable.
    [`{"result":{"p":"${pad}","id":9}}`, null],
    [`{"result":{"p":"${pad}"},"id":1.5}`, null],
    [`{"result":{"p":"${pad}"}`, null],
  ];
  for (const [text, answers] of cases) {
    for (const input of [text, new TextEncoder().encode(text)]) {
      const d = decode(input, { maxBytes: 4096 });
      assert.equal(d.kind, "invalid", text.slice(-40));
      assert.ok(d.kind === "invalid");
      assert.equal(d.answers, answers, text.slice(-40));
      // The reply (for an HTTP 400 body) never carries the id of one of our requests.
      assert.equal(d.reply.id, null);
      assert.match(d.reason, /message exceeds maxBytes \(4096\)/);
    }
  }
  // A request-shaped message never claims to answer anything.
  const req = decode(`{"jsonrpc":"2.0","id":3,"method":"x","params":{"p":"${pad}"}}`, { maxBytes: 4096 });
  assert.ok(req.kind === "invalid" && req.answers === undefined && req.reply.id === 3);
});

test("oversizedStandIn: what a framer delivers for a line it dropped is classified as the whole line would be", () => {
  const pad = "b".repeat(9000);
  const lines = [
    `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"p":"${pad}"}}`,
    `{"jsonrpc":"2.0","method":"tools/call","params":{"p":"${pad}"},"id":"end"}`,
    `{"result":{"p":"${pad}"},"jsonrpc":"2.0","id":11}`,
    `{"jsonrpc":"2.0","id":12,"error":{"code":-1,"message":"${pad}"}}`,
    `not json at all ${pad}`,
  ];
  for (const line of lines) {
    const whole = decode(line, { maxBytes: 8192 });
    const standIn = decode(oversizedStandIn(line.slice(0, 1024), line.slice(-256), 8192));
    assert.deepEqual(standIn, whole, line.slice(-30));
  }
  // A stand-in that is not well formed is an ordinary invalid message.
  const bad = decode('{"jsonrpc":"2.0","id":null,"mcp-kernel/oversized":{"limit":"x"}}');
  assert.ok(bad.kind === "invalid" && bad.answers === undefined && bad.reply.id === null);
  assert.match(bad.reason, /needs a method, a result or an error/);
});

// --- never throws -----------------------------------------------------------------

test("decodeValue: a value whose getters throw is -32600, never a throw", () => {
  const hostile = {
    jsonrpc: "2.0",
    get method(): string {
      throw new Error("boom");
    },
  };
  assertInvalid(decodeValue(hostile), INVALID, null, "inspected");
  const proxy = new Proxy({}, { get: () => { throw new Error("trap"); }, ownKeys: () => { throw new Error("trap"); } });
  assertInvalid(decodeValue(proxy), INVALID, null);
  assertInvalid(decodeValue({ jsonrpc: "2.0", method: "x", params: proxy }), INVALID, null);
  const getterInParams = { jsonrpc: "2.0", method: "x", params: { get a(): unknown { throw new Error("x"); } } };
  assertInvalid(decodeValue(getterInParams), INVALID, null);
  assertInvalid(decodeValue(undefined), INVALID, null);
});

test("decode never throws, even in a realm whose Object.prototype has a throwing getter", () => {
  Object.defineProperty(Object.prototype, "method", { configurable: true, get: () => { throw new Error("tampered"); } });
  try {
    assertInvalidNoRoundTrip(decode('{"jsonrpc":"2.0","id":1}'));
  } finally {
    delete (Object.prototype as { method?: unknown }).method;
  }
  assert.equal(decode('{"jsonrpc":"2.0","id":1,"method":"x"}').kind, "request");
});

/** Like {@link assertInvalid} for the tampered realm, where the reply cannot be decoded back. */
function assertInvalidNoRoundTrip(d: Decoded): void {
  assert.ok(d.kind === "invalid");
  assert.equal(d.reply.error.code, INVALID);
  assert.equal(d.reply.id, null);
}

/** Deterministic PRNG (mulberry32), so the fuzz corpus is the same on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("decode never throws: every prefix, and seeded mutations, of valid messages", () => {
  const seeds = [
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2,{"b":"c"}]}}}',
    '{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"hi"}]}}',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    '[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"m"}]',
  ];
  const alphabet = '{}[]":,0123456789.-eE truenullfalse\\"\u00e9\ud83c';
  const rand = prng(2025);
  let kinds = new Set<string>();
  for (const seed of seeds) {
    for (let i = 0; i <= seed.length; i++) {
      for (const allowBatch of [false, true]) kinds.add(decode(seed.slice(0, i), { allowBatch }).kind);
    }
    for (let n = 0; n < 400; n++) {
      const chars = seed.split("");
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * chars.length);
        const c = alphabet[Math.floor(rand() * alphabet.length)];
        if (rand() < 0.5) chars[at] = c;
        else chars.splice(at, 0, c);
      }
      const text = chars.join("");
      const d = decode(text, { allowBatch: rand() < 0.5, maxDepth: 1 + Math.floor(rand() * 4) });
      kinds.add(d.kind);
      if (d.kind === "invalid") assert.ok(d.reply.error.code === PARSE || d.reply.error.code === INVALID);
    }
  }
  // The corpus reaches both valid and invalid outcomes, so it exercises both paths.
  assert.ok(kinds.has("invalid") && kinds.has("request") && kinds.has("batch"), [...kinds].join());
});

// --- the spec's own example messages ---------------------------------------------------

/** The vendored examples, found from the working directory or above the compiled test, wherever the build went. */
function examplesDir(): string {
  for (let dir = fileURLToPath(new URL(".", import.meta.url)); ; dir = dirname(dir)) {
    for (const base of [process.cwd(), dir]) {
      const candidate = join(base, "spec-tests/fixtures/examples/");
      if (existsSync(candidate)) return candidate;
    }
    if (dirname(dir) === dir) throw new Error("spec-tests/fixtures/examples not found");
  }
}
const EXAMPLES = examplesDir();

test("examples: every draft example message decodes to its kind and re-encodes compactly", () => {
  let seen = 0;
  for (const dir of readdirSync(EXAMPLES)) {
    const kind = dir.endsWith("Request") ? "request" : dir.endsWith("Notification") ? "notification" : dir.endsWith("ResultResponse") ? "result" : undefined;
    if (kind === undefined) continue;
    for (const file of readdirSync(EXAMPLES + dir)) {
      const text = readFileSync(`${EXAMPLES}${dir}/${file}`, "utf8");
      // Some modern request examples are the embedded form (inside InputRequests), with no envelope.
      if (!("jsonrpc" in JSON.parse(text))) continue;
      const d = decode(text);
      assert.equal(d.kind, kind, `${dir}/${file}`);
      assert.ok(d.kind === "request" || d.kind === "notification" || d.kind === "result");
      assert.equal(encode(d.message), JSON.stringify(JSON.parse(text)));
      seen++;
    }
  }
  assert.ok(seen > 20, `only ${seen} examples found`);
});

test("examples: every draft example error object decodes inside an error response", () => {
  let seen = 0;
  for (const dir of readdirSync(EXAMPLES)) {
    if (!dir.endsWith("Error")) continue;
    for (const file of readdirSync(EXAMPLES + dir)) {
      const example = JSON.parse(readFileSync(`${EXAMPLES}${dir}/${file}`, "utf8"));
      // Either a whole error response or the bare error object, which gets an envelope.
      const message = "jsonrpc" in example ? example : { jsonrpc: "2.0", id: "e", error: example };
      assert.equal(decode(JSON.stringify(message)).kind, "error", `${dir}/${file}`);
      seen++;
    }
  }
  assert.ok(seen >= 5, `only ${seen} error examples found`);
});

test("ids past 2^53: basic/index requires a string or integer id echoed in the response; a JSON number that no longer names one integer is -32600 (id null), the largest safe ones pass", () => {
  // 9007199254740993 parses as 9007199254740992: answering it would carry another id.
  assertInvalid(decode('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}'), INVALID, null, "2^53");
  assertInvalid(decode('{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"}'), INVALID, null, "2^53");
  assertInvalid(decode('{"jsonrpc":"2.0","id":1e300,"method":"ping"}'), INVALID, null, "2^53");
  for (const id of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0]) {
    const d = decode(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    assert.equal(d.kind, "request");
    assert.equal(d.kind === "request" && d.message.id, id);
  }
  assert.equal(decode('{"jsonrpc":"2.0","id":"9007199254740993","method":"ping"}').kind, "request", "as a string it is exact");
});
