// The kernel's side of extension methods (`extensionMethods`, declared in the session options).
// Spec: draft basic/versioning "Extension Negotiation" (methods beyond the core protocol);
// 2025-11-25 basic/index (an unknown method is -32601).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { createSession, step } from "../../src/session/session.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { SessionState } from "../../src/session/types.js";
import { declaredMethodSpec } from "../../src/model/methods.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const DECLARED = { "com.example/search": { kind: "request", from: "client" }, "notifications/com.example/done": { kind: "notification", from: "server" } } as const;

test("session: a declared request reaches the application and its answer goes back; the state, declarations included, is plain JSON that restores to the same behaviour", () => {
  const p = new Pair({ extensionMethods: DECLARED }, { extensionMethods: DECLARED });
  p.handshake();
  const snapshot = JSON.parse(JSON.stringify(p.server)) as SessionState;
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { found: req.params?.q ?? null });
  const id = p.request("client", "com.example/search", { q: "x" });
  p.run();
  assert.deepEqual(p.of("client", "response").find((r) => r.id === id)?.result, { found: "x" });
  const restored = step(snapshot, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "com.example/search", params: { q: "y" } }) }).outputs;
  assert.deepEqual(restored.map((o) => o.type), ["request"]);
  assert.equal(sendsOf(step(snapshot, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "com.example/other" }) }).outputs)[0].error.code, ErrorCode.MethodNotFound);
});

test("session: the kernel never throws on malformed declarations: an entry that redefines the protocol's method, names no visible-ASCII method (it could not travel in Mcp-Method) or is malformed is left out, the rest kept", () => {
  const state = createSession({
    role: "server",
    info: { name: "s", version: "1" },
    capabilities: {},
    extensionMethods: { "tools/call": { kind: "request", from: "client" }, "x/y": { kind: "call" }, "com.example/café": { kind: "request", from: "client" }, "com.example/ok": { kind: "request", from: "both" } } as never,
  });
  assert.deepEqual({ ...state.options.extensionMethods }, { "com.example/ok": { kind: "request", from: "both" } });
  assert.equal(createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: {}, extensionMethods: { "rpc.x": { kind: "request", from: "client" } } as never }).options.extensionMethods, undefined);
});

test("session: a method named like one of Object's own (__proto__, constructor) is declared like any other, not lost to the prototype", () => {
  const methods = JSON.parse('{"__proto__": {"kind": "request", "from": "client"}, "constructor": {"kind": "notification", "from": "server"}}');
  const state = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: {}, extensionMethods: methods });
  assert.deepEqual(Object.keys(state.options.extensionMethods!), ["__proto__", "constructor"]);
  assert.equal(JSON.parse(JSON.stringify(state.options.extensionMethods)).__proto__.kind, "request");
});

test("session: a session is made from the declarations its options hold, not from what an earlier session read: the same object, added to or edited in place between two createSession calls, declares what it holds now, as its transcript header (and so its replay) says", () => {
  const methods: Record<string, { kind: string; from: string }> = {};
  const options = { role: "server" as const, info: { name: "s", version: "1" }, capabilities: {}, extensionMethods: methods as never };
  assert.equal(createSession(options).options.extensionMethods, undefined);
  methods["com.example/search"] = { kind: "request", from: "client" };
  const later = createSession(options);
  assert.deepEqual({ ...later.options.extensionMethods }, { "com.example/search": { kind: "request", from: "client" } });
  // The same as a session made from a JSON copy of the options (what a replay builds from the header).
  assert.deepEqual(JSON.parse(JSON.stringify(later)), JSON.parse(JSON.stringify(createSession(JSON.parse(JSON.stringify(options))))));
  methods["com.example/search"].from = "server";
  assert.deepEqual({ ...createSession(options).options.extensionMethods }, { "com.example/search": { kind: "request", from: "server" } });
  delete methods["com.example/search"];
  assert.equal(createSession(options).options.extensionMethods, undefined);
  // Unchanged, the read is shared (an HTTP server makes a session per modern request).
  methods["com.example/x"] = { kind: "notification", from: "both" };
  assert.equal(createSession(options).options.extensionMethods, createSession(options).options.extensionMethods);
});

test("session: a session restored from JSON that sends a method declared both ways and tied to an extension leaves nothing behind in the process once it is dropped (the capability lookup held every restored session's method spec for good: ~260 bytes each, 50 MB over 200,000 restores)", { timeout: 30_000 }, async () => {
  // The test runner does not pass --expose-gc (as in the bench smoke tests).
  setFlagsFromString("--expose-gc");
  const gc = ((globalThis as { gc?: () => void }).gc ?? runInNewContext("gc")) as () => void;
  const caps = { extensions: { "acme/x": {} } };
  const live = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: caps, extensionMethods: { "acme/both": { kind: "request", from: "both", extension: "acme/x" } } });
  step(live, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: caps, clientInfo: { name: "c", version: "1" } } }) });
  step(live, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  const snapshot = JSON.stringify(live);
  const sendFromRestored = (): WeakRef<object> => {
    const restored = JSON.parse(snapshot) as SessionState;
    assert.equal(sendsOf(step(restored, { type: "request", now: 1, method: "acme/both", params: {} }).outputs)[0].method, "acme/both");
    // The spec the step made for the restored declaration (the same object: specs are kept per declaration).
    return new WeakRef(declaredMethodSpec("acme/both", restored.options.extensionMethods!["acme/both"]));
  };
  const refs = [sendFromRestored(), sendFromRestored(), sendFromRestored()];
  // A WeakRef holds its target until the job that made it ends.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  assert.deepEqual(refs.map((r) => r.deref() === undefined), [true, true, true]);
});
