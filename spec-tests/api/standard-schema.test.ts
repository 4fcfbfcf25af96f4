// A validation library's schema (Standard Schema V1 with Standard JSON Schema V1, as zod
// 4.2+ implements them) as a tool's inputSchema and outputSchema.
// Spec: 2025-11-25 server/tools: "Servers MUST validate all tool inputs"; a tool's
// inputSchema is a JSON Schema object of `type: "object"` (listed as the library writes it);
// "Servers MUST provide structured results that conform to this schema" (outputSchema);
// input validation errors are tool execution errors (isError) from 2025-11-25, -32602 before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { connect, rejection } from "./setup.js";
import { McpServer } from "../../src/api/index.js";
import type { StandardIssue, StandardResult, StandardSchema } from "../../src/api/index.js";

/** Holds at compile time only when `X` and `Y` are the same type (the suite is type-checked before it runs). */
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
function sameType<T extends true>(): T | void {}

/** The text of a tool result's first content block. */
function textOf(result: { content: { type: string; text?: string }[] }): string | undefined {
  return result.content[0]?.text;
}

/**
 * A Standard Schema written by hand, from the specification alone: no library. `check`
 * validates (maybe asynchronously); `json` is what it writes as JSON Schema.
 */
function handMade<Out>(check: (value: unknown) => StandardResult<Out> | Promise<StandardResult<Out>>, json: () => Record<string, unknown> = () => ({ type: "object" })): StandardSchema<unknown, Out> {
  return { "~standard": { version: 1, vendor: "hand", validate: check, jsonSchema: { input: json, output: json } } };
}

test("server/tools: a zod schema as inputSchema: listed as the JSON Schema zod writes, checked by zod, the handler given zod's parsed value (defaults filled in) typed as zod's output", async () => {
  const c = await connect((s) => {
    s.tool("forecast", { description: "Forecast", inputSchema: z.object({ city: z.string().min(2), days: z.number().int().default(3) }) }, (args) => {
      sameType<Same<typeof args, { city: string; days: number }>>();
      return { content: [{ type: "text", text: `${args.city} for ${args.days} days` }] };
    });
  });
  const [tool] = (await c.client.listTools()).tools;
  assert.deepEqual(tool.inputSchema.properties, { city: { type: "string", minLength: 2 }, days: { default: 3, type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 } });
  assert.deepEqual(tool.inputSchema.required, ["city"], "the input side: a field with a default may be left out");
  assert.equal(textOf(await c.client.callTool("forecast", { city: "Paris" })), "Paris for 3 days");
  const refused = await c.client.callTool("forecast", { city: "P", days: 1.5 });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused)!, /^Invalid arguments for tool forecast: \/city: Too small.*; \/days: .*expected int/);
});

test("server/tools: a zod outputSchema: listed as the JSON Schema of what zod accepts, structured content it refuses is -32603, and what the handler returned is sent as it is", async () => {
  let answer: unknown = { city: "Paris", t: 18 };
  const c = await connect((s) => {
    s.tool("temperature", { outputSchema: z.object({ city: z.string(), t: z.number(), unit: z.enum(["C", "F"]).default("C") }) }, () => ({ content: [], structuredContent: answer as Record<string, unknown> }));
  });
  const [tool] = (await c.client.listTools()).tools;
  // The input side: the client checks the content it gets against this, and `unit` was left out.
  assert.deepEqual(tool.outputSchema?.required, ["city", "t"]);
  const ok = await c.client.callTool("temperature");
  assert.deepEqual(ok.structuredContent, { city: "Paris", t: 18 }, "not zod's output ({ unit: 'C' } added)");
  answer = { city: "Paris", t: "warm" };
  const e = await rejection(c.client.callTool("temperature"));
  assert.equal(e.code, -32603);
  assert.match(e.message, /^tool temperature returned structuredContent that does not match its outputSchema: \/t: /);
});

