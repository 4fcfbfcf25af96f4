// Spec: draft basic/versioning (compatibility matrix, backward compatibility), basic/index
// (resultType), basic/patterns/mrtr (client requirements), basic/transports/stdio (probe;
// the client writes no responses), server/utilities/caching (hints a client reads).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { nextDeadline } from "../../src/session/timeouts.js";
import { idKey } from "../../src/session/types.js";
import type { ProtocolVersion } from "../../src/model/versions.js";
import type { JsonObject, RequestId } from "../../src/jsonrpc/types.js";

const ERAS: Record<string, ProtocolVersion[]> = {
  modern: ["2026-07-28"],
  legacy: ["2025-11-25", "2025-06-18", "2025-03-26"],
  dual: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
};

// The matrix of basic/versioning, row by row: client era, server era, expected outcome.
const MATRIX: [string, string, "modern" | "legacy" | "fails"][] = [
  ["modern", "modern", "modern"],
  ["modern", "legacy", "fails"],
  ["dual", "modern", "modern"],
  ["dual", "legacy", "legacy"],
  ["legacy", "modern", "fails"],
  ["legacy", "dual", "legacy"],
  ["legacy", "legacy", "legacy"],
  ["dual", "dual", "modern"],
  ["modern", "dual", "modern"],
];

for (const [clientEra, serverEra, outcome] of MATRIX) {
  test(`versioning compatibility matrix: ${clientEra} client × ${serverEra} server → ${outcome}`, () => {
    const p = new Pair({ versions: ERAS[clientEra] }, { versions: ERAS[serverEra] });
    p.handlers.server = (req, pair) => pair.respond("server", req.id, { content: [{ type: "text", text: "hi" }] });
    p.handshake();
    if (outcome === "fails") {
      assert.equal(p.client.phase.name, "closed");
      assert.ok(p.closedBy.client, "the client surfaces an actionable error");
      return;
    }
    assert.equal(p.client.phase.name, outcome === "modern" ? "modern" : "operating");
    p.request("client", "tools/call", { name: "x" });
    p.run();
    const res = p.of("client", "response")[0];
    assert.deepEqual((res.result.content as unknown[])[0], { type: "text", text: "hi" });
    if (outcome === "modern") assert.equal(res.result.resultType, "complete");
  });
}

test("stdio backward compatibility: the probe falls back to initialize on a non-modern error", () => {
  const p = new Pair({ versions: ERAS.dual }, { versions: ERAS.legacy });
  p.feed("client", { type: "open", now: 0 });
  const probe = p.dropQueued()[0];
  assert.equal(JSON.parse(probe.text).method, "server/discover");
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: ErrorCode.MethodNotFound, message: "Method not found" } }));
  assert.equal(p.client.phase.name, "initializing");
  assert.equal((p.lastSent("client") as any).method, "initialize");
});

test("stdio backward compatibility: a probe that times out falls back to initialize (silent legacy server)", () => {
  const p = new Pair({ versions: ERAS.dual, requestTimeoutMs: 500 }, { versions: ERAS.legacy });
  p.feed("client", { type: "open", now: 0 });
  p.dropQueued();
  p.advance(500);
  assert.equal(p.client.phase.name, "operating");
});

test("versioning: after UnsupportedProtocolVersionError the client retries with a mutually supported version rather than falling back", () => {
  const p = new Pair({ versions: ERAS.dual });
  p.feed("client", { type: "open", now: 0 });
  p.dropQueued();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-11-25"], requested: "2026-07-28" } } }));
  assert.equal((p.lastSent("client") as any).params.protocolVersion, "2025-11-25", "only a legacy version in common: initialize");
});

test("versioning: the era verdict can be given in (cached): legacy skips the probe", () => {
  const p = new Pair({ versions: ERAS.dual, era: "legacy" });
  p.handshake();
  assert.equal((p.sent("client")[0] as any).method, "initialize");
  assert.equal(p.client.phase.name, "operating");
});

test("versioning (Backward Compatibility: the era MAY be persisted, \"re-probing if the cached assumption later fails\"): a dual-era client given era legacy whose initialize a now modern-only server refuses with -32022 probes and goes modern, instead of closing", { timeout: 5000 }, () => {
  const p = new Pair({ versions: ERAS.dual, era: "legacy" }, { versions: ERAS.modern });
  p.handshake();
  const methods = p.sent("client").map((m) => (m as any).method);
  assert.deepEqual(methods, ["initialize", "server/discover"]);
  assert.equal(p.client.phase.name, "modern");
  assert.equal(p.closedBy.client, undefined);
  // Once only: a server that refuses the fallback's initialize too (or any initialize not
  // sent on the cached verdict) closes the client, never loops.
  // (Read through a function: TypeScript would narrow the phase from one assertion to the next.)
  const phaseOf = (x: Pair): string => x.client.phase.name;
  const q = new Pair({ versions: ERAS.dual, era: "legacy" });
  q.feed("client", { type: "open", now: 0 });
  q.dropQueued();
  q.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } } }));
  assert.equal(phaseOf(q), "probing");
  q.dropQueued();
  q.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: ErrorCode.MethodNotFound, message: "Method not found" } }));
  assert.equal(phaseOf(q), "initializing");
  q.dropQueued();
  q.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 2, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } } }));
  assert.equal(phaseOf(q), "closed");
  // A non-modern refusal of the cached initialize is no evidence of a modern server: it closes.
  const r = new Pair({ versions: ERAS.dual, era: "legacy" });
  r.feed("client", { type: "open", now: 0 });
  r.dropQueued();
  r.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: ErrorCode.InvalidParams, message: "bad" } }));
  assert.equal(phaseOf(r), "closed");
});

