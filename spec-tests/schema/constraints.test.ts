// Rules of params and results beyond the schema's types (src/model/constraints.ts), as the
// method tables apply them. Spec, 2025-11-25 and draft: client/sampling "Message Content
// Constraints" (tool results alone in a user message: MUST; every tool use followed by a
// user message of tool results matching each id: MUST) and client/roots ("uri ... MUST be
// a file:// URI"); schema.ts ToolResultContent.toolUseId ("MUST match the ID from a previous
// ToolUseContent").
import { test } from "node:test";
import assert from "node:assert/strict";
import { INPUT_REQUESTS, methodSpec } from "../../src/model/methods.js";
import { MAX_ISSUES } from "../../src/schema/json-type.js";

const text = (t: string) => ({ type: "text", text: t });
const use = (id: string) => ({ type: "tool_use", id, name: "weather", input: {} });
const result = (id: string) => ({ type: "tool_result", toolUseId: id, content: [text("18°C")] });
const sampling = (messages: object[]) => ({ messages, maxTokens: 10 });

for (const version of ["2025-11-25", "2026-07-28"] as const) {
  // 2026-07-28 has no server-to-client requests: sampling and roots are input requests (MRTR).
  const spec = (method: string) => methodSpec(version, method) ?? INPUT_REQUESTS[method];
  const params = spec("sampling/createMessage").validateParams;
  const roots = spec("roots/list").validateResult!;

  test(`constraints ${version}: sampling messages with tool use answered in full pass`, () => {
    assert.equal(params(sampling([{ role: "user", content: text("weather?") }, { role: "assistant", content: [use("a"), use("b")] }, { role: "user", content: [result("b"), result("a")] }])), null);
  });

  test(`constraints ${version}: schema.ts ToolResultContent.toolUseId "MUST match the ID from a previous ToolUseContent": a tool result answering no earlier tool use is refused`, () => {
    const lone = "a tool result whose toolUseId matches no earlier tool use";
    assert.deepEqual(params(sampling([{ role: "user", content: result("x") }])), [{ path: "/messages/0/content", reason: lone }], "a lone tool result");
    assert.deepEqual(params(sampling([{ role: "assistant", content: use("a") }, { role: "user", content: [result("a"), result("zzz")] }])), [{ path: "/messages/1/content/1", reason: lone }], "one result too many");
    assert.deepEqual(params(sampling([{ role: "user", content: result("a") }, { role: "assistant", content: use("a") }, { role: "user", content: result("a") }])), [{ path: "/messages/0/content", reason: lone }], "a use answers only the results after it");
  });

  test(`constraints ${version}: a user message mixing tool results with other content is refused`, () => {
    const issues = params(sampling([{ role: "assistant", content: use("a") }, { role: "user", content: [result("a"), text("and also")] }]));
    assert.deepEqual(issues, [
      { path: "/messages/1", reason: "a tool use must be followed by a user message of tool results only" },
      { path: "/messages/1/content", reason: "a user message with tool results must contain only tool results" },
    ]);
  });

  test(`constraints ${version}: a tool use not answered by the next message, or not for every id, is refused`, () => {
    assert.deepEqual(params(sampling([{ role: "assistant", content: use("a") }])), [{ path: "/messages/1", reason: "a tool use must be followed by a user message of tool results only" }]);
    assert.deepEqual(params(sampling([{ role: "assistant", content: use("a") }, { role: "user", content: text("no") }])), [{ path: "/messages/1", reason: "a tool use must be followed by a user message of tool results only" }]);
    assert.deepEqual(params(sampling([{ role: "assistant", content: [use("a"), use("b")] }, { role: "user", content: [result("a")] }])), [{ path: "/messages/1", reason: 'no tool result for tool use "b"' }]);
  });

  test(`constraints ${version}: roots must be file:// URIs`, () => {
    assert.equal(roots({ roots: [{ uri: "file:///home/user/project" }] }), null);
    assert.deepEqual(roots({ roots: [{ uri: "file:///a" }, { uri: "https://example.com/repo" }] }), [{ path: "/roots/1/uri", reason: "must be a file:// URI" }]);
  });
}

