// The kernel's purity promise (README "What it is": `step(state, input) → { state, outputs }`,
// every input carries `now`, the state is plain JSON changed only through `step`, nothing
// throws across the boundary, runs are "recorded and replayed bit for bit"), held against
// what an application does between steps: edit an object it handed in, or one it was handed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { createSession, step } from "../../src/session/session.js";
import { nextDeadline } from "../../src/session/timeouts.js";
import { recordingSession, replay } from "../../src/session/transcript.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import type { SessionInput, SessionOptions, SessionOutput, SessionState } from "../../src/session/types.js";

const MODERN = ["2026-07-28" as const];
const PV = "io.modelcontextprotocol/protocolVersion";
const CC = "io.modelcontextprotocol/clientCapabilities";
const FORM = { mode: "form", message: "confirm?", requestedSchema: { type: "object", properties: {} } };
const snapshot = (s: SessionState): string => JSON.stringify(s);

test("README (state changes only through step) + draft basic/patterns/mrtr: the retry carries the params the call went out with, though the application edited its object after the call", () => {
  const p = new Pair({ versions: MODERN, capabilities: { elicitation: {} } }, { versions: MODERN });
  const seen: unknown[] = [];
  p.handlers.server = (req, pair) => {
    const params = req.params as JsonObject;
    seen.push(params.arguments);
    if (seen.length === 1) pair.respond("server", req.id, { resultType: "input_required", inputRequests: { ok: { method: "elicitation/create", params: FORM } }, requestState: "s1" });
    else pair.respond("server", req.id, { content: [{ type: "text", text: "done" }] });
  };
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { action: "accept", content: {} });
  p.handshake();
  const args = { amount: 1 };
  p.request("client", "tools/call", { name: "transfer", arguments: args });
  args.amount = 1000; // the application reuses its object once the call is made
  p.run();
  assert.deepEqual(seen, [{ amount: 1 }, { amount: 1 }], "the retry MUST repeat the original request, as it went out");
  assert.deepEqual(p.of("client", "error"), []);
  assert.equal(p.of("client", "response").length, 1);
});

test("README (state changes only through step) + draft basic/patterns/mrtr: an input answer waiting for the round's other answers is kept as given, though the application edits it", () => {
  const p = new Pair({ versions: MODERN, capabilities: { elicitation: {}, roots: {} } }, { versions: MODERN });
  const seen: unknown[] = [];
  p.handlers.server = (req, pair) => {
    seen.push((req.params as JsonObject).inputResponses);
    if (seen.length === 1) pair.respond("server", req.id, { resultType: "input_required", inputRequests: { a: { method: "elicitation/create", params: FORM }, b: { method: "roots/list" } } });
    else pair.respond("server", req.id, { content: [] });
  };
  const asked: { id: string | number; method: string }[] = [];
  p.handlers.client = (req) => void asked.push({ id: req.id, method: req.method });
  p.handshake();
  p.request("client", "tools/call", { name: "x" });
  p.run();
  const answer = { action: "accept", content: { v: "yes" } };
  p.respond("client", asked[0].id, answer);
  answer.content.v = "edited"; // while b is still unanswered
  p.respond("client", asked[1].id, { roots: [] });
  p.run();
  assert.deepEqual(seen[1], { a: { action: "accept", content: { v: "yes" } }, b: { roots: [] } });
});

test("README (state changes only through step) + 2025-11-25 basic/lifecycle: the initialized event's peer is the application's; editing it leaves the negotiated capabilities alone", () => {
  const p = new Pair({ capabilities: { elicitation: {} } });
  p.handshake();
  const serverEvent = p.of("server", "initialized")[0];
  delete (serverEvent.peer.capabilities as JsonObject).elicitation;
  const out = p.feed("server", { type: "request", now: 0, method: "elicitation/create", params: FORM });
  assert.equal(sendsOf(out)[0]?.method, "elicitation/create", "the client declared elicitation in initialize");
  const clientEvent = p.of("client", "initialized")[0];
  delete (clientEvent.peer.capabilities as JsonObject).tools;
  const call = p.feed("client", { type: "request", now: 0, method: "tools/call", params: { name: "x" } });
  assert.equal(sendsOf(call)[0]?.method, "tools/call", "the server declared tools in its initialize result");
});

