/**
 * The demo server: an `echo` tool, plus the tools, resources and prompts the official
 * conformance suite's server scenarios call, built on {@link McpServer}.
 *
 * Spec: 2025-11-25 `server/tools`, `server/resources`, `server/prompts`,
 * `server/utilities/{completion,logging}`, `basic/utilities/{progress,cancellation}`,
 * `client/{sampling,elicitation,roots}`. Which scenario each piece serves is listed in
 * `README.md` next to this file. The names and behaviours follow the suite's scenario
 * descriptions (modelcontextprotocol/conformance, `src/scenarios/server/**`); the code is
 * our own.
 *
 * Theory of operation. Nothing here reads a clock: the ~50 ms pauses the logging and
 * progress scenarios ask for, and the long run of `slow_compute`, go through
 * {@link DemoOptions.delay}, which defaults to a timer on {@link DemoOptions.clock} and
 * which tests replace with an immediately resolved promise. Every pause honours the
 * request's abort signal, so a cancelled call stops at once.
 */
import { systemClock, type Clock } from "../driver/clock.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import { McpServer, ProtocolError, type McpServerOptions, type ServerContext } from "../api/server.js";
import type { CallToolResult, ElicitParams, ElicitResult, Unregister } from "../api/index.js";
import { addHeaderFixtures, addMrtrFixtures, addStatelessFixtures } from "./draft-fixtures.js";
import { addTaskInputFixtures } from "./task-fixtures.js";
import { KERNEL_VERSION } from "../cli/version.js";

/** A 1×1 red PNG. */
export const DEMO_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/** Eight samples of silence: 8 kHz, mono, 8-bit PCM WAV. */
export const DEMO_WAV_BASE64 = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/** The `inputSchema` the `json-schema-2020-12` scenario expects to see preserved in `tools/list`. */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object" as const,
  $defs: {
    address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** Options of {@link createDemoServer}. */
export interface DemoOptions {
  /** Waits `ms`, rejecting if `signal` aborts (default: a timer on `clock`). */
  delay?(ms: number, signal: AbortSignal): Promise<void>;
  /** The clock of the default delay and of the server's endpoints (default: the system clock). */
  clock?: Clock;
  /** Passed to the {@link McpServer}. */
  server?: McpServerOptions;
}

/** Text content, the demo's most common result. */
function text(t: string): CallToolResult {
  return { content: [{ type: "text", text: t }] };
}

/** A pause on `clock` that ends early, with the signal's reason, when the signal aborts. */
function clockDelay(clock: Clock): (ms: number, signal: AbortSignal) => Promise<void> {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        clock.cancel(handle);
        reject(signal.reason);
      };
      const handle = clock.schedule(clock.now() + ms, () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
      signal.addEventListener("abort", onAbort, { once: true });
    });
}