test("basic/index: every modern request carries protocolVersion, clientCapabilities and clientInfo in _meta", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { elicitation: {} } }, { versions: ERAS.modern });
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [] });
  p.handshake();
  p.feed("client", { type: "request", now: 0, method: "tools/list", logLevel: "error" });
  p.run();
  const sent = p.lastSent("client") as any;
  assert.deepEqual(sent.params._meta, {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "1.0.0" },
    "io.modelcontextprotocol/logLevel": "error",
  });
});

test("basic/index: an absent resultType is treated as complete; an unrecognized one MUST be considered invalid", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern });
  p.handlers.server = () => {};
  p.handshake();
  const a = p.request("client", "tools/call", { name: "x" });
  const b = p.request("client", "tools/call", { name: "y" });
  p.run();
  p.dropQueued();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: a, result: { content: [] } }));
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: b, result: { resultType: "mystery", content: [] } }));
  assert.equal(p.of("client", "response")[0].result.resultType, "complete");
  assert.equal(p.of("client", "error")[0].id, b);
});

test("mrtr Server Requirements: an input_required with neither inputRequests nor requestState (a server MUST include one) fails the call at once, not after the round bound", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern });
  p.handlers.server = () => {};
  p.handshake();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  p.dropQueued();
  // Our own server kernel refuses to send this (-32603); a peer that does is injected.
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "input_required" } }));
  assert.deepEqual(out.filter((o) => o.type === "send"), [], "no retry");
  const err = p.of("client", "error")[0];
  assert.equal(err.id, id);
  assert.equal(err.error.code, ErrorCode.InternalError);
  assert.match(err.error.message, /neither inputRequests nor requestState/);
});

test("mrtr Server Requirements: Servers MUST NOT send an inputRequests that the client has not declared support for; each entry is treated as the standalone request (SEP-2663), which 2025-11-25 client/elicitation refuses for an undeclared mode: the call fails, no handler runs", () => {
  const ask = (input: JsonObject) => ({ resultType: "input_required", inputRequests: { k: input } });
  const cases: [string, JsonObject, JsonObject][] = [
    ["url elicitation, form declared", { method: "elicitation/create", params: { mode: "url", message: "go", url: "https://a.example/x", elicitationId: "e1" } }, { elicitation: { url: {} } }],
    ["tool-enabled sampling, plain sampling declared", { method: "sampling/createMessage", params: { maxTokens: 3, messages: [{ role: "user", content: { type: "text", text: "x" } }], tools: [{ name: "a", inputSchema: { type: "object" } }] } }, { sampling: { tools: {} } }],
    ["roots, not declared", { method: "roots/list" }, { roots: {} }],
  ];
  for (const [label, input, required] of cases) {
    const p = new Pair({ versions: ERAS.modern, capabilities: { elicitation: { form: {} }, sampling: {} } }, { versions: ERAS.modern });
    p.handlers.server = () => {};
    p.handshake();
    const id = p.request("client", "tools/call", { name: "x" });
    p.run();
    p.dropQueued();
    const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: ask(input) }));
    assert.deepEqual(out.filter((o) => o.type === "send" || o.type === "request"), [], `${label}: no handler, no retry`);
    const err = p.of("client", "error")[0];
    assert.equal(err.id, id, label);
    assert.equal(err.error.code, ErrorCode.InternalError, label);
    assert.match(err.error.message, /did not declare/, label);
    assert.deepEqual((err.error.data as JsonObject).requiredCapabilities, required, label);
    assert.equal(p.client.inboundCount, 0, label);
  }
});

test("client/sampling (draft, Message Content Constraints: a user message with tool results MUST contain ONLY tool results) + mrtr: an input request breaking it, from a server that does not check its own, fails the call as an invalid input_required, not as an undeclared capability; no handler runs (found by review: the call failed saying the server asked for capabilities this client did not declare)", () => {
  const mixed = [
    { role: "user", content: { type: "text", text: "weather?" } },
    { role: "assistant", content: { type: "tool_use", id: "a", name: "w", input: {} } },
    { role: "user", content: [{ type: "tool_result", toolUseId: "a", content: [] }, { type: "text", text: "and" }] },
  ];
  const p = new Pair({ versions: ERAS.modern, capabilities: { sampling: { tools: {} } } }, { versions: ERAS.modern });
  p.handlers.server = () => {};
  p.handshake();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  p.dropQueued();
  const input = { method: "sampling/createMessage", params: { maxTokens: 3, messages: mixed, tools: [{ name: "w", inputSchema: { type: "object" } }] } };
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "input_required", inputRequests: { k: input } } }));
  assert.deepEqual(out.filter((o) => o.type === "send" || o.type === "request"), [], "no handler, no retry");
  const err = p.of("client", "error")[0];
  assert.equal(err.id, id);
  assert.equal(err.error.code, ErrorCode.InternalError);
  assert.doesNotMatch(err.error.message, /did not declare/);
  assert.match(err.error.message, /invalid input_required result from the peer: inputRequests\.k: invalid sampling\/createMessage params \(\/messages\/2.*tool results/);
});

