/**
 * `node echo-stdio.js`: the stdio floor. A bare JSON-lines echo: every line is parsed,
 * and a request gets the workload's result back (in the request's era's shape, see
 * `floorResult`), stringified, one line each. No MCP, no validation: what any stdio server
 * must at least spend on the same bytes (framing + JSON both ways).
 */
import { floorResult } from "./workload.js";

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  let out = "";
  for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    const msg = JSON.parse(line) as { id?: unknown; params?: { _meta?: object } };
    if (msg.id !== undefined) out += JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: floorResult(msg) }) + "\n";
  }
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
