/** `node sdk1-stdio.js`: the SDK 1.x workload server on stdin/stdout, as its README writes it. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { sdk1Server } from "./sdk1-tools.js";

await sdk1Server().connect(new StdioServerTransport());
