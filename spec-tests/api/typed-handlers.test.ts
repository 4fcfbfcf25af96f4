// What an author moving a server from the official SDK writes, in TypeScript: each test
// here is also a compile-time check (the suite is type-checked before it runs), so a
// typing that refuses a correct program fails the build, not a user.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "./setup.js";
import { McpClient, McpServer } from "../../src/api/index.js";
import type { CreateMessageResult } from "../../src/api/types.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";

// 2025-11-25 server/tools: the server validates `arguments` against the tool's inputSchema
// before the handler runs, so the handler may take them typed as that schema says.
test("server/tools: tool<A> hands the handler its arguments typed as its inputSchema describes them", async () => {
  const c = await connect((s) => {
    s.tool<{ n: number; label?: string }>(
      "increment",
      { inputSchema: { type: "object", properties: { n: { type: "number" }, label: { type: "string" } }, required: ["n"] } },
      ({ n, label = "n" }) => ({ content: [{ type: "text", text: `${label} + 1 = ${n + 1}` }] }),
    );
  });
  const result = await c.client.callTool("increment", { n: 41 });
  const first = result.content[0];
  assert.equal(first.type === "text" ? first.text : undefined, "n + 1 = 42");
  // The schema check still stands in front of the handler: a string `n` never reaches it.
  const refused = await c.client.callTool("increment", { n: "41" });
  assert.equal(refused.isError, true);
});

// 2025-11-25 client/sampling: a result's content is one block, or (when the request gave
// tools) several, e.g. parallel tool uses: the type says both, and narrowing reads a block.
test("client/sampling: a sampling result's content is typed as one block or an array of them, readable once narrowed", async () => {
  const answer = (text: string): CreateMessageResult => ({ role: "assistant", content: { type: "text", text }, model: "m" });
  const c = await connect(
    (s) => {
      s.tool("summarize", {}, async (_args, ctx) => {
        const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "summarize" } }], maxTokens: 10 });
        const text = !Array.isArray(r.content) && r.content.type === "text" ? r.content.text : "(not text)";
        return { content: [{ type: "text", text }] };
      });
    },
    { handlers: { sampling: () => answer("short") } },
  );
  const result = await c.client.callTool("summarize");
  assert.deepEqual(result.content, [{ type: "text", text: "short" }]);
});

// A router in front of the MCP endpoint answers its own routes synchronously (the SDK's
// elicitationUrlExample serves a confirmation page beside /mcp).
test("serveNode: a handler may answer with a Response at once; the MCP endpoint behind it still serves", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.tool("ping", {}, () => ({ content: [{ type: "text", text: "pong" }] }));
  const mcp = createHttpHandler({ path: "/mcp", createSession: server.httpSession() });
  const srv = await serveNode((req) => (new URL(req.url).pathname === "/confirm" ? new Response("confirmed") : mcp(req)), { port: 0, host: "127.0.0.1" });
  const client = new McpClient({ name: "c", version: "1" });
  try {
    assert.equal(await (await fetch(`${srv.url}/confirm`)).text(), "confirmed");
    await client.connect(httpClientTransport(`${srv.url}/mcp`));
    assert.deepEqual((await client.callTool("ping")).content, [{ type: "text", text: "pong" }]);
  } finally {
    await client.close();
    await srv.close();
  }
});

// 2025-11-25 client/sampling: the client's answer is held to CreateMessageResult before it
// goes out (the kernel's outgoing check), so its handler's type may be loose: a block built
// apart (its `type` widened to string) compiles, and a malformed one fails the server's
// request with -32603 instead of reaching it.
test("client/sampling: a sampling handler may answer with a block built apart; a malformed answer fails the server's ctx.sample with -32603", async () => {
  const seen: string[] = [];
  const c = await connect(
    (s) => {
      s.tool("ask", {}, async (_args, ctx) => {
        try {
          const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 });
          seen.push(!Array.isArray(r.content) && r.content.type === "text" ? r.content.text : "?");
        } catch (e) {
          seen.push(`error ${(e as { code?: number }).code}`);
        }
        return { content: [] };
      });
    },
    {
      handlers: {
        sampling: () => {
          const content = seen.length === 0 ? { type: "text", text: "fine" } : { type: "text" };
          return { role: "assistant", content, model: "m" };
        },
      },
    },
  );
  await c.client.callTool("ask");
  await c.client.callTool("ask");
  assert.deepEqual(seen, ["fine", "error -32603"]);
});
