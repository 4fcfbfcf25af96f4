/**
 * Tools of McpServer: the definition a registration adds to the registry (with its
 * schemas compiled), and `tools/call`, whose failures are results.
 *
 * Spec: 2025-11-25 `server/tools` (and the draft's, for `outputSchema` beyond objects and
 * `x-mcp-header`).
 *
 * Theory of operation. Registering a tool checks its name ("Tool Names"), builds its `Tool`
 * definition once (what `tools/list` returns for it) and compiles its `inputSchema` and
 * `outputSchema`, so a schema error surfaces at registration, not on the first call; a
 * definition a served version could not list is refused there too. A call runs
 * in three steps: the arguments are checked against the `inputSchema` (a failure is a
 * tool execution error from 2025-11-25, SEP-1303, and a `-32602` protocol error before:
 * {@link argumentErrorsAreResults}); the handler runs, and what it throws becomes an
 * `isError` result with the message as text ({@link toolFailure}), so the model can see
 * it, unless it is a {@link ProtocolError} or `-32042` (URL elicitation required); its
 * answer is checked against the tool's contract ({@link checkedToolResult}): structured
 * content also serialized as text, and matching the `outputSchema`, or `-32603`. A handler
 * that answers synchronously is answered synchronously, with no promise in between. Either
 * schema may instead be a validation library's (`standard-schema.ts`): listed as the JSON
 * Schema the library writes, checked by the library, the handler given its parsed value.
 */
import { McpError, type RequestContext } from "../../driver/endpoint.js";
import { echoed, ErrorCode, thrownMessage } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { isModernVersion, LEGACY_VERSIONS, type ProtocolVersion } from "../../model/versions.js";
import { legacyVersionsOf } from "../../session/lifecycle.js";
import type { ElicitationChecks } from "../../schema/elicitation.js";
import { issuesText, type JsonSchemaValidator } from "../../schema/json-schema.js";
import { issuesError } from "../../schema/json-type.js";
import type { Issue } from "../../schema/validate.js";
import { taskSupportOf, type ToolTaskSupport } from "../../tasks/capabilities.js";
import { paramHeadersOf } from "../../transports/http/request-metadata.js";
import { isObject } from "../connection.js";
import { ServerContext, withPendingInput, type RequestOrigin } from "../context.js";
import { isThenable } from "../../driver/listener.js";
import { inputRetryOf, isInputRequired, type InputRequiredResult } from "../mrtr.js";
import type { Icon } from "../../session/types.js";
import type { CallToolResult, JsonSchemaObject, Meta, OutputSchema, Tool, ToolAnnotations } from "../types.js";
import type { ArgumentsOf } from "../schema-types.js";
import { invalidParams, ProtocolError, refuseMisuse } from "./errors.js";
import { knownNames } from "../option-names.js";
import { assignDefined, refuseUnlistable } from "./lists.js";
import { isStandardSchema, jsonSchemaOf, standardParser, type Parsed, type StandardSchema } from "../standard-schema.js";

/**
 * Runs a tool. Throw a {@link ProtocolError} for a protocol error; anything else thrown
 * becomes an `isError` result. `A` is the arguments' type as the tool's `inputSchema`
 * describes them: the server checks the arguments against that schema before the handler
 * runs (with no schema, any object passes). `McpServer.tool` reads `A` from the schema
 * literal ({@link ArgumentsOf}); `tool<{ n: number }>(…)` names it instead, the author's
 * statement that the schema says so, not a check of its own.
 */
export type ToolHandler<A extends object = JsonObject> = (args: A, ctx: ServerContext) => ToolAnswer | Promise<ToolAnswer>;

/**
 * What a tool handler answers: its result, or a request for input. Its `structuredContent`
 * may be any value, as the 2026-07-28 schema types it (a 2026-07-28-only server may return
 * an array): {@link checkedToolResult} and the outgoing validation check what it is.
 */
type ToolAnswer = CallToolResult<unknown> | InputRequiredResult;

/**
 * A {@link ToolConfig} whose `inputSchema` is the literal `S`, for `McpServer.tool` to read
 * the arguments' type from. An interface, not an intersection: TypeScript 5.0–5.2 infer the
 * literal through it, and lose it through `ToolConfig & { inputSchema: S }`.
 */
export interface ToolConfigOf<S extends JsonSchemaObject | StandardSchema> extends ToolConfig {
  inputSchema: S;
}

/** The fields of a {@link ToolConfig}, for its misspelling check. */
const TOOL_CONFIG_NAMES = /* @__PURE__ */ knownNames<ToolConfig>()(["title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons", "_meta", "inputBeforeTask"]);

