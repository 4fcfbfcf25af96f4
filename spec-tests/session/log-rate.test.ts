// Spec: 2025-11-25 and draft server/utilities/logging: "Servers SHOULD: ... Rate limit log
// messages", and under Security, "Implementations SHOULD: Rate limit messages". The session
// option `maxLogMessagesPerSecond` (default 100; 0: no limit) bounds notifications/message
// per session per second of the inputs' clock, in both directions; what a second drops is
// reported by one `log-rate-limited` diagnostic when that second ends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { createSession, step } from "../../src/session/session.js";
import type { SessionInput, SessionOptions, SessionOutput, SessionState } from "../../src/session/types.js";

const LOGGING = { capabilities: { logging: {} } };

const rateDiagnostics = (outs: SessionOutput[]) => outs.filter((o): o is Extract<SessionOutput, { type: "diagnostic" }> => o.type === "diagnostic" && o.code === "log-rate-limited");
const logsSent = (p: Pair) => p.sent("server").filter((m) => "method" in m && m.method === "notifications/message").length;

test("logging (2025-11-25), Servers SHOULD rate limit log messages: past maxLogMessagesPerSecond a second's log messages are dropped, one log-rate-limited diagnostic for that second says how many, and the next second sends again", () => {
  const p = new Pair({ maxLogMessagesPerSecond: 0 }, { ...LOGGING, maxLogMessagesPerSecond: 3 });
  p.handshake();
  const out: SessionOutput[] = [];
  for (let i = 0; i < 5; i++) out.push(...p.feed("server", { type: "log", now: 0, level: "info", data: i }));
  p.now = 400;
  for (let i = 5; i < 9; i++) out.push(...p.feed("server", { type: "log", now: 400, level: "info", data: i }));
  p.run();
  assert.equal(logsSent(p), 3, "only the bound goes on the wire");
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.data), [0, 1, 2]);
  assert.deepEqual(rateDiagnostics(out), [], "no diagnostic per dropped message");
  assert.equal(p.server.wakeAt, 1000, "the second's end is due");
  // The state is plain JSON: a snapshot taken mid-window carries on the same way.
  const copy = JSON.parse(JSON.stringify(p.server)) as SessionState;
  const copied = step(copy, { type: "tick", now: 1000 }).outputs;
  p.advance(600);
  const diags = rateDiagnostics(p.events.server);
  assert.equal(diags.length, 1, "one diagnostic for the window");
  assert.deepEqual(diags[0].detail, { direction: "outgoing", dropped: 6, limit: 3, windowStart: 0 });
  assert.deepEqual(copied, [diags[0]]);
  // A new window admits messages again.
  for (let i = 0; i < 4; i++) p.feed("server", { type: "log", now: 1000, level: "info", data: `b${i}` });
  p.run();
  assert.equal(logsSent(p), 6);
  assert.deepEqual(p.of("client", "notification").slice(3).map((n) => n.params?.data), ["b0", "b1", "b2"]);
  // Closing reports the open window's drops (no tick comes after it).
  const closed = p.feed("server", { type: "closed", now: 1200 });
  assert.deepEqual(rateDiagnostics(closed).map((d) => (d.detail as { dropped: number }).dropped), [1]);
});

test("logging (2025-11-25), Servers SHOULD rate limit log messages: the default is 100 a second; only messages the level lets through count, and 0 means no limit", () => {
  const p = new Pair({ maxLogMessagesPerSecond: 0 }, LOGGING);
  p.handshake();
  p.request("client", "logging/setLevel", { level: "warning" });
  p.run();
  const out: SessionOutput[] = [];
  for (let i = 0; i < 150; i++) out.push(...p.feed("server", { type: "log", now: 0, level: "debug", data: i }));
  assert.equal(sendsOf(out).length, 0, "filtered by level: not sent, not counted");
  for (let i = 0; i < 150; i++) out.push(...p.feed("server", { type: "log", now: 0, level: "error", data: i }));
  assert.equal(sendsOf(out).length, 100);
  out.push(...p.feed("server", { type: "tick", now: 1000 }));
  assert.deepEqual(rateDiagnostics(out).map((d) => d.detail), [{ direction: "outgoing", dropped: 50, limit: 100, windowStart: 0 }]);

  const off = new Pair({ maxLogMessagesPerSecond: 0 }, { ...LOGGING, maxLogMessagesPerSecond: 0 });
  off.handshake();
  const all: SessionOutput[] = [];
  for (let i = 0; i < 500; i++) all.push(...off.feed("server", { type: "log", now: 0, level: "info", data: i }));
  all.push(...off.feed("server", { type: "tick", now: 1000 }));
  assert.equal(sendsOf(all).length, 500);
  assert.deepEqual(rateDiagnostics(all), []);
  assert.equal(off.server.wakeAt, null);
});