/** Asks the client for input and reports what came back, as the elicitation scenarios expect. */
async function elicitAndReport(ctx: ServerContext, params: ElicitParams, prefix: string): Promise<CallToolResult> {
  const r: ElicitResult = await ctx.elicit(params);
  return text(`${prefix}: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
}

/** Values that start with what the user typed so far. */
function startingWith(values: readonly string[], typed: string): string[] {
  return values.filter((v) => v.startsWith(typed));
}

/** The demo's name and version, in every `serverInfo` it sends: `replay` tells its transcripts by them. */
export const DEMO_INFO = { name: "mcp-kernel-demo", version: KERNEL_VERSION } as const;

/** Builds the demo server. Connect it with `server.connect(transport)`. */
export function createDemoServer(options: DemoOptions = {}): McpServer {
  const clock = options.clock ?? systemClock;
  const delay = options.delay ?? clockDelay(clock);
  const server = new McpServer(
    { ...DEMO_INFO, title: "mcp-kernel demo server", instructions: "A demonstration server: every tool, resource and prompt exists to exercise one protocol feature." },
    { clock, ...options.server },
  );

  // ----- Tools: content types

  server.tool(
    "echo",
    { description: "Echoes its text back", inputSchema: { type: "object", properties: { text: { type: "string", description: "What to echo" } }, required: ["text"] } },
    (args) => text(args.text),
  );
  server.tool("test_simple_text", { description: "Tests simple text content response" }, () => text("This is a simple text response for testing."));
  server.tool("test_image_content", { description: "Tests image content response" }, () => ({ content: [{ type: "image", data: DEMO_PNG_BASE64, mimeType: "image/png" }] }));
  server.tool("test_audio_content", { description: "Tests audio content response" }, () => ({ content: [{ type: "audio", data: DEMO_WAV_BASE64, mimeType: "audio/wav" }] }));
  server.tool("test_embedded_resource", { description: "Tests embedded resource content response" }, () => ({
    content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
  }));
  server.tool("test_multiple_content_types", { description: "Tests response with multiple content types (text, image, resource)" }, () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: DEMO_PNG_BASE64, mimeType: "image/png" },
      { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
    ],
  }));

  // ----- Tools: errors, logging, progress

  server.tool("test_error_handling", { description: "Tests error response handling" }, () => {
    // A thrown Error is a tool execution error: the client gets isError: true and this text.
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.tool("test_tool_with_logging", { description: "Tests tool that emits log messages during execution" }, async (_args, ctx) => {
    ctx.log("info", "Tool execution started");
    await delay(50, ctx.signal);
    ctx.log("info", "Tool processing data");
    await delay(50, ctx.signal);
    ctx.log("info", "Tool execution completed");
    return text("Tool with logging executed successfully");
  });
  server.tool("test_tool_with_progress", { description: "Tests tool that reports progress notifications" }, async (_args, ctx) => {
    // Progress goes out only when the request carried a progressToken; otherwise ctx.progress is a no-op.
    ctx.progress(0, 100, "Completed step 0 of 100");
    await delay(50, ctx.signal);
    ctx.progress(50, 100, "Completed step 50 of 100");
    await delay(50, ctx.signal);
    ctx.progress(100, 100, "Completed step 100 of 100");
    return text("Progress tool completed");
  });

  // ----- Tools: asking the client

  server.tool(
    "test_sampling",
    {
      description: "Tests server-initiated sampling (LLM completion request)",
      inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
    },
    async (args, ctx) => {
      // Without the client's sampling capability this rejects, and the call is an isError result.
      const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: args.prompt } }], maxTokens: 100 });
      const content = r.content as { type?: string; text?: string } | undefined;
      return text(`LLM response: ${content?.type === "text" ? content.text : JSON.stringify(r.content)}`);
    },
  );
  server.tool(
    "test_elicitation",
    {
      description: "Tests server-initiated elicitation (user input request)",
      inputSchema: { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
    },
    (args, ctx) =>
      elicitAndReport(
        ctx,
        {
          message: args.message,
          requestedSchema: {
            type: "object",
            properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } },
            required: ["username", "email"],
          },
        },
        "User response",
      ),
  );
  server.tool("test_elicitation_sep1034_defaults", { description: "Tests elicitation with default values per SEP-1034" }, (_args, ctx) =>
    elicitAndReport(
      ctx,
      {
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      },
      "Elicitation completed",
    ),
  );
  server.tool("test_elicitation_sep1330_enums", { description: "Tests elicitation with enum schema improvements per SEP-1330" }, (_args, ctx) =>
    elicitAndReport(
      ctx,
      {
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: { type: "string", description: "Select one option (legacy)", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
            untitledMulti: { type: "array", description: "Select multiple options", minItems: 1, maxItems: 3, items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      },
      "Elicitation completed",
    ),
  );
  server.tool("test_list_roots", { description: "Asks the client for its roots and returns them as JSON" }, async (_args, ctx) => {
    const r = await ctx.listRoots();
    return text(JSON.stringify(r.roots));
  });

  // ----- Tools: schemas

  server.tool("json_schema_2020_12_tool", { description: "Tool with JSON Schema 2020-12 features", inputSchema: JSON_SCHEMA_2020_12_INPUT }, (args) =>
    text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );

  // ----- Tools: long-running work, task fixtures

  server.tool(
    "greet",
    { description: "Says hello (synchronous)", inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    (args) => text(`Hello, ${args.name}!`),
  );
  // Runs as a task when asked (2025-11-25 `task` param) or when the client declares the
  // tasks extension (2026-07-28): McpServer's task runtime (api/tasks.ts) takes it from there.
  server.tool(
    "slow_compute",
    {
      description: "Works for `seconds` seconds (default 1), reporting progress each second; cancellable",
      inputSchema: { type: "object", properties: { seconds: { type: "number", minimum: 0, maximum: 3600 }, label: { type: "string" } } },
      execution: { taskSupport: "optional" },
    },
    async (args, ctx) => {
      const seconds = args.seconds ?? 1;
      const label = args.label ?? "slow_compute";
      for (let s = 0; s < seconds; s++) {
        await delay(1000, ctx.signal);
        ctx.progress(s + 1, seconds);
      }
      return text(`${label}: done after ${seconds}s`);
    },
  );
  // As a task: failed under 2025-11-25 (isError), completed with the isError result under the extension.
  server.tool("failing_job", { description: "Fails as a tool (isError: true); runs only as a task", execution: { taskSupport: "required" } }, () => ({
    content: [{ type: "text", text: "failing_job failed, as it always does" }],
    isError: true,
  }));
  // As a task: failed with this JSON-RPC error in both eras.
  server.tool("protocol_error_job", { description: "Fails with a JSON-RPC error (-32603)", execution: { taskSupport: "optional" } }, () => {
    // A ProtocolError is a protocol error: the client gets a JSON-RPC error, not a result.
    throw new ProtocolError({ code: ErrorCode.InternalError, message: "protocol_error_job failed with a protocol error" });
  });

  // ----- Tools: list changes and resource updates

  let dynamicTool: Unregister | undefined;
  server.tool("test_trigger_tool_change", { description: "Adds or removes the tool test_dynamic_tool (notifications/tools/list_changed)" }, () => {
    if (dynamicTool !== undefined) {
      dynamicTool();
      dynamicTool = undefined;
      return text("test_dynamic_tool removed");
    }
    dynamicTool = server.tool("test_dynamic_tool", { description: "Exists between two calls of test_trigger_tool_change" }, () => text("dynamic"));
    return text("test_dynamic_tool added");
  });
  let dynamicPrompt: Unregister | undefined;
  server.tool("test_trigger_prompt_change", { description: "Adds or removes the prompt test_dynamic_prompt (notifications/prompts/list_changed)" }, () => {
    if (dynamicPrompt !== undefined) {
      dynamicPrompt();
      dynamicPrompt = undefined;
      return text("test_dynamic_prompt removed");
    }
    dynamicPrompt = server.prompt("test_dynamic_prompt", { description: "Exists between two calls of test_trigger_prompt_change" }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "dynamic" } }],
    }));
    return text("test_dynamic_prompt added");
  });
  let watched = "Watched resource content, version 0";
  let version = 0;
  server.tool("test_trigger_resource_update", { description: "Changes test://watched-resource (notifications/resources/updated to subscribers)" }, () => {
    watched = `Watched resource content, version ${++version}`;
    server.notifyResourceUpdated("test://watched-resource");
    return text(`test://watched-resource is now at version ${version}`);
  });

  // ----- Resources

  server.resource("test://static-text", { name: "static-text", title: "Static Text Resource", description: "A static text resource for testing", mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }],
  }));
  server.resource("test://static-binary", { name: "static-binary", title: "Static Binary Resource", description: "A static binary resource (image) for testing", mimeType: "image/png" }, (uri) => ({
    contents: [{ uri, mimeType: "image/png", blob: DEMO_PNG_BASE64 }],
  }));
  server.resource("test://watched-resource", { name: "watched-resource", title: "Watched Resource", description: "A resource that changes when test_trigger_resource_update runs", mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri, mimeType: "text/plain", text: watched }],
  }));
  server.resourceTemplate(
    "test://template/{id}/data",
    {
      name: "template",
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
      complete: { id: (typed) => startingWith(["123", "456", "789"], typed) },
    },
    (uri, vars) => ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` }) }] }),
  );

  // ----- Prompts

  server.prompt("test_simple_prompt", { description: "A simple prompt without arguments" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  server.prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      complete: { arg1: (typed) => startingWith(["paris", "park", "party"], typed) },
    },
    (args) => ({ messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }] }),
  );
  server.prompt(
    "test_prompt_with_embedded_resource",
    { description: "A prompt that includes an embedded resource", arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }] },
    (args) => {
      // An argument that is no URI would make a result that breaks the schema (-32603); it is the caller's mistake: -32602.
      if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(args.resourceUri)) throw new ProtocolError({ code: ErrorCode.InvalidParams, message: `resourceUri must be a URI, got ${JSON.stringify(args.resourceUri)}` });
      return {
      messages: [
        { role: "user", content: { type: "resource", resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
      };
    },
  );
  server.prompt("test_prompt_with_image", { description: "A prompt that includes image content" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: DEMO_PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));

  // ----- The 2026-07-28 scenarios' fixtures (draft-fixtures.ts) and the tasks that ask for input (task-fixtures.ts)

  addMrtrFixtures(server);
  addStatelessFixtures(server);
  addHeaderFixtures(server);
  addTaskInputFixtures(server);

  return server;
}