test("tasks extension (SEP-2663): a task in place of a result is accepted only when the client declared the extension; otherwise it is invalid, never handed to an application that cannot read it", () => {
  const task = { resultType: "task", taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 1000 };
  for (const declared of [false, true]) {
    const caps = declared ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {};
    const p = new Pair({ versions: ERAS.modern, capabilities: caps }, { versions: ERAS.modern });
    p.handlers.server = () => {};
    p.handshake();
    const id = p.request("client", "tools/call", { name: "x" });
    p.run();
    p.dropQueued();
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: task }));
    if (declared) assert.equal(p.of("client", "response")[0].result.taskId, "t1");
    else {
      assert.equal(p.of("client", "response").length, 0);
      const err = p.of("client", "error")[0];
      assert.equal(err.id, id);
      assert.equal(err.error.code, ErrorCode.InternalError);
      assert.match(err.error.message, /a task answer to tools\/call, which did not declare the tasks extension/);
    }
  }
});

test("tasks extension (SEP-2663 Capability Negotiation): a client that receives CreateTaskResult in response to an unsupported request type MUST interpret this as an invalid response, though it declared the extension", () => {
  const task = { resultType: "task", taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 1000 };
  for (const [method, params] of [["prompts/get", { name: "p" }], ["tools/list", {}], ["resources/read", { uri: "file:///a" }]] as const) {
    const p = new Pair({ versions: ERAS.modern, capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } }, { versions: ERAS.modern, capabilities: { prompts: {}, tools: {}, resources: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } });
    p.handlers.server = () => {};
    p.handshake();
    const id = p.request("client", method, params);
    p.run();
    p.dropQueued();
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { ...task, messages: [], tools: [], contents: [], ttlMs: 1000, cacheScope: "public" } }));
    assert.equal(p.of("client", "response").length, 0, method);
    const err = p.of("client", "error")[0];
    assert.equal(err.id, id);
    assert.equal(err.error.code, ErrorCode.InternalError, method);
    assert.match(err.error.message, new RegExp(`a task answer to ${method}, which cannot be answered with a task`), method);
  }
});

test("mrtr: multi-round — the client gathers inputs, retries with a new id, echoes requestState exactly, and the app sees one request", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { elicitation: {} } }, { versions: ERAS.modern });
  const seen: any[] = [];
  p.handlers.server = (req, pair) => {
    const params = req.params as any;
    seen.push({ id: req.id, inputResponses: params.inputResponses, requestState: params.requestState });
    const ask = (key: string) => ({ [key]: { method: "elicitation/create", params: { mode: "form", message: key, requestedSchema: { type: "object", properties: { v: { type: "string" } } } } } });
    if (seen.length === 1) pair.respond("server", req.id, { resultType: "input_required", inputRequests: ask("first"), requestState: "opaque+1" });
    else if (seen.length === 2) pair.respond("server", req.id, { resultType: "input_required", inputRequests: ask("second") });
    else pair.respond("server", req.id, { content: [{ type: "text", text: "done" }] });
  };
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { action: "accept", content: { v: (req.params as any).message } });
  p.handshake();
  const id = p.request("client", "tools/call", { name: "wizard" }, { progress: true });
  p.run();
  assert.equal(seen.length, 3);
  assert.equal(new Set(seen.map((s) => s.id)).size, 3, "the JSON-RPC id MUST differ between the initial request and each retry");
  assert.equal(seen[1].requestState, "opaque+1", "requestState MUST be echoed exactly");
  assert.equal(seen[2].requestState, undefined, "no requestState given: the retry MUST NOT include one");
  assert.deepEqual(seen[1].inputResponses, { first: { action: "accept", content: { v: "first" } } });
  const res = p.of("client", "response");
  assert.equal(res.length, 1);
  assert.equal(res[0].id, id, "the application's request keeps its id across rounds");
  assert.equal(p.of("client", "request").length, 2, "each input request reaches the application once");
  assert.equal(p.client.inboundCount, 0);
});

test("progress (draft basic/patterns/progress: the progress value MUST increase with each notification) + mrtr: each retry is a new request with a new token whose progress starts over on the wire, but the application sees one call: its progress events only increase across rounds; what a retry reports below an earlier round still resets the call's timeout", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { elicitation: {} }, requestTimeoutMs: 1000 }, { versions: ERAS.modern });
  const attempts: { id: RequestId; token: RequestId }[] = [];
  p.handlers.server = (req) => void attempts.push({ id: req.id, token: (req.params as any)._meta.progressToken });
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { action: "accept", content: {} });
  p.handshake();
  const id = p.request("client", "tools/call", { name: "slow" }, { progress: true });
  p.run();
  const progress = (token: RequestId, value: number) => p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: value, total: 3 } }));
  progress(attempts[0].token, 1);
  progress(attempts[0].token, 2);
  p.respond("server", attempts[0].id, { resultType: "input_required", inputRequests: { ok: { method: "elicitation/create", params: { mode: "form", message: "ok?", requestedSchema: { type: "object", properties: {} } } } } });
  p.run();
  assert.equal(attempts.length, 2, "retried");
  assert.notEqual(attempts[1].token, attempts[0].token);
  // The handler runs again and reports from the start: legal on its new token.
  p.now += 600;
  progress(attempts[1].token, 1);
  const retry = p.client.outbound[idKey(attempts[1].id)];
  assert.equal(retry.deadline, p.now + 1000, "the retry's own progress resets its timeout though not handed on");
  progress(attempts[1].token, 2);
  progress(attempts[1].token, 3);
  p.respond("server", attempts[1].id, { content: [{ type: "text", text: "done" }] });
  p.run();
  assert.deepEqual(p.of("client", "progress").map((e) => [e.id, e.progress]), [[id, 1], [id, 2], [id, 3]]);
  assert.equal(p.of("client", "response")[0].id, id);
});

