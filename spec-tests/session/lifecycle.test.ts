// Spec: 2025-11-25 basic/lifecycle — initialization, version negotiation, capability negotiation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { createSession, step } from "../../src/session/session.js";
import { nextDeadline } from "../../src/session/timeouts.js";
import { nextPhase, TRANSITIONS } from "../../src/session/lifecycle.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { LEGACY_VERSIONS, type LegacyVersion } from "../../src/model/versions.js";

const init = (version: string, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } } });

const freshServer = (versions?: LegacyVersion[] | ("2026-07-28")[]) =>
  createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} }, ...(versions ? { versions: versions as never } : {}) });

test("lifecycle: the client MUST initiate with initialize carrying protocolVersion, capabilities and clientInfo; then MUST send initialized", () => {
  const p = new Pair({ capabilities: { roots: { listChanged: true } } });
  p.handshake();
  const [req, note] = p.sent("client") as any[];
  assert.equal(req.method, "initialize");
  assert.equal(req.params.protocolVersion, "2025-11-25");
  assert.deepEqual(req.params.capabilities, { roots: { listChanged: true } });
  assert.equal(req.params.clientInfo.name, "test-client");
  assert.equal(note.method, "notifications/initialized");
  assert.equal(p.client.phase.name, "operating");
  assert.equal(p.server.phase.name, "operating");
  assert.equal(p.of("client", "initialized")[0].version, "2025-11-25");
  assert.deepEqual(p.of("server", "initialized")[0].peer.capabilities, { roots: { listChanged: true } });
});

test("lifecycle: the server MUST respond with its own capabilities and information (and instructions)", () => {
  const p = new Pair({}, { capabilities: { tools: { listChanged: true }, logging: {} }, instructions: "be nice" });
  p.handshake();
  const res = p.sent("server")[0] as any;
  assert.deepEqual(res.result, { protocolVersion: "2025-11-25", capabilities: { tools: { listChanged: true }, logging: {} }, serverInfo: { name: "test-server", version: "1.0.0" }, instructions: "be nice" });
  assert.equal(p.of("client", "initialized")[0].peer.instructions, "be nice");
});

for (const version of LEGACY_VERSIONS) {
  test(`lifecycle: if the server supports the requested version (${version}) it MUST respond with the same version`, () => {
    const p = new Pair({ versions: [version] });
    p.handshake();
    assert.equal((p.sent("server")[0] as any).result.protocolVersion, version);
    assert.equal(p.client.phase.name, "operating");
    assert.equal((p.client.phase as any).version, version);
  });
}

test("lifecycle: an unsupported requested version gets another version the server supports, its latest", () => {
  const s = freshServer();
  const replies = sendsOf(step(s, { type: "receive", now: 0, data: init("1999-01-01") }).outputs);
  assert.equal(replies[0].result.protocolVersion, "2025-11-25");
  const s2 = freshServer(["2025-06-18", "2025-03-26"]);
  assert.equal(sendsOf(step(s2, { type: "receive", now: 0, data: init("2025-11-25") }).outputs)[0].result.protocolVersion, "2025-06-18");
});

test("lifecycle: downgrade — a client that speaks only 2025-03-26 and a 2025-11-25 server settle on 2025-03-26", () => {
  const p = new Pair({ versions: ["2025-03-26"] });
  p.handshake();
  assert.equal((p.server.phase as any).version, "2025-03-26");
  assert.equal((p.client.phase as any).version, "2025-03-26");
});

test("lifecycle: if the client does not support the version in the server's response it SHOULD disconnect (error output and close)", () => {
  const p = new Pair({ versions: ["2025-11-25"] }, { versions: ["2025-06-18"] });
  p.handshake();
  assert.equal(p.client.phase.name, "closed");
  assert.match(p.closedBy.client!, /2025-06-18/);
  // No initialized notification went out.
  assert.equal(p.sent("client").length, 1);
});

