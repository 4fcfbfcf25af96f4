// `mcp-kernel demo-client URL` (src/cli/demo-client.ts): each scenario script of the
// conformance suite's client side, run in process against a small server of ours over
// Streamable HTTP on 127.0.0.1 (port 0), in the era the suite asks for. The suite itself
// runs in `npm run conformance`; this checks the scripts do what the scenarios expect.
// Spec: 2025-11-25 basic/lifecycle, client/elicitation (SEP-1034 defaults), draft
// basic/patterns/mrtr, draft streamable-http (Mcp-Param-* from x-mcp-header).
import { test } from "node:test";
import assert from "node:assert/strict";
import { runDemoClient, SCENARIOS, versionsFor } from "../../src/cli/demo-client.js";
import { cliDemoServer, serverHttpHandler } from "../../src/cli/demo.js";
import { McpServer } from "../../src/api/server.js";
import { ProtocolError } from "../../src/api/server/errors.js";
import { McpClient } from "../../src/api/client.js";
import { McpError } from "../../src/driver/endpoint.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { inputRequired } from "../../src/api/mrtr.js";
import { serveNode } from "../../src/transports/http-node.js";
import { PROTOCOL_VERSIONS } from "../../src/model/versions.js";
import type { CliIO } from "../../src/cli/io.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

/** What the client sent to each tool, by name. */
type Calls = Map<string, JsonObject[]>;

function scenarioServer(calls: Calls): McpServer {
  const server = new McpServer({ name: "scenario-server", version: "1" }, { session: { versions: ["2026-07-28", "2025-11-25"] } });
  const record = (name: string, args: JsonObject) => {
    calls.set(name, [...(calls.get(name) ?? []), args]);
    return { content: [{ type: "text" as const, text: `${name} ok` }] };
  };
  const plain = (name: string, inputSchema?: JsonObject) => server.tool(name, inputSchema === undefined ? {} : { inputSchema: inputSchema as never }, (args) => record(name, args));
  plain("add_numbers", { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } });
  plain("json_schema_2020_12_tool", { type: "object", properties: { name: { type: "string" } } });
  plain("json_schema_echo", { type: "object", properties: { schema: { type: "object" } } });
  plain("test_reconnection");
  plain("test_mrtr_unrelated");
  plain("test_mrtr_no_result_type");
  plain("test_custom_headers", {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, priority: { type: "integer", "x-mcp-header": "Priority" }, non_ascii_val: { type: "string", "x-mcp-header": "NonAscii" }, flag: { type: "boolean" }, ratio: { type: "number" }, tags: { type: "array", items: { enum: ["x"] } }, obj: { type: "object" }, mode: { type: "string", enum: ["m1", "m2"] }, pick: { type: "string", oneOf: [{ const: "p1" }] } },
    required: ["region"],
  });
  plain("test_custom_headers_null", { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, verbose: { type: "boolean", "x-mcp-header": "Verbose" } }, required: ["region"] });
  server.tool("test_client_elicitation_defaults", {}, async (_args, ctx) => {
    const r = await ctx.elicit({ message: "defaults", requestedSchema: { type: "object", properties: { name: { type: "string", default: "John Doe" }, age: { type: "integer", default: 30 }, free: { type: "string" } } } });
    return record("test_client_elicitation_defaults", r as unknown as JsonObject);
  });
  for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state"]) {
    server.tool(name, {}, (_args, ctx) =>
      ctx.inputResponses === undefined
        ? inputRequired({ confirm: { method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: { confirmed: { type: "boolean" } } } } } }, name === "test_mrtr_echo_state" ? "s1" : undefined)
        : record(name, ctx.inputResponses as JsonObject),
    );
  }
  server.resource("test://r", { name: "r" }, (uri) => ({ contents: [{ uri, text: "r" }] }));
  server.prompt("p", { arguments: [{ name: "who", required: true }] }, (args) => ({ messages: [{ role: "user", content: { type: "text", text: `hi ${args.who}` } }] }));
  return server;
}

function sink(): { io: CliIO; err: () => string } {
  let err = "";
  const io: CliIO = { stdin: (async function* () {})(), stdout: { write: () => true }, stderr: { write: (c) => ((err += String(c)), true) } };
  return { io, err: () => err };
}

async function withServer(fn: (url: string, calls: Calls) => Promise<void>, make: (calls: Calls) => McpServer = scenarioServer): Promise<void> {
  const calls: Calls = new Map();
  const server = make(calls);
  const handler = serverHttpHandler(server);
  const http = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  try {
    await fn(`${http.url}/mcp`, calls);
  } finally {
    handler.close();
    server.close();
    await http.close();
  }
}