test("mrtr: the retry's inputResponses come in the order the server asked, whichever the application answered first", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { elicitation: {}, sampling: {}, roots: {} } }, { versions: ERAS.modern });
  const seen: any[] = [];
  p.handlers.server = (req, pair) => {
    seen.push((req.params as any).inputResponses);
    if (seen.length > 1) return pair.respond("server", req.id, { content: [] });
    pair.respond("server", req.id, {
      resultType: "input_required",
      inputRequests: {
        a: { method: "elicitation/create", params: { mode: "form", message: "a", requestedSchema: { type: "object", properties: {} } } },
        b: { method: "roots/list" },
        c: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "q" } }], maxTokens: 1 } },
      },
    });
  };
  const asked: { id: any; method: string }[] = [];
  p.handlers.client = (req) => void asked.push({ id: req.id, method: req.method });
  p.handshake();
  p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.deepEqual(p.of("client", "error"), []);
  assert.deepEqual(asked.map((a) => a.method), ["elicitation/create", "roots/list", "sampling/createMessage"]);
  // Answered last to first.
  const byMethod = (m: string) => asked.find((a) => a.method === m)!.id;
  p.respond("client", byMethod("sampling/createMessage"), { role: "assistant", content: { type: "text", text: "s" }, model: "m" });
  p.respond("client", byMethod("roots/list"), { roots: [] });
  p.respond("client", byMethod("elicitation/create"), { action: "cancel" });
  p.run();
  assert.deepEqual(Object.keys(seen[1]), ["a", "b", "c"]);
});

test("mrtr: an input_required with only requestState is retried at once; rounds are bounded", () => {
  const p = new Pair({ versions: ERAS.modern, maxInputRounds: 3 }, { versions: ERAS.modern });
  let n = 0;
  p.handlers.server = (req, pair) => {
    n++;
    pair.respond("server", req.id, { resultType: "input_required", requestState: `s${n}` });
  };
  p.handshake();
  const id = p.request("client", "tools/call", { name: "loop" });
  p.run();
  assert.equal(n, 4);
  const err = p.of("client", "error")[0];
  assert.equal(err.id, id);
  assert.match(err.error.message, /3 input_required rounds/);
});

test("mrtr: cancelling while inputs are being gathered ends the request locally; cancelling a retry cancels it on the wire", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { roots: {} } }, { versions: ERAS.modern });
  p.handlers.server = (req, pair) => {
    if ((req.params as any).inputResponses === undefined) pair.respond("server", req.id, { resultType: "input_required", inputRequests: { r: { method: "roots/list" } } });
  };
  p.handshake();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.equal(p.of("client", "request").length, 1);
  p.feed("client", { type: "cancel", now: 0, id });
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.RequestCancelled);
  assert.equal(p.client.inboundCount, 0);
  // Second request: answer the input, then cancel the retry in flight.
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { roots: [] });
  const id2 = p.request("client", "tools/call", { name: "y" });
  p.run();
  p.feed("client", { type: "cancel", now: 0, id: id2 });
  p.run();
  const cancel = p.sent("client").at(-1) as any;
  assert.equal(cancel.method, "notifications/cancelled");
  assert.notEqual(cancel.params.requestId, id2, "the cancellation names the retry's wire id");
  assert.equal(p.of("client", "error")[1].id, id2);
});

/** A server that answers every attempt of a call with input_required asking for roots (keys `a` and `b`), and never completes. */
function askingPair(client: Record<string, unknown> = {}, keys = ["a"]): Pair {
  const p = new Pair({ versions: ERAS.modern, capabilities: { roots: {} }, ...client }, { versions: ERAS.modern });
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { resultType: "input_required", inputRequests: Object.fromEntries(keys.map((k) => [k, { method: "roots/list" }])) });
  p.handshake();
  return p;
}

test("mrtr + README Limits (requests in flight per session, maxInboundRequests): input requests are requests in progress for the application, so a round asking more than the client has room for fails its call (-32603) and none reaches the application; a round within the room is asked", () => {
  const p = askingPair({ maxInboundRequests: 4 }, ["a", "b"]);
  const first = p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.equal(p.client.inboundCount, 2);
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { resultType: "input_required", inputRequests: { c: { method: "roots/list" }, d: { method: "roots/list" }, e: { method: "roots/list" } } });
  const second = p.request("client", "tools/call", { name: "y" });
  p.run();
  const [err] = p.of("client", "error");
  assert.equal(err.id, second);
  assert.equal(err.error.code, ErrorCode.InternalError);
  assert.match(err.error.message, /3 input requests, more than this client takes in progress \(maxInboundRequests 4, 2 in progress\)/);
  assert.deepEqual(p.of("client", "request").map((r) => r.method), ["roots/list", "roots/list"], "only the first call's inputs were asked");
  assert.equal(p.client.inboundCount, 2);
  assert.deepEqual(Object.keys(p.client.mrtr), [idKey(first)]);
  // Within the room (2 more), a round is asked as usual.
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { resultType: "input_required", inputRequests: { c: { method: "roots/list" }, d: { method: "roots/list" } } });
  p.request("client", "tools/call", { name: "z" });
  p.run();
  assert.equal(p.of("client", "request").length, 4);
  assert.equal(p.client.inboundCount, 4);
});

