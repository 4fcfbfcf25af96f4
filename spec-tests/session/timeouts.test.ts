// Spec: 2025-11-25 basic/lifecycle — Timeouts; basic/utilities/ping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { nextDeadline } from "../../src/session/timeouts.js";

test("timeouts: on expiry the sender SHOULD issue a cancellation and stop waiting; the app gets a timeout error", () => {
  const p = new Pair({ requestTimeoutMs: 1000 });
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.equal(nextDeadline(p.client), 1000);
  p.advance(999);
  assert.equal(p.of("client", "error").length, 0);
  p.advance(1);
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.RequestTimeout);
  assert.deepEqual(p.sent("client").at(-1), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "timeout" } });
  assert.equal(p.of("server", "cancelled")[0].id, id);
  assert.equal(nextDeadline(p.client), null);
});

test("timeouts: timeouts SHOULD be configurable per request", () => {
  const p = new Pair({ requestTimeoutMs: 1000 });
  p.handshake();
  p.handlers.server = () => {};
  p.request("client", "tools/call", { name: "x" }, { timeoutMs: 50 });
  p.run();
  assert.equal(nextDeadline(p.client), 50);
  p.advance(50);
  assert.equal(p.of("client", "error").length, 1);
});

test("timeouts: progress MAY reset the clock, but a maximum timeout is always enforced", () => {
  const p = new Pair({ requestTimeoutMs: 100, maxRequestTimeoutMs: 250 });
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  let v = 0;
  for (let t = 0; t < 3; t++) {
    p.advance(90);
    p.feed("server", { type: "progress", now: p.now, id, progress: ++v });
    p.run();
  }
  // 270 ms passed with progress every 90: reset would keep it alive, the cap of 250 did not.
  assert.equal(p.of("client", "error").length, 1);
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.RequestTimeout);
});

test("timeouts: the maximum timeout is configurable — maxRequestTimeoutMs 0 disables it (documented: \"0 disables\"), so a request with no timeout of its own waits as long as the peer takes", () => {
  const p = new Pair({ requestTimeoutMs: 0, maxRequestTimeoutMs: 0 });
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.equal(nextDeadline(p.client), null, "nothing to wake for");
  p.advance(10_000_000);
  assert.deepEqual(p.of("client", "error"), []);
  const call = p.of("server", "request")[0];
  p.respond("server", call.id, { content: [] });
  p.run();
  assert.deepEqual(p.of("client", "response").map((r) => r.id), [id]);
});

test("timeouts: with resets off, progress does not extend the deadline", () => {
  const p = new Pair({ requestTimeoutMs: 100, resetTimeoutOnProgress: false });
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.advance(90);
  p.feed("server", { type: "progress", now: p.now, id, progress: 1 });
  p.run();
  p.advance(10);
  assert.equal(p.of("client", "error").length, 1);
});

test("timeouts: a tick before the deadline does nothing; a late tick fires everything due", () => {
  const p = new Pair({ requestTimeoutMs: 100 });
  p.handshake();
  p.handlers.server = () => {};
  p.request("client", "tools/list");
  p.request("client", "tools/list", undefined, { timeoutMs: 300 });
  p.run();
  assert.deepEqual(p.feed("client", { type: "tick", now: 50 }), []);
  p.advance(1000);
  assert.equal(p.of("client", "error").length, 2);
});

test("ping: the receiver MUST respond promptly with an empty result, in both directions", () => {
  const p = new Pair();
  p.handshake();
  p.request("client", "ping");
  p.request("server", "ping");
  p.run();
  assert.deepEqual(p.of("client", "response")[0].result, {});
  assert.deepEqual(p.of("server", "response")[0].result, {});
  assert.equal(p.of("server", "request").length, 0);
});

