/** `node ours-client.js SERVER_SCRIPT`: the minimal client (footprint bundle): spawn a stdio server, call the tool once, print the result. */
import { McpClientCore } from "../../src/api/client.js";
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { ARGS, TOOL } from "./workload.js";

const client = new McpClientCore({ name: "bench", version: "1.0.0" });
await client.connect(spawnStdioServer(process.execPath, [process.argv[2]]));
process.stdout.write(JSON.stringify(await client.callTool(TOOL, ARGS)) + "\n");
client.close();
