// The rules of src/model/constraints.ts through the API, both ends. Spec 2025-11-25:
// client/roots ("uri ... MUST be a file:// URI"); client/sampling "Message Content
// Constraints" (a user message with tool results MUST contain only tool results).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerContext } from "../../src/api/context.js";
import { connect } from "./setup.js";

/** A tool that runs `ask` and reports the answer, or the error's code and message. */
function reporting(ask: (ctx: ServerContext) => Promise<unknown>) {
  return async (_args: unknown, ctx: ServerContext) => {
    try {
      return { content: [{ type: "text" as const, text: JSON.stringify(await ask(ctx)) }] };
    } catch (e: any) {
      return { content: [{ type: "text" as const, text: JSON.stringify({ code: e.code, message: e.message }) }] };
    }
  };
}
const textOf = (r: { content: { type: string; text?: string }[] }) => JSON.parse(r.content[0].text!);

test("roots: a client handler's root that is not a file:// URI is not sent; the server's listRoots gets -32603", async () => {
  const c = await connect((s) => s.tool("roots", {}, reporting((ctx) => ctx.listRoots())), { handlers: { roots: () => [{ uri: "https://example.com/repo" }] } });
  const got = textOf(await c.client.callTool("roots", {}));
  assert.equal(got.code, -32603);
  assert.match(got.message, /invalid roots\/list result/);
  const ok = await connect((s) => s.tool("roots", {}, reporting((ctx) => ctx.listRoots())), { handlers: { roots: () => [{ uri: "file:///home/project" }] } });
  assert.deepEqual(textOf(await ok.client.callTool("roots", {})), { roots: [{ uri: "file:///home/project" }] });
});

test("roots (2025-11-25 client/roots: uri MUST be a file:// URI), both eras alike: a client handler's https:// root is never sent; in 2025-11-25 the server's listRoots gets -32603; in 2026-07-28 (draft mrtr: answers go in the retry's inputResponses, which carry no error) no retry goes out and the call fails with that -32603; the client reports invalid-result in each", async () => {
  const MODERN = { session: { versions: ["2026-07-28" as const] } };
  for (const era of ["2025-11-25", "2026-07-28"]) {
    const diagnostics: string[] = [];
    const c = await connect((s) => s.tool("roots", {}, reporting((ctx) => ctx.listRoots())), {
      ...(era === "2026-07-28" ? MODERN : {}),
      onEvent: (e) => void (e.type === "diagnostic" && diagnostics.push(e.code)),
      handlers: { roots: () => [{ uri: "https://example.com/repo" }] },
    });
    const got = await c.client.callTool("roots", {}).then((r) => textOf(r), (e) => ({ code: e.code, message: e.message }));
    assert.equal(got.code, -32603, era);
    assert.match(got.message, /invalid roots\/list result: \/roots\/0\/uri: must be a file:\/\/ URI/, era);
    assert.ok(diagnostics.includes("invalid-result"), era);
    assert.ok(!JSON.stringify(c.wire.filter((w) => w.from === "client")).includes("https://example.com/repo"), `${era}: the root never went on the wire`);
    if (era === "2026-07-28") assert.equal(c.sent("client", "tools/call").length, 1, "no retry went out");
  }
});

test("sampling: a request mixing a tool result with text in one user message is refused before it is sent", async () => {
  let sampled = 0;
  const messages = [
    { role: "assistant", content: { type: "tool_use", id: "a", name: "w", input: {} } },
    { role: "user", content: [{ type: "tool_result", toolUseId: "a", content: [] }, { type: "text", text: "and" }] },
  ];
  const c = await connect((s) => s.tool("sample", {}, reporting((ctx) => ctx.sample({ messages, maxTokens: 5 } as never))), {
    capabilities: { sampling: { tools: {} } },
    handlers: { sampling: () => (sampled++, { role: "assistant", content: { type: "text", text: "x" }, model: "m" }) },
  });
  const got = textOf(await c.client.callTool("sample", {}));
  assert.equal(got.code, -32602, JSON.stringify(got));
  assert.match(got.message, /sampling\/createMessage/);
  assert.equal(sampled, 0);
  assert.equal(c.sent("server", "sampling/createMessage").length, 0, "nothing went out");
});

