// Spec: 2025-11-25 client/sampling, client/elicitation, client/roots.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";

const sampling = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 };
const form = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
const url = { mode: "url", message: "Sign in", url: "https://example.com/auth", elicitationId: "e-1" };

function ready(clientCaps: Record<string, unknown>) {
  const p = new Pair({ capabilities: clientCaps });
  p.handshake();
  return p;
}

test("client/sampling: clients that support sampling MUST declare it; the server's request reaches the client app", () => {
  const p = ready({ sampling: {} });
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { role: "assistant", content: { type: "text", text: "hello" }, model: "m" });
  p.request("server", "sampling/createMessage", sampling);
  p.run();
  assert.equal(p.of("server", "response")[0].result.model, "m");
  const none = ready({});
  assert.equal((none.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: sampling })[0] as any).error.code, ErrorCode.MethodNotFound);
});

test("client/sampling: servers MUST NOT send tool-enabled sampling to clients without sampling.tools", () => {
  const withTools = { ...sampling, tools: [{ name: "t", inputSchema: { type: "object" } }] };
  const p = ready({ sampling: {} });
  const out = p.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: withTools });
  assert.equal((out[0] as any).error.code, ErrorCode.InvalidParams);
  // A client receiving one anyway answers -32602.
  const r = sendsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "sampling/createMessage", params: withTools })));
  assert.equal(r[0].error.code, ErrorCode.InvalidParams);
  const ok = ready({ sampling: { tools: {} } });
  assert.equal(ok.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: withTools })[0].type, "send");
});

test("client/sampling (Message Content Constraints; Error Handling: clients SHOULD return -32602 for \"Tool result missing in request\" and \"Tool results mixed with other content\"): a client receiving such a request answers -32602 and its application never sees it; a balanced one reaches it", () => {
  const ask = { role: "user", content: { type: "text", text: "weather?" } };
  const uses = { role: "assistant", content: [{ type: "tool_use", id: "a", name: "w", input: {} }, { type: "tool_use", id: "b", name: "w", input: {} }] };
  const result = (id: string) => ({ type: "tool_result", toolUseId: id, content: [{ type: "text", text: "sunny" }] });
  const tools = [{ name: "w", inputSchema: { type: "object" } }];
  const cases: [string, unknown[]][] = [
    ["missing tool result", [ask, uses, { role: "user", content: [result("a")] }]],
    ["tool results mixed with text", [ask, uses, { role: "user", content: [result("a"), result("b"), { type: "text", text: "and" }] }]],
    ["tool use followed by another message", [ask, uses, ask]],
  ];
  for (const [label, messages] of cases) {
    const p = ready({ sampling: { tools: {} } });
    const r = sendsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "sampling/createMessage", params: { messages, maxTokens: 10, tools } })));
    assert.equal(r[0].error.code, ErrorCode.InvalidParams, label);
    assert.equal(p.of("client", "request").length, 0, `${label}: the application never sees it`);
  }
  const p = ready({ sampling: { tools: {} } });
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "sampling/createMessage", params: { messages: [ask, uses, { role: "user", content: [result("b"), result("a")] }], maxTokens: 10, tools } }));
  assert.equal(p.of("client", "request").length, 1, "every tool use answered, in any order: delivered");
});

test("client/sampling (2025-11-25): servers SHOULD NOT use includeContext thisServer/allServers unless the client declares sampling.context: ours refuses to send them (-32602); none or absent is fine; a client receiving one accepts it (it MAY ignore the field); 2025-06-18 had no such capability", () => {
  const p = ready({ sampling: {} });
  for (const includeContext of ["thisServer", "allServers"]) {
    const out = p.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: { ...sampling, includeContext } });
    assert.equal((out[0] as any).error.code, ErrorCode.InvalidParams, includeContext);
    assert.deepEqual((out[0] as any).error.data.requiredCapabilities, { sampling: { context: {} } });
  }
  assert.equal(p.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: { ...sampling, includeContext: "none" } })[0].type, "send");
  assert.equal(p.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: sampling })[0].type, "send");
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { role: "assistant", content: { type: "text", text: "hello" }, model: "m" });
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "sampling/createMessage", params: { ...sampling, includeContext: "thisServer" } }));
  assert.equal(p.of("client", "request").length, 1, "the receiving client's application gets it");
  const ok = ready({ sampling: { context: {} } });
  assert.equal(ok.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: { ...sampling, includeContext: "allServers" } })[0].type, "send");
  const old = new Pair({ versions: ["2025-06-18"], capabilities: { sampling: {} } }, { versions: ["2025-06-18"] });
  old.handshake();
  assert.equal(old.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: { ...sampling, includeContext: "thisServer" } })[0].type, "send");
});

