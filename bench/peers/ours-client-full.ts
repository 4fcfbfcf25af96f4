/** `node ours-client-full.js SERVER_SCRIPT`: the minimal client on `McpClient`, the class with the task runtime built in (footprint row only). */
import { McpClient } from "../../src/api/client.js";
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { ARGS, TOOL } from "./workload.js";

const client = new McpClient({ name: "bench", version: "1.0.0" });
await client.connect(spawnStdioServer(process.execPath, [process.argv[2]]));
process.stdout.write(JSON.stringify(await client.callTool(TOOL, ARGS)) + "\n");
client.close();