test("README (state changes only through step) + draft server/discover: a modern client's initialized peer is the application's; editing it leaves what discovery found alone", () => {
  const p = new Pair({ versions: MODERN }, { versions: MODERN });
  p.handshake();
  const ev = p.of("client", "initialized")[0];
  delete (ev.peer.capabilities as JsonObject).tools;
  const call = p.feed("client", { type: "request", now: 0, method: "tools/call", params: { name: "x" } });
  assert.equal(sendsOf(call)[0]?.method, "tools/call");
});

test("README (state changes only through step) + draft basic/index (_meta clientCapabilities): the server keeps its own copy of a request's client capabilities; the handler editing its params changes nothing", () => {
  const p = new Pair({ versions: MODERN, capabilities: { elicitation: {} } }, { versions: MODERN });
  let calls = 0;
  p.handlers.server = (req, pair) => {
    const meta = (req.params as JsonObject)._meta as JsonObject;
    delete (meta[CC] as JsonObject).elicitation; // the handler tidies "its" params
    if (++calls === 1) pair.respond("server", req.id, { resultType: "input_required", inputRequests: { ok: { method: "elicitation/create", params: FORM } } });
    else pair.respond("server", req.id, { content: [] });
  };
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { action: "accept", content: {} });
  p.handshake();
  p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.deepEqual(p.of("client", "error"), [], "the request declared elicitation: no -32021");
  assert.equal(calls, 2);
});

test("README (state changes only through step): the session keeps copies of its options and of declared capabilities", () => {
  const capabilities = { tools: {} as JsonObject };
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities, versions: MODERN });
  const discover = () => sendsOf(step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { [PV]: "2026-07-28", [CC]: {} } } }) }).outputs)[0].result.capabilities;
  capabilities.tools.listChanged = true;
  assert.deepEqual(discover(), { tools: {} }, "an edit of the options object after createSession");
  const declared = { tools: {} as JsonObject, prompts: {} };
  step(s, { type: "declare", now: 0, capabilities: declared });
  declared.tools.listChanged = true;
  assert.deepEqual(discover(), { tools: {}, prompts: {} }, "an edit of a declare input's object after the step");
  const first = discover();
  (first.tools as JsonObject).listChanged = true;
  assert.deepEqual(discover(), { tools: {}, prompts: {} }, "an edit of a discover result the session sent");
});

test("README (state changes only through step) + draft basic/patterns/subscriptions: the acknowledgment's filter is a copy of the one the session keeps", () => {
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: { listChanged: true } }, versions: MODERN });
  const listen = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { _meta: { [PV]: "2026-07-28", [CC]: {} }, notifications: { toolsListChanged: true } } });
  const ack = sendsOf(step(s, { type: "receive", now: 0, data: listen }).outputs)[0];
  ack.params.notifications.toolsListChanged = false;
  const note = sendsOf(step(s, { type: "changed", now: 0, what: "tools" }).outputs)[0];
  assert.equal(note?.method, "notifications/tools/list_changed");
});

