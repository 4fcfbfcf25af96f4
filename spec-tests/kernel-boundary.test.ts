// The kernel's boundary (README "What it is": the kernel "never reads a clock, draws a random
// number, does I/O or throws across its boundary ... errors all come out as values"), held
// against what a plain JavaScript embedder can pass that the types forbid: no options, a
// state that is no object, a frozen state, inputs and application objects whose getters (or
// Proxy traps) throw. Each entry point answers in the shape its callers already handle.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, resolveOptions, step } from "../src/session/session.js";
import { nextDeadline } from "../src/session/timeouts.js";
import { recordingSession, replay } from "../src/session/transcript.js";
import { ErrorCode } from "../src/jsonrpc/errors.js";
import { DEFAULT_LIMITS, decode, decodeValue, type Decoded, type DecodeOptions } from "../src/jsonrpc/codec.js";
import { TASK_TABLE_DEFAULTS, createTaskTable, findTask, isWaiting, nextTaskDeadline, progressAllowed, restoreTasks, resultStreams, snapshotTasks, tableFromRecords } from "../src/tasks/table.js";
import { taskOwnerKey } from "../src/tasks/records.js";
import type { TaskRecord, TaskTableOptions, TaskTableState } from "../src/tasks/types.js";
import type { SessionInput, SessionOptions, SessionOutput, SessionState } from "../src/session/types.js";
import { validate as validateKernel, validatorFor as validatorForKernel } from "../src/schema/validate.js";
import { validate, validatorFor } from "../src/schema/types.js";
import { createJsonSchemaValidator, type JsonSchemaOptions } from "../src/schema/json-schema.js";
import { applyElicitationDefaults, checkRequestedSchema, elicitParamsIssues, elicitResultIssues, validateElicitationContent } from "../src/schema/elicitation.js";
import { isModernRequest, readRequestMeta } from "../src/modern/request-meta.js";
import { createNdjsonDecoder, encodeNdjsonLine, endNdjson, feedNdjson, type NdjsonDecoder } from "../src/framing/ndjson.js";
import { createSseDecoder, encodeSseComment, encodeSseEvent, encodeSsePrimingEvent, feedSse, type SseDecoder, type SseEventInit } from "../src/framing/sse.js";

const boom = (): never => {
  throw new Error("getter boom");
};
/** A Proxy every trap of which throws. */
const hostileProxy = (): object => new Proxy({}, { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom });
/** An object whose named fields' getters throw. */
const throwingGetters = (...names: string[]): object => Object.defineProperties({}, Object.fromEntries(names.map((n) => [n, { get: boom, enumerable: true }])));

const SERVER: SessionOptions = { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {}, logging: {} } };

/** A 2025-11-25 server in `operating`, with tools/call 7 in progress. */
function operating(): SessionState {
  const s = createSession(SERVER);
  step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: "c", version: "1" } } }) });
  step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t", arguments: {} } }) });
  assert.equal(s.phase.name, "operating");
  return s;
}

const closes = (outputs: SessionOutput[]): boolean => outputs.some((o) => o.type === "close");

test("README (the kernel never throws across its boundary; createSession fills in defaults and never throws): createSession and resolveOptions with no options, or options of the wrong type, give a session of defaults", () => {
  for (const options of [undefined, null, 0, "server", Symbol("s"), 1n, () => 1]) {
    const s = createSession(options as unknown as SessionOptions);
    assert.equal(s.phase.name, "new");
    assert.equal(s.options.requestTimeoutMs, 60_000);
    assert.doesNotThrow(() => JSON.stringify(s));
    assert.equal(resolveOptions(options as unknown as SessionOptions).maxDepth, 64);
    // Its first step that needs a role answers as a value too.
    assert.doesNotThrow(() => step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }));
  }
});

