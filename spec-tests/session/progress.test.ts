// Spec: 2025-11-25 basic/utilities/progress.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";

function ready(server: Record<string, unknown> = {}, client: Record<string, unknown> = {}) {
  const p = new Pair(client, server);
  p.handshake();
  p.handlers.server = () => {};
  return p;
}

test("progress: a request opts in with _meta.progressToken, unique among active requests", () => {
  const p = ready();
  const a = p.request("client", "tools/call", { name: "x", _meta: { traceparent: "t" } }, { progress: true });
  const b = p.request("client", "tools/call", { name: "y" }, { progress: true });
  p.run();
  const [ra, rb] = p.of("server", "request");
  const ta = (ra.params as any)._meta.progressToken;
  const tb = (rb.params as any)._meta.progressToken;
  assert.notEqual(ta, tb);
  assert.equal((ra.params as any)._meta.traceparent, "t");
  assert.equal(ta, a);
  assert.equal(tb, b);
});

test("progress: notifications carry the token, progress, total and message, and reach the requester", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.feed("server", { type: "progress", now: 0, id, progress: 50, total: 100, message: "Reticulating splines..." });
  p.run();
  assert.deepEqual(p.lastSent("server"), { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: id, progress: 50, total: 100, message: "Reticulating splines..." } });
  assert.deepEqual(p.of("client", "progress")[0], { type: "progress", id, progress: 50, total: 100, message: "Reticulating splines..." });
});

test("progress: the progress value MUST increase — a non-increasing update is not sent, and one received is dropped", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.feed("server", { type: "progress", now: 0, id, progress: 0.5 });
  const out = p.feed("server", { type: "progress", now: 0, id, progress: 0.5 });
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
  p.run();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: id, progress: 0.2 } }));
  assert.equal(p.of("client", "progress").length, 1);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "progress-not-increasing"));
});

test("progress: notifications MUST only reference active tokens — after completion they stop and are dropped", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.respond("server", id, { content: [] });
  p.run();
  assert.deepEqual(p.feed("server", { type: "progress", now: 0, id, progress: 1 }).map((o) => o.type), ["diagnostic"]);
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: id, progress: 2 } }));
  assert.equal(p.of("client", "progress").length, 0);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "unknown-progress-token"));
});

test("progress: coalesced updates never go out of order (progress MUST increase): an update whose slot has come overtakes a held one the tick has not sent yet, which is then dropped; under a clock stepped back an update is sent at once, not held until the clock catches up", () => {
  const p = ready({ progressIntervalMs: 100 });
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.feed("server", { type: "progress", now: 1000, id, progress: 1 });
  p.feed("server", { type: "progress", now: 1050, id, progress: 2 });
  // The slot at 1100 came, the tick not yet: the newer update goes out now.
  p.feed("server", { type: "progress", now: 1150, id, progress: 3 });
  p.feed("server", { type: "tick", now: 1300 });
  p.run();
  assert.deepEqual(p.of("client", "progress").map((e) => e.progress), [1, 3], "2 is not sent after 3");
  // The clock steps back an hour: not a reason to hold the next update for an hour.
  p.feed("server", { type: "progress", now: 1150 - 3_600_000, id, progress: 4 });
  p.run();
  assert.deepEqual(p.of("client", "progress").map((e) => e.progress), [1, 3, 4]);
});

test("progress: a receiver that was not asked for progress sends none", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.deepEqual(p.feed("server", { type: "progress", now: 0, id, progress: 1 }).map((o) => o.type), ["diagnostic"]);
});

test("progress: both parties SHOULD rate-limit — outgoing updates coalesce to one per interval, latest value wins", () => {
  const p = ready({ progressIntervalMs: 100 });
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  for (let i = 1; i <= 50; i++) p.feed("server", { type: "progress", now: p.now, id, progress: i });
  p.run();
  assert.deepEqual(p.of("client", "progress").map((e) => e.progress), [1]);
  p.advance(100);
  assert.deepEqual(p.of("client", "progress").map((e) => e.progress), [1, 50]);
  p.advance(100);
  assert.equal(p.of("client", "progress").length, 2);
});

