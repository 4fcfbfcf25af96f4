/** `node sdk2-client.js SERVER_SCRIPT`: the minimal SDK 2.x client (footprint bundle): spawn a stdio server, call the tool once, print the result. */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ARGS, TOOL } from "./workload.js";

const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]] }));
process.stdout.write(JSON.stringify(await client.callTool({ name: TOOL, arguments: ARGS })) + "\n");
await client.close();