async function run(url: string, scenario: string, version: string): Promise<{ code: number; err: string }> {
  const s = sink();
  const code = await runDemoClient([url], s.io, { MCP_CONFORMANCE_SCENARIO: scenario, MCP_CONFORMANCE_PROTOCOL_VERSION: version });
  return { code, err: s.err() };
}

for (const version of ["2025-11-25", "2026-07-28"]) {
  test(`demo-client ${version}: tools_call, json-schema-2020-12-preservation and sep-2322 scripts make the calls their scenarios watch`, async () => {
    await withServer(async (url, calls) => {
      for (const scenario of ["tools_call", "json-schema-2020-12-preservation", "json-schema-ref-no-deref", "request-metadata", "sep-2322-client-request-state"]) {
        const r = await run(url, scenario, version);
        assert.equal(r.code, 0, r.err);
        assert.match(r.err, new RegExp(`connected: ${version}`));
      }
      assert.deepEqual(calls.get("add_numbers"), [{ a: 2, b: 3 }]);
      assert.deepEqual(calls.get("json_schema_echo"), [{ schema: { type: "object", properties: { name: { type: "string" } } } }]);
      // MRTR: the retry carried the answer to the key the server asked.
      assert.deepEqual(calls.get("test_mrtr_echo_state"), [{ confirm: { action: "accept", content: { confirmed: true } } }]);
      assert.equal(calls.get("test_mrtr_no_state")?.length, 1);
      assert.deepEqual(calls.get("test_mrtr_unrelated"), [{}]);
    });
  });
}

test("demo-client: elicitation defaults are filled in; sse-retry calls test_reconnection (2025-11-25)", async () => {
  await withServer(async (url, calls) => {
    assert.equal((await run(url, "elicitation-sep1034-client-defaults", "2025-11-25")).code, 0);
    assert.deepEqual(calls.get("test_client_elicitation_defaults"), [{ action: "accept", content: { name: "John Doe", age: 30, free: "demo" } }]);
    assert.equal((await run(url, "sse-retry", "2025-11-25")).code, 0);
    assert.equal(calls.get("test_reconnection")?.length, 1);
  });
});

test("demo-client: an unknown scenario exercises every tool, resource and prompt; *_null tools get only required arguments", async () => {
  await withServer(async (url, calls) => {
    const r = await run(url, "http-custom-headers", "2026-07-28");
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /resources\/read test:\/\/r: ok/);
    assert.match(r.err, /prompts\/get p: ok/);
    assert.deepEqual(calls.get("test_custom_headers"), [{ region: "us-west1", priority: 5, non_ascii_val: "Grüße", flag: true, ratio: 3.5, tags: ["x"], obj: {}, mode: "m1", pick: "p1" }]);
    assert.deepEqual(calls.get("test_custom_headers_null"), [{ region: "us-west1" }]);
  });
});

