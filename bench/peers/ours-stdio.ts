/** `node ours-stdio.js`: our workload server on stdin/stdout (dual-era). Loads only mcp-kernel. */
import { stdioServerTransport } from "../../src/transports/stdio.js";
import { ourServer } from "./ours-tools.js";

ourServer().connect(stdioServerTransport());
