/**
 * Micro-benchmark of schema validation against the floor it is held to: `JSON.parse` of
 * the same messages. Target: validating a typical 2026-07-28 `tools/call` request's params
 * and its `CallToolResult` costs well under parsing the two messages.
 *
 * Run: `npx tsc -p tsconfig.json && node .build/bench/schema-validate.js`. Standalone: it
 * prints a table and asserts nothing (timings are machine-dependent).
 */
import { methodSpec } from "../src/model/methods.js";

const request = {
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      progressToken: "tok-42-abcdef",
    },
    name: "get_weather",
    arguments: { location: "San Francisco, CA", units: "metric", days: 3 },
  },
};
const response = {
  jsonrpc: "2.0",
  id: 42,
  result: {
    resultType: "complete",
    content: [
      { type: "text", text: "Current weather in San Francisco, CA: 18°C, partly cloudy, wind 12 km/h from the west." },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" },
    ],
    structuredContent: { temperature: 18, conditions: "partly cloudy" },
    isError: false,
  },
};
const texts = [JSON.stringify(request), JSON.stringify(response)];
const spec = methodSpec("2026-07-28", "tools/call")!;

let sink = 0;

function parse(): void {
  sink += (JSON.parse(texts[0]) as { id: number }).id + (JSON.parse(texts[1]) as { id: number }).id;
}

function validate(): void {
  if (spec.validateParams(request.params) !== null || spec.validateResult!(response.result) !== null) throw new Error("bench message is invalid");
  sink++;
}

/** Nanoseconds per call: the best of several rounds. */
function time(fn: () => void, iterations: number): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / iterations);
  }
  return best;
}

const n = 200_000;
time(parse, n);
time(validate, n);
const p = time(parse, n);
const v = time(validate, n);
console.log(`JSON.parse of request + response   ${p.toFixed(0).padStart(6)} ns`);
console.log(`validate params + result           ${v.toFixed(0).padStart(6)} ns   (${((v / p) * 100).toFixed(0)}% of the parse)`);
if (sink === 0) console.log("");
