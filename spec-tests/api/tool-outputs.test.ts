// Spec: 2025-11-25 server/tools ("Output Schema"): "Clients SHOULD validate structured
// results against this schema". The client learns each tool's outputSchema from
// tools/list and checks tools/call results against it. The server here is a raw end
// (another implementation that does not keep its own schema), so the client's check is
// the only one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientCore } from "../../src/api/client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { CLIENT, SERVER, connect } from "./setup.js";
import type { McpServer } from "../../src/api/server.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { ToolOutputs } from "../../src/api/tool-outputs.js";
import { builtinJsonSchema, peerJsonSchema } from "../../src/schema/json-schema.js";
import { blockText } from "../harness/content.js";

const OUTPUT = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };
const TOOLS = [
  { name: "weather", inputSchema: { type: "object" }, outputSchema: OUTPUT },
  { name: "plain", inputSchema: { type: "object" } },
];

/** Connects `client` to a raw 2025-11-25 server (tools only) that answers each other request with `answer(message)`. */
async function scripted(client: McpClientCore, answer: (m: { method: string; params: any }, later: (result: object) => void) => object | undefined): Promise<void> {
  const [s, raw] = createMemoryPair();
  raw.onMessage((text) => {
    const m = JSON.parse(text);
    const later = (result: object) => raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    const result = m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: SERVER } : answer(m, later);
    if (m.id !== undefined && result !== undefined) raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
  });
  await client.connect(s);
}

/** A raw server that lists `tools` and answers each call with `results[name]`. */
function against(client: McpClientCore, results: Record<string, object>, tools: object[] = TOOLS): Promise<void> {
  return scripted(client, (m) => (m.method === "tools/list" ? { tools } : m.method === "tools/call" ? results[m.params.name] : undefined));
}

const text = (t: string) => [{ type: "text", text: t }];

test("tools (Output Schema): a structured result that breaks the listed outputSchema rejects with -32603 and the issues; one that keeps it resolves", async () => {
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  let weather: object = { content: text("hot"), structuredContent: { temperature: "hot" } };
  await against(client, { get weather() { return weather; }, plain: { content: text("free-form") } });
  await client.listTools();
  await assert.rejects(client.callTool("weather", {}), (e: any) => e.code === -32603 && /does not match its outputSchema/.test(e.message) && e.data.issues[0].path === "/temperature");
  weather = { content: text("hot"), structuredContent: { temperature: 31 } };
  assert.deepEqual((await client.callTool("weather", {})).structuredContent, { temperature: 31 });
  weather = { content: text("no structure") };
  await assert.rejects(client.callTool("weather", {}), (e: any) => e.code === -32603 && /has an outputSchema but its result has no structuredContent/.test(e.message));
  // A tool execution error describes the failure; it need not carry the structure.
  weather = { content: text("sensor offline"), isError: true };
  assert.equal((await client.callTool("weather", {})).isError, true);
  // A tool without a schema is not checked.
  assert.equal(blockText((await client.callTool("plain", {})).content[0]), "free-form");
  client.close();
});

test("tools (Output Schema), versions: outputSchema and structuredContent arrived in 2025-06-18; a 2025-03-26 (or 2024-11-05) server's results are held to no outputSchema it lists (its Tool has no such field), while a 2025-06-18 server's are", { timeout: 10_000 }, async () => {
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18"] as const) {
    const client = new McpClient(CLIENT, { clock: new ManualClock(), session: { versions: [version] } });
    const [s, raw] = createMemoryPair();
    raw.onMessage((data) => {
      const m = JSON.parse(data);
      const result = m.method === "initialize" ? { protocolVersion: version, capabilities: { tools: {} }, serverInfo: SERVER } : m.method === "tools/list" ? { tools: TOOLS } : m.method === "tools/call" ? { content: text("no structure") } : undefined;
      if (m.id !== undefined && result !== undefined) raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    });
    await client.connect(s);
    assert.equal(client.protocolVersion, version);
    await client.listTools();
    const call = client.callTool("weather", {});
    if (version === "2025-06-18") await assert.rejects(call, (e: any) => e.code === -32603 && /has an outputSchema but its result has no structuredContent/.test(e.message));
    else assert.equal(blockText((await call).content[0]), "no structure", version);
    client.close();
  }
});

