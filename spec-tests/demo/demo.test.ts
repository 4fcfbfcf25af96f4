// The demo server answers every scenario of the official conformance suite it serves
// (modelcontextprotocol/conformance src/scenarios/server/**) as that scenario describes.
// Spec: 2025-11-25 server/tools, server/resources, server/prompts,
// server/utilities/{completion,logging}, basic/utilities/{progress,cancellation}.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer, DEMO_PNG_BASE64, DEMO_WAV_BASE64, JSON_SCHEMA_2020_12_INPUT } from "../../src/demo/server.js";
import { McpClient, type McpClientOptions } from "../../src/api/client.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { ManualClock } from "../../src/driver/clock.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { McpServer } from "../../src/api/server.js";
import { blockText } from "../harness/content.js";

const handlers: McpClientOptions["handlers"] = {
  sampling: (p) => ({ role: "assistant", content: { type: "text", text: `echo ${(p.messages[0].content as any).text}` }, model: "test-model", stopReason: "endTurn" }),
  elicitation: () => ({ action: "accept", content: { username: "testuser", email: "test@example.com" } }),
  roots: () => [{ uri: "file:///work", name: "work" }],
};

async function demo(options: { handlers?: McpClientOptions["handlers"]; delay?: (ms: number, signal: AbortSignal) => Promise<void>; server?: McpServer } = {}) {
  const clock = new ManualClock();
  const server = options.server ?? createDemoServer({ clock, delay: options.delay ?? (async () => {}) });
  const [s, c] = createMemoryPair();
  const endpoint = server.connect(s);
  const client = new McpClient({ name: "demo-test", version: "1" }, { clock, handlers: options.handlers ?? handlers });
  await client.connect(c);
  return { server, client, endpoint, clock };
}

const textOf = (r: { content: any[] }) => r.content[0].text as string;

test("server-initialize / tools-list / prompts-list: capabilities, and every tool and prompt has a description", async () => {
  const { client } = await demo();
  assert.deepEqual(Object.keys(client.serverCapabilities!).sort(), ["completions", "extensions", "logging", "prompts", "resources", "tasks", "tools"]);
  assert.equal(client.serverInfo!.name, "mcp-kernel-demo");
  const tools = [];
  for await (const t of client.iterateTools()) tools.push(t);
  assert.ok(tools.length >= 20);
  for (const t of tools) {
    assert.equal(typeof t.description, "string", t.name);
    assert.equal(t.inputSchema.type, "object", t.name);
    // tools-list: names of 1-64 characters of [A-Za-z0-9_./-].
    assert.ok(t.name.length >= 1 && t.name.length <= 64 && [...t.name].every((ch) => /[A-Za-z0-9_./-]/.test(ch)), t.name);
  }
  for await (const p of client.iteratePrompts()) assert.equal(typeof p.description, "string", p.name);
});

test("createDemoServer() with no options: the system clock, the full surface", () => {
  const server = createDemoServer();
  assert.deepEqual(Object.keys(server.capabilities).sort(), ["completions", "extensions", "logging", "prompts", "resources", "tasks", "tools"]);
});

test("echo: returns its text", async () => {
  const { client } = await demo();
  assert.deepEqual(await client.callTool("echo", { text: "hello" }), { content: [{ type: "text", text: "hello" }] });
  assert.equal((await client.callTool("echo", {})).isError, true);
});

test("tools-call-simple-text, -image, -audio, -embedded-resource, -mixed-content", async () => {
  const { client } = await demo();
  assert.deepEqual(await client.callTool("test_simple_text"), { content: [{ type: "text", text: "This is a simple text response for testing." }] });
  assert.deepEqual(await client.callTool("test_image_content"), { content: [{ type: "image", data: DEMO_PNG_BASE64, mimeType: "image/png" }] });
  assert.deepEqual(await client.callTool("test_audio_content"), { content: [{ type: "audio", data: DEMO_WAV_BASE64, mimeType: "audio/wav" }] });
  assert.deepEqual((await client.callTool("test_embedded_resource")).content[0], {
    type: "resource",
    resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
  });
  const mixed = (await client.callTool("test_multiple_content_types")).content;
  assert.deepEqual(mixed.map((c) => c.type), ["text", "image", "resource"]);
  assert.deepEqual(JSON.parse((mixed[2] as any).resource.text), { test: "data", value: 123 });
  // The media are what they claim: a PNG signature and a RIFF/WAVE header.
  assert.deepEqual([...Buffer.from(DEMO_PNG_BASE64, "base64").subarray(1, 4)].map((b) => String.fromCharCode(b)).join(""), "PNG");
  const wav = Buffer.from(DEMO_WAV_BASE64, "base64");
  assert.equal(wav.toString("latin1", 0, 4) + wav.toString("latin1", 8, 12), "RIFFWAVE");
});