test("logging (2025-11-25), Servers SHOULD rate limit log messages: a log message sent as a plain notify spends the same budget", () => {
  const p = new Pair({}, { ...LOGGING, maxLogMessagesPerSecond: 2 });
  p.handshake();
  const out: SessionOutput[] = [];
  out.push(...p.feed("server", { type: "log", now: 0, level: "info", data: "a" }));
  for (const data of ["b", "c"]) out.push(...p.feed("server", { type: "notify", now: 0, method: "notifications/message", params: { level: "info", data } }));
  out.push(...p.feed("server", { type: "tick", now: 1000 }));
  assert.deepEqual(sendsOf(out).map((m) => m.params.data), ["a", "b"]);
  assert.equal(rateDiagnostics(out).length, 1);
});

// The draft era: a request asks for its own logs with _meta logLevel.
const PV = "io.modelcontextprotocol/protocolVersion";
const meta = (level: string) => ({ [PV]: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, "io.modelcontextprotocol/logLevel": level });

function modernServer(extra: Partial<SessionOptions>) {
  const s = createSession({ role: "server", info: { name: "srv", version: "2" }, capabilities: { tools: {}, logging: {} }, versions: ["2026-07-28", "2025-11-25"], ...extra });
  const feed = (input: SessionInput): SessionOutput[] => step(s, input).outputs;
  const call = (id: number, level: string) => feed({ type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta(level), name: "x" } }) });
  return { s, feed, call };
}

test("logging (draft), Servers SHOULD rate limit log messages: every modern request's logLevel messages share the session's budget; one diagnostic per window; the next window sends again", () => {
  const { s, feed, call } = modernServer({ maxLogMessagesPerSecond: 3 });
  call(1, "info");
  call(2, "debug");
  const out: SessionOutput[] = [];
  for (let i = 0; i < 2; i++) out.push(...feed({ type: "log", now: 0, level: "info", data: `one ${i}`, related: 1 }));
  for (let i = 0; i < 3; i++) out.push(...feed({ type: "log", now: 10, level: "debug", data: `two ${i}`, related: 2 }));
  // Below request 1's level: never sent, so not counted and not dropped.
  out.push(...feed({ type: "log", now: 10, level: "debug", data: "filtered", related: 1 }));
  assert.deepEqual(sendsOf(out).map((m) => m.params.data), ["one 0", "one 1", "two 0"]);
  assert.deepEqual(rateDiagnostics(out), []);
  assert.equal(s.wakeAt, 1000);
  const tick = feed({ type: "tick", now: 1000 });
  assert.deepEqual(rateDiagnostics(tick).map((d) => d.detail), [{ direction: "outgoing", dropped: 2, limit: 3, windowStart: 0 }]);
  const next = feed({ type: "log", now: 1000, level: "info", data: "again", related: 1 });
  assert.deepEqual(sendsOf(next).map((m) => m.params.data), ["again"]);
  assert.deepEqual(next[0], { type: "send", message: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "again" } }, related: 1 });
});

