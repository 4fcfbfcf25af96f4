// What an author moving a server from the official SDK writes, in TypeScript: each test
// here is also a compile-time check (the suite is type-checked before it runs), so a
// typing that refuses a correct program fails the build, not a user.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rejection } from "./setup.js";
import { McpClient, McpServer } from "../../src/api/index.js";
import type { CreateMessageResult, JsonSchemaObject } from "../../src/api/types.js";
import type { InstanceOf } from "../../src/api/schema-types.js";
import type { JsonObject, JsonValue } from "../../src/jsonrpc/types.js";
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

/** Holds at compile time only when `X` and `Y` are the same type (the suite is type-checked before it runs). */
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
function sameType<T extends true>(): T | void {}

// 2025-11-25 server/tools: "Servers MUST validate all tool inputs" against the inputSchema,
// so the handler's arguments can be typed from the schema itself, with no type to restate.
test("server/tools: a tool's handler takes its arguments typed from the inputSchema literal: required, optional, nested, enum, nullable", async () => {
  const c = await connect((s) => {
    s.tool(
      "order",
      {
        inputSchema: {
          type: "object",
          properties: {
            sku: { type: "string" },
            qty: { type: "integer" },
            size: { enum: ["S", "M", "L"] },
            gift: { type: "boolean" },
            note: { type: ["string", "null"] },
            lines: { type: "array", items: { type: "object", properties: { at: { type: "number" } }, required: ["at"] } },
            extra: {},
          },
          required: ["sku", "qty", "note"],
        },
      },
      (args) => {
        sameType<Same<typeof args, { [key: string]: unknown; sku: string; qty: number; note: string | null; size?: "S" | "M" | "L"; gift?: boolean; lines?: { [key: string]: unknown; at: number }[]; extra?: JsonValue }>>();
        // JSON Schema lets other properties through, so a name the schema does not give is there to read, as unknown.
        sameType<Same<typeof args.colour, unknown>>();
        const total = args.qty * (args.lines ?? []).reduce((sum, l) => sum + l.at, 0);
        return { content: [{ type: "text", text: `${args.sku.toUpperCase()} ${total} ${args.note ?? "-"} ${args.size ?? "?"}` }] };
      },
    );
  });
  const result = await c.client.callTool("order", { sku: "ab", qty: 2, note: null, size: "M", lines: [{ at: 1.5 }, { at: 2 }] });
  // Closed with additionalProperties: false, the type holds the named properties only.
  void (await connect((s) => {
    s.tool("closed", { inputSchema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false } }, (args) => {
      sameType<Same<typeof args, { a?: string }>>();
      // @ts-expect-error: a property the closed schema does not name is not in the type
      void args.b;
      return { content: [] };
    });
    // A tuple (prefixItems) is not read: its places stay JsonValue, never a wrong narrower type.
    s.tool("row", { inputSchema: { type: "object", properties: { row: { type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } } }, required: ["row"] } }, (args) => {
      sameType<Same<typeof args.row, JsonValue[]>>();
      return { content: [] };
    });
  })).client.close();
  assert.deepEqual(result.content, [{ type: "text", text: "AB 7 - M" }]);
  // The type holds because the server checked first: a wrong argument never reaches the handler.
  assert.equal((await c.client.callTool("order", { sku: "ab", qty: 2.5, note: null })).isError, true);
});

test("server/tools: without a schema literal the arguments stay JsonObject, and tool<A> still names them outright", async () => {
  const wide: JsonSchemaObject = { type: "object", properties: { n: { type: "number" } } };
  const c = await connect((s) => {
    s.tool("wide", { inputSchema: wide }, (args) => {
      sameType<Same<typeof args, JsonObject>>();
      return { content: [{ type: "text", text: JSON.stringify(args) }] };
    });
    s.tool("none", {}, (args) => {
      sameType<Same<typeof args, JsonObject>>();
      return { content: [{ type: "text", text: String(Object.keys(args).length) }] };
    });
    s.tool<{ n: number }>("named", { inputSchema: wide }, (args) => {
      sameType<Same<typeof args, { n: number }>>();
      return { content: [{ type: "text", text: String(args.n * 2) }] };
    });
  });
  assert.deepEqual((await c.client.callTool("wide", { n: 1 })).content, [{ type: "text", text: '{"n":1}' }]);
  assert.deepEqual((await c.client.callTool("none", { a: 1, b: 2 })).content, [{ type: "text", text: "2" }]);
  assert.deepEqual((await c.client.callTool("named", { n: 21 })).content, [{ type: "text", text: "42" }]);
});

// 2025-11-25 server/prompts, Error Handling: missing required arguments are -32602, so a
// getter only runs with every required argument present, and may take them typed so.
test("server/prompts: a prompt's getter takes its arguments typed from the arguments literal: required ones a string, others optional", async () => {
  const c = await connect((s) => {
    s.prompt("review", { arguments: [{ name: "code", required: true }, { name: "style" }] }, (args) => {
      sameType<Same<typeof args.code, string>>();
      sameType<Same<typeof args.style, string | undefined>>();
      // Another argument a client sends is read as a getter read every argument before: a string.
      const other = args["other"];
      sameType<Same<typeof other, string>>();
      return { messages: [{ role: "user", content: { type: "text", text: `${args.code.trim()} (${args.style ?? "any"})` } }] };
    });
    s.prompt("free", {}, (args) => {
      sameType<Same<typeof args, Record<string, string>>>();
      return { messages: [{ role: "user", content: { type: "text", text: Object.keys(args).join() } }] };
    });
  });
  const got = await c.client.getPrompt("review", { code: " x = 1 " });
  assert.deepEqual(got.messages[0].content, { type: "text", text: "x = 1 (any)" });
  assert.equal((await rejection(c.client.getPrompt("review", { style: "terse" }))).code, -32602);
  assert.deepEqual((await c.client.getPrompt("free", { a: "1" })).messages[0].content, { type: "text", text: "a" });
});

test("InstanceOf: const, anyOf and oneOf without a type, boolean schemas, and a nesting past the depth bound widening to JsonValue", () => {
  sameType<Same<InstanceOf<{ const: 3 }>, 3>>();
  sameType<Same<InstanceOf<{ anyOf: [{ type: "string" }, { type: "number" }] }>, string | number>>();
  sameType<Same<InstanceOf<{ oneOf: [{ const: "a" }, { type: "null" }] }>, "a" | null>>();
  sameType<Same<InstanceOf<true>, JsonValue>>();
  sameType<Same<InstanceOf<false>, never>>();
  sameType<Same<InstanceOf<{ type: "array" }>, JsonValue[]>>();
  sameType<Same<InstanceOf<{ type: "object" }>, { [key: string]: JsonValue }>>();
  sameType<Same<InstanceOf<{ type: string }>, JsonValue>>();
  sameType<Same<InstanceOf<{ type: ["object", "null"]; properties: { a: { type: "string" } }; required: ["a"]; additionalProperties: false }>, { a: string } | null>>();
  // A `required` typed wide names no property for certain: each stays optional.
  sameType<Same<InstanceOf<{ type: "object"; properties: { a: { type: "string" } }; required: string[] }>, { [key: string]: unknown; a?: string }>>();
  type Nest<S, N extends unknown[]> = N["length"] extends 12 ? S : Nest<{ type: "array"; items: S }, [...N, 0]>;
  sameType<Same<InstanceOf<Nest<{ type: "string" }, []>>, JsonValue[][][][][][][][][]>>();
  assert.ok(true, "checked by the compiler");
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