test("tools-call-error: isError true with the message as text", async () => {
  const { client } = await demo();
  assert.deepEqual(await client.callTool("test_error_handling"), { content: [{ type: "text", text: "This tool intentionally returns an error for testing" }], isError: true });
});

test("tools-call-with-logging: three info messages during execution", async () => {
  const { client } = await demo();
  await client.setLoggingLevel("debug");
  const logs: any[] = [];
  client.onNotification("notifications/message", (p) => logs.push(p));
  assert.equal(textOf(await client.callTool("test_tool_with_logging")), "Tool with logging executed successfully");
  assert.deepEqual(logs.map((l) => [l.level, l.data]), [
    ["info", "Tool execution started"],
    ["info", "Tool processing data"],
    ["info", "Tool execution completed"],
  ]);
});

test("tools-call-with-progress: progress 0, 50, 100 of 100 for the request's token", async () => {
  const { client } = await demo();
  const seen: any[] = [];
  await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => seen.push([p.progress, p.total]) });
  assert.deepEqual(seen, [
    [0, 100],
    [50, 100],
    [100, 100],
  ]);
  // Without a token the tool still runs.
  assert.equal(textOf(await client.callTool("test_tool_with_progress")), "Progress tool completed");
});

test("the default delay runs on the clock: progress arrives as the clock advances", async () => {
  const clock = new ManualClock();
  const server = createDemoServer({ clock });
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client = new McpClient({ name: "t", version: "1" }, { clock });
  await client.connect(c);
  const seen: number[] = [];
  const got = new Promise<void>((resolve) => {
    const call = client.callTool("test_tool_with_progress", {}, {
      onProgress: (p) => {
        seen.push(p.progress);
        // Each update lets time move on to the next pause.
        queueMicrotask(() => clock.advance(50));
        if (p.progress === 100) resolve(call.then(() => {}));
      },
    });
  });
  await got;
  assert.deepEqual(seen, [0, 50, 100]);
});

