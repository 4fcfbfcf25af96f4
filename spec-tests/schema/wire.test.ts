// Spec: draft basic/index ("Schema": schema.ts / schema.json is the source of truth for
// every protocol message) and each version's schema.json. Every message our server and
// our client put on the wire, while broad scenarios run in every protocol version, is
// checked against the official schema.json of that version by wire-check.ts: the
// built-in JSON Schema interpreter reading the vendored schema files, not the generated
// tables the kernel validates with. And those tables are held to the same files on
// generated and mutated instances of every type, so they cannot drift unseen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server.js";
import { McpServer } from "../../src/api/server.js";
import { McpClient, type McpClientOptions } from "../../src/api/client.js";
import { ProtocolError } from "../../src/api/server/errors.js";
import { McpError } from "../../src/driver/endpoint.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { ManualClock } from "../../src/driver/clock.js";
import { typeNames, validatorFor } from "../../src/schema/index.js";
import { SCHEMA_VERSIONS } from "../../src/model/versions.js";
import { check, checkWire, describeFailures, type WireMessage } from "./wire-check.js";
import { definitions } from "./repo.js";

const ALL = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
const turns = async (n = 20): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};
/** The tasks extension's methods (2026-07-28): outside schema.json, checked by hand in wire-check.ts. */
const extensionMethods = (version: string) => (method: string) => version === "2026-07-28" && method.startsWith("tasks/");

/** A memory pair whose every message is recorded, parsed. */
function recordedPair(): { wire: WireMessage[]; ends: ReturnType<typeof createMemoryPair> } {
  const wire: WireMessage[] = [];
  const ends = createMemoryPair({ onSend: (i, text) => wire.push({ from: i === 0 ? "server" : "client", message: JSON.parse(text) }) });
  return { wire, ends };
}

/** Answers whatever form it is shown with the first value each field allows. */
const HANDLERS: McpClientOptions["handlers"] = {
  elicitation: (p: any) => {
    if (p.mode === "url" || p.message === "decline") return { action: p.mode === "url" ? "accept" : "decline" } as never;
    if (p.message === "throw") throw new Error("handler broke");
    const content: Record<string, unknown> = {};
    for (const [k, s] of Object.entries<any>(p.requestedSchema.properties)) {
      content[k] = s.type === "boolean" ? true : s.type === "integer" || s.type === "number" ? (s.minimum ?? 1) : s.type === "array" ? [s.items?.enum?.[0] ?? s.items?.anyOf?.[0]?.const] : (s.enum?.[0] ?? s.oneOf?.[0]?.const ?? `v-${k}`);
    }
    return { action: "accept", content } as never;
  },
  sampling: (p: any) =>
    (p.tools !== undefined
      ? { role: "assistant", content: [{ type: "tool_use", id: "u2", name: "t", input: { a: 1 } }], model: "m", stopReason: "toolUse" }
      : { role: "assistant", content: { type: "text", text: "Paris" }, model: "m", stopReason: "endTurn" }) as never,
  roots: () => [{ uri: "file:///a", name: "a" }, { uri: "file:///b" }],
};

/** Arguments with a value of each property's type. */
function sampleArguments(schema: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries<any>(schema?.properties ?? {})) {
    out[k] = s.type === "number" || s.type === "integer" ? 1 : s.type === "boolean" ? true : s.type === "object" ? {} : s.type === "array" ? [] : `x-${k}`;
  }
  return out;
}