test("server/tools: a zod discriminated union (a root oneOf, no type) is listed with type object added; a schema of another root type is refused at registration", async () => {
  const c = await connect((s) => {
    s.tool("shape", { inputSchema: z.discriminatedUnion("kind", [z.object({ kind: z.literal("circle"), r: z.number() }), z.object({ kind: z.literal("square"), side: z.number() })]) }, (args) => ({
      content: [{ type: "text", text: args.kind === "circle" ? `r=${args.r}` : `side=${args.side}` }],
    }));
    assert.throws(() => s.tool("text", { inputSchema: z.string() as never }, () => ({ content: [] })), /^TypeError: tool text inputSchema must describe objects; zod wrote type "string"$/);
  });
  const [tool] = (await c.client.listTools()).tools;
  assert.equal(tool.inputSchema.type, "object");
  assert.equal((tool.inputSchema.oneOf as unknown[]).length, 2);
  assert.equal(textOf(await c.client.callTool("shape", { kind: "square", side: 2 })), "side=2");
  assert.equal((await c.client.callTool("shape", { kind: "triangle" })).isError, true);
});

test("server/tools: a Standard Schema written from the specification alone: an asynchronous validate, issue paths of keys and of { key } segments as RFC 6901 pointers, no issues listed, a throwing validate as the tool's failure", async () => {
  const issues: StandardIssue[] = [{ message: "bad", path: ["a/b", { key: 0 }, "c~d"] }, { message: "worse" }];
  const c = await connect((s) => {
    s.tool("async", { inputSchema: handMade(async (v) => ((v as { ok?: unknown }).ok === true ? { value: { ok: true, parsed: "yes" } } : { issues })) }, (args) => ({
      content: [{ type: "text", text: String((args as { parsed?: unknown }).parsed) }],
    }));
    s.tool("silent", { inputSchema: handMade(() => ({ issues: [] })) }, () => ({ content: [] }));
    s.tool("throws", { inputSchema: handMade(() => {
      throw new Error("the library broke");
    }) }, () => ({ content: [] }));
  });
  assert.equal(textOf(await c.client.callTool("async", { ok: true })), "yes", "the handler gets the parsed value");
  assert.equal(textOf(await c.client.callTool("async", { ok: false })), "Invalid arguments for tool async: /a~1b/0/c~0d: bad; /: worse");
  assert.equal(textOf(await c.client.callTool("silent")), "Invalid arguments for tool silent: /: invalid", "a failure that names no issue still fails");
  const thrown = await c.client.callTool("throws");
  assert.deepEqual([thrown.isError, textOf(thrown)], [true, "the library broke"]);
});

test("server/tools: arguments a library refuses are a -32602 protocol error before 2025-11-25, as a JSON Schema's are", async () => {
  const c = await connect((s) => s.tool("strict", { inputSchema: z.object({ n: z.number() }) }, () => ({ content: [] })), { session: { versions: ["2025-06-18"] } });
  const e = await rejection(c.client.callTool("strict", { n: "1" }));
  assert.equal(e.code, -32602);
  assert.match(e.message, /^Invalid arguments for tool strict: \/n: /);
  assert.equal(e.data.issues[0].path, "/n");
});