test("mrtr timeouts (draft basic/patterns/cancellation, Timeouts: implementations SHOULD establish timeouts for all sent requests): the call's timeout covers the time the application spends answering input requests; when it runs out the call fails with -32001 and the input requests are cancelled", () => {
  const p = askingPair({ requestTimeoutMs: 1000 });
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  const input = p.of("client", "request")[0];
  const wire = p.wire.length;
  p.advance(999);
  assert.deepEqual(p.of("client", "error"), []);
  p.advance(1);
  const err = p.of("client", "error");
  assert.deepEqual(err.map((e) => [e.id, e.error.code]), [[id, ErrorCode.RequestTimeout]]);
  assert.match(err[0].error.message, /timed out after 1000 ms/);
  assert.deepEqual(p.of("client", "cancelled"), [{ type: "cancelled", id: input.id, reason: err[0].error.message }], "the handler asking for the input learns it is no longer wanted");
  assert.equal(p.wire.length, wire, "nothing was in flight: nothing to cancel on the wire");
  assert.equal(p.client.inboundCount, 0);
  assert.deepEqual(p.client.mrtr, {});
  assert.equal(p.client.wakeAt, null);
  // A late answer to the cancelled input changes nothing.
  p.respond("client", input.id, { roots: [] });
  assert.equal(p.wire.length, wire);
});

test("mrtr timeouts (draft basic/patterns/cancellation, Timeouts: implementations SHOULD establish timeouts for all sent requests): while the application answers input requests the call's deadline stays the next deadline the driver must tick at, also after a tick fired another deadline and recomputed it", () => {
  const p = askingPair({ requestTimeoutMs: 1000 });
  const slow = p.request("client", "tools/call", { name: "slow" });
  const quick = p.request("client", "tools/call", { name: "quick" }, { timeoutMs: 300 });
  p.run();
  assert.equal(p.of("client", "request").length, 2, "both calls are gathering inputs");
  assert.equal(nextDeadline(p.client), 300);
  p.advance(300);
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[quick, ErrorCode.RequestTimeout]]);
  assert.equal(nextDeadline(p.client), 1000, "the other round's deadline is still armed");
  p.advance(700);
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[quick, ErrorCode.RequestTimeout], [slow, ErrorCode.RequestTimeout]]);
});

test("mrtr timeouts: as in the legacy era (where the call's timeout runs while the client answers the server's elicitation), a round and its retry go on with the call's deadline instead of starting a fresh one; maxRequestTimeoutMs bounds the whole call", () => {
  // The retry of a call answered after 600 ms of its 1000 is cancelled at 1000, not 1600.
  const soft = askingPair({ requestTimeoutMs: 1000 });
  const id = soft.request("client", "tools/call", { name: "x" });
  soft.run();
  soft.handlers.server = () => {};
  soft.advance(600);
  soft.respond("client", soft.of("client", "request")[0].id, { roots: [] });
  soft.run();
  const retry = soft.lastSent("client") as any;
  assert.ok(retry.params.inputResponses, "the retry went out");
  soft.advance(399);
  assert.deepEqual(soft.of("client", "error"), []);
  soft.advance(1);
  assert.deepEqual(soft.of("client", "error").map((e) => [e.id, e.error.code]), [[id, ErrorCode.RequestTimeout]]);
  assert.deepEqual(soft.lastSent("client"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: retry.id, reason: "timeout" } });
  // No soft timeout (0): the cap, fixed when the call was sent, ends it in its second round.
  const hard = askingPair({ maxRequestTimeoutMs: 3000 });
  const call = hard.request("client", "tools/call", { name: "x" }, { timeoutMs: 0 });
  hard.run();
  hard.advance(2000);
  hard.respond("client", hard.of("client", "request")[0].id, { roots: [] });
  hard.run();
  assert.equal(hard.of("client", "request").length, 2, "round two is asking");
  hard.advance(999);
  assert.deepEqual(hard.of("client", "error"), []);
  hard.advance(1);
  const err = hard.of("client", "error");
  assert.deepEqual(err.map((e) => [e.id, e.error.code]), [[call, ErrorCode.RequestTimeout]]);
  assert.match(err[0].error.message, /maxRequestTimeoutMs \(3000 ms\)/);
  assert.deepEqual(hard.of("client", "cancelled").map((c) => c.id), [hard.of("client", "request")[1].id]);
});

test("mrtr timeouts: an input answered at the very instant the call's deadline falls (before the tick that would say so) sends no retry: the call fails with -32001 as the tick would have failed it", () => {
  const p = askingPair({ requestTimeoutMs: 1000 });
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  const wire = p.wire.length;
  p.now = 1000;
  p.respond("client", p.of("client", "request")[0].id, { roots: [] });
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[id, ErrorCode.RequestTimeout]]);
  assert.equal(p.wire.length, wire, "no retry went out");
  assert.deepEqual(p.client.mrtr, {});
});

test("mrtr (README: an input its handler cannot provide fails the call with that error): the call's error keeps the handler's code and data, and has no data when the handler gave none", () => {
  for (const data of [{ reason: "no roots configured" }, undefined]) {
    const p = askingPair();
    const id = p.request("client", "tools/call", { name: "x" });
    p.run();
    const error = data === undefined ? { code: ErrorCode.InvalidParams, message: "no roots" } : { code: ErrorCode.InvalidParams, message: "no roots", data };
    p.feed("client", { type: "respond", now: p.now, id: p.of("client", "request")[0].id, error });
    const [err] = p.of("client", "error");
    assert.equal(err.id, id);
    const message = "the roots/list input could not be provided: no roots";
    assert.deepEqual(err.error, data === undefined ? { code: ErrorCode.InvalidParams, message } : { code: ErrorCode.InvalidParams, message, data });
  }
});