for (const version of ALL) {
  for (const tasks of [false, true]) {
    test(`schema.json (${version}): the demo server and McpClient, every tool, resource, prompt, completion, subscription and error path, tasks ${tasks ? "declared" : "not declared"}: every message validates`, { timeout: 30000 }, async () => {
      const clock = new ManualClock();
      const server = createDemoServer({ clock, delay: async () => {}, server: { session: { versions: [...ALL] } } });
      const { wire, ends } = recordedPair();
      server.connect(ends[0]);
      const client = new McpClient({ name: "wire", version: "1" }, { clock, handlers: HANDLERS, tasks, session: { versions: [version] } });
      await client.connect(ends[1]);
      // Outcomes are not the point (a demo tool may fail on purpose): what went on the wire is.
      const attempt = async (f: () => Promise<unknown>): Promise<void> => {
        await f().catch(() => {});
      };
      const tools: any[] = [];
      for await (const t of client.iterateTools()) tools.push(t);
      for (const t of tools) {
        await attempt(async () => {
          const args = sampleArguments(t.inputSchema);
          const first = t.execution?.taskSupport === "required" ? await client.callToolAsTask(t.name, args) : await client.callTool(t.name, args, { onProgress: () => {} });
          const id = client.taskIdOf(first as never);
          if (id !== undefined) {
            await client.getTask(id);
            await client.listTasks().catch(() => {});
            await client.waitForTask(id);
          }
        });
      }
      await attempt(async () => {
        const id = client.taskIdOf((await client.callToolAsTask("slow_compute", { seconds: 0 })) as never);
        if (id !== undefined) {
          await client.cancelTask(id).catch(() => {});
          await client.getTask(id);
        }
      });
      for await (const r of client.iterateResources()) await attempt(() => client.readResource(r.uri));
      await attempt(async () => {
        for await (const _ of client.iterateResourceTemplates());
      });
      await attempt(() => client.readResource("test://template/123/data"));
      await attempt(() => client.readResource("test://nope"));
      await attempt(() => client.subscribeResource("test://watched-resource"));
      await attempt(() => client.callTool("test_trigger_resource_update"));
      await attempt(() => client.unsubscribeResource("test://watched-resource"));
      for await (const p of client.iteratePrompts()) await attempt(() => client.getPrompt(p.name, Object.fromEntries((p.arguments ?? []).map((a: any) => [a.name, "test://x"]))));
      await attempt(() => client.getPrompt("nope"));
      await attempt(() => client.getPrompt("test_prompt_with_arguments", {}));
      await attempt(() => client.complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, { name: "arg1", value: "pa" }));
      await attempt(() => client.complete({ type: "ref/resource", uri: "test://template/{id}/data" }, { name: "id", value: "1" }));
      await attempt(() => client.complete({ type: "ref/prompt", name: "nope" }, { name: "arg1", value: "pa" }));
      await attempt(() => client.setLoggingLevel("debug"));
      await attempt(() => client.callTool("test_tool_with_logging", {}, { logLevel: "debug" }));
      await attempt(() => client.ping());
      await attempt(() => client.callTool("nope"));
      await attempt(() => client.callTool("echo", { text: 5 }));
      await attempt(() => client.request("nope/nope", {}));
      await attempt(async () => {
        const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["test://watched-resource"] }, () => {});
        await client.callTool("test_trigger_tool_change");
        await client.callTool("test_trigger_prompt_change");
        await client.callTool("test_trigger_resource_update");
        await (sub as { close?: () => unknown }).close?.();
      });
      await turns();
      client.close();
      server.close();
      const failures = checkWire(version, wire, { extensionMethods: extensionMethods(version) });
      assert.equal(failures.length, 0, describeFailures(failures));
      assert.ok(wire.length > 150, `the scenario ran (${wire.length} messages)`);
    });
  }
}

