/** `node sdk2-stdio.js`: the SDK 2.x workload server on stdin/stdout; `serveStdio` picks the era from the opening message. */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { sdk2Server } from "./sdk2-tools.js";

serveStdio(() => sdk2Server());
