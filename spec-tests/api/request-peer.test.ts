// Spec: draft basic/index ("Statelessness": "Servers MUST NOT rely on prior requests over
// the same connection to establish context (e.g., capabilities, protocol version, client
// identity)"; per-request protocol fields: clientCapabilities required, clientInfo
// optional). ctx.client of a modern request is what that request declares, even on a
// dual-era connection that also ran a legacy handshake.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import { ManualClock } from "../../src/driver/clock.js";
import { rawClient, SERVER } from "./setup.js";

const MV = "2026-07-28";

test("basic/index Statelessness (draft): ctx.client of a modern request is its own _meta clientInfo and capabilities, before and after a legacy handshake on the same connection", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV, "2025-11-25"] } });
  server.tool("who", {}, (_args, ctx) => ({ content: [{ type: "text", text: JSON.stringify({ client: ctx.client ?? null, version: ctx.protocolVersion }) }] }));
  const raw = rawClient(server);
  const who = async (id: number, fields: object) => {
    const r = await raw.request(id, "tools/call", { name: "who", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": MV, ...fields } });
    return JSON.parse(r.result.content[0].text);
  };
  const modern = { "io.modelcontextprotocol/clientInfo": { name: "modern-c", version: "9" }, "io.modelcontextprotocol/clientCapabilities": { roots: {} } };
  assert.deepEqual(await who(1, modern), { client: { info: { name: "modern-c", version: "9" }, capabilities: { roots: {} } }, version: MV });
  await raw.initialize("2025-11-25", { elicitation: {}, sampling: {} }, { name: "legacy-c", version: "1" });
  assert.deepEqual(await who(2, modern), { client: { info: { name: "modern-c", version: "9" }, capabilities: { roots: {} } }, version: MV }, "not the legacy handshake's client");
  // clientInfo is optional: the request's capabilities, and no identity borrowed from the handshake.
  assert.deepEqual(await who(3, { "io.modelcontextprotocol/clientCapabilities": {} }), { client: { capabilities: {} }, version: MV });
  // The legacy session's own requests still see its handshake.
  const legacy = await raw.request(4, "tools/call", { name: "who", arguments: {} });
  assert.deepEqual(JSON.parse(legacy.result.content[0].text).client.info, { name: "legacy-c", version: "1" });
});
