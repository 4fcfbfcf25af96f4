/**
 * Our workload server alone (what the footprint and cold-start bundles contain): an
 * {@link McpServerCore}, the server without the task runtime the workload never uses (the
 * footprint's `McpServer` row bundles the one with it).
 */
import { McpServerCore } from "../../src/api/server.js";
import { PROTOCOL_VERSIONS } from "../../src/model/versions.js";
import { Gate, HOLD, RESULT, TOOL, TOOL_DESCRIPTION, TOOL_SCHEMA } from "./workload.js";

/** Our server, dual-era, with the workload's tools. */
export function ourServer(gate = new Gate(), Server: typeof McpServerCore = McpServerCore): McpServerCore {
  // The growth rows hold up to 10,000 calls at once: above the default 1024 in flight per session.
  const server = new Server({ name: "bench", version: "1.0.0" }, { session: { versions: [...PROTOCOL_VERSIONS], maxInboundRequests: 16_384 } });
  server.tool(TOOL, { description: TOOL_DESCRIPTION, inputSchema: TOOL_SCHEMA as never }, () => RESULT);
  server.tool(HOLD, { description: "Answers when the bench releases it" }, async () => {
    await gate.wait();
    return RESULT;
  });
  return server;
}
