// Spec: 2025-11-25 basic/utilities/cancellation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";

function ready() {
  const p = new Pair();
  p.handshake();
  p.handlers.server = () => {};
  return p;
}

test("cancellation: the sender sends notifications/cancelled with the requestId and reason; the receiver stops and frees it", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "slow" });
  p.run();
  p.feed("client", { type: "cancel", now: 0, id, reason: "User requested cancellation" });
  p.run();
  assert.deepEqual(p.lastSent("client"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "User requested cancellation" } });
  assert.deepEqual(p.of("server", "cancelled")[0], { type: "cancelled", id, reason: "User requested cancellation" });
  assert.equal(p.server.inboundCount, 0);
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.RequestCancelled);
});

test("cancellation: receivers SHOULD NOT send a response for a cancelled request", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "slow" });
  p.run();
  p.feed("client", { type: "cancel", now: 0, id });
  p.run();
  const before = p.wire.length;
  p.respond("server", id, { content: [] });
  assert.equal(p.wire.length, before);
  assert.ok(p.of("server", "diagnostic").some((d) => d.code === "respond-unknown"));
});

test("cancellation: the sender SHOULD ignore a response that arrives after cancelling (race: response crosses the cancel)", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  // The server answers; before the answer is delivered the client cancels.
  p.respond("server", id, { content: [] });
  p.feed("client", { type: "cancel", now: 0, id });
  p.run();
  assert.equal(p.of("client", "response").length, 0);
  assert.equal(p.of("client", "error").length, 1);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "unknown-response-id"));
  // The server finds nothing to cancel and ignores it.
  assert.ok(p.of("server", "diagnostic").some((d) => d.code === "cancel-ignored"));
  assert.equal(p.of("server", "cancelled").length, 0);
});

test("cancellation: MUST only reference requests in the same direction — a cancel naming one of our own outbound ids is ignored", () => {
  const p = ready();
  p.handlers.client = () => {};
  // Server sends a ping-like request to the client? Use a client request and have the *client* receive a cancel for it.
  const id = p.request("client", "tools/list");
  p.run();
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }));
  assert.equal(out[0].type, "diagnostic");
  assert.equal(p.client.outboundCount, 1);
});

test("cancellation: unknown ids and malformed cancellations SHOULD be ignored", () => {
  const p = ready();
  assert.deepEqual(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 999 } })).map((o) => o.type), ["diagnostic"]);
  assert.deepEqual(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { x: 1 } } })).map((o) => o.type), ["diagnostic"]);
  assert.equal(sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }))).length, 0);
});

test("cancellation: cancelling a request that is not in flight is a diagnostic, not a message", () => {
  const p = ready();
  const out = p.feed("client", { type: "cancel", now: 0, id: 4242 });
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
});