test("constraints: client/roots' file:// rule is every version's (2025-03-26 and 2025-06-18 schema.ts Root: the uri \"*must* start with file:// for now\"), 2024-11-05 included", () => {
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18"] as const) {
    const roots = methodSpec(version, "roots/list")!.validateResult!;
    assert.deepEqual(roots({ roots: [{ uri: "https://example.com" }] }), [{ path: "/roots/0/uri", reason: "must be a file:// URI" }], version);
    assert.equal(roots({ roots: [{ uri: "file:///home/user/project" }] }), null, version);
  }
});

test("constraints: a rule's issues are capped at MAX_ISSUES, then one saying how many more, as every validator's (the -32602 repeats each in its message and data)", () => {
  const bad = { role: "user", content: [result("a"), text("and also")] };
  const issues = methodSpec("2025-11-25", "sampling/createMessage")!.validateParams(sampling(Array.from({ length: 1000 }, () => bad)))!;
  assert.equal(issues.length, MAX_ISSUES + 1);
  // Two issues a message: mixed content, and a tool result answering no earlier tool use.
  assert.deepEqual(issues[MAX_ISSUES], { path: "", reason: `${2 * 1000 - MAX_ISSUES} more issues not listed` });
  const roots = methodSpec("2025-11-25", "roots/list")!.validateResult!({ roots: Array.from({ length: 1000 }, () => ({ uri: "https://example.com" })) })!;
  assert.equal(roots.length, MAX_ISSUES + 1);
});

test("constraints: 2024-11-05 has no audio content (AudioContent arrived in 2025-03-26, whose schema stands in for it): a tool result, prompt message or sampling message holding audio is invalid there, and only there", () => {
  const audio = { type: "audio", data: "AAAA", mimeType: "audio/wav" };
  const image = { type: "image", data: "AAAA", mimeType: "image/png" };
  const reason = "audio content is not defined in 2024-11-05 (added in 2025-03-26)";
  const old = (method: string) => methodSpec("2024-11-05", method)!;
  assert.deepEqual(old("tools/call").validateResult!({ content: [text("a"), audio] }), [{ path: "/content/1/type", reason }]);
  assert.deepEqual(old("prompts/get").validateResult!({ messages: [{ role: "user", content: image }, { role: "user", content: audio }] }), [{ path: "/messages/1/content/type", reason }]);
  assert.deepEqual(old("sampling/createMessage").validateParams(sampling([{ role: "user", content: audio }])), [{ path: "/messages/0/content/type", reason }]);
  assert.deepEqual(old("sampling/createMessage").validateResult!({ role: "assistant", content: audio, model: "m" }), [{ path: "/content/type", reason }]);
  // What 2024-11-05 defines still passes, and 2025-03-26 takes audio.
  assert.equal(old("tools/call").validateResult!({ content: [text("a"), image, { type: "resource", resource: { uri: "file:///a", text: "x" } }] }), null);
  assert.equal(old("sampling/createMessage").validateResult!({ role: "assistant", content: image, model: "m" }), null);
  assert.equal(methodSpec("2025-03-26", "tools/call")!.validateResult!({ content: [audio] }), null);
  assert.equal(methodSpec("2025-03-26", "prompts/get")!.validateResult!({ messages: [{ role: "user", content: audio }] }), null);
  assert.equal(methodSpec("2025-03-26", "sampling/createMessage")!.validateParams(sampling([{ role: "user", content: audio }])), null);
  // The 2024-11-05 specs are otherwise 2025-03-26's, and the same record each time.
  assert.equal(old("tools/call"), old("tools/call"));
  assert.equal(old("tools/call").capability?.path, methodSpec("2025-03-26", "tools/call")!.capability?.path);
  assert.equal(old("completion/complete").capability, null);
});
