/** `node sdk1-client.js SERVER_SCRIPT`: the minimal SDK 1.x client (footprint bundle): spawn a stdio server, call the tool once, print the result. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ARGS, TOOL } from "./workload.js";

const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]] }));
process.stdout.write(JSON.stringify(await client.callTool({ name: TOOL, arguments: ARGS })) + "\n");
await client.close();
