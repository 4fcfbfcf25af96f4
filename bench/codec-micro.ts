/**
 * Micro-benchmark of the JSON-RPC codec against the floor it is held to: `JSON.parse` +
 * `JSON.stringify` of the same text. Target: decode + encode at most 1.5× the floor for
 * typical messages (a `tools/call` request, a text `CallToolResult`, a progress
 * notification), plus a large `tools/list` result for the depth walk's cost.
 *
 * Run: `npx tsc -p tsconfig.json && node .build/bench/codec-micro.js`. Standalone: it
 * prints a table and asserts nothing (timings are machine-dependent).
 */
import { decode, encode } from "../src/jsonrpc/codec.js";

const request = JSON.stringify({
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: {
    name: "get_weather",
    arguments: { location: "San Francisco, CA", units: "metric", days: 3, include: ["hourly", "alerts"] },
    _meta: { progressToken: "tok-42-abcdef", "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" } },
  },
});
const result = JSON.stringify({
  jsonrpc: "2.0",
  id: 42,
  result: {
    content: [{ type: "text", text: "Current weather in San Francisco, CA: 18°C, partly cloudy, wind 12 km/h from the west, humidity 72%. " + "Forecast: tomorrow 19°C sunny; day after 17°C, light rain in the afternoon. ".repeat(4) }],
    isError: false,
  },
});
const progress = JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok-42-abcdef", progress: 50, total: 100, message: "Halfway" } });
const tools = [];
for (let i = 0; i < 100; i++) {
  tools.push({ name: `tool_${i}`, description: `Does thing ${i}`, inputSchema: { type: "object", properties: { a: { type: "string" }, b: { type: "array", items: { type: "number" } } }, required: ["a"] } });
}
const toolsList = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { tools } });

let sink = 0;

function floor(text: string): void {
  sink += JSON.stringify(JSON.parse(text)).length;
}

function codec(text: string): void {
  const d = decode(text);
  if (d.kind === "invalid" || d.kind === "batch") throw new Error("bench message did not decode");
  sink += encode(d.message).length;
}

/** Nanoseconds per call: the best of several rounds, each long enough to be measurable. */
function time(fn: (text: string) => void, text: string, iterations: number): number {
  for (let i = 0; i < iterations / 10; i++) fn(text);
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) fn(text);
    best = Math.min(best, ((performance.now() - start) * 1e6) / iterations);
  }
  return best;
}

const rows: Array<[string, string, number]> = [
  ["tools/call request", request, 200_000],
  ["CallToolResult (text)", result, 200_000],
  ["progress notification", progress, 200_000],
  ["tools/list, 100 tools", toolsList, 2_000],
];
console.log("message                  bytes   floor ns   codec ns   ratio");
for (const [name, text, iterations] of rows) {
  const base = time(floor, text, iterations);
  const ours = time(codec, text, iterations);
  console.log(`${name.padEnd(24)} ${String(text.length).padStart(5)} ${base.toFixed(0).padStart(10)} ${ours.toFixed(0).padStart(10)} ${(ours / base).toFixed(2).padStart(7)}`);
}
if (sink === 0) console.log("unreachable");