test("mrtr: a round dropped because the application cancelled the call, one of its inputs failed, or the session closed cancels every input request still waiting (RequestContext.signal: aborted when the request is cancelled or the connection closes)", () => {
  const cases: [string, (p: Pair, id: RequestId, inputs: RequestId[]) => void, number][] = [
    ["cancel", (p, id) => p.feed("client", { type: "cancel", now: p.now, id, reason: "user gave up" }), 2],
    ["input failed", (p, _id, inputs) => p.feed("client", { type: "respond", now: p.now, id: inputs[0], error: { code: ErrorCode.InternalError, message: "no roots" } }), 1],
    ["closed", (p) => p.feed("client", { type: "closed", now: p.now, reason: "bye" }), 2],
  ];
  for (const [how, drop, n] of cases) {
    const p = askingPair({}, ["a", "b"]);
    const id = p.request("client", "tools/call", { name: "x" });
    p.run();
    const inputs = p.of("client", "request").map((r) => r.id);
    assert.equal(inputs.length, 2);
    drop(p, id, inputs);
    assert.deepEqual(p.of("client", "cancelled").map((c) => c.id), inputs.slice(2 - n), how);
    assert.equal(p.of("client", "error")[0].id, id, how);
    assert.equal(p.client.inboundCount, 0, how);
    assert.deepEqual(p.client.mrtr, {}, how);
  }
});

test("mrtr: a server that answers input_required on a method that does not allow it is an error", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern });
  p.handlers.server = () => {};
  p.handshake();
  const id = p.request("client", "tools/list");
  p.run();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "input_required", requestState: "x" } }));
  assert.equal(p.of("client", "error")[0].id, id);
});

test("cancellation (draft basic/patterns/cancellation): a server MUST send notifications/cancelled for a subscriptions/listen request it tears down; the client ends that request and sends nothing back; cancellations naming any other request are ignored", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { roots: {} } }, { versions: ERAS.modern, capabilities: { tools: { listChanged: true } } });
  p.handlers.server = () => {};
  p.handshake();
  const listen = p.request("client", "subscriptions/listen", { notifications: { toolsListChanged: true } });
  const call = p.request("client", "tools/call", { name: "x" });
  p.run();
  const wireBefore = p.wire.length;
  const cancelled = (requestId: unknown, reason?: string) => p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: reason === undefined ? { requestId } : { requestId, reason } }));
  assert.deepEqual(cancelled(call).map((o) => o.type === "diagnostic" && o.code), ["cancel-ignored"], "servers MUST NOT send it for any other purpose");
  const out = cancelled(listen, "server shutting down");
  assert.deepEqual(out, [{ type: "error", id: listen, method: "subscriptions/listen", error: { code: ErrorCode.RequestCancelled, message: "the server ended the subscription: server shutting down" } }]);
  assert.equal(p.wire.length, wireBefore, "no notifications/cancelled back: the request is no longer in progress");
  assert.equal(p.client.outboundCount, 1, "only the tools/call is still awaited");
  assert.deepEqual(cancelled(listen).map((o) => o.type === "diagnostic" && o.code), ["cancel-ignored"], "a repeat names nothing in progress");
  // An MRTR input request is answered locally: no server can cancel it.
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { resultType: "input_required", inputRequests: { r: { method: "roots/list" } } });
  p.request("client", "tools/call", { name: "y" });
  p.run();
  const input = p.of("client", "request")[0];
  assert.deepEqual(cancelled(input.id).map((o) => o.type === "diagnostic" && o.code), ["cancel-ignored"]);
  assert.equal(p.of("client", "cancelled").length, 0);
});

test("subscriptions (draft basic/patterns/subscriptions): a subscriptions/listen request lives until one side ends it, so the default request timeout and cap do not apply; a timeout the caller asks for does", () => {
  const p = new Pair({ versions: ERAS.modern, requestTimeoutMs: 1000, maxRequestTimeoutMs: 5000 }, { versions: ERAS.modern, capabilities: { tools: { listChanged: true } } });
  p.handshake();
  const open = p.request("client", "subscriptions/listen", { notifications: { toolsListChanged: true } });
  const timed = p.request("client", "subscriptions/listen", { notifications: { toolsListChanged: true } }, { timeoutMs: 2000 });
  p.run();
  p.advance(2000);
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[timed, ErrorCode.RequestTimeout]]);
  p.advance(1_000_000);
  assert.equal(p.of("client", "error").length, 1);
  p.feed("server", { type: "changed", now: p.now, what: "tools" });
  p.run();
  assert.deepEqual(p.of("client", "notification").filter((n) => n.method === "notifications/tools/list_changed").map((n) => (n.params as any)._meta["io.modelcontextprotocol/subscriptionId"]), [open]);
});