test("demo-client: a failing call exits 1 with the error; bad arguments exit 2; --help exits 0", async () => {
  const noTools = () => {
    const server = new McpServer({ name: "no-tools", version: "1" });
    server.resource("test://only", { name: "only" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    return server;
  };
  await withServer(async (url) => {
    // The script lists tools of a server that has none: the client kernel refuses at once (-32601).
    const r = await run(url, "json-schema-2020-12-preservation", "2025-11-25");
    assert.equal(r.code, 1);
    assert.match(r.err, /failed: -32601/);
    // The basic flow skips tools/list when the server declares no tools (the initialize scenario).
    assert.equal((await run(url, "initialize", "2025-11-25")).code, 0);
    // So does the exerciser, which reads only what the server declared.
    const all = await run(url, "some-scenario-we-do-not-know", "2025-11-25");
    assert.equal(all.code, 0, all.err);
    assert.match(all.err, /resources\/read test:\/\/only: ok/);
  }, noTools);
  const onlyAdd = () => {
    const server = new McpServer({ name: "only-add", version: "1" }, { session: { versions: ["2026-07-28"] } });
    server.tool("add_numbers", {}, () => ({ content: [] }));
    return server;
  };
  await withServer(async (url) => {
    // The focal tool of json-schema-2020-12-preservation is missing: the script fails, exit 1.
    const r = await run(url, "json-schema-2020-12-preservation", "2026-07-28");
    assert.equal(r.code, 1);
    assert.match(r.err, /failed: the server lists no json_schema_2020_12_tool/);
  }, onlyAdd);
  const s = sink();
  assert.equal(await runDemoClient([], s.io, {}), 2);
  assert.equal(await runDemoClient(["not-a-url"], s.io, {}), 2);
  assert.equal(await runDemoClient(["--help"], s.io, {}), 0);
  assert.ok(Object.hasOwn(SCENARIOS, "tools_call"));
});

test("demo-client + draft schema.ts MCP error codes (-32000 to -32019 are implementation-defined: receivers must not assign cross-implementation semantics to them): a server's own -32000 or -32001 answer is logged as the outcome it is, not taken for the connection closing or the call timing out, and the run goes on", async () => {
  const ownCodes = () => {
    const server = new McpServer({ name: "own-codes", version: "1" }, { session: { versions: ["2026-07-28", "2025-11-25"] } });
    server.resource("test://down", { name: "down" }, () => {
      throw new ProtocolError({ code: -32000, message: "database down" });
    });
    server.resource("test://slow", { name: "slow" }, () => {
      throw new ProtocolError({ code: -32001, message: "backend slow" });
    });
    return server;
  };
  await withServer(async (url) => {
    for (const version of ["2025-11-25", "2026-07-28"]) {
      const r = await run(url, "some-scenario-we-do-not-know", version);
      assert.equal(r.code, 0, `${version}: ${r.err}`);
      assert.match(r.err, /resources\/read test:\/\/down: error -32000 database down/, version);
      assert.match(r.err, /resources\/read test:\/\/slow: error -32001 backend slow/, version);
    }
  }, ownCodes);
});

test("demo-client (a terminal's safety): what the server sends is logged with its control characters escaped, so an escape sequence or a newline in an error message cannot drive the terminal or forge a log line", async () => {
  const hostile = (): McpServer => {
    const server = new McpServer({ name: "hostile", version: "1" });
    server.prompt("p", {}, () => {
      throw new McpError({ code: -32050, message: "bad\u001b[2J\ndemo-client [exercise] failed: forged" });
    });
    return server;
  };
  await withServer(async (url) => {
    const r = await run(url, "", "2025-11-25");
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /\u001b/);
    assert.match(r.err, /bad\\u001b\[2J\\u000ademo-client \[exercise\] failed: forged/);
    assert.doesNotMatch(r.err, /^demo-client \[exercise\] failed/m);
  }, hostile);
});

test("versionsFor: the requested version alone when the kernel knows it, else every version", () => {
  assert.deepEqual(versionsFor("2025-11-25"), ["2025-11-25"]);
  assert.deepEqual(versionsFor(undefined), [...PROTOCOL_VERSIONS]);
  assert.deepEqual(versionsFor("1999-01-01"), [...PROTOCOL_VERSIONS]);
});

test("demo-client against mcp-kernel's own demo server, every era: the exerciser walks every tool (task-only ones as tasks), resource and prompt and exits 0; the server's deliberate JSON-RPC errors are logged, not fatal", async () => {
  const instant = () => Promise.resolve();
  for (const version of PROTOCOL_VERSIONS) {
    await withServer(async (url) => {
      const r = await run(url, "", version);
      assert.equal(r.code, 0, `${version}: ${r.err}`);
      assert.match(r.err, new RegExp(`connected: ${version}`));
      // A tool that runs only as a task: called as one where the version has tasks, declined (plain) before.
      const hasTasks = version === "2025-11-25" || version === "2026-07-28";
      assert.match(r.err, hasTasks ? /tools\/call failing_job: isError \(task\)/ : /tools\/call failing_job: isError\n/, version);
      assert.match(r.err, /tools\/call protocol_error_job: error -32603 protocol_error_job failed with a protocol error/, version);
      // A prompt argument named like a URI gets a URI (the demo refuses anything else with -32602).
      assert.match(r.err, /prompts\/get test_prompt_with_embedded_resource: ok/, version);
      assert.match(r.err, /tools\/call json_schema_2020_12_tool: ok/, version);
      assert.match(r.err, /resources\/read test:\/\/static-text: ok/, version);
      assert.doesNotMatch(r.err, /failed:/, version);
    }, () => cliDemoServer({ delay: instant }));
  }
});

test("demo server: test_prompt_with_embedded_resource refuses an argument that is no URI with -32602 (a result carrying it would break the schema: -32603)", async () => {
  await withServer(async (url) => {
    const client = new McpClient({ name: "t", version: "1" });
    await client.connect(httpClientTransport(url));
    try {
      const e = await client.getPrompt("test_prompt_with_embedded_resource", { resourceUri: "not a uri" }).then(() => undefined, (x: McpError) => x);
      assert.equal(e?.code, ErrorCode.InvalidParams);
      assert.match(e!.message, /resourceUri must be a URI/);
      const ok = await client.getPrompt("test_prompt_with_embedded_resource", { resourceUri: "test://x" });
      assert.equal((ok.messages[0].content as { resource: { uri: string } }).resource.uri, "test://x");
    } finally {
      client.close();
    }
  }, () => cliDemoServer());
});
