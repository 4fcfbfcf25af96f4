/** `node ours-stdio-full.js`: the workload server on `McpServer`, the class with the task runtime built in (footprint row only). */
import { McpServer } from "../../src/api/server.js";
import { stdioServerTransport } from "../../src/transports/stdio.js";
import { ourServer } from "./ours-tools.js";

ourServer(undefined, McpServer).connect(stdioServerTransport());