test("README (nothing throws across the boundary): what the session would keep but has no JSON form is refused with an error, and the session goes on", () => {
  const p = new Pair({ versions: MODERN, capabilities: { elicitation: {}, roots: {} } }, { versions: MODERN });
  p.handshake();
  const id = p.request("client", "tools/call", { name: "x", arguments: { n: 10n } as unknown as JsonObject });
  const refused = p.of("client", "error").find((e) => e.id === id);
  assert.equal(refused?.error.code, ErrorCode.InvalidParams, "kept for an MRTR retry: refused before it goes out");
  assert.equal(p.client.outboundCount, 0);

  p.handlers.server = (req, pair) => {
    if ((req.params as JsonObject).inputResponses === undefined) pair.respond("server", req.id, { resultType: "input_required", inputRequests: { a: { method: "roots/list" }, b: { method: "roots/list" } } });
    else pair.respond("server", req.id, { content: [] });
  };
  const call = p.request("client", "tools/call", { name: "x" });
  p.run();
  const asked = p.of("client", "request");
  p.respond("client", asked[0].id, { roots: [], n: 1n } as unknown as JsonObject);
  const failed = p.of("client", "error").find((e) => e.id === call);
  assert.equal(failed?.error.code, ErrorCode.InternalError, "an input answer with no JSON form fails the call");
  assert.deepEqual(p.client.mrtr, {});

  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: {}, versions: MODERN });
  const out = step(s, { type: "declare", now: 0, capabilities: { tools: { n: 1n } } as unknown as JsonObject }).outputs;
  assert.equal(out[0].type === "diagnostic" && out[0].code, "declare-refused");
  assert.deepEqual(s.options.capabilities, {});
  assert.equal(p.client.phase.name, "modern");
});

test("README (every input carries now): a missing, null or string now is refused like NaN, as is one past ±(2^53−1) (a timeout added to 1e300 changes nothing: every request would time out at once), and no deadline takes it", () => {
  for (const now of [undefined, null, "12", 1e300, -(2 ** 53)]) {
    const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, keepAliveMs: 1000 });
    const before = snapshot(c);
    const out = step(c, { type: "open", now } as unknown as SessionInput).outputs;
    assert.deepEqual(out, [{ type: "diagnostic", code: "input-refused", message: "now must be a finite number within ±(2^53−1)", detail: { type: "open" } }], `open, now ${JSON.stringify(now)}`);
    assert.equal(snapshot(c), before);
    assert.equal(nextDeadline(c), null);

    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} }, progressIntervalMs: 100 });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
    step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", _meta: { progressToken: "p" } } }) });
    const held = snapshot(s);
    for (const input of [{ type: "progress", id: 1, progress: 1 }, { type: "respond", id: 1, result: { content: [] } }, { type: "tick" }]) {
      const o = step(s, { ...input, now } as unknown as SessionInput).outputs;
      assert.deepEqual(o, [{ type: "diagnostic", code: "input-refused", message: "now must be a finite number within ±(2^53−1)", detail: { type: input.type } }], `${input.type}, now ${JSON.stringify(now)}`);
      assert.equal(snapshot(s), held);
    }
  }
});

/** A server session recording itself, with tools/call id 1 waiting for its answer. */
function recordedServer() {
  const rec = recordingSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
  rec.step({ type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
  rec.step({ type: "receive", now: 1, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  rec.step({ type: "receive", now: 2, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }) });
  return rec;
}

test("README (nothing throws across the boundary; recorded and replayed bit for bit): recordingSession refuses an input with no JSON form instead of throwing after the step", () => {
  const cyclic: JsonObject = { content: [] };
  cyclic.self = cyclic;
  for (const result of [{ content: [], n: 10n } as unknown as JsonObject, cyclic]) {
    const rec = recordedServer();
    const lines = rec.text();
    let out: SessionOutput[] = [];
    assert.doesNotThrow(() => (out = rec.step({ type: "respond", now: 3, id: 1, result })));
    assert.equal(out.length, 1);
    assert.equal(out[0].type === "diagnostic" && out[0].code, "input-refused");
    assert.deepEqual(Object.keys(rec.state.inbound), ["1"], "the refused input changed nothing");
    assert.equal(rec.text(), lines, "and is not recorded");
    const ok = rec.step({ type: "respond", now: 4, id: 1, result: { content: [] } });
    assert.equal(sendsOf(ok)[0].id, 1);
    assert.deepEqual(replay(rec.text()), { ok: true, steps: 4 });
  }
});

test("README (recorded and replayed bit for bit): an input refused for its now replays as refused (NaN and Infinity are written as null)", () => {
  for (const now of [NaN, Infinity]) {
    const rec = recordedServer();
    const out = rec.step({ type: "respond", now, id: 1, result: { content: [] } });
    assert.equal(out[0].type === "diagnostic" && out[0].code, "input-refused");
    rec.step({ type: "tick", now });
    rec.step({ type: "respond", now: 5, id: 1, result: { content: [] } });
    assert.deepEqual(replay(rec.text()), { ok: true, steps: 6 });
  }
});

test("README (kernel API: options a session cannot use fall back to their defaults): keepAliveMs as a string pinged every millisecond, a NaN requestTimeoutMs timed every request out at once; both now take the defaults, and the state stays numbers", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, keepAliveMs: "30000", requestTimeoutMs: NaN, maxDepth: 2.5, resetTimeoutOnProgress: "no", cacheScope: "shared" } as unknown as SessionOptions);
  assert.equal(c.options.keepAliveMs, 0);
  assert.equal(c.options.requestTimeoutMs, 60_000);
  assert.equal(c.options.maxDepth, 64);
  assert.equal(c.options.resetTimeoutOnProgress, true);
  assert.equal(c.options.cacheScope, "private");
  const p = new Pair({ keepAliveMs: "1000", requestTimeoutMs: NaN } as unknown as Partial<SessionOptions>, {});
  p.handshake();
  p.handlers.server = () => {};
  p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.equal(nextDeadline(p.client), 60_000 + p.now, "the default timeout, not NaN or a string");
  p.advance(59_999);
  assert.equal(p.of("client", "error").length, 0, "not timed out early");
  assert.equal(p.sent("client").filter((m) => "method" in m && m.method === "ping").length, 0, "no keep-alive from a malformed keepAliveMs");
});


