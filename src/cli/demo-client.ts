/**
 * `mcp-kernel demo-client URL`: the client the official conformance suite drives
 * (`conformance client --command "mcp-kernel demo-client"`), built on {@link McpClient}
 * over the Streamable HTTP client transport.
 *
 * Spec: 2025-11-25 `basic/lifecycle` and `basic/transports`, `client/elicitation`
 * (SEP-1034 defaults), draft `basic/versioning` (era detection), draft
 * `basic/patterns/mrtr` (the client retries `input_required` with the answers), draft
 * `basic/transports/streamable-http` (standard and `Mcp-Param-*` headers). Each scenario
 * names what it checks; this module only acts it out.
 *
 * Theory of operation. The suite runs the command with the server URL as its last
 * argument and the scenario in `MCP_CONFORMANCE_SCENARIO` (the protocol version to speak
 * in `MCP_CONFORMANCE_PROTOCOL_VERSION`, credentials for `auth/*` in
 * `MCP_CONFORMANCE_CONTEXT`). A scenario is a row of {@link SCENARIOS}: a short script of
 * ordinary client calls. Everything protocol-shaped (the handshake or the discover
 * probe, headers, MRTR retries, SSE reconnection, dropping tools with invalid
 * `x-mcp-header` declarations) is the kernel's and the transport's, which is the point:
 * the suite grades them, not this file. An unknown scenario runs {@link exercise}, which
 * touches every tool (task-only ones as tasks), resource and prompt the server lists, so
 * `mcp-kernel demo-client URL` against `mcp-kernel serve` walks the whole demo. Exit code 0
 * when the script ran, 1 when a call failed (the error goes to stderr).
 */
import { ErrorCode, httpClientTransport, isModernVersion, McpClient, McpError, PROTOCOL_VERSIONS, type HttpClientOptions, type JsonObject, type ProtocolVersion, type Tool } from "../index.js";
import type { ClientHandlers } from "../api/client.js";
import type { ElicitResult } from "../api/types.js";
import { conformanceAuthFetch } from "./demo-client-auth.js";
import { Exit, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { KERNEL_VERSION } from "./version.js";
import { thrownMessage } from "../jsonrpc/errors.js";

const USAGE = `usage: mcp-kernel demo-client URL

The client the conformance suite drives: acts out $MCP_CONFORMANCE_SCENARIO against the
server at URL (Streamable HTTP), speaking $MCP_CONFORMANCE_PROTOCOL_VERSION when set.
`;

/** What a scenario script gets. */
interface ScenarioRun {
  client: McpClient;
  log(line: string): Promise<void>;
  /** Resolves once the standalone GET stream is open (the server's unrelated requests travel there). */
  getStreamOpen: Promise<void>;
}

type Fetch = NonNullable<HttpClientOptions["fetch"]>;

/** `inner`, and a promise that resolves at the first GET answered 200 (the standalone stream opening). */
function watchGetStream(inner: Fetch): { fetch: Fetch; open: Promise<void> } {
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const fetch: Fetch = async (input, init) => {
    const res = await inner(input, init);
    if (init.method === "GET" && res.ok) opened();
    return res;
  };
  return { fetch, open };
}

/** Waits for `p`, at most `ms` (a stream that never opens is the server's business). */
function atMost(p: Promise<void>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
    void p.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

type Script = (run: ScenarioRun) => Promise<void>;

/** A JSON Schema property, as far as the synthesizers below read it. */
interface PropertySchema {
  type?: string | string[];
  default?: unknown;
  enum?: unknown[];
  oneOf?: { const?: unknown }[];
  items?: PropertySchema & { anyOf?: { const?: unknown }[] };
  "x-mcp-header"?: string;
}

function propertiesOf(schema: unknown): Record<string, PropertySchema> {
  const p = (schema as { properties?: unknown } | undefined)?.properties;
  return p !== null && typeof p === "object" ? (p as Record<string, PropertySchema>) : {};
}

function requiredOf(schema: unknown): string[] {
  const r = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === "string") : [];
}

/**
 * Sample values for `x-mcp-header` parameters by name: some need Base64 on the wire
 * (non-ASCII, surrounding whitespace, control characters), which is what the suite's
 * custom-header scenario checks the transport for.
 */
const HEADER_SAMPLES: Record<string, unknown> = {
  region: "us-west1",
  priority: 5,
  verbose: true,
  debug: false,
  empty_val: "",
  method_val: "tools/call",
  non_ascii_val: "Grüße",
  whitespace_val: " padded ",
  leading_space_val: " leading",
  trailing_space_val: "trailing ",
  internal_space_val: "internal space",
  control_char_val: "bell\u0007",
  crlf_val: "line1\r\nline2",
  tab_val: "\ttabbed",
};

/** `schema`, or what its local `$ref` (`#/$defs/name`, `#/definitions/name`) names in `root`. */
function resolved(schema: PropertySchema & { $ref?: unknown }, root: unknown): PropertySchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const target = m === null ? undefined : (root as Record<string, Record<string, unknown> | undefined>)[m[1]]?.[m[2]];
  return target !== null && typeof target === "object" ? (target as PropertySchema) : schema;
}