test("ping: periodic keep-alive pings; unanswered ones surface as a stale connection (keepAliveMaxMissed 0: reported, never closed)", () => {
  const p = new Pair({ keepAliveMs: 1000, keepAliveMaxMissed: 0 });
  p.handshake();
  p.advance(1000);
  assert.deepEqual(p.sent("client").at(-1), { jsonrpc: "2.0", id: 1, method: "ping" });
  assert.equal(p.of("client", "stale").length, 0);
  // The server stops answering: drop what goes on the wire.
  p.now += 1000;
  p.feed("client", { type: "tick", now: p.now });
  p.dropQueued();
  p.now += 1000;
  p.feed("client", { type: "tick", now: p.now });
  p.dropQueued();
  assert.deepEqual(p.of("client", "stale").map((s) => s.missed), [1]);
  p.now += 1000;
  p.feed("client", { type: "tick", now: p.now });
  assert.deepEqual(p.of("client", "stale").map((s) => s.missed), [1, 2]);
  // An answer again resets the count.
  p.run();
  assert.equal(p.client.keepAlive.missed, 0);
});

test("basic/utilities/ping: Timeouts SHOULD be treated as connection failures (and Implementations SHOULD log ping failures): by default a client's first unanswered keep-alive closes the session, its reason saying so; keepAliveMaxMissed: 3 waits for three in a row", () => {
  for (const [max, closesAfter] of [[undefined, 1], [3, 3]] as const) {
    const p = new Pair({ keepAliveMs: 1000, ...(max === undefined ? {} : { keepAliveMaxMissed: max }) });
    p.handshake();
    // The server stops answering: whatever the client sends is lost.
    let closed: { reason?: string } | undefined;
    for (let i = 0; i < 5 && closed === undefined; i++) {
      p.now += 1000;
      p.feed("client", { type: "tick", now: p.now });
      p.dropQueued();
      closed = p.of("client", "close")[0] as { reason?: string } | undefined;
    }
    assert.equal(p.of("client", "stale").length, closesAfter, `${max}: closes at the ${closesAfter}th miss`);
    assert.match(String(closed?.reason), new RegExp(`answered no keep-alive ping, ${closesAfter} in a row \\(one every 1000 ms\\)`));
  }
});

test("basic/utilities/ping (Timeouts SHOULD be treated as connection failures): a keep-alive ping the transport could not send (an unsendable input: the driver's send hook threw) counts as missed, as the transport's local -32000 does; removed from the table it never timed out, so a transport failing every send never closed the session", () => {
  const p = new Pair({ keepAliveMs: 1000 });
  p.handshake();
  p.now += 1000;
  p.feed("client", { type: "tick", now: p.now });
  const ping = p.sent("client").at(-1) as { id: number; method: string };
  assert.equal(ping.method, "ping");
  p.dropQueued();
  p.feed("client", { type: "unsendable", now: p.now, message: { jsonrpc: "2.0", id: ping.id, method: "ping" }, reason: "send threw: EPIPE" });
  assert.deepEqual(p.of("client", "stale").map((s) => s.missed), [1]);
  assert.match(String((p.of("client", "close")[0] as { reason?: string } | undefined)?.reason), /answered no keep-alive ping, 1 in a row/);
});

test("basic/utilities/ping: a server's keep-alive only reports unanswered pings (stale) by default, since its ping may have no way to the client (a 2025-era HTTP client without the GET stream); keepAliveMaxMissed: 1 closes it as a client's does", () => {
  for (const [max, closes] of [[undefined, false], [1, true]] as const) {
    const p = new Pair({}, { keepAliveMs: 1000, ...(max === undefined ? {} : { keepAliveMaxMissed: max }) });
    p.handshake();
    for (let i = 0; i < 3; i++) {
      p.now += 1000;
      p.feed("server", { type: "tick", now: p.now });
      p.dropQueued();
    }
    assert.ok(p.of("server", "stale").length >= 1, `${max}: the misses are reported`);
    assert.equal(p.of("server", "close").length > 0, closes, `${max}: closed ${closes}`);
  }
});