test("README (the state is plain JSON; a field the kernel cannot use is never misread) + 2025-11-25 basic/utilities/cancellation (reason is a string): a cancel or closed input whose reason is not a string (an AbortSignal's DOMException, an Error, bytes, a close code) is taken as its text: the notifications/cancelled went out with reason {}, which the peer dropped as malformed and so kept working, the error event's message was no string, and a closed session's phase held the object", () => {
  const initRes = { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } };
  const client = () => {
    const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
    step(c, { type: "open", now: 0 });
    step(c, { type: "receive", now: 0, data: JSON.stringify(initRes) });
    step(c, { type: "request", now: 1, method: "tools/call", params: { name: "x" } });
    return c;
  };
  const aborted = new AbortController();
  aborted.abort();
  const cases: [unknown, string][] = [[aborted.signal.reason, "This operation was aborted"], [new Error("boom"), "boom"], [new TextEncoder().encode("bye"), "98,121,101"], [1006, "1006"]];
  for (const [reason, text] of cases) {
    const c = client();
    const out = step(c, { type: "cancel", now: 2, id: 1, reason } as unknown as SessionInput).outputs;
    const note = sendsOf(out)[0];
    assert.deepEqual(note, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: text } }, text);
    const error = out.find((o) => o.type === "error") as Extract<SessionOutput, { type: "error" }>;
    assert.equal(error.error.message, text);
    // The peer takes the cancellation (it dropped the one with reason {} as malformed).
    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
    step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    step(s, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }) });
    assert.deepEqual(step(s, { type: "receive", now: 2, data: JSON.stringify(note) }).outputs, [{ type: "cancelled", id: 1, reason: text }]);

    const closing = client();
    const closed = step(closing, { type: "closed", now: 2, reason } as unknown as SessionInput).outputs;
    assert.equal(closing.phase.name === "closed" && closing.phase.reason, text);
    assert.equal((closed.find((o) => o.type === "error") as Extract<SessionOutput, { type: "error" }>).error.message, `connection closed: ${text}`);
    assert.deepStrictEqual(JSON.parse(snapshot(closing)), closing, "the closed state is plain JSON");
  }
});

