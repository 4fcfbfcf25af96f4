/** `node ours-client-full.js SERVER_SCRIPT`: the minimal client on `McpClient`, the class with the task runtime built in (footprint row only). */
import { McpClient } from "../../src/api/client.js";
import { callOnce } from "./ours-client-run.js";

await callOnce(new McpClient({ name: "bench", version: "1.0.0" }), process.argv[2]);