test("progress: a coalesced update waits in the state as plain JSON (README: the state is plain JSON) — its progress, total and message only, not the input's type, now and id, nor the undefined total and message an Endpoint passes; it held them all (found by review)", () => {
  const p = ready({ progressIntervalMs: 100 });
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.feed("server", { type: "progress", now: p.now, id, progress: 1, total: undefined, message: undefined });
  p.feed("server", { type: "progress", now: p.now, id, progress: 2, total: undefined, message: undefined });
  p.feed("server", { type: "progress", now: p.now, id, progress: 3, total: 10, message: undefined });
  const held = Object.values(p.server.inbound)[0].pendingProgress;
  assert.deepEqual(held, { progress: 3, total: 10, at: p.now + 100 });
  assert.deepEqual(JSON.parse(JSON.stringify(p.server)), p.server);
  p.advance(100);
  assert.deepEqual(p.of("client", "progress").map((e) => [e.progress, e.total]), [[1, undefined], [3, 10]]);
});

test("progress: a coalesced update still held when the request is answered goes out just before the response (latest value wins; progress MUST stop after completion, so it could never go later): a tool's last report (10 of 10) is not lost", () => {
  const p = ready({ progressIntervalMs: 100 });
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  p.feed("server", { type: "progress", now: p.now, id, progress: 1, total: 10 });
  p.feed("server", { type: "progress", now: p.now, id, progress: 10, total: 10, message: "done" });
  p.respond("server", id, { content: [] });
  p.run();
  assert.deepEqual(p.of("client", "progress").map((e) => [e.progress, e.total, e.message]), [[1, 10, undefined], [10, 10, "done"]]);
  assert.equal(p.of("client", "response").length, 1);
  // Nothing is left to send at the interval's end: progress stopped with the response.
  p.advance(200);
  assert.equal(p.of("client", "progress").length, 2);
});

test("progress: tokens MUST be a string or integer and MUST be unique across all active requests — one the application writes into _meta itself is held to both and its progress reaches it; it went out unchecked, so a request sharing it took the other's progress (found by review)", () => {
  const p = ready();
  // A token the application chose, equal to the id the next request gets (whose own token is its id).
  const a = p.request("client", "tools/call", { name: "x", _meta: { progressToken: 2 } });
  const b = p.request("client", "tools/call", { name: "y" }, { progress: true });
  const c = p.request("client", "tools/call", { name: "z", _meta: { progressToken: 2 } });
  const d = p.request("client", "tools/call", { name: "w", _meta: { progressToken: 1.5 } });
  p.run();
  // b's token is the kernel's choice: not the id the application's token already holds, and
  // b is not refused for a token nobody asked it to carry (found by review: its onProgress
  // call failed -32602 behind a proxy forwarding its caller's integer tokens).
  assert.deepEqual(p.of("server", "request").map((r) => r.id), [a, b], "only one request carries token 2");
  const bToken = (p.of("server", "request")[1].params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
  assert.notEqual(bToken, 2);
  const refused = p.of("client", "error");
  assert.deepEqual(refused.map((e) => [e.id, e.error.code]), [[c, -32602], [d, -32602]]);
  assert.match(refused[0].error.message, /progress token 2 is already used/);
  // The application's token is recorded: the server's progress reaches request a, the one that asked, and b's reaches b.
  p.feed("server", { type: "progress", now: 0, id: a, progress: 1 });
  p.feed("server", { type: "progress", now: 0, id: b, progress: 5 });
  p.run();
  assert.deepEqual(p.of("client", "progress").map((e) => [e.id, e.progress]), [[a, 1], [b, 5]]);
  // Once a is answered its token is free again.
  p.respond("server", a, { content: [] });
  p.run();
  const e = p.request("client", "tools/call", { name: "v", _meta: { progressToken: 2 } });
  p.run();
  assert.deepEqual(p.of("server", "request").map((r) => r.id), [a, b, e]);
  // A token that is no string or integer is refused by the kernel itself, schema checks off too.
  const q = ready({}, { validateOutgoing: false });
  const out = q.feed("client", { type: "request", now: 0, method: "tools/call", params: { name: "x", _meta: { progressToken: 1.5 } } });
  assert.deepEqual(out.map((o) => o.type), ["error"]);
  assert.match((out[0] as { error: { message: string } }).error.message, /string or an integer/);
});