test("lifecycle: a client fails cleanly when initialize is answered with an error", () => {
  const p = new Pair({}, { versions: ["2026-07-28"] as never });
  p.handshake();
  assert.equal(p.client.phase.name, "closed");
  const err = p.sent("server")[0] as any;
  // versioning: a modern-only server SHOULD name the versions it supports in its error to initialize.
  assert.equal(err.error.code, ErrorCode.UnsupportedProtocolVersion);
  assert.deepEqual(err.error.data.supported, ["2026-07-28"]);
});

test("lifecycle: the client SHOULD NOT send requests other than pings before the server has responded", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
  step(c, { type: "open", now: 0 });
  const out = step(c, { type: "request", now: 0, method: "tools/list" }).outputs;
  assert.equal(out[0].type, "error");
  assert.equal((out[0] as any).error.code, ErrorCode.InvalidRequest);
  const ping = step(c, { type: "request", now: 0, method: "ping" }).outputs;
  assert.equal(ping[0].type, "send");
});

test("lifecycle: initialization MUST be the first interaction — a client sends nothing, a ping neither, before its initialize (or the modern probe)", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
  for (const method of ["ping", "tools/list"]) {
    const out = step(c, { type: "request", now: 0, method }).outputs;
    assert.deepEqual(out.map((o) => o.type), ["error"], method);
    assert.equal((out[0] as any).error.code, ErrorCode.InvalidRequest, method);
  }
  assert.equal(c.phase.name, "new");
  // Opened, the initialize goes out first; only then may a ping follow it.
  const opened = sendsOf(step(c, { type: "open", now: 0 }).outputs);
  assert.equal(opened[0].method, "initialize");
  assert.equal(sendsOf(step(c, { type: "request", now: 0, method: "ping" }).outputs)[0].method, "ping");
});

test("lifecycle: initialization MUST be the first interaction — a server refuses other requests before initialize, but answers ping", () => {
  const s = freshServer();
  const r = sendsOf(step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }) }).outputs);
  assert.equal(r[0].id, 7);
  assert.equal(r[0].error.code, ErrorCode.InvalidRequest);
  const ping = sendsOf(step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" }) }).outputs);
  assert.deepEqual(ping[0], { jsonrpc: "2.0", id: 8, result: {} });
  assert.equal(s.phase.name, "new");
});

test("lifecycle: a second initialize is an error and leaves the session as it was", () => {
  const p = new Pair();
  p.handshake();
  const out = sendsOf(p.inject("server", init("2025-11-25", 99)));
  assert.equal(out[0].id, 99);
  assert.equal(out[0].error.code, ErrorCode.InvalidRequest);
  assert.equal(p.server.phase.name, "operating");
});

test("lifecycle: invalid initialize params get -32602 and the server stays uninitialized", () => {
  const s = freshServer();
  const r = sendsOf(step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } }) }).outputs);
  assert.equal(r[0].error.code, ErrorCode.InvalidParams);
  assert.equal(s.phase.name, "new");
});

test("lifecycle: the server SHOULD NOT send requests other than pings and logging before receiving initialized", () => {
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { logging: {} } });
  step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "c", version: "1" } } }) });
  assert.equal(s.phase.name, "awaiting-initialized");
  const roots = step(s, { type: "request", now: 0, method: "roots/list" }).outputs;
  assert.equal(roots[0].type, "error");
  assert.equal(step(s, { type: "request", now: 0, method: "ping" }).outputs[0].type, "send");
  assert.equal(step(s, { type: "log", now: 0, level: "info", data: "hello" }).outputs[0].type, "send");
});

