/** The SDK 2.x workload server alone (what the footprint and cold-start bundles contain). */
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { Gate, HOLD, RESULT, TOOL, TOOL_DESCRIPTION } from "./workload.js";

/** An SDK 2.x server with the workload's tools, `registerTool` with a zod object. */
export function sdk2Server(gate = new Gate()): McpServer {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool(TOOL, { description: TOOL_DESCRIPTION, inputSchema: z.object({ location: z.string(), units: z.string() }) }, async () => RESULT);
  server.registerTool(HOLD, { description: "Answers when the bench releases it" }, async () => {
    await gate.wait();
    return RESULT;
  });
  return server;
}