/** A value that satisfies `schema`: its default, its first choice, or a plain sample of its type. */
function sampleValue(name: string, schema: PropertySchema): unknown {
  if (schema.default !== undefined) return schema.default;
  // URI-named strings (a prompt's resourceUri, a tool's uri) get a URI.
  if (schema.type === undefined || schema.type === "string") {
    if (/uri$/i.test(name)) return "test://mcp-kernel-demo-client";
  }
  if (Object.hasOwn(HEADER_SAMPLES, name)) return HEADER_SAMPLES[name];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.oneOf) && schema.oneOf[0]?.const !== undefined) return schema.oneOf[0].const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
      return 2;
    case "number":
      return 3.5;
    case "boolean":
      return true;
    case "array": {
      const first = schema.items?.enum?.[0] ?? schema.items?.anyOf?.[0]?.const;
      return first === undefined ? [] : [first];
    }
    case "object":
      return {};
    default:
      return "demo";
  }
}

/** Arguments for a tool: every property it declares, or (`requiredOnly`) just the required ones. */
function sampleArguments(tool: Tool, requiredOnly = false): JsonObject {
  const props = propertiesOf(tool.inputSchema);
  const names = requiredOnly ? requiredOf(tool.inputSchema) : Object.keys(props);
  const args: JsonObject = {};
  for (const name of names) args[name] = sampleValue(name, resolved(props[name] ?? {}, tool.inputSchema)) as JsonObject[string];
  return args;
}

/**
 * The answers this client gives when the server asks (legacy requests, or the modern
 * `input_required` input requests, which McpClient routes to the same handlers).
 * Elicitation accepts with every field filled: the schema's default where it has one
 * (client/elicitation, SEP-1034: clients SHOULD pre-populate defaults), else a sample.
 */
const HANDLERS: ClientHandlers = {
  elicitation(params) {
    const schema = (params as { requestedSchema?: unknown }).requestedSchema;
    const content: NonNullable<ElicitResult["content"]> = {};
    // Elicitation fields are primitives (or string arrays), which is all sampleValue makes for them.
    for (const [name, prop] of Object.entries(propertiesOf(schema))) content[name] = sampleValue(name, prop) as string | number | boolean | string[];
    return { action: "accept", content };
  },
  sampling(params) {
    const last = (params.messages as { content?: { text?: string } }[] | undefined)?.at(-1)?.content?.text ?? "";
    return { role: "assistant", content: { type: "text", text: `demo-client answer to: ${last}` }, model: "mcp-kernel-demo-client", stopReason: "endTurn" };
  },
  roots() {
    return [{ uri: "file:///tmp/mcp-kernel-demo-client", name: "demo-client root" }];
  },
};

/** Lists every tool (following cursors). */
async function allTools(client: McpClient): Promise<Tool[]> {
  const tools: Tool[] = [];
  for await (const t of client.iterateTools()) tools.push(t);
  return tools;
}

/** Calls one tool and logs the outcome; a tool error result is an outcome, not a failure. */
async function callAndLog(run: ScenarioRun, name: string, args: JsonObject): Promise<void> {
  const r = await run.client.callTool(name, args);
  await run.log(`tools/call ${name}: ${r.isError === true ? "isError" : "ok"}`);
}

/**
 * Errors of the client or the connection, not answers of the server: they end the run. Only
 * local ones: a server may answer these codes itself (-32000 to -32019 are
 * implementation-defined), and that answer is an outcome like any other.
 */
