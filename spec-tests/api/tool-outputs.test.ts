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
import { CLIENT, SERVER } from "./setup.js";
import { ToolOutputs } from "../../src/api/tool-outputs.js";
import { builtinJsonSchema } from "../../src/schema/json-schema.js";

const OUTPUT = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };
const TOOLS = [
  { name: "weather", inputSchema: { type: "object" }, outputSchema: OUTPUT },
  { name: "plain", inputSchema: { type: "object" } },
];

/** A raw server that lists TOOLS and answers each call with `results[name]`. */
async function against(client: McpClientCore, results: Record<string, object>): Promise<void> {
  const [s, raw] = createMemoryPair();
  raw.onMessage((text) => {
    const m = JSON.parse(text);
    const reply = (result: object) => raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    if (m.method === "initialize") reply({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: SERVER });
    else if (m.method === "tools/list") reply({ tools: TOOLS });
    else if (m.method === "tools/call") reply(results[m.params.name]);
  });
  await client.connect(s);
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
  assert.equal((await client.callTool("plain", {})).content[0].text, "free-form");
  client.close();
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