test("2025-03-26 basic/index: implementations MUST support receiving JSON-RPC batches — also one that carries notifications/initialized (only initialize MUST NOT be in a batch)", () => {
  const s = freshServer(["2025-03-26"]);
  step(s, { type: "receive", now: 0, data: init("2025-03-26") });
  assert.equal(s.phase.name, "awaiting-initialized");
  const batch = [{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 2, method: "ping" }];
  const out = step(s, { type: "receive", now: 0, data: JSON.stringify(batch) }).outputs;
  // In order: the batch is marked (its answers a driver may gather into one array), the
  // session is initialized, then the ping is answered.
  assert.deepEqual(out.map((o) => o.type), ["batch", "initialized", "send"]);
  assert.deepEqual(sendsOf(out), [{ jsonrpc: "2.0", id: 2, result: {} }]);
  assert.equal(s.phase.name, "operating");
  // A batch is still refused before initialize (so initialize never arrives in one), and under 2025-06-18.
  const fresh = freshServer(["2025-03-26"]);
  const refused = sendsOf(step(fresh, { type: "receive", now: 0, data: `[${init("2025-03-26")}]` }).outputs);
  assert.equal(refused[0].id, null);
  assert.equal(refused[0].error.code, ErrorCode.InvalidRequest);
  assert.equal(fresh.phase.name, "new");
  const later = freshServer(["2025-06-18"]);
  step(later, { type: "receive", now: 0, data: init("2025-06-18") });
  assert.equal(sendsOf(step(later, { type: "receive", now: 0, data: JSON.stringify(batch) }).outputs)[0].error.code, ErrorCode.InvalidRequest);
  assert.equal(later.phase.name, "awaiting-initialized");
});

test("2025-03-26 basic/index (JSON-RPC 2.0 §6): a batch member too deep gets its own -32600 with its id, and the batch's other requests are still answered; the session serves on (found by review: the whole batch got one id-less -32600)", { timeout: 5000 }, () => {
  const s = freshServer(["2025-03-26"]);
  step(s, { type: "receive", now: 0, data: init("2025-03-26") });
  step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  let params: object = {};
  for (let i = 0; i < 70; i++) params = { a: params };
  const batch = [{ jsonrpc: "2.0", id: 11, method: "ping", params }, { jsonrpc: "2.0", id: 12, method: "ping" }];
  const sends = sendsOf(step(s, { type: "receive", now: 0, data: JSON.stringify(batch) }).outputs);
  assert.equal(sends.length, 2);
  assert.equal(sends[0].id, 11);
  assert.equal(sends[0].error.code, ErrorCode.InvalidRequest);
  assert.match(sends[0].error.message, /maxDepth/);
  assert.deepEqual(sends[1], { jsonrpc: "2.0", id: 12, result: {} });
  assert.equal(s.phase.name, "operating");
});

test("2025-03-26 basic/index: a batch of more than MAX_BATCH_MESSAGES gets one -32600 (no id) instead of an error reply per member, and the session serves on (found by review: 3 MB of {} drew a million replies)", { timeout: 10_000 }, () => {
  const s = freshServer(["2025-03-26"]);
  step(s, { type: "receive", now: 0, data: init("2025-03-26") });
  step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  const sends = sendsOf(step(s, { type: "receive", now: 0, data: `[${Array(100_000).fill("{}").join(",")}]` }).outputs);
  assert.equal(sends.length, 1);
  assert.equal(sends[0].id, null);
  assert.equal(sends[0].error.code, ErrorCode.InvalidRequest);
  assert.match(sends[0].error.message, /more than 1024 messages/);
  assert.deepEqual(sendsOf(step(s, { type: "receive", now: 0, data: JSON.stringify([{ jsonrpc: "2.0", id: 2, method: "ping" }]) }).outputs), [{ jsonrpc: "2.0", id: 2, result: {} }]);
});

