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
