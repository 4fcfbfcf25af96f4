/**
 * Micro-benchmark of schema validation against the floor it is held to: `JSON.parse` of
 * the same messages. Target: validating a typical 2026-07-28 `tools/call` request's params
 * and its `CallToolResult` costs well under parsing the two messages. A second row holds
 * the built-in JSON Schema validator, running a tool's `inputSchema` on its arguments (as
 * McpServer does for every call), to the same kind of floor: parsing the arguments.
 *
 * Run: `npm run bench -- --filter schema/`; rows of the bench harness (bench/README.md).
 */
import { methodSpec } from "../src/model/methods.js";
import { builtinJsonSchema } from "../src/schema/json-schema.js";
import { defineBench } from "./harness.js";

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

const FLOOR = "schema/floor: JSON.parse of request + response";

defineBench({
  name: FLOOR,
  run(n) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (JSON.parse(texts[0]) as { id: number }).id + (JSON.parse(texts[1]) as { id: number }).id;
    return sum;
  },
});

defineBench({
  name: "schema/validate tools/call params + CallToolResult",
  baseline: FLOOR,
  // "Well under" the parse: at most half of it.
  target: 0.5,
  setup() {
    if (spec.validateParams(request.params) !== null || spec.validateResult!(response.result) !== null) throw new Error("bench message is invalid");
  },
  run(n) {
    let valid = 0;
    for (let i = 0; i < n; i++) if (spec.validateParams(request.params) === null && spec.validateResult!(response.result) === null) valid++;
    return valid;
  },
});

// The bench workload's tool (bench/peers/workload.ts): two required string arguments.
const inputSchema = {
  type: "object",
  properties: { location: { type: "string" }, units: { type: "string" } },
  required: ["location", "units"],
};
const args = { location: "San Francisco, CA", units: "metric" };
const argsText = JSON.stringify(args);
const ARGS_FLOOR = "schema/floor: JSON.parse of tool arguments";

defineBench({
  name: ARGS_FLOOR,
  run(n) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (JSON.parse(argsText) as { units: string }).units.length;
    return sum;
  },
});

defineBench({
  name: "schema/json-schema tool arguments (built-in validator)",
  baseline: ARGS_FLOOR,
  setup() {
    const compiled = builtinJsonSchema.compile(inputSchema);
    if (!compiled.ok || compiled.validate(args) !== null) throw new Error("bench schema or arguments are invalid");
    return compiled.validate;
  },
  run(n, validate) {
    let valid = 0;
    for (let i = 0; i < n; i++) if (validate(args) === null) valid++;
    return valid;
  },
});