test("logging (2025-11-25), Implementations SHOULD rate limit messages: a client delivers at most maxLogMessagesPerSecond notifications/message a second to the application, one diagnostic for the rest; the next second delivers again", () => {
  const p = new Pair({ maxLogMessagesPerSecond: 2 }, { capabilities: { logging: {}, tools: { listChanged: true } }, maxLogMessagesPerSecond: 0 });
  p.handshake();
  for (let i = 0; i < 5; i++) p.feed("server", { type: "log", now: 0, level: "info", data: i });
  p.run();
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.data), [0, 1]);
  assert.deepEqual(rateDiagnostics(p.events.client), []);
  assert.equal(p.client.wakeAt, 1000);
  // A message of the next second that comes before the tick: the old window's diagnostic first, then it is delivered.
  p.now = 1500;
  for (let i = 5; i < 8; i++) p.feed("server", { type: "log", now: 1500, level: "info", data: i });
  p.run();
  const events = p.events.client.filter((e) => e.type === "notification" || (e.type === "diagnostic" && e.code === "log-rate-limited"));
  assert.deepEqual(
    events.map((e) => (e.type === "notification" ? e.params?.data : (e as { detail: unknown }).detail)),
    [0, 1, { direction: "incoming", dropped: 3, limit: 2, windowStart: 0 }, 5, 6],
  );
  p.advance(1000);
  assert.deepEqual(rateDiagnostics(p.events.client).map((d) => (d.detail as { dropped: number }).dropped), [3, 1], "one diagnostic per window");
  // Other notifications are not counted.
  p.feed("server", { type: "notify", now: p.now, method: "notifications/tools/list_changed" });
  for (let i = 8; i < 10; i++) p.feed("server", { type: "log", now: p.now, level: "info", data: i });
  p.run();
  assert.deepEqual(p.of("client", "notification").slice(4).map((n) => n.method), ["notifications/tools/list_changed", "notifications/message", "notifications/message"]);
});

test("logging (2025-11-25), Implementations SHOULD rate limit messages: what a client dropped in a second still open when the session closes is reported at the close (no tick comes after it)", () => {
  const p = new Pair({ maxLogMessagesPerSecond: 2 }, { ...LOGGING, maxLogMessagesPerSecond: 0 });
  p.handshake();
  for (let i = 0; i < 5; i++) p.feed("server", { type: "log", now: 0, level: "info", data: i });
  p.run();
  assert.deepEqual(rateDiagnostics(p.events.client), []);
  const closed = p.feed("client", { type: "closed", now: 500 });
  assert.deepEqual(rateDiagnostics(closed).map((d) => d.detail), [{ direction: "incoming", dropped: 3, limit: 2, windowStart: 0 }]);
});

test("logging (2025-11-25), Implementations SHOULD rate limit messages: a client's default bound is 100 a second; 0 delivers every one", () => {
  const p = new Pair({}, { ...LOGGING, maxLogMessagesPerSecond: 0 });
  p.handshake();
  for (let i = 0; i < 300; i++) p.feed("server", { type: "log", now: 0, level: "info", data: i });
  p.run();
  assert.equal(p.of("client", "notification").length, 100);
  p.advance(1000);
  assert.deepEqual(rateDiagnostics(p.events.client).map((d) => (d.detail as { dropped: number }).dropped), [200]);

  const off = new Pair({ maxLogMessagesPerSecond: 0 }, { ...LOGGING, maxLogMessagesPerSecond: 0 });
  off.handshake();
  for (let i = 0; i < 300; i++) off.feed("server", { type: "log", now: 0, level: "info", data: i });
  off.run();
  off.advance(1000);
  assert.equal(off.of("client", "notification").length, 300);
  assert.deepEqual(rateDiagnostics(off.events.client), []);
});

test("logging, Servers SHOULD rate limit log messages, under a clock stepped back (README: now is monotonic; a wall clock corrected by NTP is not): a reading before the window's start opens a new window, so the limit does not hold every message back until the clock catches up", () => {
  const p = new Pair({ maxLogMessagesPerSecond: 0 }, { ...LOGGING, maxLogMessagesPerSecond: 2 });
  p.handshake();
  const at = 3_600_000;
  for (let i = 0; i < 3; i++) p.feed("server", { type: "log", now: at, level: "info", data: i });
  // The clock steps back an hour.
  const back = p.feed("server", { type: "log", now: 10, level: "info", data: "after" });
  p.run();
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.data), [0, 1, "after"]);
  assert.deepEqual(rateDiagnostics(back).map((d) => d.detail), [{ direction: "outgoing", dropped: 1, limit: 2, windowStart: at }], "the old window's drops are reported as it ends");
});