/** Tools whose handlers ask the client for everything it can give, and fail in every way a handler can. */
function askingServer(clock: ManualClock): McpServer {
  const server = new McpServer({ name: "s", version: "1" }, { clock, session: { versions: [...ALL] } });
  const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
  const fail = (code: number, data?: unknown) => () => {
    throw new ProtocolError({ code, message: `code ${code}`, ...(data === undefined ? {} : { data }) });
  };
  // Codes with a schema of their own, thrown with and without the data it requires.
  server.tool("err21", {}, fail(-32021));
  server.tool("err21ok", {}, fail(-32021, { requiredCapabilities: { sampling: {} } }));
  server.tool("err22", {}, fail(-32022));
  server.tool("err20", {}, fail(-32020));
  server.tool("err42", {}, () => {
    throw new McpError({ code: -32042, message: "url", data: { elicitations: [{ mode: "url", elicitationId: "e1", url: "https://x.example/a", message: "go" }] } });
  });
  server.tool("err42meta", {}, () => {
    throw new McpError({ code: -32042, message: "url", data: { elicitations: [{ mode: "url", elicitationId: "e1", url: "https://x.example/a", message: "go", _meta: 5 }] } });
  });
  server.tool("errCustom", {}, fail(-32000, "data"));
  server.tool("errThrown", {}, () => {
    throw new Error("thrown");
  });
  const outputSchema = { type: "object" as const, properties: { n: { type: "number" as const } }, required: ["n"] };
  server.tool("structured", { outputSchema }, () => ({ content: [], structuredContent: { n: 1 } }));
  server.tool("structuredBad", { outputSchema }, () => ({ content: [], structuredContent: { n: "x" } }) as never);
  server.tool("link", {}, () => ({ content: [{ type: "resource_link", uri: "test://l", name: "l" }] }));
  server.tool("sampleTools", {}, async (_a, ctx) => {
    const tools = [{ name: "t", inputSchema: { type: "object" as const } }];
    await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, tools, toolChoice: { mode: "auto" } } as never);
    await ctx.sample({
      messages: [
        { role: "user", content: { type: "text", text: "hi" } },
        { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "t", input: {} }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "u1", content: [{ type: "text", text: "ok" }] }] },
      ],
      maxTokens: 10,
      tools,
    } as never);
    return text("sampled");
  });
  server.tool("sample", {}, async (_a, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, systemPrompt: "s", includeContext: "none", modelPreferences: { hints: [{ name: "x" }], intelligencePriority: 0.5 } });
    return text(String(r.model));
  });
  const elicit = (params: object) => async (_a: unknown, ctx: any) => text((await ctx.elicit(params)).action);
  const form = { type: "object", properties: { a: { type: "string" }, n: { type: "number", minimum: 1 }, e: { type: "string", enum: ["x", "y"] }, m: { type: "array", items: { type: "string", enum: ["p", "q"] } } } };
  server.tool("elicitUrl", {}, elicit({ mode: "url", message: "go", url: "https://x.example/", elicitationId: "e9" }));
  server.tool("elicitForm", {}, elicit({ message: "form", requestedSchema: form }));
  server.tool("elicitDecline", {}, elicit({ message: "decline", requestedSchema: { type: "object", properties: {} } }));
  server.tool("elicitBadContent", {}, elicit({ message: "bad", requestedSchema: { type: "object", properties: { z: { type: "number" } }, required: ["z"] } }));
  server.tool("elicitThrow", {}, elicit({ message: "throw", requestedSchema: { type: "object", properties: {} } }));
  server.tool("roots", {}, async (_a, ctx) => text(String((await ctx.listRoots()).roots.length)));
  server.tool("sampleTask", {}, async (_a, ctx) => text(String((await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, task: { ttl: 60000 } } as never)).model)));
  server.tool("elicitTask", {}, elicit({ message: "task", requestedSchema: form, task: { ttl: 60000 } }));
  server.tool("progress", {}, (_a, ctx) => {
    ctx.progress(1, 2, "half");
    ctx.progress(2);
    ctx.log("warning", { x: 1 }, "lg");
    ctx.log("debug", "dbg");
    return text("done");
  });
  server.tool("taskOptional", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
    ctx.progress(1, 2);
    return text("t");
  });
  server.tool("taskError", { execution: { taskSupport: "optional" } }, fail(-32602, { why: 1 }));
  server.tool("taskElicit", { execution: { taskSupport: "optional" } }, elicit({ message: "in task", requestedSchema: form }));
  server.resource("test://r", { name: "r", mimeType: "text/plain", annotations: { audience: ["user"], priority: 0.5 } }, (uri) => ({ contents: [{ uri, text: "r" }] }));
  server.resourceTemplate("test://t/{x}", { name: "t", list: () => [{ uri: "test://t/1", name: "t1" }] }, (uri) => ({ contents: [{ uri, blob: "AAAA", mimeType: "application/octet-stream" }] }));
  server.prompt("p", { arguments: [{ name: "a", required: false }] }, () => ({ description: "d", messages: [{ role: "assistant", content: { type: "resource_link", uri: "test://l", name: "l" } }] }));
  return server;
}