test("tools-call-sampling: asks the client's model and reports its answer", async () => {
  const { client } = await demo();
  assert.equal(textOf(await client.callTool("test_sampling", { prompt: "Test prompt for sampling" })), "LLM response: echo Test prompt for sampling");
  const noText = await demo({ handlers: { ...handlers, sampling: () => ({ role: "assistant", content: { type: "image", data: "AA==", mimeType: "image/png" }, model: "m" }) } });
  assert.match(textOf(await noText.client.callTool("test_sampling", { prompt: "p" })), /^LLM response: \{"type":"image"/);
  // A client without sampling: the tool reports an error.
  const bare = await demo({ handlers: {} });
  assert.equal((await bare.client.callTool("test_sampling", { prompt: "p" })).isError, true);
});

test("tools-call-elicitation: asks for username and email and reports the answer", async () => {
  let asked: any;
  const { client } = await demo({ handlers: { ...handlers, elicitation: (p) => ((asked = p), { action: "accept", content: { username: "testuser", email: "test@example.com" } }) } });
  const r = await client.callTool("test_elicitation", { message: "Please provide your information" });
  assert.equal(textOf(r), 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}');
  assert.equal(asked.message, "Please provide your information");
  assert.deepEqual(asked.requestedSchema.required, ["username", "email"]);
  const declined = await demo({ handlers: { elicitation: () => ({ action: "decline" }) } });
  assert.equal(textOf(await declined.client.callTool("test_elicitation", { message: "m" })), "User response: action=decline, content={}");
});

test("elicitation-sep1034-defaults and elicitation-sep1330-enums: the requested schemas", async () => {
  const asked: any[] = [];
  // Each form answered within its own schema (client/elicitation: content must match it).
  const answer = (p: any): Record<string, string | string[]> => ("name" in p.requestedSchema.properties ? { name: "Jane Smith" } : { untitledSingle: "option2", untitledMulti: ["option1"] });
  const { client } = await demo({ handlers: { elicitation: (p) => (asked.push(p), { action: "accept", content: answer(p) }) } });
  assert.equal(textOf(await client.callTool("test_elicitation_sep1034_defaults")), 'Elicitation completed: action=accept, content={"name":"Jane Smith"}');
  const d = asked[0].requestedSchema.properties;
  assert.deepEqual([d.name.default, d.age.default, d.score.default, d.status.default, d.verified.default], ["John Doe", 30, 95.5, "active", true]);
  assert.deepEqual([d.age.type, d.score.type, d.status.enum], ["integer", "number", ["active", "inactive", "pending"]]);
  assert.match(textOf(await client.callTool("test_elicitation_sep1330_enums")), /^Elicitation completed: action=accept/);
  const e = asked[1].requestedSchema.properties;
  assert.deepEqual(e.untitledSingle.enum, ["option1", "option2", "option3"]);
  assert.equal(e.titledSingle.oneOf.length, 3);
  assert.equal(e.legacyEnum.enumNames.length, e.legacyEnum.enum.length);
  assert.equal(e.untitledMulti.items.type, "string");
  assert.equal(e.titledMulti.items.anyOf[0].title, "First Choice");
});

test("json-schema-2020-12: the inputSchema is listed verbatim ($schema, $defs, $anchor, allOf/anyOf, if/then/else, additionalProperties)", async () => {
  const { client } = await demo();
  const tool = (await client.listTools()).tools.find((t) => t.name === "json_schema_2020_12_tool")!;
  assert.deepEqual(tool.inputSchema, JSON_SCHEMA_2020_12_INPUT);
  assert.match(textOf(await client.callTool("json_schema_2020_12_tool", { name: "n", email: "e@x" })), /called with: \{"name":"n","email":"e@x"\}/);
  // The schema is enforced: contactMethod "phone" requires phone.
  assert.equal((await client.callTool("json_schema_2020_12_tool", { contactMethod: "phone", email: "e@x" })).isError, true);
});

test("tasks fixtures: greet, slow_compute (progress, cancellable), failing_job, protocol_error_job", async () => {
  const { client } = await demo();
  assert.equal(textOf(await client.callTool("greet", { name: "World" })), "Hello, World!");
  const progress: number[] = [];
  assert.equal(textOf(await client.callTool("slow_compute", { seconds: 2, label: "x" }, { onProgress: (p) => progress.push(p.progress) })), "x: done after 2s");
  assert.deepEqual(progress, [1, 2]);
  assert.equal(textOf(await client.callTool("slow_compute")), "slow_compute: done after 1s");
  const listed = (await client.listTools()).tools.find((t) => t.name === "slow_compute")!;
  assert.deepEqual(listed.execution, { taskSupport: "optional" });
  // 2025-11-25 basic/utilities/tasks: a tool whose taskSupport is "required" called
  // without a task is -32601 (its task run is in spec-tests/api/tasks-demo.test.ts).
  await assert.rejects(client.callTool("failing_job"), (err: { code?: number }) => err.code === ErrorCode.MethodNotFound);
  const e = await client.callTool("protocol_error_job").then(
    () => assert.fail("expected a protocol error"),
    (err) => err,
  );
  assert.equal(e.code, ErrorCode.InternalError);
});

test("slow_compute is cancellable: aborting the call aborts its pause (default clock delay)", async () => {
  const clock = new ManualClock();
  const server = createDemoServer({ clock });
  const [s, c] = createMemoryPair();
  const endpoint = server.connect(s);
  const client = new McpClient({ name: "t", version: "1" }, { clock });
  await client.connect(c);
  const ac = new AbortController();
  const call = client.callTool("slow_compute", { seconds: 60 }, { signal: ac.signal });
  await client.ping(); // the call is now running on the server
  ac.abort();
  const err = await call.then(
    () => assert.fail("expected cancellation"),
    (e) => e,
  );
  assert.equal(err.code, ErrorCode.RequestCancelled);
  await client.ping();
  // Advancing past the whole run produces no answer for the cancelled call.
  clock.advance(120_000);
  assert.deepEqual(await endpoint.request("ping"), {});
  // Cancelled between two pauses: the next pause sees an aborted signal and does not start.
  const between = new AbortController();
  const second = client.callTool("slow_compute", { seconds: 2 }, { signal: between.signal });
  await client.ping();
  between.abort();
  clock.advance(1000); // the first pause ends in the same turn the cancellation is delivered
  assert.equal((await second.catch((e) => e)).code, ErrorCode.RequestCancelled);
  await client.ping();
  // A call cancelled before its first pause never waits.
  const early = new AbortController();
  early.abort();
  assert.equal((await client.callTool("slow_compute", {}, { signal: early.signal }).catch((e) => e)).code, ErrorCode.RequestCancelled);
});

test("server-stateless list mutations: the trigger tools add and remove a tool and a prompt, announcing each change", async () => {
  const { client } = await demo();
  const changes: string[] = [];
  client.onNotification("notifications/tools/list_changed", () => changes.push("tools"));
  client.onNotification("notifications/prompts/list_changed", () => changes.push("prompts"));
  assert.equal(textOf(await client.callTool("test_trigger_tool_change")), "test_dynamic_tool added");
  assert.equal(textOf(await client.callTool("test_dynamic_tool")), "dynamic");
  assert.equal(textOf(await client.callTool("test_trigger_prompt_change")), "test_dynamic_prompt added");
  assert.equal((await client.getPrompt("test_dynamic_prompt")).messages.length, 1);
  assert.equal(textOf(await client.callTool("test_trigger_tool_change")), "test_dynamic_tool removed");
  assert.equal(textOf(await client.callTool("test_trigger_prompt_change")), "test_dynamic_prompt removed");
  await client.ping();
  assert.deepEqual(changes, ["tools", "prompts", "tools", "prompts"]);
  assert.equal((await client.listTools()).tools.some((t) => t.name === "test_dynamic_tool"), false);
});

test("test_list_roots: the client's roots, from inside a tool", async () => {
  const { client } = await demo();
  assert.deepEqual(JSON.parse(textOf(await client.callTool("test_list_roots"))), [{ uri: "file:///work", name: "work" }]);
});

test("resources-list, resources-read-text, resources-read-binary", async () => {
  const { client } = await demo();
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri), ["test://static-text", "test://static-binary", "test://watched-resource"]);
  for (const r of resources) assert.equal(typeof r.description, "string");
  assert.deepEqual(await client.readResource("test://static-text"), { contents: [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }] });
  assert.deepEqual(await client.readResource("test://static-binary"), { contents: [{ uri: "test://static-binary", mimeType: "image/png", blob: DEMO_PNG_BASE64 }] });
});