/** Describes a tool (everything of `Tool` but the name). */
export interface ToolConfig {
  title?: string | undefined;
  description?: string | undefined;
  /**
   * A JSON Schema with `type: "object"` (default: any object), or a validation library's
   * schema of objects (a Standard Schema with a JSON Schema converter, such as zod 4.2+'s
   * `z.object(…)`): the handler then gets the library's parsed value.
   */
  inputSchema?: JsonSchemaObject | StandardSchema | undefined;
  /**
   * When given, results must carry `structuredContent` that matches it. `type: "object"`
   * unless the server serves only 2026-07-28, where any JSON Schema 2020-12 is allowed.
   * A validation library's schema is checked by the library, and listed as the JSON Schema
   * of the values it takes.
   */
  outputSchema?: OutputSchema | StandardSchema | undefined;
  annotations?: ToolAnnotations | undefined;
  execution?: Tool["execution"] | undefined;
  icons?: Icon[] | undefined;
  _meta?: Meta | undefined;
  /**
   * Tasks extension (SEP-2663, composition with multi round-trip requests): gather input
   * first. A call without `inputResponses` runs synchronously, so the handler's
   * `input_required` is the answer to round 1; the retry that brings the answers becomes
   * the task. Not sent in `tools/list`. Default false: a task-capable tool called by a
   * declaring client is a task from the first round.
   */
  inputBeforeTask?: boolean | undefined;
}

/**
 * Whether arguments failing a tool's `inputSchema` are a tool execution error (a result
 * with `isError`) under `version`: from 2025-11-25, whose `server/tools` lists "Input
 * validation errors" among tool execution errors; before, "Invalid arguments" were a
 * protocol error.
 */
export function argumentErrorsAreResults(version: string | undefined): boolean {
  return version === undefined || version >= "2025-11-25";
}

/** A registered tool. */
export interface ToolEntry {
  seq: number;
  def: Tool;
  /** A JSON Schema `inputSchema`'s check (the handler gets the arguments as they came). */
  validateInput: ((value: unknown) => Issue[] | null) | null;
  /** A validation library's `inputSchema`: its parse, whose value the handler gets. */
  parseInput: ((value: unknown) => Parsed | Promise<Parsed>) | null;
  validateOutput: ((value: unknown) => Issue[] | null | Promise<Issue[] | null>) | null;
  handler: ToolHandler;
  inputBeforeTask: boolean;
  /** `execution.taskSupport` of the definition, read once (the definition is fixed at registration). */
  taskSupport: ToolTaskSupport;
}

/** Tool names: 1 to 128 of A-Z a-z 0-9 _ - . (2025-11-25 `server/tools`, "Tool Names"). */
function validToolName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x2e;
    if (!ok) return false;
  }
  return true;
}

/** `schema` compiled by `validator`; throws, naming it as `what`, when it is no object schema (`objectOnly`: of `type: "object"`) or does not compile. */
function compile(validator: JsonSchemaValidator, what: string, schema: OutputSchema, objectOnly: boolean): (value: unknown) => Issue[] | null {
  if (typeof schema !== "object" || schema === null) throw new TypeError(`${what} must be a JSON Schema object`);
  if (objectOnly && schema.type !== "object") throw new TypeError(`${what} must be a JSON Schema with type "object"`);
  const compiled = validator.compile(schema);
  if (!compiled.ok) throw new TypeError(`${what} does not compile: ${issuesText(compiled.issues)}`);
  return compiled.validate;
}

/**
 * A tool's schema as `tools/list` sends it: a JSON Schema as given, a library's as it
 * writes it. A library's union of objects (zod's discriminated union is a root `oneOf`)
 * comes without a root `type`: `type: "object"` is added where the schema must describe
 * objects (`objectOnly`), as the arguments are one anyway; another root type is refused.
 */
function listedSchema(schema: JsonSchemaObject | OutputSchema | StandardSchema, what: string, objectOnly: boolean): OutputSchema {
  if (!isStandardSchema(schema)) return schema;
  const json = jsonSchemaOf(schema, what);
  if (!objectOnly || json.type === "object") return json;
  if (json.type !== undefined) throw new TypeError(`${what} must describe objects; ${schema["~standard"].vendor} wrote type ${JSON.stringify(json.type)}`);
  return { type: "object", ...json };
}

/** The issues of a library's parse (the checker of a library's `outputSchema`: what the handler returned is sent as it is). */
function issuesOf(parsed: Parsed): Issue[] | null {
  return parsed.issues ?? null;
}