const LOCAL_FAILURES: readonly number[] = [ErrorCode.ConnectionClosed, ErrorCode.RequestTimeout];

/** Runs one call of the exerciser: its outcome is logged; a JSON-RPC error the server answered is an outcome too. */
async function touch(run: ScenarioRun, what: string, call: () => Promise<string>): Promise<void> {
  let outcome: string;
  try {
    outcome = await call();
  } catch (e) {
    if (!(e instanceof McpError) || (!e.fromPeer && LOCAL_FAILURES.includes(e.code))) throw e;
    outcome = `error ${describe(e)}`;
  }
  await run.log(`${what}: ${outcome}`);
}

/**
 * One tool call of the exerciser. A tool that runs only as a task (`execution.taskSupport:
 * "required"`) is called as one; whenever the server answers with a task (that, or an
 * optional one under the extension) the result is waited for (`tasks/result`, or
 * `tasks/get` polls under the extension).
 */
async function callTool(client: McpClient, tool: Tool, args: JsonObject): Promise<string> {
  const first = tool.execution?.taskSupport === "required" ? await client.callToolAsTask(tool.name, args) : await client.callTool(tool.name, args);
  const taskId = client.taskIdOf(first);
  const r = (taskId === undefined ? first : await client.waitForTask(taskId)) as { isError?: boolean };
  return `${r.isError === true ? "isError" : "ok"}${taskId === undefined ? "" : " (task)"}`;
}

/**
 * The server's tools, resources and prompts, each touched once (what the header scenarios
 * watch; against `mcp-kernel serve`, the whole demo). A JSON-RPC error the server answers
 * is its answer (a demo tool may fail on purpose): logged, and the run goes on; a closed
 * connection or a timeout ends it.
 */
async function exercise(run: ScenarioRun): Promise<void> {
  const { client } = run;
  const caps = client.serverCapabilities ?? {};
  if (caps.tools !== undefined) {
    for (const tool of await allTools(client)) {
      // A tool named *_null tests that absent optional parameters send no header: give only what it requires.
      const args = sampleArguments(tool, tool.name.endsWith("_null"));
      await touch(run, `tools/call ${tool.name}`, () => callTool(client, tool, args));
    }
  }
  if (caps.resources !== undefined) {
    for await (const r of client.iterateResources()) {
      await touch(run, `resources/read ${r.uri}`, async () => (await client.readResource(r.uri), "ok"));
    }
  }
  if (caps.prompts !== undefined) {
    for await (const p of client.iteratePrompts()) {
      const args: Record<string, string> = {};
      for (const a of p.arguments ?? []) args[a.name] = sampleValue(a.name, {}) as string;
      await touch(run, `prompts/get ${p.name}`, async () => (await client.getPrompt(p.name, args), "ok"));
    }
  }
}

/** The suite's basic client flow: list the tools, call the first with `{a: 2, b: 3}`. */
async function listAndCallFirst(run: ScenarioRun): Promise<void> {
  if (run.client.serverCapabilities?.tools === undefined) return; // initialize: the handshake was the test
  const [first] = await allTools(run.client);
  if (first !== undefined) await callAndLog(run, first.name, { a: 2, b: 3 });
}

/** Scripts by scenario name; any other name runs {@link exercise}. */
export const SCENARIOS: Readonly<Record<string, Script>> = {
  initialize: listAndCallFirst,
  tools_call: listAndCallFirst,
  "json-schema-ref-no-deref": async ({ client }) => {
    // SEP-2106: list, never fetch the network $ref (nothing here dereferences schemas).
    await allTools(client);
  },
  "json-schema-2020-12-preservation": async (run) => {
    const focal = (await allTools(run.client)).find((t) => t.name === "json_schema_2020_12_tool");
    if (focal === undefined) throw new Error("the server lists no json_schema_2020_12_tool");
    await callAndLog(run, "json_schema_echo", { schema: focal.inputSchema as unknown as JsonObject });
  },
  "request-metadata": async ({ client }) => {
    // connect() already discovered (modern era, after the mock's -32022 and our retry);
    // one more stateless request when there is one to make. The mock declares no
    // capabilities, and tools/list to a server without `tools` is refused before sending.
    if (client.serverCapabilities?.tools !== undefined) await allTools(client);
  },
  "elicitation-sep1034-client-defaults": async (run) => {
    await allTools(run.client);
    // The suite's server sends its elicitation request unrelated to the call, so on the
    // standalone stream, and drops it if that stream is not open yet: wait for it first.
    // (Modern sessions have no standalone stream.)
    if (!isModernVersion(run.client.protocolVersion ?? "")) await atMost(run.getStreamOpen, 5000);
    await callAndLog(run, "test_client_elicitation_defaults", {});
  },
  "sse-retry": async (run) => {
    await allTools(run.client);
    await callAndLog(run, "test_reconnection", {});
  },
  "sep-2322-client-request-state": async (run) => {
    await allTools(run.client);
    // McpClient answers input_required itself (HANDLERS) and retries under a new id.
    await callAndLog(run, "test_mrtr_echo_state", {});
    await callAndLog(run, "test_mrtr_unrelated", {});
    await callAndLog(run, "test_mrtr_no_state", {});
    await callAndLog(run, "test_mrtr_no_result_type", {});
  },
};