test("2025-03-26 transports (the responses to a POST \"MAY be batched\"): a client that asked for 2025-03-26 reads its initialize result in a batch; one that asked for a later version still refuses it (lifecycle bans only the initialize request from a batch)", () => {
  for (const version of ["2025-03-26", "2025-06-18"] as const) {
    const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: [version] });
    const id = (sendsOf(step(c, { type: "open", now: 0 }).outputs)[0] as any).id;
    const result = { protocolVersion: version, capabilities: {}, serverInfo: { name: "s", version: "1" } };
    const out = step(c, { type: "receive", now: 0, data: JSON.stringify([{ jsonrpc: "2.0", id, result }]) }).outputs;
    if (version === "2025-03-26") {
      assert.equal(c.phase.name, "operating");
      assert.deepEqual(sendsOf(out), [{ jsonrpc: "2.0", method: "notifications/initialized" }]);
    } else {
      assert.equal(c.phase.name, "closed");
      assert.match((c.phase as { reason: string }).reason, /batches are not supported by this protocol version/);
    }
  }
});

test("lifecycle: only successfully negotiated capabilities may be used — undeclared server capability refused both ways", () => {
  const p = new Pair({}, { capabilities: { tools: {} } });
  p.handshake();
  // Sending side refuses: the server did not declare prompts.
  const out = p.feed("client", { type: "request", now: 0, method: "prompts/list" });
  assert.equal(out[0].type, "error");
  assert.equal((out[0] as any).error.code, ErrorCode.MethodNotFound);
  // Receiving side refuses too and never hands it to the application.
  const r = sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 50, method: "prompts/list" })));
  assert.equal(r[0].error.code, ErrorCode.MethodNotFound);
  assert.equal(p.of("server", "request").length, 0);
});

test("lifecycle: only negotiated capabilities may be used — but 2024-11-05 has no completions capability (2025-03-26 changelog: \"Added `completions` capability\"), so completion/complete is not gated there, either way", () => {
  const complete = { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "x" } };
  for (const [version, gated] of [["2024-11-05", false], ["2025-03-26", true]] as const) {
    const p = new Pair({ versions: [version] }, { capabilities: { prompts: {} } });
    p.handshake();
    const sent = p.feed("client", { type: "request", now: 0, method: "completion/complete", params: complete });
    assert.equal(sent[0].type, gated ? "error" : "send", version);
    const r = p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 51, method: "completion/complete", params: complete }));
    if (gated) assert.equal(sendsOf(r)[0].error.code, ErrorCode.MethodNotFound, version);
    else assert.deepEqual(r.map((o) => o.type), ["request"], version);
  }
});

test("lifecycle: the transition table is closed — every pair not listed is refused", () => {
  for (const role of ["client", "server"] as const) {
    for (const phase of ["new", "initializing", "awaiting-initialized", "operating", "closed"] as const) {
      for (const ev of ["open", "initialize", "initialize-result", "initialize-failed", "initialized", "close"] as const) {
        const listed = TRANSITIONS[role][phase]?.[ev];
        assert.equal(nextPhase(role, phase, ev), listed);
      }
    }
  }
  assert.equal(nextPhase("server", "operating", "initialize"), undefined);
  assert.equal(nextPhase("client", "closed", "open"), undefined);
});

test("lifecycle: open on a server, or twice on a client, is ignored with a diagnostic", () => {
  const s = freshServer();
  assert.equal(step(s, { type: "open", now: 0 }).outputs[0].type, "diagnostic");
  const p = new Pair();
  p.handshake();
  assert.equal(p.feed("client", { type: "open", now: 0 })[0].type, "diagnostic");
});

test("lifecycle: initialize MUST NOT be cancelled; a timed-out initialize fails the session without a cancellation", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, requestTimeoutMs: 1000 });
  step(c, { type: "open", now: 0 });
  const cancel = step(c, { type: "cancel", now: 0, id: 0 }).outputs;
  assert.equal(cancel[0].type, "diagnostic");
  assert.equal(sendsOf(cancel).length, 0);
  const out = step(c, { type: "tick", now: 1000 }).outputs;
  assert.equal(sendsOf(out).length, 0);
  assert.equal(c.phase.name, "closed");
  assert.ok(out.some((o) => o.type === "close"));
});