test("client/elicitation: an empty elicitation capability means form mode only", () => {
  const p = ready({ elicitation: {} });
  assert.equal(p.feed("server", { type: "request", now: 0, method: "elicitation/create", params: form })[0].type, "send");
  const out = p.feed("server", { type: "request", now: 0, method: "elicitation/create", params: url });
  assert.equal((out[0] as any).error.code, ErrorCode.InvalidParams);
});

test("client/elicitation: servers MUST NOT send modes the client did not declare; a client receiving one answers -32602", () => {
  const p = ready({ elicitation: { url: {} } });
  assert.equal(p.feed("server", { type: "request", now: 0, method: "elicitation/create", params: url })[0].type, "send");
  assert.equal((p.feed("server", { type: "request", now: 0, method: "elicitation/create", params: form })[0] as any).error.code, ErrorCode.InvalidParams);
  const r = sendsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 77, method: "elicitation/create", params: form })));
  assert.equal(r[0].error.code, ErrorCode.InvalidParams);
});

test("client/elicitation: requests without mode are form mode", () => {
  const p = ready({ elicitation: { form: {} } });
  const { mode: _drop, ...noMode } = form;
  assert.equal(p.feed("server", { type: "request", now: 0, method: "elicitation/create", params: noMode })[0].type, "send");
});

test("client/elicitation: Clients MUST treat requests without a mode field as form mode: a client that declared only url mode answers a modeless form -32602 (a mode it did not declare), one that declared form (or an empty elicitation) hands it to its application", () => {
  const { mode: _drop, ...noMode } = form;
  const message = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "elicitation/create", params: noMode });
  const urlOnly = ready({ elicitation: { url: {} } });
  const r = sendsOf(urlOnly.inject("client", message(7)));
  assert.equal(r[0].error.code, ErrorCode.InvalidParams);
  assert.deepEqual(r[0].error.data.requiredCapabilities, { elicitation: { form: {} } });
  assert.equal(urlOnly.of("client", "request").length, 0);
  for (const caps of [{ form: {} }, {}, { form: {}, url: {} }]) {
    const p = ready({ elicitation: caps });
    p.inject("client", message(8));
    assert.equal(p.of("client", "request").length, 1, JSON.stringify(caps));
  }
});

test("client/elicitation: notifications/elicitation/complete for unknown or completed ids MUST be ignored", () => {
  const p = ready({ elicitation: { url: {} } });
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { action: "accept" });
  p.request("server", "elicitation/create", url);
  p.run();
  const complete = { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e-1" } };
  p.inject("client", JSON.stringify(complete));
  p.inject("client", JSON.stringify(complete));
  p.inject("client", JSON.stringify({ ...complete, params: { elicitationId: "other" } }));
  assert.equal(p.of("client", "notification").length, 1);
  assert.equal(p.of("client", "diagnostic").filter((d) => d.code === "unknown-elicitation").length, 2);
});

test("client/elicitation: the URL-elicitation-required error -32042 reaches the application with its data", () => {
  const p = ready({ elicitation: { url: {} } });
  p.handlers.server = (req, pair) =>
    pair.feed("server", { type: "respond", now: 0, id: req.id, error: { code: ErrorCode.UrlElicitationRequired, message: "auth needed", data: { elicitations: [url] } } });
  p.request("client", "tools/call", { name: "x" });
  p.run();
  const err = p.of("client", "error")[0];
  assert.equal(err.error.code, -32042);
  assert.equal((err.error.data as any).elicitations[0].elicitationId, "e-1");
});

test("client/elicitation + README Limits (URL-mode elicitations a client awaits the completion of: 256, the oldest forgotten): past the bound the oldest id's completion is dropped as unknown; the newer ones still reach the application", () => {
  const p = ready({ elicitation: { url: {} } });
  const batches = [Array.from({ length: 256 }, (_, i) => ({ ...url, elicitationId: `e-${i}` })), [{ ...url, elicitationId: "e-256" }]];
  for (const elicitations of batches) {
    p.handlers.server = (req, pair) => pair.feed("server", { type: "respond", now: 0, id: req.id, error: { code: ErrorCode.UrlElicitationRequired, message: "auth needed", data: { elicitations } } });
    p.request("client", "tools/call", { name: "x" });
    p.run();
  }
  for (const elicitationId of ["e-0", "e-1", "e-256"]) p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } }));
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.elicitationId), ["e-1", "e-256"]);
  assert.deepEqual(p.of("client", "diagnostic").filter((d) => d.code === "unknown-elicitation").map((d) => (d.detail as any).elicitationId), ["e-0"]);
});

