// Spec: schema `Implementation` (`icons[].src` is `format: uri`) in the kernel's own
// messages: 2025-11-25 basic/lifecycle (initialize params carry `clientInfo`, the result
// `serverInfo`) and draft basic/index / server/discover (2026-07-28: `_meta` carries
// clientInfo on requests and serverInfo on results). With `validateOutgoing` (the
// default) the kernel holds them to the schema as it holds the application's messages:
// nothing invalid reaches the wire, and the problem is an output, never a throw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";

const BAD = { name: "x", version: "1", icons: [{ src: "./mcp.svg" }] };
const MODERN = ["2026-07-28"] as never;

test("basic/lifecycle + schema Icon.src (format: uri): a server's initialize result with an invalid serverInfo is -32603 and a diagnostic, not sent", () => {
  const p = new Pair({}, { info: BAD });
  p.feed("client", { type: "open", now: 0 });
  p.run();
  const [res] = p.sent("server") as any[];
  assert.equal(res.error.code, -32603);
  assert.equal(res.result, undefined);
  const diag = p.events.server.find((o: any) => o.type === "diagnostic" && o.code === "invalid-result") as any;
  assert.equal(diag.detail.issues[0].path, "/serverInfo/icons/0/src");
  assert.equal(p.server.phase.name, "new");
  assert.notEqual(p.client.phase.name, "operating");
});

test("basic/lifecycle + schema Icon.src (format: uri): a client's initialize with an invalid clientInfo is not sent; the session fails", () => {
  const p = new Pair({ info: BAD });
  p.feed("client", { type: "open", now: 0 });
  assert.equal(p.sent("client").length, 0);
  assert.equal(p.client.phase.name, "closed");
  assert.match(p.closedBy.client!, /invalid initialize params: \/clientInfo\/icons\/0\/src/);
});

test("draft server/discover + schema Icon.src: the modern probe and the discover answer are held to the schema too", () => {
  const c = new Pair({ info: BAD, versions: MODERN }, { versions: MODERN });
  c.feed("client", { type: "open", now: 0 });
  assert.equal(c.sent("client").length, 0);
  assert.match(c.closedBy.client!, /invalid server\/discover params: \/_meta\/io\.modelcontextprotocol~1clientInfo\/icons\/0\/src/);

  const s = new Pair({ versions: MODERN }, { info: BAD, versions: MODERN });
  s.feed("client", { type: "open", now: 0 });
  s.run();
  const [res] = s.sent("server") as any[];
  assert.equal(res.error.code, -32603);
  const diag = s.events.server.find((o: any) => o.type === "diagnostic" && o.code === "invalid-result") as any;
  assert.equal(diag.detail.issues[0].path, "/_meta/io.modelcontextprotocol~1serverInfo/icons/0/src");
});

test("validateOutgoing: false sends the kernel's own messages unchecked, as it does the application's", () => {
  const p = new Pair({ validateOutgoing: false }, { info: BAD, validateOutgoing: false });
  p.feed("client", { type: "open", now: 0 });
  p.run();
  assert.deepEqual((p.sent("server")[0] as any).result.serverInfo, BAD);
});

test("validateOutgoing (the default) holds the application's notifications to the schema: an invalid one is refused with a diagnostic and not sent; validateOutgoing: false sends it as given", () => {
  for (const validateOutgoing of [true, false]) {
    const p = new Pair({}, { capabilities: { resources: { subscribe: true } }, validateOutgoing });
    p.handshake();
    const out = p.feed("server", { type: "notify", now: 0, method: "notifications/resources/updated", params: { uri: 42 } as never });
    if (validateOutgoing) {
      assert.deepEqual(out.map((o: any) => o.type === "diagnostic" ? o.code : o.type), ["notification-refused"]);
    } else {
      assert.deepEqual(out.map((o: any) => o.type === "send" && o.message.method), ["notifications/resources/updated"]);
    }
  }
});

// 2025-11-25 basic/lifecycle: the client sends `notifications/initialized` once, after the
// initialize result; basic/utilities/cancellation and progress tie their notifications to
// requests the kernel tracks. An application's own copy of any of them is refused, not sent.
test("the notifications the kernel sends itself (initialized, cancelled, progress) are refused when the application notifies them, with a diagnostic naming the input to use", () => {
  const p = new Pair();
  p.handshake();
  for (const method of ["notifications/initialized", "notifications/cancelled", "notifications/progress"]) {
    const out = p.feed("client", { type: "notify", now: 0, method, params: {} });
    assert.deepEqual(out.map((o: any) => (o.type === "diagnostic" ? o.code : o.type)), ["notification-refused"], method);
    assert.match((out[0] as any).message, /sent by the kernel; use the cancel or progress input/, method);
  }
});