test("README (the kernel never throws across its boundary; a malformed option falls back to its default): createSession with options whose getters (or Proxy traps) throw reads what it can, an unreadable option left to its default", () => {
  const options = { ...SERVER, extensionMethods: throwingGetters("x/y") } as Record<string, unknown>;
  Object.defineProperty(options, "requestTimeoutMs", { get: boom, enumerable: true });
  const s = createSession(options as unknown as SessionOptions);
  assert.equal(s.options.role, "server");
  assert.equal(s.nextId, 1);
  assert.equal(s.options.requestTimeoutMs, 60_000);
  assert.equal(s.options.extensionMethods, undefined);
  const p = createSession(hostileProxy() as unknown as SessionOptions);
  assert.equal(p.phase.name, "new");
  assert.doesNotThrow(() => JSON.stringify(p));
});

test("README (the kernel never throws across its boundary): step with a state that is no session (undefined, null, a number, a string) answers a close, not a TypeError", () => {
  for (const state of [undefined, null, 0, "s", Symbol("s"), 1n]) {
    const r = step(state as unknown as SessionState, { type: "tick", now: 0 });
    assert.equal(r.outputs.length, 1);
    assert.equal(r.outputs[0].type, "close");
  }
});

test("README (the kernel never throws across its boundary): step with a frozen state it cannot write answers a close, not a TypeError", () => {
  const s = Object.freeze(operating());
  let r: ReturnType<typeof step> | undefined;
  // The request takes the next id: a write to the frozen state.
  assert.doesNotThrow(() => (r = step(s, { type: "request", now: 0, method: "ping" })));
  assert.ok(closes(r!.outputs), JSON.stringify(r!.outputs));
});

test("README (the kernel never throws across its boundary; a field the kernel cannot use is refused with an input-refused diagnostic): step with an input whose getters (or Proxy traps) throw refuses it and the session goes on", () => {
  for (const input of [hostileProxy(), throwingGetters("type", "now"), { type: "tick", get now() { return boom(); } }]) {
    const s = operating();
    const before = JSON.stringify(s);
    const { outputs } = step(s, input as unknown as SessionInput);
    assert.deepEqual(outputs.map((o) => o.type), ["diagnostic"]);
    assert.equal((outputs[0] as { code: string }).code, "input-refused");
    assert.equal(JSON.stringify(s), before);
  }
});

test("README (the kernel never throws across its boundary; a request input it cannot use is answered with -32602): step with a request whose params' getters (or Proxy traps) throw fails that request with -32602, and the session goes on", () => {
  for (const params of [hostileProxy(), throwingGetters("messages", "maxTokens", "tools")]) {
    const s = operating();
    const { outputs } = step(s, { type: "request", now: 0, method: "sampling/createMessage", params } as unknown as SessionInput);
    assert.ok(!closes(outputs), JSON.stringify(outputs));
    const err = outputs.find((o) => o.type === "error") as Extract<SessionOutput, { type: "error" }> | undefined;
    assert.equal(err?.error.code, ErrorCode.InvalidParams);
    assert.equal(s.phase.name, "operating");
    assert.deepEqual(s.outbound, {});
  }
});

test("README (the kernel never throws across its boundary) + 2025-11-25 basic/index (every request MUST get a response): a respond whose result or error has getters (or Proxy traps) that throw answers the request with -32603, and the session goes on", () => {
  for (const answer of [{ result: hostileProxy() }, { error: hostileProxy() }, { result: throwingGetters("content") }]) {
    const s = operating();
    const { outputs } = step(s, { type: "respond", now: 0, id: 7, ...answer } as unknown as SessionInput);
    assert.ok(!closes(outputs), JSON.stringify(outputs));
    const sent = outputs.filter((o) => o.type === "send").map((o) => (o as Extract<SessionOutput, { type: "send" }>).message as { id?: unknown; error?: { code: number } });
    assert.equal(sent.length, 1);
    assert.equal(sent[0].id, 7);
    assert.equal(sent[0].error?.code, ErrorCode.InternalError);
    assert.deepEqual(s.inbound, {});
    assert.doesNotThrow(() => JSON.stringify(s));
  }
});