test("versioning (stdio probe): the kernel's own server/discover probe cannot be cancelled by the application; the handshake still ends (here: falls back to initialize at its timeout)", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2026-07-28", "2025-11-25"], requestTimeoutMs: 1000 });
  step(c, { type: "open", now: 0 });
  assert.equal(c.phase.name, "probing");
  const cancel = step(c, { type: "cancel", now: 0, id: 0 }).outputs;
  assert.deepEqual(cancel.map((o) => o.type), ["diagnostic"]);
  assert.equal(nextDeadline(c), 1000);
  const out = step(c, { type: "tick", now: 1000 }).outputs;
  assert.equal(c.phase.name, "initializing");
  assert.equal((sendsOf(out)[0] as { method?: string }).method, "initialize");
});

test("versioning (draft basic/transports/stdio, Backward Compatibility: a legacy server may never answer the probe): with requestTimeoutMs 0 (no request timeout) the probe still gives up after discoverTimeoutMs (documented: \"0: only requestTimeoutMs\" applies to discoverTimeoutMs, not the other way) and falls back to initialize", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2026-07-28", "2025-11-25"], requestTimeoutMs: 0, discoverTimeoutMs: 2000 });
  step(c, { type: "open", now: 0 });
  assert.equal(c.phase.name, "probing");
  assert.equal(nextDeadline(c), 2000);
  const out = step(c, { type: "tick", now: 2000 }).outputs;
  assert.equal(c.phase.name, "initializing");
  assert.equal((sendsOf(out)[0] as { method?: string }).method, "initialize");
});

test("lifecycle: the transport closing fails every request in flight and cancels every request being handled", () => {
  const p = new Pair();
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/list");
  p.run();
  p.feed("client", { type: "closed", now: 0 });
  p.feed("server", { type: "closed", now: 0 });
  assert.equal(p.of("client", "error")[0].id, id);
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.ConnectionClosed);
  assert.equal(p.of("server", "cancelled")[0].id, id);
  assert.equal(p.client.outboundCount, 0);
  assert.equal(p.server.inboundCount, 0);
  // After close, requests fail at once and messages are dropped.
  assert.equal(p.feed("client", { type: "request", now: 0, method: "ping" })[0].type, "error");
  assert.equal(p.inject("client", '{"jsonrpc":"2.0","id":1,"result":{}}')[0].type, "diagnostic");
});

test("lifecycle (Shutdown): the close settles every request for good — cancelling one that failed at the close, or answering one it cancelled, sends nothing and fails nothing twice", () => {
  const p = new Pair();
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/list");
  p.run();
  const [handled] = p.of("server", "request");
  p.feed("client", { type: "closed", now: 0 });
  p.feed("server", { type: "closed", now: 0 });
  assert.equal(p.of("client", "error").length, 1);
  const wire = p.wire.length;
  // Closed is final: the request already failed with -32000, so there is nothing left to cancel.
  const cancel = p.feed("client", { type: "cancel", now: 0, id });
  assert.deepEqual(cancel.map((o: any) => o.type === "diagnostic" ? o.code : o.type), ["cancel-unknown"]);
  assert.equal(p.of("client", "error").length, 1, "the request fails once");
  // The server's handler was cancelled by the close: its late answer is for no request in progress.
  const late = p.feed("server", { type: "respond", now: 0, id: handled.id, result: { tools: [] } });
  assert.deepEqual(late.map((o: any) => o.type === "diagnostic" ? o.code : o.type), ["respond-unknown"]);
  assert.equal(p.wire.length, wire, "nothing goes on the wire after the close");
});