// basic/index "JSON Schema Usage": composition keywords SHOULD have "reasonable bounds ... to
// prevent a malicious schema from acting as a Denial-of-Service vector". A server's schema
// that repeats a keyword scanning a large structuredContent (audit: 300 × uniqueItems over
// 200,000 items blocked the client's event loop for 32 s) runs out of the step budget.
test("tools (Output Schema): a peer outputSchema repeating a scanning keyword over a large result ends with 'validation budget exceeded'", async () => {
  const outputSchema = { type: "object", properties: { a: { allOf: Array.from({ length: 300 }, () => ({ uniqueItems: true })) } } };
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  await against(client, { t: { content: [], structuredContent: { a: Array.from({ length: 20_000 }, (_, i) => i) } } }, [{ name: "t", inputSchema: { type: "object" }, outputSchema }]);
  await client.listTools();
  await assert.rejects(client.callTool("t", {}), (e: any) => e.code === -32603 && e.data.issues[0].reason === "validation budget exceeded");
  client.close();
});

// basic/index "JSON Schema Usage": "Clients and servers MUST validate schemas according to
// their declared or default dialect" (2020-12): unevaluatedProperties is an assertion, and a
// $ref written with the root's absolute $id is a reference within the same document.
test("tools (Output Schema): the default client applies 2020-12 unevaluatedProperties and resolves a $ref by the root's $id", async () => {
  const tools = [
    { name: "closed", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false } },
    { name: "byId", inputSchema: { type: "object" }, outputSchema: { $id: "https://x/s", type: "object", properties: { a: { $ref: "https://x/s#/$defs/q" } }, $defs: { q: { type: "string" } } } },
  ];
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  let structured: object = { a: "x", z: 1 };
  await against(client, { get closed() { return { content: [], structuredContent: structured }; }, byId: { content: [], structuredContent: { a: 5 } } }, tools);
  await client.listTools();
  await assert.rejects(client.callTool("closed", {}), (e: any) => e.code === -32603 && e.data.issues[0].path === "/z");
  structured = { a: "x" };
  assert.deepEqual((await client.callTool("closed", {})).structuredContent, { a: "x" });
  await assert.rejects(client.callTool("byId", {}), (e: any) => e.code === -32603 && /does not match/.test(e.message) && e.data.issues[0].path === "/a");
  client.close();
});

// basic/index "$ref Resolution": implementations "MUST NOT automatically dereference $ref
// values that resolve to a network URI"; "Schemas that fail to validate due to an unresolved
// external $ref SHOULD be rejected rather than silently treated as permissive". "Composition-
// Keyword Resource Use": bounds "to prevent a malicious schema from acting as a Denial-of-
// Service vector against the validator". An outputSchema the client cannot use leaves the
// tool listed but none of its results is accepted (only a tool execution error comes through).
test("tools (Output Schema): a result of a tool whose outputSchema cannot be used (external $ref, unsafe patternProperties, unsupported dialect) rejects with -32603 naming why", async () => {
  const unusable: [string, object, RegExp][] = [
    ["extref", { type: "object", properties: { a: { $ref: "https://example.com/schemas/n.json" } }, required: ["a"] }, /\/properties\/a\/\$ref: network \$ref not dereferenced/],
    ["redos", { type: "object", patternProperties: { "^(a+)+$": { type: "string" } } }, /\/patternProperties: unsafe pattern/],
    ["draft4", { $schema: "http://json-schema.org/draft-04/schema#", type: "object" }, /\/\$schema: unsupported dialect/],
  ];
  const tools = unusable.map(([name, outputSchema]) => ({ name, inputSchema: { type: "object" }, outputSchema }));
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  let result: object = { content: [], structuredContent: { a: "a".repeat(27) + "!" } };
  await against(client, new Proxy({}, { get: () => result }), tools); // every tool answers `result`
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.map((t) => t.name), ["extref", "redos", "draft4"], "still listed");
  for (const [name, , why] of unusable) {
    await assert.rejects(client.callTool(name, {}), (e: any) => e.code === -32603 && /has an outputSchema the client cannot use/.test(e.message) && why.test(e.message) && e.data.issues.length === 1, name);
  }
  result = { content: [{ type: "text", text: "failed" }], isError: true };
  for (const [name] of unusable) assert.equal((await client.callTool(name, {})).isError, true, name);
  client.close();
  // The same schemas through ToolOutputs: listing a usable schema later replaces the refusal.
  const outputs = new ToolOutputs(peerJsonSchema);
  outputs.learn({ tools });
  assert.throws(() => outputs.check("extref", { content: [], structuredContent: {} }), /cannot use/);
  outputs.learn({ tools: [{ name: "extref", inputSchema: { type: "object" }, outputSchema: { type: "object" } }] });
  assert.deepEqual(outputs.check("extref", { content: [], structuredContent: {} }), { content: [], structuredContent: {} });
});