test("README (the kernel never throws across its boundary): a notify of notifications/message or an unsendable whose message has getters (or Proxy traps) that throw is refused with a diagnostic, and the session goes on", () => {
  const inputs = [
    { type: "notify", now: 0, method: "notifications/message", params: hostileProxy() },
    { type: "unsendable", now: 0, message: hostileProxy(), reason: "r" },
    { type: "unsendable", now: 0, message: throwingGetters("id", "method"), reason: "r" },
  ];
  for (const input of inputs) {
    const s = operating();
    const { outputs } = step(s, input as unknown as SessionInput);
    assert.ok(!closes(outputs), JSON.stringify(outputs));
    assert.ok(outputs.every((o) => o.type === "diagnostic"), JSON.stringify(outputs));
    assert.equal(s.phase.name, "operating");
  }
});

test("README (the kernel never throws across its boundary; recorded and replayed bit for bit): recordingSession with no options or options with no JSON form, and its step with an input whose getters throw, answer as values", () => {
  for (const options of [undefined, { ...SERVER, maxDepth: 1n }, hostileProxy()]) {
    let rec: ReturnType<typeof recordingSession> | undefined;
    assert.doesNotThrow(() => (rec = recordingSession(options as unknown as SessionOptions)));
    // No options a session could be recorded with: the replay says the transcript is malformed.
    const r = replay(rec!.text());
    assert.equal(r.ok, false);
  }
  const rec = recordingSession(SERVER);
  const outputs = rec.step(throwingGetters("type", "now") as unknown as SessionInput);
  assert.deepEqual(outputs.map((o) => o.type), ["diagnostic"]);
  assert.equal(replay(rec.text()).ok, true);
});