test("subscriptions (draft basic/patterns/subscriptions, Acknowledgment: the filter \"reflects the subset the server agreed to honor\"): notifications of an acknowledged listen reach the client even when the server gained the capability after the client's server/discover", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern, capabilities: { tools: {} } });
  p.handshake();
  // Discovered: no listChanged, no resources. Then the server registers more (McpServer's `declare`).
  p.feed("server", { type: "declare", now: p.now, capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } });
  const listen = p.request("client", "subscriptions/listen", { notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] } });
  p.run();
  const ack = p.of("client", "notification").find((n) => n.method === "notifications/subscriptions/acknowledged")!;
  assert.deepEqual((ack.params as any).notifications, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
  p.feed("server", { type: "changed", now: p.now, what: "tools" });
  p.feed("server", { type: "changed", now: p.now, what: "resource", uri: "file:///a" });
  p.run();
  const heard = p.of("client", "notification").filter((n) => (n.params as any)?._meta?.["io.modelcontextprotocol/subscriptionId"] === listen);
  assert.deepEqual(heard.map((n) => n.method), ["notifications/subscriptions/acknowledged", "notifications/tools/list_changed", "notifications/resources/updated"]);
  assert.deepEqual(p.of("client", "diagnostic").filter((d) => d.code === "notification-dropped"), [], "nothing the server agreed to is dropped");
  // A notification that names no open listen is still held to the discovered capabilities.
  const stray = p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 999 } } }));
  assert.deepEqual(stray.map((o) => o.type === "diagnostic" && o.code), ["notification-dropped"]);
});

test("subscriptions (draft basic/patterns/subscriptions: the server \"MUST NOT send notification types the client has not explicitly requested\" and \"MUST NOT send any notification on the subscription before\" its acknowledgment): a client admits on a listen only what both it asked for and the server acknowledged, after the acknowledgment", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern, capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true } } });
  p.handshake();
  const listen = p.request("client", "subscriptions/listen", { notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] } });
  // The server's side is played by hand: the test is what the client lets through.
  p.dropQueued();
  const on = (method: string, params: JsonObject = {}) =>
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, _meta: { "io.modelcontextprotocol/subscriptionId": listen } } }));
  const fate = (out: ReturnType<typeof on>) => out.map((o) => (o.type === "diagnostic" ? o.code : o.type));
  assert.deepEqual(fate(on("notifications/tools/list_changed")), ["notification-dropped"], "before the acknowledgment");
  // The server agrees to prompts too, which was never asked for, and to one URI of the two.
  assert.deepEqual(fate(on("notifications/subscriptions/acknowledged", { notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a", "file:///c"] } })), ["notification"]);
  assert.deepEqual(fate(on("notifications/tools/list_changed")), ["notification"]);
  assert.deepEqual(fate(on("notifications/resources/updated", { uri: "file:///a" })), ["notification"]);
  assert.deepEqual(fate(on("notifications/resources/updated", { uri: "file:///a/child" })), ["notification"], "a sub-resource of a subscribed URI (ResourceUpdatedNotificationParams)");
  assert.deepEqual(fate(on("notifications/prompts/list_changed")), ["notification-dropped"], "acknowledged but never requested");
  assert.deepEqual(fate(on("notifications/resources/updated", { uri: "file:///b" })), ["notification-dropped"], "requested but not acknowledged");
  assert.deepEqual(fate(on("notifications/resources/updated", { uri: "file:///c" })), ["notification-dropped"], "acknowledged but never requested");
  assert.deepEqual(fate(on("notifications/resources/list_changed")), ["notification-dropped"]);
  assert.deepEqual(fate(on("notifications/subscriptions/acknowledged", { notifications: { promptsListChanged: true } })), ["notification-dropped"], "a second acknowledgment widens nothing");
  assert.deepEqual(fate(on("notifications/prompts/list_changed")), ["notification-dropped"]);
});

// ---------------------------------------------------------------------------------------
// Caching hints, as a client reads them (draft server/utilities/caching)

const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } };
/** Hints a server gets wrong or leaves out, and what the client makes of them. */
const LAX_HINTS: Array<[string, JsonObject, JsonObject]> = [
  ["ttlMs negative", { ttlMs: -5, cacheScope: "public" }, { ttlMs: 0, cacheScope: "public" }],
  ["ttlMs absent", { cacheScope: "public" }, { ttlMs: 0, cacheScope: "public" }],
  ["ttlMs not an integer", { ttlMs: 1.5, cacheScope: "public" }, { ttlMs: 0, cacheScope: "public" }],
  ["cacheScope absent", { ttlMs: 600 }, { ttlMs: 600, cacheScope: "private" }],
  ["both absent", {}, { ttlMs: 0, cacheScope: "private" }],
];

test("caching + stdio Backward Compatibility: a DiscoverResult whose hints are absent, negative or not an integer is still a DiscoverResult: the dual-era client stays modern, never falls back to initialize", () => {
  for (const [what, hints] of LAX_HINTS) {
    const p = new Pair({ versions: ERAS.dual });
    p.feed("client", { type: "open", now: 0 });
    p.dropQueued();
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ...hints, _meta: SERVER_INFO_META } }));
    assert.equal(p.client.phase.name, "modern", what);
    assert.deepEqual(p.sent("client").map((m: any) => m.method), ["server/discover"], `${what}: no initialize`);
    assert.equal(p.of("client", "initialized")[0].version, "2026-07-28", what);
  }
  // A result that is no DiscoverResult at all is still a legacy server's answer.
  const p = new Pair({ versions: ERAS.dual });
  p.feed("client", { type: "open", now: 0 });
  p.dropQueued();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, result: { capabilities: {} } }));
  assert.equal(p.client.phase.name, "initializing");
});