// basic/transports (2025-11-25), Session Management item 4: the transport's new session
// (after a 404) is a new InitializeResult; the kernel's session goes on under it.
test("lifecycle (session renewal): a renewed input updates the server's info and capabilities the client checks requests against; another version or an invalid result ends the session; outside an operating client it is refused", () => {
  const p = new Pair({}, { capabilities: {} });
  p.handshake();
  const renewed = { protocolVersion: "2025-11-25", capabilities: { prompts: {} }, serverInfo: { name: "restarted", version: "2" }, instructions: "new" };
  const out = step(p.client, { type: "renewed", now: 0, result: renewed }).outputs;
  assert.deepEqual(out, [{ type: "renewed", peer: { info: { name: "restarted", version: "2" }, capabilities: { prompts: {} }, instructions: "new" } }]);
  // prompts/list went out: the new server declared prompts, the old one had not.
  const sent = step(p.client, { type: "request", now: 0, method: "prompts/list" }).outputs;
  assert.equal(sendsOf(sent)[0]?.method, "prompts/list");

  const other = new Pair();
  other.handshake();
  const closed = step(other.client, { type: "renewed", now: 0, result: { ...renewed, protocolVersion: "2025-06-18" } }).outputs;
  assert.ok(closed.some((o) => o.type === "close" && /protocol version "2025-06-18"/.test(o.reason)));
  const invalid = new Pair();
  invalid.handshake();
  assert.ok(step(invalid.client, { type: "renewed", now: 0, result: { protocolVersion: "2025-11-25" } }).outputs.some((o) => o.type === "close" && /invalid initialize result of the renewed session/.test(o.reason)));

  const server = freshServer();
  assert.deepEqual(step(server, { type: "renewed", now: 0, result: renewed }).outputs.map((o) => o.type === "diagnostic" && o.code), ["renew-refused"]);
  // An input without its result is refused as malformed, and the session goes on.
  const missing = new Pair();
  missing.handshake();
  const out2 = step(missing.client, { type: "renewed", now: 0 } as never).outputs;
  assert.deepEqual(out2.map((o) => o.type === "diagnostic" && o.code), ["input-refused"]);
  assert.equal(missing.client.phase.name, "operating");
});

test("lifecycle: a client waiting for the initialize response answers the server's ping — the server \"SHOULD NOT send requests other than pings and logging\" before initialized, so a ping is allowed (ping: the receiver MUST respond promptly)", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
  step(c, { type: "open", now: 0 });
  assert.equal(c.phase.name, "initializing");
  const pong = sendsOf(step(c, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "ping" }) }).outputs);
  assert.deepEqual(pong, [{ jsonrpc: "2.0", id: "s1", result: {} }]);
});

test("lifecycle: a client waiting for the initialize response delivers the server's log message — the server \"SHOULD NOT send requests other than pings and logging\" before initialized, and it has declared no capability yet to hold the message to (it was dropped as undeclared logging; found by review)", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
  step(c, { type: "open", now: 0 });
  const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "starting up" } };
  const out = step(c, { type: "receive", now: 0, data: JSON.stringify(log) }).outputs;
  assert.deepEqual(out, [{ type: "notification", method: "notifications/message", params: log.params }]);
  // Only what the gate admits: a list change before the result is still dropped.
  const change = step(c, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}' }).outputs;
  assert.deepEqual(change.map((o) => o.type === "diagnostic" && o.code), ["notification-dropped"]);
  // Once operating, the server's declaration decides again: no logging, no log messages.
  step(c, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } }) });
  assert.equal(c.phase.name, "operating");
  const after = step(c, { type: "receive", now: 0, data: JSON.stringify(log) }).outputs;
  assert.deepEqual(after.map((o) => o.type === "diagnostic" && o.code), ["notification-dropped"]);
});

test("lifecycle: before the initialize response a client may ping (\"other than pings\") and hears that ping's progress (progress: notifications reference a token of an active request)", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {} });
  step(c, { type: "open", now: 0 });
  const ping = sendsOf(step(c, { type: "request", now: 0, method: "ping", progress: true }).outputs)[0];
  const token = ping.params._meta.progressToken;
  const prog = step(c, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } }) }).outputs;
  assert.deepEqual(prog.filter((o) => o.type === "progress").map((o: any) => [o.id, o.progress]), [[ping.id, 1]]);
});
