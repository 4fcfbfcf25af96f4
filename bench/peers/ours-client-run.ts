/** What both minimal-client bundles do (ours-client.ts, ours-client-full.ts): spawn the stdio server `node SERVER_SCRIPT`, call the tool once, print the result. */
import type { McpClientCore } from "../../src/api/client.js";
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { ARGS, TOOL } from "./workload.js";

export async function callOnce(client: McpClientCore, serverScript: string): Promise<void> {
  await client.connect(spawnStdioServer(process.execPath, [serverScript]));
  process.stdout.write(JSON.stringify(await client.callTool(TOOL, ARGS)) + "\n");
  client.close();
}
