/**
 * Micro-benchmark of the JSON-RPC codec against the floor it is held to: `JSON.parse` +
 * `JSON.stringify` of the same text. Target: decode + encode at most 1.5× the floor for
 * typical messages (a `tools/call` request, a text `CallToolResult`, a progress
 * notification), plus a large `tools/list` result for the depth walk's cost.
 *
 * Run: `npm run bench -- --filter codec-micro`; rows of the bench harness (bench/README.md).
 */
import { decode, encode } from "../src/jsonrpc/codec.js";
import { defineBench } from "./harness.js";

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

/** Rows: the floor and the codec for each message, so the ratio is per message shape. */
const MESSAGES: Array<[name: string, text: string, target: number | undefined]> = [
  ["tools/call request", request, 1.5],
  ["CallToolResult (text)", result, 1.5],
  ["progress notification", progress, 1.5],
  ["tools/list, 100 tools", toolsList, undefined],
];

for (const [name, text, target] of MESSAGES) {
  const floor = `codec-micro/${name}: JSON.parse+stringify`;
  defineBench({
    name: floor,
    run(n) {
      let bytes = 0;
      for (let i = 0; i < n; i++) bytes += JSON.stringify(JSON.parse(text)).length;
      return bytes;
    },
  });
  defineBench({
    name: `codec-micro/${name}: decode+encode`,
    baseline: floor,
    ...(target === undefined ? {} : { target }),
    setup() {
      const d = decode(text);
      if (d.kind === "invalid" || d.kind === "batch") throw new Error("bench message did not decode");
    },
    run(n) {
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const d = decode(text);
        if (d.kind !== "invalid" && d.kind !== "batch") bytes += encode(d.message).length;
      }
      return bytes;
    },
  });
}