test("resources-templates-read: test://template/{id}/data substitutes the id", async () => {
  const { client } = await demo();
  assert.deepEqual((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate), ["test://template/{id}/data"]);
  const r = await client.readResource("test://template/123/data");
  assert.equal(r.contents[0].uri, "test://template/123/data");
  assert.equal(r.contents[0].mimeType, "application/json");
  assert.deepEqual(JSON.parse(blockText(r.contents[0]) as string), { id: "123", templateTest: true, data: "Data for ID: 123" });
  assert.deepEqual((await client.complete({ type: "ref/resource", uri: "test://template/{id}/data" }, { name: "id", value: "4" })).completion.values, ["456"]);
});

test("resources-subscribe / resources-unsubscribe: {} results; updates reach a subscriber until it unsubscribes", async () => {
  const { client } = await demo();
  const updates: unknown[] = [];
  client.onNotification("notifications/resources/updated", (p) => updates.push(p));
  assert.equal(await client.subscribeResource("test://watched-resource"), undefined);
  const before = blockText((await client.readResource("test://watched-resource")).contents[0]);
  assert.equal(textOf(await client.callTool("test_trigger_resource_update")), "test://watched-resource is now at version 1");
  assert.deepEqual(updates, [{ uri: "test://watched-resource" }]);
  assert.notEqual(blockText((await client.readResource("test://watched-resource")).contents[0]), before);
  await client.unsubscribeResource("test://watched-resource");
  await client.callTool("test_trigger_resource_update");
  assert.equal(updates.length, 1);
});

test("sep-2164-resource-not-found: a JSON-RPC error (never empty contents) with the uri in data", async () => {
  const { client } = await demo();
  const uri = "test://nonexistent-resource-for-conformance-testing";
  const e = await client.readResource(uri).then(
    () => assert.fail("expected an error"),
    (err) => err,
  );
  assert.equal(e.code, ErrorCode.ResourceNotFound); // -32002 under 2025-11-25; -32602 from 2026-07-28
  assert.deepEqual(e.data, { uri });
});

test("prompts-get-simple, -with-args, -embedded-resource, -with-image", async () => {
  const { client } = await demo();
  assert.deepEqual(await client.getPrompt("test_simple_prompt"), { messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] });
  assert.deepEqual((await client.getPrompt("test_prompt_with_arguments", { arg1: "hello", arg2: "world" })).messages[0].content, {
    type: "text",
    text: "Prompt with arguments: arg1='hello', arg2='world'",
  });
  assert.equal((await client.getPrompt("test_prompt_with_arguments", { arg1: "x" }).catch((e) => e)).code, ErrorCode.InvalidParams);
  const embedded = await client.getPrompt("test_prompt_with_embedded_resource", { resourceUri: "test://example-resource" });
  assert.deepEqual(embedded.messages[0].content, { type: "resource", resource: { uri: "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." } });
  assert.deepEqual(embedded.messages[1].content, { type: "text", text: "Please process the embedded resource above." });
  const image = await client.getPrompt("test_prompt_with_image");
  assert.deepEqual(image.messages.map((m) => m.content.type), ["image", "text"]);
  assert.equal((image.messages[0].content as any).mimeType, "image/png");
});

test("completion-complete: arg1 of test_prompt_with_arguments completes by prefix", async () => {
  const { client } = await demo();
  assert.deepEqual(await client.complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, { name: "arg1", value: "par" }), { completion: { values: ["paris", "park", "party"] } });
  assert.deepEqual((await client.complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, { name: "arg2", value: "" })).completion.values, []);
});

test("ping and logging-set-level: answered with {}", async () => {
  const { client } = await demo();
  assert.equal(await client.ping(), undefined);
  assert.equal(await client.setLoggingLevel("warning"), undefined);
});
