// Spec: 2025-11-25 server/utilities/logging.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { step } from "../../src/session/session.js";
import { encode } from "../../src/jsonrpc/codec.js";

test("logging: servers that emit log messages MUST declare logging; without it nothing is sent", () => {
  const p = new Pair({}, { capabilities: { tools: {} } });
  p.handshake();
  const out = p.feed("server", { type: "log", now: 0, level: "error", data: "x" });
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
  // and setLevel against a server without logging is method-not-found
  p.request("client", "logging/setLevel", { level: "info" });
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.MethodNotFound);
});

test("logging: after setLevel the server sends only that level and above; the kernel answers setLevel itself", () => {
  const p = new Pair({}, { capabilities: { logging: {} } });
  p.handshake();
  p.feed("server", { type: "log", now: 0, level: "debug", logger: "db", data: { a: 1 } });
  p.run();
  assert.deepEqual(p.of("client", "notification")[0].params, { level: "debug", data: { a: 1 }, logger: "db" });
  p.request("client", "logging/setLevel", { level: "error" });
  p.run();
  assert.deepEqual(p.of("client", "response")[0].result, {});
  assert.equal(p.of("server", "request").length, 0);
  for (const level of ["info", "warning", "error", "emergency"] as const) p.feed("server", { type: "log", now: 0, level, data: level });
  p.run();
  assert.deepEqual(p.of("client", "notification").slice(1).map((n) => (n.params as any).level), ["error", "emergency"]);
});

test("logging: an invalid log level is -32602 (Invalid params)", () => {
  const p = new Pair({}, { capabilities: { logging: {} } });
  p.handshake();
  const out = sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 9, method: "logging/setLevel", params: { level: "loud" } })));
  assert.equal(out[0].error.code, ErrorCode.InvalidParams);
});

test("logging: only a server logs", () => {
  const p = new Pair();
  p.handshake();
  assert.deepEqual(p.feed("client", { type: "log", now: 0, level: "info", data: 1 }).map((o) => o.type), ["diagnostic"]);
});

test("logging (LoggingMessageNotification: data is required, \"any JSON serializable type\"): a log whose data JSON has no form for (a function, a symbol; undefined given to a notifications/message notify) is refused with a diagnostic; it went out with no data at all, which the client drops as invalid (found by review)", () => {
  const p = new Pair({}, { capabilities: { logging: {} } });
  p.handshake();
  const inputs = [
    { type: "log", now: 0, level: "error", data: () => 1 },
    { type: "log", now: 0, level: "error", data: Symbol("x") },
    { type: "notify", now: 0, method: "notifications/message", params: { level: "error", data: undefined } },
    { type: "notify", now: 0, method: "notifications/message", params: { level: "error", data: () => 1 } },
  ] as const;
  // Stepped directly: the pair records a structured clone of each input, which a function has none of.
  for (const input of inputs) {
    const out = step(p.server, input as any).outputs;
    assert.equal(sendsOf(out).length, 0, String(input.type));
    assert.deepEqual(out.map((o) => o.type === "diagnostic" && o.code), ["notification-refused"]);
    assert.deepEqual((out[0] as any).detail.issues, [{ path: "/data", reason: "expected a JSON value" }]);
  }
  // Data JSON can hold still goes out (a function inside an object is left out of it, as JSON.stringify does).
  const sent = sendsOf(step(p.server, { type: "log", now: 0, level: "error", data: { a: 1, f: () => 1 } }).outputs);
  assert.equal(encode(sent[0]), '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":{"a":1}}}');
});