for (const version of ALL) {
  for (const variant of ["declaring", "bare", "tasks"] as const) {
    test(`schema.json (${version}): sampling (with tools), elicitation (form, URL, declined, invalid, failing), roots, progress, logging, tasks both ways, cancellation and every error a handler throws, client ${variant}: every message validates`, { timeout: 30000 }, async () => {
      const clock = new ManualClock();
      const server = askingServer(clock);
      const { wire, ends } = recordedPair();
      server.connect(ends[0]);
      const client = new McpClient({ name: "c", version: "1" }, {
        clock,
        handlers: variant === "bare" ? {} : HANDLERS,
        capabilities: variant === "bare" ? {} : { elicitation: { form: {}, url: {} }, sampling: { tools: {}, context: {} }, roots: { listChanged: true } },
        tasks: variant === "tasks",
        ...(variant === "tasks" && version === "2025-11-25" ? { receiveTasks: { notifications: "terminal" } } : {}),
        session: { versions: [version] },
      });
      await client.connect(ends[1]);
      // Virtual time moves while a call is pending (a task is polled at its pollIntervalMs), a bounded number of steps.
      const attempt = async (f: () => Promise<unknown>): Promise<void> => {
        let done = false;
        const run = f().then(
          () => (done = true),
          () => (done = true),
        );
        for (let step = 0; step < 200 && !done; step++) {
          await turns(3);
          if (!done) clock.advance(1000);
        }
        await run;
      };
      const tools: any[] = [];
      for await (const t of client.iterateTools()) tools.push(t);
      for (const t of tools) await attempt(() => client.callTool(t.name, {}, { onProgress: () => {}, logLevel: "debug" }));
      for (const name of ["taskOptional", "taskError", "taskElicit"]) {
        await attempt(async () => {
          const id = client.taskIdOf((await client.callToolAsTask(name, {})) as never);
          if (id === undefined) return;
          await turns(5);
          await client.getTask(id);
          await client.listTasks().catch(() => {});
          await client.waitForTask(id);
        });
      }
      await attempt(async () => {
        const id = client.taskIdOf((await client.callToolAsTask("taskElicit", {})) as never);
        if (id !== undefined) await client.cancelTask(id);
      });
      await attempt(() => client.getTask("nope"));
      await attempt(() => client.cancelTask("nope"));
      await attempt(() => client.listResources());
      await attempt(() => client.listResourceTemplates());
      await attempt(() => client.readResource("test://t/1"));
      await attempt(() => client.getPrompt("p"));
      await attempt(async () => {
        const ac = new AbortController();
        const call = client.callTool("elicitForm", {}, { signal: ac.signal });
        ac.abort("because");
        return call;
      });
      client.notifyRootsChanged();
      await turns();
      clock.advance(120_000);
      await turns();
      client.close();
      const failures = checkWire(version, wire, { extensionMethods: extensionMethods(version) });
      assert.equal(failures.length, 0, describeFailures(failures));
    });
  }
}

const PV = "io.modelcontextprotocol/protocolVersion";
const CC = "io.modelcontextprotocol/clientCapabilities";
const CI = "io.modelcontextprotocol/clientInfo";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