test("README (the codec never throws; a malformed limit is never misread): decode and decodeValue with options whose getters throw use the defaults, and a limit that is no non-negative integer (NaN, a string, negative) is its default, not the bound switched off", () => {
  const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'{"a":'.repeat(100)}1${"}".repeat(100)}}`;
  for (const options of [hostileProxy(), throwingGetters("maxBytes", "maxDepth", "allowBatch"), { maxDepth: NaN }, { maxDepth: "x" }, { maxDepth: -1 }, { maxBytes: NaN, maxDepth: 1.5 }]) {
    const o = options as unknown as DecodeOptions;
    let text: Decoded | undefined;
    let value: Decoded | undefined;
    assert.doesNotThrow(() => (text = decode(deep, o)));
    assert.doesNotThrow(() => (value = decodeValue(JSON.parse(deep), o)));
    // 100 levels: past the default maxDepth (64), refused as before.
    assert.equal(text!.kind, "invalid");
    assert.equal(value!.kind, "invalid");
    assert.equal(decode('{"jsonrpc":"2.0","id":1,"method":"ping"}', o).kind, "request");
  }
  const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { s: "a".repeat(DEFAULT_LIMITS.maxBytes) } });
  assert.equal(decode(big, { maxBytes: NaN } as unknown as DecodeOptions).kind, "invalid");
});

test("README (the kernel never throws across its boundary; malformed task options fall back to their defaults; malformed records are skipped): createTaskTable with options whose getters throw, and tableFromRecords with records that are no array, answer as values", () => {
  for (const options of [hostileProxy(), throwingGetters("era", "maxTasks")]) {
    let t: TaskTableState | undefined;
    assert.doesNotThrow(() => (t = createTaskTable(options as unknown as TaskTableOptions)));
    assert.equal(t!.options.maxTasks, TASK_TABLE_DEFAULTS.maxTasks);
    assert.doesNotThrow(() => JSON.stringify(t));
  }
  for (const records of [undefined, null, 0, {}, hostileProxy()]) {
    let r: ReturnType<typeof tableFromRecords> | undefined;
    assert.doesNotThrow(() => (r = tableFromRecords(records as unknown as TaskRecord[])));
    assert.equal(r!.state.count, 0);
    assert.equal(r!.skipped.length, 1);
  }
});

/** States a plain JavaScript caller may pass for a decoder: none, the wrong type, unreadable, frozen. */
const notDecoders = (made: () => object): unknown[] => [undefined, null, 0, "x", 1n, Symbol("s"), [], {}, hostileProxy(), throwingGetters("text", "line", "buffer"), Object.freeze(made())];

test("README (the kernel never throws across its boundary; framing state is plain data updated in place): feedNdjson and endNdjson with a state that is no decoder, or a frozen one, answer as values (an invalid-utf8 event for the chunk, no events at the end)", () => {
  for (const state of notDecoders(createNdjsonDecoder)) {
    const d = state as NdjsonDecoder;
    let fed: ReturnType<typeof feedNdjson> | undefined;
    assert.doesNotThrow(() => (fed = feedNdjson(d, '{"jsonrpc":"2.0","id":1,"method":"ping"}\n')));
    assert.deepEqual(fed, [{ kind: "invalid-utf8", head: "", tail: "" }]);
    assert.deepEqual(feedNdjson(d, new Uint8Array([0x7b, 0x7d, 0x0a])), [{ kind: "invalid-utf8", head: "", tail: "" }]);
    assert.doesNotThrow(() => assert.deepEqual(endNdjson(d), []));
  }
  // A chunk that is a Proxy whose traps throw is no chunk, as any other non-chunk; the line being read goes on.
  const d = createNdjsonDecoder();
  feedNdjson(d, "ab");
  assert.deepEqual(feedNdjson(d, hostileProxy() as unknown as Uint8Array), [{ kind: "invalid-utf8", head: "", tail: "" }]);
  assert.deepEqual(feedNdjson(d, "c\n"), [{ kind: "line", text: "abc" }]);
  // Options whose getters throw: the default limit.
  assert.equal(createNdjsonDecoder(hostileProxy() as never).maxLineBytes, DEFAULT_LIMITS.maxBytes);
});

test("README (the kernel never throws across its boundary; encodeNdjsonLine refuses as a value what cannot be one line): encodeNdjsonLine of anything that is no string is refused, not thrown", () => {
  for (const text of [undefined, null, 0, 1n, Symbol("s"), {}, ["{}"], hostileProxy()]) {
    let r: ReturnType<typeof encodeNdjsonLine> | undefined;
    assert.doesNotThrow(() => (r = encodeNdjsonLine(text as unknown as string)));
    assert.equal(r!.ok, false);
  }
  assert.deepEqual(encodeNdjsonLine("{}"), { ok: true, line: "{}\n" });
});

test("README (the kernel never throws across its boundary; framing state is plain data updated in place): feedSse with a state that is no decoder, or a frozen one, answers one error output; createSseDecoder keeps its state plain JSON whatever lastEventId it is given", () => {
  for (const state of notDecoders(createSseDecoder)) {
    let out: ReturnType<typeof feedSse> | undefined;
    assert.doesNotThrow(() => (out = feedSse(state as SseDecoder, "data: x\n\n")));
    assert.equal(out!.length, 1);
    assert.equal(out![0].type, "error");
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  for (const id of [1n, NaN, Infinity, 7, {}, cyclic, Symbol("s"), () => "x", null, hostileProxy()]) {
    let d: SseDecoder | undefined;
    assert.doesNotThrow(() => (d = createSseDecoder({}, id as unknown as string)));
    assert.equal(d!.lastEventId, "");
    assert.equal(d!.dispatchedId, "");
    assert.deepEqual(JSON.parse(JSON.stringify(d)), d);
  }
  assert.equal(createSseDecoder(undefined, "e-7").dispatchedId, "e-7");
  assert.equal(createSseDecoder(hostileProxy() as never).maxEventSize, DEFAULT_LIMITS.maxBytes + 1024);
  // A chunk that is a Proxy whose traps throw holds nothing to read, as any other non-chunk.
  const d = createSseDecoder();
  assert.deepEqual(feedSse(d, hostileProxy() as unknown as Uint8Array), []);
  assert.deepEqual(feedSse(d, "data: x\n\n"), [{ type: "event", event: "message", data: "x", id: "" }]);
});

test("README (the kernel never throws across its boundary; the SSE encoders refuse as a value what they cannot write): encodeSseEvent, encodeSsePrimingEvent and encodeSseComment with values that are no strings, or unreadable, answer as values", () => {
  const events: unknown[] = [undefined, null, 0, "x", hostileProxy(), throwingGetters("data"), {}, { data: 1 }, { data: null }, { data: "x", event: 1 }, { data: "x", id: 1n }, { data: "x", id: {} }, { data: "x", event: Symbol("s") }];
  for (const init of events) {
    let r: ReturnType<typeof encodeSseEvent> | undefined;
    assert.doesNotThrow(() => (r = encodeSseEvent(init as SseEventInit)));
    assert.equal(r!.ok, false);
  }
  for (const id of [undefined, null, 0, 1n, Symbol("s"), {}, hostileProxy()]) {
    let r: ReturnType<typeof encodeSsePrimingEvent> | undefined;
    assert.doesNotThrow(() => (r = encodeSsePrimingEvent(id as unknown as string)));
    assert.equal(r!.ok, false);
  }
  for (const text of [null, 0, 1n, Symbol("s"), {}, hostileProxy()]) {
    let r: string | undefined;
    assert.doesNotThrow(() => (r = encodeSseComment(text as unknown as string)));
    assert.equal(r, ": keepalive\n");
  }
  assert.deepEqual(encodeSseEvent({ data: "x", id: "1" }), { ok: true, text: "id: 1\ndata: x\n\n" });
});

test("README (the kernel never throws across its boundary) + draft basic/index (a request whose per-request _meta fields are missing or invalid is -32602): readRequestMeta and isModernRequest with params or _meta whose getters (or Proxy traps) throw answer -32602 / false, not a throw", () => {
  const v = "2026-07-28";
  const hostile = [hostileProxy(), { _meta: hostileProxy() }, { _meta: throwingGetters("io.modelcontextprotocol/protocolVersion") }, { _meta: { "io.modelcontextprotocol/protocolVersion": v, get "io.modelcontextprotocol/clientCapabilities"() { return boom(); } } }];
  for (const params of hostile) {
    let r: ReturnType<typeof readRequestMeta> | undefined;
    assert.doesNotThrow(() => (r = readRequestMeta(params, [v])));
    assert.equal(r!.ok, false);
    assert.equal((r as { error: { code: number } }).error.code, ErrorCode.InvalidParams);
    assert.doesNotThrow(() => isModernRequest(params));
  }
  assert.equal(isModernRequest(hostileProxy()), false);
  // A `supported` that is no array supports nothing: the version is refused as a value.
  const good = { _meta: { "io.modelcontextprotocol/protocolVersion": v, "io.modelcontextprotocol/clientCapabilities": {} } };
  for (const supported of [undefined, null, {}, "2026-07-28"]) {
    const r = readRequestMeta(good, supported as unknown as [typeof v]);
    assert.equal(r.ok, false);
  }
  assert.equal(readRequestMeta(good, [v]).ok, true);
});

test("README (the kernel never throws across its boundary; an unknown type name is an issue at \"\"): validate and validatorFor with a type name or version that is no string (a BigInt, a cycle, a throwing toString, a Proxy) answer an issue / undefined, not a throw", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const names: unknown[] = [1n, cyclic, { toString: boom, toJSON: boom }, hostileProxy(), Object.create(null), Symbol("s"), undefined];
  for (const [v, f] of [[validate, validatorFor], [validateKernel, validatorForKernel]] as const) {
    for (const name of names) {
      let r: ReturnType<typeof validate> | undefined;
      assert.doesNotThrow(() => (r = v("2025-11-25", name as string, {})));
      assert.equal(r!.ok, false);
      assert.match((r as { issues: { reason: string }[] }).issues[0].reason, /^unknown type/);
      assert.doesNotThrow(() => assert.equal(f("2025-11-25", name as string), undefined));
      assert.doesNotThrow(() => (r = v(name as "2025-11-25", "Tool", {})));
      assert.equal(r!.ok, false);
    }
  }
  assert.match((validate("2025-11-25", 1n as unknown as string, {}) as { issues: { reason: string }[] }).issues[0].reason, /bigint, not a string/);
});

test("README (the kernel never throws across its boundary) + client/elicitation (requestedSchema, content checks): checkRequestedSchema, validateElicitationContent, elicitParamsIssues, elicitResultIssues and applyElicitationDefaults on values whose getters (or Proxy traps) throw answer \"value could not be read\" as the generated validators do, not a throw", () => {
  const unread = [{ path: "", reason: "value could not be read" }];
  const schema = { type: "object", properties: { a: { type: "string", default: "d" } } };
  for (const [h, content] of [[hostileProxy(), hostileProxy()], [throwingGetters("type", "properties", "required", "mode", "requestedSchema", "action", "content"), throwingGetters("a")]]) {
    assert.deepEqual(checkRequestedSchema(h), unread);
    assert.deepEqual(validateElicitationContent(h, { a: "x" }), unread);
    assert.deepEqual(elicitParamsIssues(h), unread);
    assert.deepEqual(elicitParamsIssues({ message: "m", requestedSchema: h }), unread);
    assert.deepEqual(elicitResultIssues({ message: "m", requestedSchema: schema }, h), unread);
    // (A content field is read only when the schema lists it.)
    assert.deepEqual(elicitResultIssues({ message: "m", requestedSchema: schema }, { action: "accept", content }), unread);
    // Unreadable content counts as empty (defaults filled); an unreadable schema gives no defaults.
    assert.deepEqual(applyElicitationDefaults(schema, h), { a: "d" });
    assert.deepEqual(applyElicitationDefaults(h, { b: 1 }), { b: 1 });
  }
  assert.deepEqual(validateElicitationContent(schema, hostileProxy()), unread);
  // The generated validators, for comparison: the same issue.
  assert.deepEqual((validate("2025-11-25", "ElicitResult", hostileProxy()) as { issues: unknown }).issues, unread);
});

test("README (the kernel never throws across its boundary; malformed options fall back to their defaults): createJsonSchemaValidator with options that are null or whose getters (or Proxy traps) throw is the default validator", () => {
  for (const options of [null, 0, "x", hostileProxy(), throwingGetters("maxDepth", "formats")]) {
    let v: ReturnType<typeof createJsonSchemaValidator> | undefined;
    assert.doesNotThrow(() => (v = createJsonSchemaValidator(options as unknown as JsonSchemaOptions)));
    const c = v!.compile({ type: "object", required: ["a"] });
    assert.equal(c.ok, true);
    if (c.ok) {
      assert.equal(c.validate({ a: 1 }), null);
      assert.equal(c.validate({})?.length, 1);
    }
  }
});

test("README (the kernel never throws across its boundary): the task-table queries findTask, resultStreams, progressAllowed, isWaiting, nextTaskDeadline and taskOwnerKey with a state that is no table, or an owner or id whose getters (or Proxy traps) throw, answer not found / empty / false / null", () => {
  for (const state of [undefined, null, 0, "x", 1n, [], {}, hostileProxy(), throwingGetters("tasks", "progress", "waiting", "deadlines")]) {
    const t = state as unknown as TaskTableState;
    assert.doesNotThrow(() => assert.equal(findTask(t, "t1"), undefined));
    assert.doesNotThrow(() => assert.deepEqual(resultStreams(t, "t1"), []));
    assert.doesNotThrow(() => assert.equal(progressAllowed(t, { session: "s" }, 1), false));
    assert.doesNotThrow(() => assert.equal(isWaiting(t, { session: "s" }, 1), false));
    assert.doesNotThrow(() => assert.equal(nextTaskDeadline(t), null));
  }
  const table = createTaskTable();
  const badId = { toString: boom } as unknown as string;
  assert.doesNotThrow(() => assert.equal(findTask(table, badId), undefined));
  assert.doesNotThrow(() => assert.deepEqual(resultStreams(table, badId), []));
  for (const owner of [hostileProxy(), throwingGetters("session", "principal")]) {
    assert.doesNotThrow(() => assert.equal(taskOwnerKey(owner), undefined));
    assert.doesNotThrow(() => assert.equal(progressAllowed(table, owner as never, 1), false));
    assert.doesNotThrow(() => assert.equal(isWaiting(table, owner as never, 1), false));
  }
});

test("README (the kernel never throws across its boundary; the state is plain JSON): snapshotTasks of a state with no JSON form (a BigInt, a cycle, a getter that throws) answers a snapshot restoreTasks refuses, not a throw", () => {
  const withBigInt = createTaskTable() as unknown as Record<string, unknown>;
  withBigInt.seq = 1n;
  const cyclic = createTaskTable() as unknown as Record<string, unknown>;
  cyclic.self = cyclic;
  for (const state of [withBigInt, cyclic, hostileProxy(), throwingGetters("tasks"), undefined, Symbol("s")]) {
    let snap: string | undefined;
    assert.doesNotThrow(() => (snap = snapshotTasks(state as unknown as TaskTableState)));
    assert.equal(typeof snap, "string");
    assert.match(JSON.parse(snap!).error, /no JSON form/);
    assert.equal(restoreTasks(snap).ok, false);
  }
  assert.equal(restoreTasks(snapshotTasks(createTaskTable())).ok, true);
});

test("README (the state is plain JSON, a restored snapshot continues as the original would) + 2025-11-25 basic/index (a request id MUST NOT have been previously used in the session): a snapshot without inboundCount, outboundCount or subscriptionCount is mended from its tables; one without nextId starts at the role's first id in phase new and closes with an internal error once ids were used, instead of NaN in the state", () => {
  const sampling = { type: "request", now: 0, method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } as unknown as SessionInput;
  for (const field of ["inboundCount", "outboundCount", "subscriptionCount"]) {
    const s = JSON.parse(JSON.stringify(operating())) as Record<string, unknown>;
    delete s[field];
    const { outputs } = step(s as unknown as SessionState, sampling);
    assert.ok(!closes(outputs), JSON.stringify(outputs));
    assert.deepEqual(outputs.map((o) => o.type), ["send"]);
    assert.equal(s.inboundCount, 1);
    assert.equal(s.outboundCount, 1);
    assert.equal(s.subscriptionCount, 0);
    // Answering the request brings the counts back down, as in the original.
    step(s as unknown as SessionState, { type: "respond", now: 0, id: 7, result: { content: [] } });
    assert.equal(s.inboundCount, 0);
  }
  // Ids were used: which ones is unknown, so the session closes rather than reuse one.
  const used = JSON.parse(JSON.stringify(operating())) as Record<string, unknown>;
  delete used.nextId;
  const r = step(used as unknown as SessionState, sampling);
  assert.ok(closes(r.outputs), JSON.stringify(r.outputs));
  assert.match((r.outputs.find((o) => o.type === "close") as { reason: string }).reason, /^internal error: .*nextId/);
  assert.ok(!JSON.stringify(r.outputs).includes("NaN"));
  // None can have been used yet: the role's first id.
  for (const [options, first] of [[SERVER, 1], [{ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, 0]] as const) {
    const fresh = JSON.parse(JSON.stringify(createSession(options as SessionOptions))) as Record<string, unknown>;
    delete fresh.nextId;
    const { outputs } = step(fresh as unknown as SessionState, { type: "tick", now: 0 });
    assert.ok(!closes(outputs));
    assert.equal(fresh.nextId, first);
  }
});

test("README (the kernel never throws across its boundary; nextDeadline is a reading or null): nextDeadline of a state that is no session, or whose getters (or Proxy traps) throw, is null", () => {
  for (const state of [undefined, null, 0, "s", {}, hostileProxy(), throwingGetters("wakeAt")]) {
    assert.doesNotThrow(() => assert.equal(nextDeadline(state as unknown as SessionState), null));
  }
  // A session with a request out has its deadline.
  const s = operating();
  step(s, { type: "request", now: 0, method: "ping" } as unknown as SessionInput);
  assert.equal(typeof nextDeadline(s), "number");
});