test("README (input-refused: a field of the wrong type is refused and changes nothing; the connection survives bad input): a respond, cancel, progress or end-subscription input whose id is no request id (a symbol, an object with no string form, a NaN or an infinity, which no JSON has) is refused; its table lookup threw and the session closed with an internal error, and a NaN went out in outputs", () => {
  for (const id of [Symbol("x"), Object.create(null), NaN, Infinity]) {
    for (const input of [{ type: "respond", result: {} }, { type: "cancel" }, { type: "progress", progress: 1 }, { type: "end-subscription" }]) {
      const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
      step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
      step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
      const before = snapshot(s);
      const out = step(s, { ...input, now: 1, id } as unknown as SessionInput).outputs;
      assert.deepEqual(out, [{ type: "diagnostic", code: "input-refused", message: "id must be a request id (a string or a finite number)", detail: { type: input.type } }], input.type);
      assert.equal(s.phase.name, "operating", input.type);
      assert.equal(snapshot(s), before, input.type);
    }
  }
});

test("README (input-refused: a field of the wrong type is refused and changes nothing; the connection survives bad input): a notify or log input whose related is no request id (a symbol, an object with no string form) is refused, and a request input with one fails with -32602; its table lookup threw and the session closed with an internal error", () => {
  const operating = () => {
    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: { listChanged: true }, logging: {} } });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
    step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    return s;
  };
  for (const related of [Symbol("x"), Object.create(null), NaN]) {
    for (const input of [{ type: "notify", method: "notifications/tools/list_changed" }, { type: "log", level: "info", data: "x" }]) {
      const s = operating();
      const before = snapshot(s);
      const out = step(s, { ...input, now: 1, related } as unknown as SessionInput).outputs;
      assert.deepEqual(out, [{ type: "diagnostic", code: "input-refused", message: "related must be a request id (a string or a finite number)", detail: { type: input.type } }], input.type);
      assert.equal(snapshot(s), before, input.type);
    }
    const s = operating();
    const out = step(s, { type: "request", now: 1, method: "ping", related } as unknown as SessionInput).outputs;
    assert.deepEqual(out.map((o) => (o.type === "error" ? o.error.code : o.type)), [ErrorCode.InvalidParams]);
    assert.equal(s.phase.name, "operating");
  }
});

test("README (input-refused: a field of the wrong type is refused and changes nothing; the kernel never throws across its boundary): a notify or request input whose method is no string (a symbol, an object whose toString throws) is refused, a request with -32602; putting it into the refusal's text threw and the session closed with an internal error", () => {
  const operating = () => {
    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: { listChanged: true }, logging: {} } });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: { name: "c", version: "1" } } }) });
    step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    return s;
  };
  const unprintable = { toString(): string { throw new Error("no text"); } };
  for (const method of [Symbol("m"), unprintable, 5]) {
    let s = operating();
    const before = snapshot(s);
    const out = step(s, { type: "notify", now: 1, method, params: {} } as unknown as SessionInput).outputs;
    assert.deepEqual(out, [{ type: "diagnostic", code: "input-refused", message: "method must be a string", detail: { type: "notify" } }]);
    assert.equal(snapshot(s), before);
    s = operating();
    const refused = step(s, { type: "request", now: 1, method, params: {} } as unknown as SessionInput).outputs;
    assert.deepEqual(refused.map((o) => (o.type === "error" ? [o.error.code, o.method] : o.type)), [[ErrorCode.InvalidParams, ""]]);
    assert.equal(s.phase.name, "operating");
    assert.doesNotThrow(() => JSON.stringify(refused));
  }
});