test("sampling (2025-11-25 client/sampling, Tool Choice Modes; \"Both parties SHOULD validate\"): a client that does not check its answers (another SDK's; here McpClient with validateOutgoing off) and answers a tool use to a request that offered no tools has ctx.sample reject -32603 on the server, in both eras, so the tool never reads a tool call it did not offer", { timeout: 10_000 }, async () => {
  const user = { role: "user" as const, content: { type: "text" as const, text: "weather?" } };
  const use = { type: "tool_use", id: "call-1", name: "w", input: {} };
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    const c = await connect((s) => s.tool("sample", {}, reporting((ctx) => ctx.sample({ messages: [user], maxTokens: 5 }))), {
      session: { versions: [era], validateOutgoing: false },
      capabilities: { sampling: { tools: {} } },
      handlers: { sampling: () => ({ role: "assistant", content: use, model: "m", stopReason: "toolUse" }) },
    });
    const got = textOf((await c.client.callTool("sample", {})) as never) as { code?: number; message?: string };
    assert.equal(got.code, -32603, era);
    assert.match(String(got.message), /the client's sampling answer uses a tool the request did not allow: \/content: a tool use, but the request offered no tools/, era);
  }
});

test("sampling (2025-11-25 client/sampling, Tool Choice Modes: with toolChoice none the \"Model MUST NOT use any tools\"; none can be used when none were offered): a handler's tool use then is never sent, in both eras; the server's sample gets -32603 (legacy), the call fails with it and no retry goes out (2026-07-28); with tools offered it goes through", { timeout: 10_000 }, async () => {
  const tools = [{ name: "w", inputSchema: { type: "object" as const } }];
  const user = { role: "user" as const, content: { type: "text" as const, text: "weather?" } };
  const use = { type: "tool_use", id: "call-1", name: "w", input: {} };
  const cases = [
    { params: { messages: [user], maxTokens: 5 }, content: use, why: /\/content: a tool use, but the request offered no tools/ },
    { params: { messages: [user], maxTokens: 5, tools, toolChoice: { mode: "none" as const } }, content: [use], why: /\/content\/0: a tool use, but the request's toolChoice is "none"/ },
    { params: { messages: [user], maxTokens: 5, tools }, content: [use], why: null },
  ];
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    for (const { params, content, why } of cases) {
      const c = await connect((s) => s.tool("sample", {}, reporting((ctx) => ctx.sample(params))), {
        session: { versions: [era] },
        capabilities: { sampling: { tools: {} } },
        handlers: { sampling: () => ({ role: "assistant", content, model: "m", stopReason: "toolUse" }) },
      });
      const got = await c.client.callTool("sample", {}).then((r) => textOf(r as never), (e) => ({ code: e.code, message: e.message }));
      const label = `${era} ${JSON.stringify(params.toolChoice ?? params.tools ?? "no tools")}`;
      if (why === null) {
        assert.deepEqual(got.content, [use], label);
        continue;
      }
      assert.equal(got.code, -32603, label);
      assert.match(got.message, why, label);
      assert.ok(!JSON.stringify(c.wire.filter((w) => w.from === "client")).includes("call-1"), `${label}: the tool use never went on the wire`);
      if (era === "2026-07-28") assert.equal(c.sent("client", "tools/call").length, 1, "no retry went out");
    }
  }
});

test("roots (client/roots: uri MUST be a file:// URI, in every version; 2025-03-26 and 2025-06-18 schema.ts Root: it \"*must* start with file:// for now\"): in a 2025-03-26 or 2025-06-18 session a client handler's https:// root is never sent, and a server refuses one a client sends", { timeout: 10_000 }, async () => {
  for (const version of ["2025-03-26", "2025-06-18"] as const) {
    const c = await connect((s) => s.tool("roots", {}, reporting((ctx) => ctx.listRoots())), { session: { versions: [version] }, handlers: { roots: () => [{ uri: "https://example.com/repo" }] } });
    assert.equal(c.client.protocolVersion, version);
    const got = textOf(await c.client.callTool("roots", {}));
    assert.equal(got.code, -32603, version);
    assert.match(got.message, /invalid roots\/list result: \/roots\/0\/uri: must be a file:\/\/ URI/, version);
    assert.ok(!JSON.stringify(c.wire.filter((w) => w.from === "client")).includes("https://example.com/repo"), `${version}: the root never went on the wire`);
    c.client.close();
    // The server's side: a peer that sends one anyway (validateOutgoing off) is refused on arrival.
    const lax = await connect((s) => s.tool("roots", {}, reporting((ctx) => ctx.listRoots())), { session: { versions: [version], validateOutgoing: false }, handlers: { roots: () => [{ uri: "https://example.com/repo" }] } });
    const refused = textOf(await lax.client.callTool("roots", {}));
    assert.equal(refused.code, -32603, `${version}: ${JSON.stringify(refused)}`);
    assert.match(refused.message, /roots\/list/, version);
    lax.client.close();
  }
});