/** The check of a library's `outputSchema`. */
function standardValidator(schema: StandardSchema): (value: unknown) => Issue[] | null | Promise<Issue[] | null> {
  const parse = standardParser(schema);
  return (value) => {
    const result = parse(value);
    return isThenable(result) ? result.then(issuesOf) : issuesOf(result);
  };
}

/**
 * The entry `tool(name, config, handler)` adds to `tools`, its schemas compiled by
 * `validator`, with the sequence number `nextSeq` draws. Throws for everything `tool`
 * refuses; a tool that may run as a task only when the server has a task runtime.
 */
export function toolEntry<A extends object>(
  tools: ReadonlyMap<string, ToolEntry>, versions: readonly ProtocolVersion[] | undefined, validator: JsonSchemaValidator, hasTaskRuntime: boolean,
  nextSeq: () => number, name: string, config: ToolConfig, handler: ToolHandler<A>,
): ToolEntry {
  refuseMisuse(`tool ${JSON.stringify(name)}`, config, handler, "handler", TOOL_CONFIG_NAMES);
  if (!validToolName(name)) throw new TypeError(`invalid tool name ${JSON.stringify(name)}: use 1-128 characters of A-Z a-z 0-9 _ - .`);
  if (tools.has(name)) throw new TypeError(`tool ${JSON.stringify(name)} is already registered`);
  const { inputBeforeTask, inputSchema, outputSchema, ...rest } = config;
  // The versions before 2026-07-28 this server's sessions negotiate (`versions`: their option).
  const legacy = legacyVersionsOf(versions ?? LEGACY_VERSIONS);
  // Draft server/tools: an outputSchema "can be any valid JSON Schema 2020-12" (an array's,
  // say); until 2025-11-25 it is "restricted to type: "object" at the root level".
  const input = inputSchema === undefined ? undefined : (listedSchema(inputSchema, `tool ${name} inputSchema`, true) as JsonSchemaObject);
  const output = outputSchema === undefined ? undefined : listedSchema(outputSchema, `tool ${name} outputSchema`, legacy.length > 0);
  const headers = input === undefined ? undefined : paramHeadersOf(input);
  if (headers?.ok === false) throw new TypeError(`tool ${JSON.stringify(name)} inputSchema has an invalid x-mcp-header: ${headers.reason}`);
  const def: Tool = { name, inputSchema: { type: "object", properties: {} } };
  assignDefined(def, { ...rest, inputSchema: input, outputSchema: output });
  if (!hasTaskRuntime && taskSupportOf(def) !== "forbidden") {
    throw new TypeError(`tool ${JSON.stringify(name)} declares execution.taskSupport: use McpServer, or give McpServerCore a task runtime (options.tasks)`);
  }
  const entry: ToolEntry = {
    inputBeforeTask: inputBeforeTask === true,
    taskSupport: taskSupportOf(def),
    seq: nextSeq(),
    def,
    validateInput: input === undefined || isStandardSchema(inputSchema) ? null : compile(validator, `tool ${name} inputSchema`, input, true),
    parseInput: isStandardSchema(inputSchema) ? standardParser(inputSchema) : null,
    validateOutput: output === undefined ? null : isStandardSchema(outputSchema) ? standardValidator(outputSchema) : compile(validator, `tool ${name} outputSchema`, output, legacy.length > 0),
    // The arguments the handler gets passed the inputSchema check: `A` is the author's reading of that schema.
    handler: handler as ToolHandler,
  };
  // A definition a served version's schema refuses (a boolean subschema in `properties`,
  // which 2020-12 allows and 2025-11-25 does not; a `title` that is no string, in any era,
  // 2026-07-28 included) would make every tools/list of that version fail: refused here
  // instead, naming the version.
  refuseUnlistable(versions, `tool ${JSON.stringify(name)}`, "tools/list", "tools", def);
  return entry;
}

/**
 * What a tool's handler threw (no ask left open), as its answer: a protocol error as
 * itself; anything else an `isError` result (tools.mdx "Error Handling").
 */
function toolFailure(e: unknown): JsonObject {
  if (e instanceof ProtocolError || (e instanceof McpError && e.code === ErrorCode.UrlElicitationRequired)) throw e;
  return { content: [{ type: "text", text: thrownMessage(e) }], isError: true };
}

