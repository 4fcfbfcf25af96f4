// The `unsendable` input: a message the kernel produced that the driver could not encode
// (application data with no JSON form: a BigInt, a cycle, a throwing toJSON). Spec:
// 2025-11-25 basic/index "Responses": a response MUST be sent in reply to every request
// (so a result that cannot be encoded still answers its request, with -32603); and since
// nothing reached the peer, our own request must not wait for an answer that cannot come
// (basic/lifecycle "Timeouts" is for a peer that is slow, not for a message never sent).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { step } from "../../src/session/session.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";

/** The message of the kernel's first send output. */
function firstSend(outputs: ReturnType<Pair["feed"]>): JsonRpcMessage {
  return sendsOf(outputs)[0];
}

/** A session where the server answered a client's tools/call with a response its driver could not write (dropped before it left). */
function unwrittenResponse(): { p: Pair; id: number | string; response: JsonRpcMessage } {
  const p = new Pair();
  p.handshake();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  const response = firstSend(p.feed("server", { type: "respond", now: p.now, id, result: { content: [] } }));
  p.dropQueued();
  return { p, id, response };
}

test("unsendable: a request we could not encode fails at once with -32603; nothing is sent, nothing waits", () => {
  const p = new Pair({ requestTimeoutMs: 1000 });
  p.handshake();
  const outputs = p.feed("client", { type: "request", now: p.now, method: "tools/call", params: { name: "x" } });
  const request = firstSend(outputs) as { id: number };
  p.dropQueued(); // the driver could not write it
  const after = p.feed("client", { type: "unsendable", now: p.now, message: request as JsonRpcMessage, reason: "message could not be encoded: BigInt" });
  assert.deepEqual(sendsOf(after), [], "no cancellation: the peer never saw the request");
  const [error] = p.of("client", "error");
  assert.equal(error.id, request.id);
  assert.equal(error.error.code, ErrorCode.InternalError);
  assert.match(error.error.message, /tools\/call request was not sent: message could not be encoded: BigInt/);
  assert.equal(p.client.outboundCount, 0, "the request is forgotten");
  p.advance(1000);
  assert.equal(p.of("client", "error").length, 1, "no timeout error later");
});

test("unsendable: a result we could not encode still answers its request, with -32603", () => {
  const { p, id, response } = unwrittenResponse();
  const after = p.feed("server", { type: "unsendable", now: p.now, message: response, reason: "cycle" });
  assert.deepEqual(sendsOf(after), [{ jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message: "Internal error: message could not be encoded" } }]);
  assert.equal(p.of("server", "diagnostic").at(-1)?.code, "unsendable-response");
  p.run();
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.InternalError);
});

test("unsendable: a notification is dropped and reported; the session goes on", () => {
  const p = new Pair();
  p.handshake();
  const after = p.feed("client", { type: "unsendable", now: p.now, message: { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, reason: "BigInt" });
  assert.deepEqual(sendsOf(after), []);
  assert.equal(p.of("client", "diagnostic").at(-1)?.code, "unsendable-notification");
  assert.equal(p.client.phase.name, "operating");
});

test("unsendable: an initialize that cannot be encoded (the application's info) ends the session with the reason", () => {
  const p = new Pair();
  const outputs = p.feed("client", { type: "open", now: p.now });
  const init = firstSend(outputs);
  p.dropQueued();
  p.feed("client", { type: "unsendable", now: p.now, message: init, reason: "BigInt in clientInfo" });
  assert.equal(p.client.phase.name, "closed");
  assert.match(p.closedBy.client ?? "", /initialize could not be encoded: BigInt in clientInfo/);
});

test("unsendable: a result that could not be encoded after the session closed sends no stand-in answer (closed is final)", () => {
  const { p, response } = unwrittenResponse();
  p.feed("server", { type: "closed", now: p.now, reason: "transport closed" });
  const after = p.feed("server", { type: "unsendable", now: p.now, message: response, reason: "cycle" });
  assert.deepEqual(sendsOf(after), []);
  assert.equal(p.of("server", "diagnostic").at(-1)?.code, "unsendable-response");
});

test("unsendable + README (a field the kernel cannot use is never misread; the connection survives bad input): a reason that is no string (what JSON.stringify threw, handed on as it is) is read as its text; a symbol closed the session with an internal error, an Error went out in the diagnostic as an object", () => {
  for (const [reason, text] of [
    [new TypeError("Do not know how to serialize a BigInt"), "Do not know how to serialize a BigInt"],
    [Symbol("bigint"), "Symbol(bigint)"],
    [undefined, "the message has no JSON form"],
  ] as const) {
    const p = new Pair();
    p.handshake();
    const request = firstSend(p.feed("client", { type: "request", now: p.now, method: "tools/call", params: { name: "x" } }));
    p.dropQueued();
    // step, not the pair's feed: the pair keeps a structured clone of each input, and a symbol has none.
    const failed = step(p.client, { type: "unsendable", now: p.now, message: request, reason } as never).outputs;
    assert.equal(p.client.phase.name, "operating", text);
    assert.deepEqual(failed, [{ type: "error", id: (request as { id: number }).id, method: "tools/call", error: { code: ErrorCode.InternalError, message: `Internal error: the tools/call request was not sent: ${text}` } }]);
    const { p: q, response } = unwrittenResponse();
    const out = step(q.server, { type: "unsendable", now: q.now, message: response, reason } as never).outputs;
    assert.deepEqual(out.find((o) => o.type === "diagnostic"), { type: "diagnostic", code: "unsendable-response", message: "a response could not be encoded; the peer got -32603", detail: { reason: text } });
  }
});