test("tools (Output Schema): nothing is checked for a tool the client never listed, with jsonSchema: false, or on McpClientCore without a validator", async () => {
  const bad = { content: text("hot"), structuredContent: { temperature: "hot" } };
  const unlisted = new McpClient(CLIENT, { clock: new ManualClock() });
  await against(unlisted, { weather: bad });
  assert.deepEqual((await unlisted.callTool("weather", {})).structuredContent, { temperature: "hot" }, "not listed yet: nothing to check against");
  unlisted.close();
  for (const client of [new McpClient(CLIENT, { clock: new ManualClock(), jsonSchema: false }), new McpClientCore(CLIENT, { clock: new ManualClock() })]) {
    await against(client, { weather: bad });
    await client.listTools();
    assert.deepEqual((await client.callTool("weather", {})).structuredContent, { temperature: "hot" });
    client.close();
  }
});

test("tools (Output Schema): the client keeps at most 10,000 tools' schemas; later ones go unchecked", () => {
  const outputs = new ToolOutputs(builtinJsonSchema);
  const schema = { type: "object", required: ["n"] };
  outputs.learn({ tools: Array.from({ length: 10_001 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" }, outputSchema: schema })) });
  assert.throws(() => outputs.check("t9999", { content: [] }), /no structuredContent/);
  assert.deepEqual(outputs.check("t10000", { content: [] }), { content: [] }, "past the bound: not kept, not checked");
  // A tool listed again without a schema is forgotten.
  outputs.learn({ tools: [{ name: "t0", inputSchema: { type: "object" } }] });
  assert.deepEqual(outputs.check("t0", { content: [] }), { content: [] });
});

// A task's result is the tool's result too: 2025-11-25 basic/utilities/tasks ("Retrieving
// Task Results": tasks/result returns what the request would have returned) and the
// tasks extension ("Task Polling": a completed tasks/get inlines the result). The server
// here does not check its own output (a permissive validator), so the client's check is
// the only one.
const UNCHECKED = { compile: () => ({ ok: true as const, validate: () => null }) };

/** A server whose task tool `weather` answers `structured`, once the returned gate opens. */
function taskServer(structured: () => object): (s: McpServer) => void {
  return (s) => {
    s.tool("weather", { outputSchema: OUTPUT as never, execution: { taskSupport: "optional" } }, () => ({ content: [{ type: "text" as const, text: "hot" }], structuredContent: structured() as JsonObject }));
  };
}

test("tools (Output Schema) with tasks (2025-11-25): the tasks/result of a checked tool's task is checked; a good one resolves", async () => {
  const LEGACY = { session: { versions: ["2025-11-25" as const] } };
  let structured: object = { temperature: "hot" };
  const c = await connect(taskServer(() => structured), LEGACY, { ...LEGACY, jsonSchema: UNCHECKED });
  await c.client.listTools();
  const bad = c.client.taskIdOf((await c.client.callToolAsTask("weather", {})) as JsonObject)!;
  assert.ok(bad, "answered with a CreateTaskResult, which is not checked itself");
  await assert.rejects(c.client.getTaskResult(bad), (e: any) => e.code === -32603 && e.data.issues[0].path === "/temperature");
  structured = { temperature: 31 };
  const good = c.client.taskIdOf((await c.client.callToolAsTask("weather", {})) as JsonObject)!;
  // Polling tasks/get (no result in this era) neither checks nor forgets the task.
  assert.equal((await c.client.getTask(good)).status, "completed");
  assert.deepEqual((await c.client.waitForTask(good)).structuredContent, { temperature: 31 });
});

test("tools (Output Schema) with the tasks extension (2026-07-28): a completed task's inlined result is checked by tasks/get and waitForTask", async () => {
  const MODERN = { session: { versions: ["2026-07-28" as const] } };
  let structured: object = { temperature: "hot" };
  const c = await connect(taskServer(() => structured), { ...MODERN, tasks: true }, { ...MODERN, jsonSchema: UNCHECKED });
  await c.client.listTools();
  const created = (await c.client.callToolAsTask("weather", {})) as JsonObject;
  assert.equal(created.resultType, "task");
  await assert.rejects(c.client.waitForTask(c.client.taskIdOf(created)!), (e: any) => e.code === -32603 && /does not match its outputSchema/.test(e.message));
  structured = { temperature: 31 };
  const good = c.client.taskIdOf((await c.client.callToolAsTask("weather", {})) as JsonObject)!;
  assert.deepEqual((await c.client.waitForTask(good)).structuredContent, { temperature: 31 });
});

test("tools (Output Schema): the answer to a call that cannot become a task (not augmented with task in 2025-11-25; a 2026-07-28 client without the tasks extension) is the tool's result and is checked, whatever task or resultType field it carries (found by review: any such field let a result that breaks the outputSchema through unchecked)", async () => {
  const task = { taskId: "t1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: null };
  const mismatch = (e: any) => e.code === -32603 && /does not match its outputSchema/.test(e.message) && e.data.issues[0].path === "/temperature";
  // 2025-11-25: a plain callTool answered with a CreateTaskResult's task, or the extension's resultType.
  const legacy = new McpClient(CLIENT, { clock: new ManualClock() });
  let weather: object = {};
  await against(legacy, { get weather() { return weather; } });
  await legacy.listTools();
  for (const extra of [{ task }, { resultType: "task", taskId: "t2" }]) {
    weather = { content: text("hot"), structuredContent: { temperature: "hot" }, ...extra };
    await assert.rejects(legacy.callTool("weather", {}), mismatch, JSON.stringify(extra));
  }
  legacy.close();
  // 2026-07-28 without the tasks extension: a `task` field (no task shape of this era at all).
  const MODERN = { session: { versions: ["2026-07-28" as const] } };
  let extra: object = {};
  const c = await connect(
    (s) => s.tool("weather", { outputSchema: OUTPUT as never }, () => ({ content: [{ type: "text" as const, text: "hot" }], structuredContent: { temperature: "hot" }, ...extra }) as never),
    MODERN,
    { ...MODERN, jsonSchema: UNCHECKED },
  );
  await c.client.listTools();
  for (extra of [{ task: 1 }, { task }]) await assert.rejects(c.client.callTool("weather", {}), mismatch, JSON.stringify(extra));
});

test("tools (Output Schema): the client remembers at most 10,000 tasks of checked tools; the oldest then go unchecked", () => {
  const outputs = new ToolOutputs(builtinJsonSchema);
  outputs.learn({ tools: [{ name: "w", inputSchema: { type: "object" }, outputSchema: OUTPUT }] });
  for (let i = 0; i <= 10_000; i++) outputs.check("w", { task: { taskId: `t${i}`, status: "working" } });
  assert.equal(outputs.hasTask("t0"), false, "evicted");
  assert.equal(outputs.hasTask("t1"), true);
  assert.throws(() => outputs.checkTask("tasks/result", "t1", { content: [] }), /no structuredContent/);
  assert.equal(outputs.hasTask("t1"), false, "a delivered result forgets its task");
  // Extension polling: a task still working keeps it; a terminal one without a result forgets it.
  assert.deepEqual(outputs.checkTask("tasks/get", "t2", { status: "working" }), { status: "working" });
  assert.equal(outputs.hasTask("t2"), true);
  outputs.checkTask("tasks/get", "t2", { status: "cancelled" });
  assert.equal(outputs.hasTask("t2"), false);
});

test("tools (Output Schema, List Changed): after notifications/tools/list_changed the client forgets the listed outputSchemas; a tool's new schema is used once a tools/list shows it", async () => {
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  const [s, raw] = createMemoryPair();
  let tools: object[] = TOOLS;
  const results: Record<string, object> = { weather: { content: text("hot"), structuredContent: { temperature: 30 } } };
  raw.onMessage((t) => {
    const m = JSON.parse(t);
    const reply = (result: object) => raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    if (m.method === "initialize") reply({ protocolVersion: "2025-11-25", capabilities: { tools: { listChanged: true } }, serverInfo: SERVER });
    else if (m.method === "tools/list") reply({ tools });
    else if (m.method === "tools/call") reply(results[m.params.name]);
  });
  await client.connect(s);
  await client.listTools();
  // The server now reports the weather in words, under a new schema, and says the list changed.
  const WORDS = { type: "object", properties: { sky: { type: "string" } }, required: ["sky"] };
  tools = [{ name: "weather", inputSchema: { type: "object" }, outputSchema: WORDS }];
  results.weather = { content: text("clear"), structuredContent: { sky: "clear" } };
  const changed = new Promise<void>((resolve) => client.onNotification("notifications/tools/list_changed", () => resolve()));
  raw.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
  await changed;
  // Not checked against the old schema (which it breaks): the tool is unknown until listed again.
  assert.deepEqual((await client.callTool("weather")).structuredContent, { sky: "clear" });
  await client.listTools();
  assert.deepEqual((await client.callTool("weather")).structuredContent, { sky: "clear" });
  results.weather = { content: text("?"), structuredContent: { temperature: 30 } };
  await assert.rejects(client.callTool("weather"), /does not match its outputSchema/);
  client.close();
});

// draft server/utilities/caching: a list with ttlMs 0 "SHOULD be considered immediately
// stale", and clients "MAY re-fetch before the TTL expires if they have reason to believe
// the data has changed (e.g., receiving an unexpected error on a tool call…)".
test("tools (Output Schema) + caching: a result its learned schema refuses is checked once more against the tools as listed now (the tool changed without list_changed): a conforming result then resolves; a tool listed without a schema is not checked; a wrong result still rejects, after exactly one re-list", async () => {
  const NEW = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
  let tools: object[] = [{ name: "weather", inputSchema: { type: "object" }, outputSchema: OUTPUT }];
  let result: object = { content: text("21"), structuredContent: { celsius: 21 } };
  let lists = 0;
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  await scripted(client, (m) => (m.method === "tools/list" ? (lists++, { tools }) : m.method === "tools/call" ? result : undefined));
  await client.listTools();
  // The server changed the tool's schema and said nothing (it declared no listChanged).
  tools = [{ name: "weather", inputSchema: { type: "object" }, outputSchema: NEW }];
  assert.deepEqual((await client.callTool("weather", {})).structuredContent, { celsius: 21 });
  assert.equal(lists, 2, "one re-list");
  // Learned now: the next conforming call needs no re-list.
  assert.deepEqual((await client.callTool("weather", {})).structuredContent, { celsius: 21 });
  assert.equal(lists, 2);
  // A result no listed schema admits still rejects, after one more look.
  result = { content: text("?"), structuredContent: { celsius: "warm" } };
  await assert.rejects(client.callTool("weather", {}), (e: any) => e.code === -32603 && /does not match its outputSchema/.test(e.message) && e.fromPeer === false);
  assert.equal(lists, 3);
  // Results failing at once share one re-list.
  await Promise.all(Array.from({ length: 5 }, () => assert.rejects(client.callTool("weather", {}), /does not match its outputSchema/)));
  assert.equal(lists, 4);
  // The tool now has no schema: its results are not checked.
  tools = [{ name: "weather", inputSchema: { type: "object" } }];
  assert.deepEqual((await client.callTool("weather", {})).structuredContent, { celsius: "warm" });
  client.close();
});

test("tools (Output Schema) + caching: results sharing one re-list each wait with their own signal: one caller aborting neither cancels the re-list nor decides the others' verdict (found by review: the re-list ran under the first caller's signal, and its abort left every waiting result refused)", { timeout: 10_000 }, async () => {
  const NEW = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
  let lists = 0;
  let answerList: (() => void) | undefined;
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  await scripted(client, (m, later) => {
    if (m.method === "tools/call") return { content: text("21"), structuredContent: { celsius: 21 } };
    if (m.method !== "tools/list") return undefined;
    if (++lists === 1) return { tools: [{ name: "weather", inputSchema: { type: "object" }, outputSchema: OUTPUT }] };
    // The re-list is answered when the test says so: the tool changed without list_changed.
    answerList = () => later({ tools: [{ name: "weather", inputSchema: { type: "object" }, outputSchema: NEW }] });
    return undefined;
  });
  await client.listTools();
  const ac = new AbortController();
  const first = client.callTool("weather", {}, { signal: ac.signal }).then(() => undefined, (e: any) => e);
  const second = client.callTool("weather", {});
  while (answerList === undefined) await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r)); // both results wait on the re-list
  ac.abort("gave up");
  answerList();
  assert.match((await first)?.message ?? "", /does not match its outputSchema/, "the aborted caller's first verdict stands");
  assert.deepEqual((await second).structuredContent, { celsius: 21 });
  assert.equal(lists, 2, "one re-list");
  client.close();
});

test("tools (Output Schema): a call is checked against the schema known when it was made; a tools/list while it runs (the tool re-registered with another schema) does not change the check of its answer, which the server made and checked under the old one", async () => {
  const NEW = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
  let release!: () => void;
  let unregister!: () => void;
  const { server, client } = await connect((srv) => {
    unregister = srv.tool("weather", { outputSchema: OUTPUT }, async () => {
      await new Promise<void>((r) => (release = r));
      return { content: [{ type: "text" as const, text: "hot" }], structuredContent: { temperature: 30 } };
    });
  });
  await client.listTools();
  const call = client.callTool("weather", {});
  while (release === undefined) await new Promise((r) => setImmediate(r));
  // Re-registered with another schema while the old handler runs; the client learns it.
  unregister();
  server.tool("weather", { outputSchema: NEW }, () => ({ content: [], structuredContent: { celsius: 1 } }));
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.find((t) => t.name === "weather")?.outputSchema, NEW);
  release();
  assert.deepEqual((await call).structuredContent, { temperature: 30 });
});

test("tools (Output Schema): the re-list after a refused result walks at most 100 pages (a server handing out cursors for ever cannot hold the call), and carries no progress token of the call's", async () => {
  let lists = 0;
  const listParams: any[] = [];
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  await scripted(client, (m) => {
    if (m.method === "tools/call") return { content: text("?"), structuredContent: {} };
    if (m.method !== "tools/list") return undefined;
    lists++;
    listParams.push(m.params);
    return { tools: [{ name: "w", inputSchema: { type: "object" }, outputSchema: OUTPUT }], nextCursor: `c${lists}` };
  });
  await client.listTools();
  await assert.rejects(client.callTool("w", {}, { onProgress: () => {} }), /does not match its outputSchema/);
  assert.equal(lists, 1 + 100);
  assert.ok(listParams.slice(1).every((p) => p?._meta?.progressToken === undefined), "no progress token of the call's");
  client.close();
});

test("tools (Output Schema) + pagination: a re-list that meets a cursor the server already gave stops there (the first verdict stands), as iterateTools does, not after 100 pages", async () => {
  let lists = 0;
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  await scripted(client, (m) => {
    if (m.method === "tools/call") return { content: text("?"), structuredContent: {} };
    if (m.method !== "tools/list") return undefined;
    lists++;
    return { tools: [{ name: "w", inputSchema: { type: "object" }, outputSchema: OUTPUT }], nextCursor: "again" };
  });
  await assert.rejects(client.listTools().then(async () => { for await (const _ of client.iterateTools()); }), /repeated a cursor/);
  lists = 0;
  await assert.rejects(client.callTool("w", {}), /does not match its outputSchema/);
  assert.equal(lists, 2, "the page giving the cursor and the page repeating it");
  client.close();
});

test("tools (Output Schema): a task's result is checked against the schema known when its call was made, not one learned while it ran", () => {
  const NEW = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
  const outputs = new ToolOutputs(builtinJsonSchema);
  outputs.learn({ tools: [{ name: "w", inputSchema: { type: "object" }, outputSchema: OUTPUT }] });
  outputs.check("w", { task: { taskId: "t1", status: "working" } });
  outputs.learn({ tools: [{ name: "w", inputSchema: { type: "object" }, outputSchema: NEW }] });
  const result = { content: [], structuredContent: { temperature: 30 } };
  assert.deepEqual(outputs.checkTask("tasks/result", "t1", result), result);
});