test("caching: an absent ttlMs is assumed 0 and a negative one treated as 0 (clients SHOULD); the application gets the result with hints it can use, for every cacheable method; valid hints pass untouched", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern, capabilities: { tools: {}, resources: {} } });
  p.handlers.server = () => {};
  p.handshake();
  const bodies: Record<string, JsonObject> = { "tools/list": { tools: [] }, "resources/read": { contents: [{ uri: "file:///a", text: "x" }] } };
  for (const [method, body] of Object.entries(bodies)) {
    for (const [what, hints, expected] of [...LAX_HINTS, ["valid", { ttlMs: 60000, cacheScope: "public" }, { ttlMs: 60000, cacheScope: "public" }] as [string, JsonObject, JsonObject]]) {
      const id = p.request("client", method, method === "resources/read" ? { uri: "file:///a" } : undefined);
      p.dropQueued();
      p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", ...body, ...hints } }));
      assert.deepEqual(p.of("client", "error").filter((e) => e.id === id), [], `${method}, ${what}: not rejected`);
      const res = p.of("client", "response").find((r) => r.id === id)!;
      assert.deepEqual({ ttlMs: res.result.ttlMs, cacheScope: res.result.cacheScope }, expected, `${method}, ${what}`);
    }
  }
  // A result that is not cacheable gets no hints.
  const call = p.request("client", "tools/call", { name: "x" });
  p.dropQueued();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: call, result: { resultType: "complete", content: [] } }));
  assert.equal(p.of("client", "response").find((r) => r.id === call)!.result.ttlMs, undefined);
});

test("caching: Servers MUST provide a ttlMs >= 0: our server refuses its own handler's negative ttlMs (-32603), while the client tolerates one from a peer", () => {
  const p = new Pair({ versions: ERAS.modern }, { versions: ERAS.modern });
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [], ttlMs: -1, cacheScope: "public" });
  p.handshake();
  const id = p.request("client", "tools/list");
  p.run();
  assert.equal(p.of("client", "error").find((e) => e.id === id)?.error.code, ErrorCode.InternalError);
  assert.ok(p.of("server", "diagnostic").some((d) => d.code === "invalid-result"));
});

// ---------------------------------------------------------------------------------------
// No responses from a modern client (draft basic/transports/stdio, streamable-http)

test("stdio: The client MUST NOT write JSON-RPC responses: a modern client drops a server's request (ping, roots/list) and a malformed message unanswered, with a diagnostic", () => {
  const p = new Pair({ versions: ERAS.modern, capabilities: { roots: {} } }, { versions: ERAS.modern });
  p.handshake();
  const before = p.sent("client").length;
  const dropped = [
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 77, method: "ping" })),
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 78, method: "roots/list", params: {} })),
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: "mrtr:0:1:k", method: "ping" })),
  ];
  for (const out of dropped) assert.deepEqual(out.map((o) => o.type === "diagnostic" && o.code), ["server-request-dropped"]);
  assert.deepEqual(p.inject("client", "{not json").filter((o) => o.type === "send"), [], "not even a parse error");
  assert.equal(p.sent("client").length, before, "nothing written");
  assert.equal(p.of("client", "request").length, 0, "the application is not asked");
  assert.equal(p.client.phase.name, "modern", "the connection survives");
  // The session goes on.
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [] });
  p.request("client", "tools/list");
  p.run();
  assert.equal(p.of("client", "response").length, 1);
});

test("stdio Backward Compatibility: while the probe is in flight a dual-era client answers nothing (the server may be modern); after falling back to a legacy session it answers the server's requests as before", () => {
  const p = new Pair({ versions: ERAS.dual, capabilities: { roots: {} } }, { versions: ERAS.legacy });
  p.feed("client", { type: "open", now: 0 });
  p.dropQueued();
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" }));
  assert.deepEqual(out.map((o) => o.type === "diagnostic" && o.code), ["server-request-dropped"]);
  assert.equal(p.client.phase.name, "probing");
  // The legacy server's answer to the probe: fall back, then run the handshake.
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: ErrorCode.MethodNotFound, message: "Method not found" } }));
  p.run();
  assert.equal(p.client.phase.name, "operating");
  const ping = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping" }));
  assert.deepEqual(ping.filter((o) => o.type === "send").map((o: any) => o.message), [{ jsonrpc: "2.0", id: 6, result: {} }]);
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "roots/list" }));
  assert.equal(p.of("client", "request").at(-1)!.method, "roots/list", "the application serves it");
});

test("draft ClientCapabilities: roots is {} (no roots/list_changed in the modern era): a modern request's clientCapabilities drop roots.listChanged; a legacy initialize keeps it", () => {
  const caps = { roots: { listChanged: true }, elicitation: {} };
  const p = new Pair({ versions: ERAS.dual, capabilities: caps }, { versions: ERAS.modern });
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [] });
  p.handshake();
  p.request("client", "tools/list");
  p.run();
  for (const m of p.sent("client") as any[]) assert.deepEqual(m.params._meta["io.modelcontextprotocol/clientCapabilities"], { roots: {}, elicitation: {} }, m.method);
  assert.deepEqual(caps.roots, { listChanged: true }, "the application's object is untouched");
  const legacy = new Pair({ versions: ERAS.legacy, capabilities: caps }, { versions: ERAS.legacy });
  legacy.handshake();
  assert.deepEqual((legacy.sent("client")[0] as any).params.capabilities.roots, { listChanged: true });
});