test("server/tools: a library's schema that cannot be listed is refused at registration: no JSON Schema converter, a converter that throws, one that writes no object, an x-mcp-header that is not valid", () => {
  const server = new McpServer({ name: "s", version: "1" });
  const noConverter = { "~standard": { version: 1, vendor: "old", validate: () => ({ value: {} }) } } as unknown as StandardSchema<unknown, object>;
  assert.throws(() => server.tool("a", { inputSchema: noConverter }, () => ({ content: [] })), /^TypeError: tool a inputSchema is a old schema without a JSON Schema converter \(~standard.jsonSchema/);
  const throwing = handMade(() => ({ value: {} }), () => {
    throw new Error("Date cannot be represented");
  });
  assert.throws(() => server.tool("b", { inputSchema: throwing }, () => ({ content: [] })), /^TypeError: tool b inputSchema: hand cannot write it as JSON Schema 2020-12 \(Date cannot be represented\)$/);
  assert.throws(() => server.tool("c", { outputSchema: handMade(() => ({ value: {} }), () => [] as never) }, () => ({ content: [] })), /^TypeError: tool c outputSchema: hand wrote it as \[\], not a JSON Schema object$/);
  const header = z.object({ region: z.string().meta({ "x-mcp-header": "bad header" }) });
  assert.throws(() => server.tool("d", { inputSchema: header }, () => ({ content: [] })), /^TypeError: tool "d" inputSchema has an invalid x-mcp-header/);
  assert.equal(server.inputSchemaOf("a"), undefined, "nothing registered");
});

test("server/tools: a library's asynchronous outputSchema check: content it accepts is sent, content it refuses is -32603", async () => {
  const c = await connect((s) => {
    s.tool("counted", { outputSchema: handMade(async (v) => (typeof (v as { n?: unknown }).n === "number" ? { value: v } : { issues: [{ message: "n must be a number", path: ["n"] }] })) }, (args) => ({ content: [], structuredContent: { n: args.n } }));
  });
  assert.deepEqual((await c.client.callTool("counted", { n: 1 })).structuredContent, { n: 1 });
  const e = await rejection(c.client.callTool("counted", { n: "one" }));
  assert.equal(e.code, -32603);
  assert.equal(e.message, "tool counted returned structuredContent that does not match its outputSchema: /n: n must be a number");
});

// 2025-11-25 server/prompts: a prompt lists its arguments (name, description, required);
// "Invalid prompt name: -32602", "Missing required arguments: -32602".
test("server/prompts: a zod argsSchema: listed as its properties (descriptions, the required ones), checked by zod (-32602 when it refuses), the getter given zod's parsed value typed as zod's output", async () => {
  const c = await connect((s) => {
    s.prompt("review", { argsSchema: z.object({ code: z.string().describe("The code to review"), style: z.enum(["short", "long"]).optional(), lines: z.coerce.number().int().optional() }) }, (args) => {
      sameType<Same<typeof args, { code: string; style?: "short" | "long" | undefined; lines?: number | undefined }>>();
      return { messages: [{ role: "user", content: { type: "text", text: `${args.style ?? "any"} review of ${args.code}, ${typeof args.lines} ${args.lines}` } }] };
    });
  });
  const [prompt] = (await c.client.listPrompts()).prompts;
  assert.deepEqual(prompt.arguments, [{ name: "code", description: "The code to review", required: true }, { name: "style" }, { name: "lines" }]);
  const got = await c.client.getPrompt("review", { code: "x = 1", lines: "12" });
  const message = got.messages[0].content;
  assert.equal(message.type === "text" ? message.text : undefined, "any review of x = 1, number 12", "zod's coercion reached the getter");
  const refused = await rejection(c.client.getPrompt("review", { code: "x", style: "medium" }));
  assert.equal(refused.code, -32602);
  assert.match(refused.message, /^Invalid arguments for prompt review: \/style: /);
  const missing = await rejection(c.client.getPrompt("review", {}));
  assert.deepEqual([missing.code, missing.message], [-32602, "Missing required argument: code"]);
});

test("server/prompts: an argsSchema is refused at registration beside arguments, when it is no Standard Schema, or when it does not describe an object", () => {
  const server = new McpServer({ name: "s", version: "1" });
  const getter = () => ({ messages: [] });
  assert.throws(() => server.prompt("a", { arguments: [{ name: "x" }], argsSchema: z.object({ x: z.string() }) } as never, getter), /^TypeError: prompt "a": give arguments or argsSchema, not both$/);
  assert.throws(() => server.prompt("b", { argsSchema: { type: "object" } } as never, getter), /^TypeError: prompt "b" argsSchema must be a Standard Schema/);
  assert.throws(() => server.prompt("c", { argsSchema: z.string() } as never, getter), /^TypeError: prompt "c" argsSchema must describe an object of named arguments/);
});

// 2025-11-25 client/elicitation: a form's requestedSchema is the restricted subset of JSON
// Schema; "Servers SHOULD validate received data matches the requested schema". The draft
// gathers the same input with input_required (basic/patterns/mrtr), the same ctx.elicit.
test("client/elicitation: ctx.elicit with a zod requestedSchema sends the JSON Schema zod writes and hands back the content as zod parsed it, typed as zod's output, in both eras; content zod refuses rejects with -32603", async () => {
  // The refinement is zod's alone: its JSON Schema cannot say it, so only the server's zod check refuses "root".
  const form = z.object({ name: z.string().min(1).refine((n) => n !== "root", "reserved"), age: z.number().int().min(0), newsletter: z.boolean().default(false) });
  for (const versions of [["2025-11-25"], ["2026-07-28"]] as const) {
    let content: Record<string, unknown> = { name: "Ann", age: 30 };
    const asked: unknown[] = [];
    const c = await connect(
      (s) =>
        s.tool("signup", {}, async (_args, ctx) => {
          const result = await ctx.elicit({ message: "Who are you?", requestedSchema: form });
          if (result.action !== "accept" || result.content === undefined) return { content: [{ type: "text", text: result.action }] };
          sameType<Same<typeof result.content, { name: string; age: number; newsletter: boolean }>>();
          return { content: [{ type: "text", text: `${result.content.name} ${result.content.age} ${result.content.newsletter}` }] };
        }),
      { session: { versions: [...versions] }, handlers: { elicitation: (params) => (asked.push(params.mode === "url" ? undefined : params.requestedSchema), { action: "accept", content: content as never }) } },
      { session: { versions: [...versions] } },
    );
    assert.equal(textOf(await c.client.callTool("signup")), "Ann 30 false", `${versions[0]}: the default filled in`);
    assert.deepEqual((asked[0] as { properties: unknown }).properties, { name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0, maximum: 9007199254740991 }, newsletter: { default: false, type: "boolean" } });
    content = { name: "root", age: 30 };
    const refused = await c.client.callTool("signup");
    assert.equal(refused.isError, true, versions[0]);
    assert.match(textOf(refused)!, /^the client's elicitation content does not match the requested schema: \/name: reserved$/);
    c.client.close();
  }
});

test("Standard Schema: a schema given an id (zod writes its root as a $ref into $defs) is listed with that root inlined, so a prompt's arguments and an elicitation form read it; a validate that answers neither a value nor issues is the tool's failure, not arguments of undefined", async () => {
  const c = await connect((s) => {
    s.prompt("review", { argsSchema: z.object({ code: z.string() }).meta({ id: "ReviewArgs" }) }, (args) => ({ messages: [{ role: "user", content: { type: "text", text: args.code } }] }));
    s.tool("broken", { inputSchema: handMade(() => ({}) as never) }, () => ({ content: [{ type: "text", text: "ran" }] }));
    s.tool("nothing", { inputSchema: handMade(() => null as never) }, () => ({ content: [{ type: "text", text: "ran" }] }));
    s.tool("form", {}, async (_args, ctx) => {
      const r = await ctx.elicit({ message: "Who?", requestedSchema: z.object({ name: z.string() }).meta({ id: "Who" }) });
      return { content: [{ type: "text", text: r.action === "accept" ? (r.content?.name ?? "") : r.action }] };
    });
  }, { handlers: { elicitation: () => ({ action: "accept", content: { name: "Ann" } }) } });
  const [prompt] = (await c.client.listPrompts()).prompts;
  assert.deepEqual(prompt.arguments, [{ name: "code", required: true }]);
  assert.equal(textOf(await c.client.callTool("form")), "Ann");
  for (const name of ["broken", "nothing"]) {
    const r = await c.client.callTool(name);
    assert.deepEqual([r.isError, textOf(r)], [true, "hand's validate returned neither a value nor issues"], name);
  }
});