/** The versions to offer: the one the suite asks for first, then every other the kernel knows. */
export function versionsFor(requested: string | undefined): ProtocolVersion[] {
  const all = [...PROTOCOL_VERSIONS] as ProtocolVersion[];
  if (requested === undefined || !all.includes(requested as ProtocolVersion)) return all;
  return [requested as ProtocolVersion];
}

/**
 * `text` as a log line may show it on a terminal: control characters (an escape sequence
 * in a server's error message or tool name, a newline that would start a line of its own)
 * written as `\uXXXX`, so what a server sends cannot drive the terminal or forge a line.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function describe(e: unknown): string {
  if (e instanceof McpError) return `${e.code} ${e.message}${e.data === undefined ? "" : ` ${JSON.stringify(e.data)}`}`;
  return thrownMessage(e);
}

/**
 * Runs the demo client on `argv` (`[URL]`) with the scenario and version taken from
 * `env` (default `process.env`) and resolves to the exit code.
 */
export async function runDemoClient(argv: string[], io?: CliIO, env: Record<string, string | undefined> = process.env): Promise<number> {
  const err = (line: string): Promise<void> => (io === undefined ? Promise.resolve(void process.stderr.write(line)) : writeOut(io.stderr, line));
  if (argv[0] === "--help" || argv[0] === "-h") {
    if (io === undefined) process.stdout.write(USAGE);
    else await writeResult(io.stdout, USAGE);
    return Exit.Ok;
  }
  const url = argv.at(-1);
  if (argv.length !== 1 || url === undefined || !/^https?:\/\//.test(url)) {
    await err(`mcp-kernel demo-client: expected one http(s) URL\n\n${USAGE}`);
    return Exit.Usage;
  }
  const scenario = env.MCP_CONFORMANCE_SCENARIO ?? "";
  const script = SCENARIOS[scenario] ?? exercise;
  const authFetch = conformanceAuthFetch(url, scenario, env.MCP_CONFORMANCE_CONTEXT, env.MCP_CONFORMANCE_PROTOCOL_VERSION);
  const watched = watchGetStream(authFetch === undefined ? (input, init) => globalThis.fetch(input, init) : (authFetch as Fetch));
  const transport = httpClientTransport(url, { fetch: watched.fetch });
  // The exerciser declares the tasks extension, so a 2026-07-28 server runs its task-only tools for it; the scenario scripts speak as the suite expects.
  const client = new McpClient({ name: "mcp-kernel-demo-client", version: KERNEL_VERSION }, { handlers: HANDLERS, tasks: script === exercise, session: { versions: versionsFor(env.MCP_CONFORMANCE_PROTOCOL_VERSION) } });
  const log = (line: string): Promise<void> => err(`demo-client [${scenario || "exercise"}] ${printable(line)}\n`);
  try {
    await client.connect(transport);
    await log(`connected: ${client.protocolVersion ?? "?"}`);
    await script({ client, log, getStreamOpen: watched.open });
    return Exit.Ok;
  } catch (e) {
    await log(`failed: ${describe(e)}`);
    return Exit.Invalid;
  } finally {
    client.close();
    transport.close();
  }
}

/** The `demo-client` verb (main.ts loads this module when the verb runs). */
export const demoClientVerb: Verb = {
  summary: "the conformance suite's client: acts out $MCP_CONFORMANCE_SCENARIO against URL",
  usage: USAGE,
  run: (args, io) => runDemoClient(args, io),
};