test("client/elicitation + README Limits (256, the oldest forgotten): the oldest is the one remembered first, whatever its id: a newer integer-like id (\"7\", which an object lists first) is kept, also in a state saved before the order was recorded", { timeout: 10_000 }, () => {
  const p = ready({ elicitation: { url: {} } });
  const required = (ids: string[]) => {
    const elicitations = ids.map((elicitationId) => ({ ...url, elicitationId }));
    p.handlers.server = (req, pair) => pair.feed("server", { type: "respond", now: 0, id: req.id, error: { code: ErrorCode.UrlElicitationRequired, message: "auth needed", data: { elicitations } } });
    p.request("client", "tools/call", { name: "x" });
    p.run();
  };
  const complete = (elicitationId: string) => p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } }));
  const unknown = () => p.of("client", "diagnostic").filter((d) => d.code === "unknown-elicitation").map((d) => (d.detail as any).elicitationId);
  required(["oldest", ...Array.from({ length: 254 }, (_, i) => `e-${i}`), "7"]);
  required(["e-new"]);
  complete("7");
  complete("oldest");
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.elicitationId), ["7"]);
  assert.deepEqual(unknown(), ["oldest"]);
  // A state saved before the order was recorded (no urlElicitationOrder) goes on: the bound holds, and completions still reach the application.
  const state = p.state("client");
  delete state.urlElicitationOrder;
  Object.assign(state, JSON.parse(JSON.stringify(state)));
  required(["e-newer", "e-newest"]);
  assert.equal(Object.keys(state.urlElicitations).length, 256);
  complete("e-newest");
  complete("e-0");
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.elicitationId), ["7", "e-newest"]);
  assert.deepEqual(unknown(), ["oldest", "e-0"]);
  assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
});

test("client/elicitation: an elicitation id learned from a -32042 error is known, so its notifications/elicitation/complete reaches the application (clients MAY wait for it to retry; only unknown or completed ids MUST be ignored)", () => {
  const p = ready({ elicitation: { url: {} } });
  const required = [url, { ...url, elicitationId: "e-2" }, { ...url, mode: "form", elicitationId: "not-url" }, { ...url, elicitationId: 7 }, null];
  // A peer's -32042 with entries the schema refuses: written on the wire as another server
  // would (a kernel server does not send it: its own errors are held to the spec as they leave).
  p.handlers.server = (req, pair) =>
    pair.inject("client", JSON.stringify({ jsonrpc: "2.0", id: req.id, error: { code: ErrorCode.UrlElicitationRequired, message: "auth needed", data: { elicitations: required } } }));
  p.request("client", "tools/call", { name: "x" });
  p.run();
  const complete = (elicitationId: unknown) => p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } }));
  complete("e-2");
  complete("e-1");
  complete("e-1");
  complete("not-url");
  assert.deepEqual(p.of("client", "notification").map((n) => n.params?.elicitationId), ["e-2", "e-1"]);
  assert.equal(p.of("client", "diagnostic").filter((d) => d.code === "unknown-elicitation").length, 2, "a completed id and one from an entry that is not a URL elicitation are ignored");
  // A -32042 whose data is not the schema's shape teaches nothing and fails nothing.
  p.handlers.server = (req, pair) => pair.inject("client", JSON.stringify({ jsonrpc: "2.0", id: req.id, error: { code: ErrorCode.UrlElicitationRequired, message: "x", data: "nonsense" } }));
  p.request("client", "tools/call", { name: "x" });
  p.run();
  assert.equal(p.of("client", "error").length, 2);
});

test("client/roots: roots/list needs the roots capability (-32601 otherwise); list_changed needs roots.listChanged", () => {
  const p = ready({ roots: { listChanged: true } });
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { roots: [{ uri: "file:///home/user/project", name: "project" }] });
  p.request("server", "roots/list");
  p.run();
  assert.equal((p.of("server", "response")[0].result.roots as unknown[]).length, 1);
  p.feed("client", { type: "notify", now: 0, method: "notifications/roots/list_changed" });
  p.run();
  assert.equal(p.of("server", "notification")[0].method, "notifications/roots/list_changed");
  const none = ready({});
  const r = sendsOf(none.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 3, method: "roots/list" })));
  assert.equal(r[0].error.code, ErrorCode.MethodNotFound);
  assert.equal(none.feed("client", { type: "notify", now: 0, method: "notifications/roots/list_changed" })[0].type, "diagnostic");
});