test("README (input-refused: a field of the wrong type is refused and changes nothing; the connection survives bad input) + draft basic/patterns/subscriptions: a changed input for a resource without a string uri, or for a task without a string taskId and an object task, is refused; a missing uri threw in the subscription match and closed every session subscribed to a resource, and a task given as text went out as notifications/tasks params spread from it", () => {
  const TASKS = "io.modelcontextprotocol/tasks";
  const listening = () => {
    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { resources: { subscribe: true }, extensions: { [TASKS]: {} } }, versions: MODERN });
    const meta = { [PV]: "2026-07-28", [CC]: { extensions: { [TASKS]: {} } }, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
    step(s, { type: "receive", now: 0, value: { jsonrpc: "2.0", id: "L", method: "subscriptions/listen", params: { _meta: meta, notifications: { taskIds: ["t1"], resourceSubscriptions: ["file:///a"] } } } });
    return s;
  };
  const legacy = () => {
    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { resources: { subscribe: true } } });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
    step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a"}}' });
    step(s, { type: "respond", now: 0, id: 1, result: {} });
    return s;
  };
  const bad: [string, object][] = [
    ["a changed resource needs its uri (a string)", { what: "resource" }],
    ["a changed resource needs its uri (a string)", { what: "resource", uri: null }],
    ["a changed resource needs its uri (a string)", { what: "resource", uri: 5 }],
    ["a changed task needs its taskId (a string) and task (an object)", { what: "task", taskId: "t1", task: "working" }],
    ["a changed task needs its taskId (a string) and task (an object)", { what: "task", taskId: "t1" }],
    ["a changed task needs its taskId (a string) and task (an object)", { what: "task", taskId: 1, task: {} }],
  ];
  for (const make of [listening, legacy]) {
    for (const [message, change] of bad) {
      const s = make();
      const phase = s.phase.name;
      const before = snapshot(s);
      const out = step(s, { type: "changed", now: 1, ...change } as unknown as SessionInput).outputs;
      assert.deepEqual(out, [{ type: "diagnostic", code: "input-refused", message, detail: { type: "changed" } }], JSON.stringify(change));
      assert.equal(s.phase.name, phase);
      assert.equal(snapshot(s), before);
    }
    // A well-formed change still reaches the subscriber.
    const s = make();
    assert.equal(sendsOf(step(s, { type: "changed", now: 1, what: "resource", uri: "file:///a" }).outputs)[0]?.method, "notifications/resources/updated");
  }
});

test("README (kernel API: an optional field of an input given as undefined is one left out): every input with optional fields steps exactly as without them, state and outputs", () => {
  const server = (): SessionState => {
    const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {}, logging: {} } });
    step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } } }) });
    step(s, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    step(s, { type: "receive", now: 2, data: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x", _meta: { progressToken: 1 } } }) });
    return s;
  };
  const client = (): SessionState => {
    const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
    step(c, { type: "open", now: 0 });
    step(c, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }) });
    step(c, { type: "request", now: 2, method: "tools/call", params: { name: "x" } });
    return c;
  };
  const cases: Array<[() => SessionState, SessionInput, Record<string, undefined>]> = [
    [server, { type: "respond", now: 3, id: 2, result: { content: [] } }, { error: undefined }],
    [server, { type: "respond", now: 3, id: 2, error: { code: -32602, message: "x" } }, { result: undefined }],
    [server, { type: "progress", now: 3, id: 2, progress: 1 }, { total: undefined, message: undefined }],
    [server, { type: "log", now: 3, level: "info", data: "d" }, { logger: undefined, related: undefined, meta: undefined }],
    [server, { type: "notify", now: 3, method: "notifications/tools/list_changed" }, { params: undefined, related: undefined }],
    [server, { type: "request", now: 3, method: "elicitation/create", params: { message: "m", requestedSchema: { type: "object", properties: {} } } }, { timeoutMs: undefined, progress: undefined, related: undefined, logLevel: undefined }],
    [server, { type: "task-progress", now: 3, token: "t", progress: 1 }, { total: undefined, message: undefined, meta: undefined }],
    [server, { type: "closed", now: 3 }, { reason: undefined }],
    [client, { type: "cancel", now: 3, id: 1 }, { reason: undefined }],
    [client, { type: "request", now: 3, method: "tools/list" }, { params: undefined, timeoutMs: undefined, progress: undefined, related: undefined, logLevel: undefined }],
    [client, { type: "receive", now: 3, data: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }) }, { value: undefined, local: undefined }],
  ];
  for (const [make, input, undefinedFields] of cases) {
    const a = make();
    const b = make();
    const without = step(a, input).outputs;
    const withUndefined = step(b, { ...input, ...undefinedFields } as SessionInput).outputs;
    assert.deepEqual(withUndefined, without, `${input.type} with ${Object.keys(undefinedFields).join(", ")} undefined`);
    assert.deepEqual(b, a);
  }
});
