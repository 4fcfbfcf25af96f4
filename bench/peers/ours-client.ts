/** `node ours-client.js SERVER_SCRIPT`: the minimal client (footprint bundle), on `McpClientCore`: spawn a stdio server, call the tool once, print the result. */
import { McpClientCore } from "../../src/api/client.js";
import { callOnce } from "./ours-client-run.js";

await callOnce(new McpClientCore({ name: "bench", version: "1.0.0" }), process.argv[2]);