/** A handler's answer checked against the tool's contract (`outputSchema`, structured content). */
function checkedToolResult(entry: ToolEntry, name: string, answer: ToolAnswer, rc: RequestContext): JsonObject | Promise<JsonObject> {
  let result = answer;
  if (!isObject(result)) throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} returned no result object` });
  // Not a result yet: the MRTR layer (api/mrtr.ts) takes it from here.
  if (isInputRequired(result)) return result;
  // SEP-2663: servers MUST NOT set resultType "task" on any result but a CreateTaskResult, and
  // return one only for a task a tasks/get finds: the task runtime's own, never a handler's
  // (which went out as a task no tasks/get knew). In 2025-11-25 the member means nothing.
  if (result.resultType === "task" && isModernVersion(rc.protocolVersion)) {
    throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} returned resultType "task": a tool's result is its CallToolResult, never a CreateTaskResult (execution.taskSupport runs a tool as a task)` });
  }
  if (result.content === undefined && result.structuredContent !== undefined) {
    // tools.mdx "Structured Content": a tool returning structured content SHOULD also
    // return it serialized in a TextContent block, for clients that predate it.
    result = { ...result, content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] };
  }
  if (entry.validateOutput === null || result.isError === true) return result;
  // tools.mdx "Output Schema": servers MUST provide structured results that conform to it.
  if (result.structuredContent === undefined) throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} has an outputSchema but returned no structuredContent` });
  const issues = entry.validateOutput(result.structuredContent);
  if (issues === null) return result;
  const checked = result;
  return isThenable(issues) ? Promise.resolve(issues).then((i) => (i === null ? checked : mismatched(name, i))) : mismatched(name, issues);
}

function mismatched(name: string, issues: Issue[]): never {
  throw new McpError({ code: ErrorCode.InternalError, ...issuesError(`tool ${name} returned structuredContent that does not match its outputSchema`, issues) });
}

/**
 * Runs a tool of `tools` (a round of `tools/call`, under MRTR). A handler that answers
 * synchronously is answered synchronously, with no promise in between: four promise hops
 * a call were a measurable share of a round trip.
 */
export function callTool(
  tools: ReadonlyMap<string, ToolEntry>, forms: ElicitationChecks | undefined,
  p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined,
): JsonObject | Promise<JsonObject> {
  const name = p.name as string;
  const entry = tools.get(name);
  // tools.mdx "Error Handling": unknown tools are a protocol error, -32602.
  if (entry === undefined) throw invalidParams(`Unknown tool: ${echoed(name)}`, { name });
  const args = (p.arguments as JsonObject | undefined) ?? {};
  if (entry.validateInput !== null) {
    const issues = entry.validateInput(args);
    if (issues !== null) return invalidArguments(name, issues, rc);
  }
  if (entry.parseInput === null) return runTool(entry, name, args, p, rc, forms, origin);
  // A validation library's parse: the handler gets its value (defaults, transforms); what
  // the library throws is the tool's failure, as what the handler throws is.
  const run = (parsed: Parsed): JsonObject | Promise<JsonObject> => (parsed.issues === undefined ? runTool(entry, name, parsed.value as JsonObject, p, rc, forms, origin) : invalidArguments(name, parsed.issues, rc));
  let parsed: ReturnType<NonNullable<ToolEntry["parseInput"]>>;
  try {
    parsed = entry.parseInput(args);
  } catch (e) {
    return toolFailure(e);
  }
  return isThenable(parsed) ? parsed.then(run, toolFailure) : run(parsed);
}

/**
 * Arguments that failed the tool's `inputSchema`: a tool execution error from 2025-11-25,
 * `-32602` before. A bounded list, each entry clipped in the message: the reply to a large
 * invalid request stays small, whichever validator (`jsonSchema`, a library) listed the issues.
 */
function invalidArguments(name: string, issues: Issue[], rc: RequestContext): JsonObject {
  const { message, data } = issuesError(`Invalid arguments for tool ${name}`, issues);
  if (!argumentErrorsAreResults(rc.protocolVersion)) throw invalidParams(message, data);
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Runs the handler on arguments that passed the `inputSchema`, and checks its answer. */
function runTool(
  entry: ToolEntry, name: string, args: JsonObject, p: JsonObject,
  rc: RequestContext, forms: ElicitationChecks | undefined, origin: RequestOrigin | undefined,
): JsonObject | Promise<JsonObject> {
  const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), forms, origin);
  let answer: ReturnType<typeof withPendingInput<ToolAnswer>>;
  try {
    answer = withPendingInput(ctx, () => entry.handler(args, ctx));
  } catch (e) {
    return toolFailure(e);
  }
  if (!isThenable(answer)) return checkedToolResult(entry, name, answer, rc);
  return answer.then((r) => checkedToolResult(entry, name, r, rc), toolFailure);
}