test("schema.json (2026-07-28): what the demo server answers a raw client's requests, well-formed or not (every _meta and params error, -32021, -32022, -32601, MRTR, the tasks extension, subscriptions/listen, malformed JSON-RPC): every message validates", { timeout: 30000 }, async () => {
  const clock = new ManualClock();
  const server = createDemoServer({ clock, delay: async () => {}, server: { session: { versions: ["2026-07-28", "2025-11-25"] } } });
  const wire: WireMessage[] = [];
  const [s, c] = createMemoryPair({ onSend: (i, text) => i === 0 && wire.push({ from: "server", message: JSON.parse(text) }) });
  server.connect(s);
  const answers: any[] = [];
  c.onMessage((t) => answers.push(JSON.parse(t)));
  const meta = (caps: object = {}, extra: object = {}) => ({ [PV]: "2026-07-28", [CC]: caps, [CI]: { name: "c", version: "1" }, ...extra });
  // Requests the schema allows are recorded, so the answers are typed by them; the rest are answered as errors.
  const send = (m: any, record = true) => {
    if (record) wire.push({ from: "client", message: m });
    c.send(JSON.stringify(m));
  };
  let id = 0;
  const req = async (method: string, params?: object, valid = true): Promise<any> => {
    const i = ++id;
    send(params === undefined ? { jsonrpc: "2.0", id: i, method } : { jsonrpc: "2.0", id: i, method, params }, valid);
    await turns();
    return answers.find((a) => a.id === i && a.method === undefined);
  };
  await req("server/discover", { _meta: meta() });
  await req("tools/list", { _meta: { [CC]: {} } }, false);
  await req("tools/list", { _meta: { [PV]: "2026-07-28" } }, false);
  await req("tools/list", { _meta: meta({}, { [PV]: "2099-01-01" }) });
  await req("tools/list", { _meta: meta({}, { [PV]: "2025-11-25" }) });
  await req("tools/list", { _meta: meta({}, { "io.modelcontextprotocol/logLevel": "loud" }) }, false);
  await req("tools/list", { _meta: meta({}, { [CI]: 5 }) }, false);
  await req("tools/list", { _meta: meta(), cursor: "garbage" });
  for (const method of ["nope/nope", "ping", "logging/setLevel", "resources/subscribe", "tasks/list", "tasks/result"]) await req(method, { _meta: meta() }, false);
  await req("tools/call", { _meta: meta() }, false);
  await req("tools/call", { _meta: meta(), name: "nope" });
  await req("tools/call", { _meta: meta(), name: "test_missing_capability" });
  await req("tools/call", { _meta: meta(), name: "test_sampling", arguments: { prompt: "x" } });
  await req("tools/call", { _meta: meta({ elicitation: {} }), name: "test_input_required_result_elicitation" });
  await req("tools/call", { _meta: meta({ elicitation: {} }), name: "test_input_required_result_elicitation", requestState: "garbage" });
  await req("tools/call", { _meta: meta({ elicitation: {} }), name: "test_input_required_result_elicitation", inputResponses: { nope: { action: "accept" } } });
  await req("tools/call", { _meta: meta(), name: "echo", arguments: { text: 5 } });
  await req("tools/call", { _meta: meta({}, { "io.modelcontextprotocol/logLevel": "debug", progressToken: "p" }), name: "test_tool_with_logging" });
  await req("tools/call", { _meta: meta({}, { progressToken: "q" }), name: "test_tool_with_progress" });
  await req("tools/call", { _meta: meta(), name: "protocol_error_job" });
  await req("tools/call", { _meta: meta(), name: "failing_job" });
  const task = await req("tools/call", { _meta: meta(TASKS), name: "slow_compute", arguments: { seconds: 5 } });
  const taskId = task?.result?.taskId;
  assert.equal(typeof taskId, "string", "slow_compute ran as a task");
  await req("tasks/get", { _meta: meta(TASKS), taskId });
  await req("tasks/get", { _meta: meta(TASKS), taskId: "nope" });
  await req("tasks/get", { _meta: meta(), taskId });
  await req("tasks/update", { _meta: meta(TASKS), taskId: "nope", inputResponses: {} });
  await req("tasks/update", { _meta: meta(TASKS), taskId, inputResponses: {} });
  await req("tasks/cancel", { _meta: meta(TASKS), taskId });
  await req("tasks/get", { _meta: meta(TASKS), taskId });
  for (const name of ["failing_job", "protocol_error_job"]) {
    const t = await req("tools/call", { _meta: meta(TASKS), name });
    await turns();
    await req("tasks/get", { _meta: meta(TASKS), taskId: t?.result?.taskId });
  }
  await req("resources/read", { _meta: meta(), uri: "test://nope" });
  await req("resources/templates/list", { _meta: meta() });
  await req("prompts/get", { _meta: meta(), name: "nope" });
  await req("prompts/get", { _meta: meta(), name: "test_prompt_with_arguments", arguments: {} });
  await req("prompts/get", { _meta: meta(), name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "not a uri" } });
  await req("completion/complete", { _meta: meta(), ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } });
  await req("completion/complete", { _meta: meta(), ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "" } });
  send({ jsonrpc: "2.0", id: "L1", method: "subscriptions/listen", params: { _meta: meta(TASKS), notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["test://watched-resource"], taskIds: [taskId, "nope"] } } });
  send({ jsonrpc: "2.0", id: "L2", method: "subscriptions/listen", params: { _meta: meta(), notifications: { taskIds: ["x"] } } });
  send({ jsonrpc: "2.0", id: "L3", method: "subscriptions/listen", params: { _meta: meta(), notifications: {} } });
  await turns();
  for (const name of ["test_trigger_tool_change", "test_trigger_prompt_change", "test_trigger_resource_update"]) await req("tools/call", { _meta: meta(), name });
  c.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "L1" } }));
  for (const text of ["{not json", "5", "[]", JSON.stringify({ jsonrpc: "2.0", id: 900 }), JSON.stringify({ jsonrpc: "1.0", id: 901, method: "tools/list" }), JSON.stringify({ jsonrpc: "2.0", id: null, method: "tools/list" }), JSON.stringify({ jsonrpc: "2.0", id: 1.5, method: "tools/list" }), JSON.stringify({ jsonrpc: "2.0", id: 902, method: "tools/list", params: [1] }), JSON.stringify([{ jsonrpc: "2.0", id: 903, method: "tools/list", params: { _meta: meta() } }])]) {
    c.send(text);
  }
  await turns();
  server.close();
  await turns();
  const failures = checkWire("2026-07-28", wire, { extensionMethods: extensionMethods("2026-07-28") }).filter((f) => f.from === "server" && !f.issues.startsWith("answers no request"));
  assert.equal(failures.length, 0, describeFailures(failures));
});

// Differential check of the generated tables: a seeded generator walks each type of
// schema.json (taking a random branch of each anyOf, the required and some optional
// members), and half the instances get one mutation (a member deleted or given a value of
// another type). The generated validator and the official schema must agree on each.
test("schema.json (every version): the generated validators agree with the official schema on generated and mutated instances of every type", { timeout: 120000 }, () => {
  let seed = 12345;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T,>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  const gen = (defs: Record<string, any>, s: any, depth: number): any => {
    if (s === true || s === undefined) return pick(["x", 1, {}, null]);
    if (s.$ref) return gen(defs, defs[s.$ref.split("/").pop()], depth + 1);
    if (s.const !== undefined) return s.const;
    if (s.enum) return pick(s.enum);
    if (s.anyOf) return gen(defs, pick(s.anyOf), depth);
    if (s.allOf) return Object.assign({}, ...s.allOf.map((b: any) => gen(defs, b, depth)));
    const type = Array.isArray(s.type) ? pick(s.type) : (s.type ?? (s.properties ? "object" : undefined));
    switch (type) {
      case "object": {
        const o: any = {};
        for (const [k, p] of Object.entries<any>(s.properties ?? {})) if ((s.required ?? []).includes(k) || (depth < 6 && rnd() < 0.5)) o[k] = gen(defs, p, depth + 1);
        if (rnd() < 0.2) o.extra = typeof s.additionalProperties === "object" ? gen(defs, s.additionalProperties, depth + 1) : "e";
        return o;
      }
      case "array":
        return Array.from({ length: depth > 5 ? 0 : Math.floor(rnd() * 3) }, () => gen(defs, s.items, depth + 1));
      case "string":
        return s.format === "uri" ? "https://x.example/a" : s.format === "byte" ? "AAAA" : pick(["a", "", "hello"]);
      case "integer":
        return (s.minimum ?? 0) + Math.floor(rnd() * 3);
      case "number":
        return s.minimum !== undefined ? s.minimum + rnd() * ((s.maximum ?? s.minimum + 1) - s.minimum) : pick([0, 1.5, -3]);
      case "boolean":
        return rnd() < 0.5;
      case "null":
        return null;
      default:
        return pick(["x", 1, {}, null, []]);
    }
  };
  const WRONG = [null, "s", 7, 1.5, true, [], {}, [1], { a: 1 }];
  const mutate = (v: any): any => {
    const copy = structuredClone(v);
    const slots: { parent: any; key: string | number }[] = [];
    const walk = (x: any): void => {
      if (x !== null && typeof x === "object") for (const k of Object.keys(x)) (slots.push({ parent: x, key: Array.isArray(x) ? Number(k) : k }), walk(x[k]));
    };
    walk(copy);
    if (slots.length === 0) return pick(WRONG);
    const { parent, key } = pick(slots);
    if (rnd() < 0.3 && !Array.isArray(parent)) delete parent[key];
    else parent[key] = pick(WRONG);
    return copy;
  };
  const disagreements: string[] = [];
  let checked = 0;
  for (const version of SCHEMA_VERSIONS) {
    const defs = definitions(version);
    for (const type of typeNames(version)) {
      const generated = validatorFor(version, type)!;
      for (let i = 0; i < 100; i++) {
        const base = gen(defs, defs[type], 0);
        const value = i % 2 === 0 ? base : mutate(base);
        const a = generated(value) === null;
        const b = check(version, type, value) === null;
        checked++;
        if (a !== b) {
          disagreements.push(`${version} ${type}: generated ${a ? "accepts" : "refuses"}, schema.json ${b ? "accepts" : "refuses"} ${JSON.stringify(value).slice(0, 300)}`);
          break;
        }
      }
    }
  }
  assert.deepEqual(disagreements, []);
  assert.ok(checked > 10_000, `${checked} instances`);
});
