/**
 * The demo server's fixtures for the 2026-07-28 scenarios of the official conformance
 * suite: multi round-trip requests (`input-required-result-*`), the diagnostic tools of
 * `server-stateless`, and a tool whose arguments are mirrored into `Mcp-Param-*` headers
 * (`http-custom-header-server-validation`).
 *
 * Spec: draft `basic/patterns/mrtr` (InputRequiredResult, requestState, "Server
 * Requirements"), draft `basic/index` (per-request `_meta`, `-32021` for an undeclared
 * client capability), draft `server/utilities/logging` (no log without
 * `io.modelcontextprotocol/logLevel`), draft `basic/transports/streamable-http`
 * ("Custom headers", `x-mcp-header`). SEP-2322 and SEP-2575.
 *
 * Theory of operation. Every MRTR fixture is one handler that serves both eras: it answers
 * {@link inputRequired} until `ctx.inputResponses` holds what it asked for. For a modern
 * request the kernel seals the `requestState` (so `..._tampered_state` needs no code of
 * its own: a modified state is refused with `-32602` before the handler runs); in a legacy
 * session the kernel sends the input requests to the client itself and runs the handler
 * again. The state each fixture keeps is a small JSON object naming the fixture, so a
 * state issued for one fixture is never taken for another's.
 */
import { MetaKey } from "../model/meta.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { inputRequired, type InputRequests, type InputResponses } from "../api/mrtr.js";
import { ProtocolError, type McpServer, type ServerContext } from "../api/server.js";
import type { BooleanSchema, CallToolResult, ElicitParams, StringSchema } from "../api/types.js";

/** Text content, the fixtures' result. */
function text(t: string): CallToolResult {
  return { content: [{ type: "text", text: t }] };
}

/** An `elicitation/create` input request for one string (or boolean) field. */
function askFor(message: string, field: string, type: "string" | "boolean" = "string"): { method: "elicitation/create"; params: ElicitParams } {
  const schema: StringSchema | BooleanSchema = type === "string" ? { type } : { type };
  return { method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties: { [field]: schema }, required: [field] } } };
}

/** A `sampling/createMessage` input request for one user message. */
function sampleOf(prompt: string, maxTokens: number): InputRequests[string] {
  return { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens } };
}

const ROOTS: InputRequests[string] = { method: "roots/list", params: {} };

/** The `content[field]` of an accepted elicitation answer, as text; `fallback` otherwise. */
function answered(responses: InputResponses | undefined, key: string, field: string, fallback = "?"): string {
  const r = responses?.[key] as { action?: unknown; content?: Record<string, unknown> } | undefined;
  const v = r?.action === "accept" ? r.content?.[field] : undefined;
  return v === undefined || v === null ? fallback : String(v);
}

/** Whether the client answered `key` with an object (a result, of whatever kind). */
function has(responses: InputResponses | undefined, key: string): boolean {
  const r = responses?.[key];
  return r !== null && typeof r === "object" && !Array.isArray(r);
}

/** The fixture's own state: `{fixture, ...fields}` as JSON, or undefined if absent or not ours. */
function stateOf(ctx: ServerContext, fixture: string): JsonObject | undefined {
  if (ctx.requestState === undefined) return undefined;
  try {
    const s = JSON.parse(ctx.requestState) as JsonObject;
    return s !== null && typeof s === "object" && s.fixture === fixture ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The fixture state for `fixture`, serialized. */
function state(fixture: string, fields: JsonObject = {}): string {
  return JSON.stringify({ fixture, ...fields });
}

/**
 * The client capabilities that apply to this request: a modern request's `_meta`
 * declaration, else what the legacy session declared in its handshake.
 */
export function declaredCapabilities(ctx: ServerContext): JsonObject {
  const fromMeta = ctx.meta?.[MetaKey.clientCapabilities];
  if (fromMeta !== null && typeof fromMeta === "object" && !Array.isArray(fromMeta)) return fromMeta as JsonObject;
  return ctx.client?.capabilities ?? {};
}

/** Registers the multi round-trip request fixtures (`input-required-result-*`). */
export function addMrtrFixtures(server: McpServer): void {
  server.tool("test_input_required_result_elicitation", { description: "MRTR: asks for the user's name (elicitation), then greets them" }, (_args, ctx) => {
    // Missing or wrong keys get the question again, not an error (the suite's missing-input-response check).
    if (!has(ctx.inputResponses, "user_name")) return inputRequired({ user_name: askFor("What is your name?", "name") });
    return text(`Hello, ${answered(ctx.inputResponses, "user_name", "name", "friend")}!`);
  });
  server.tool("test_input_required_result_sampling", { description: "MRTR: asks the client's model a question (sampling), then reports the answer" }, (_args, ctx) => {
    if (!has(ctx.inputResponses, "capital_question")) return inputRequired({ capital_question: sampleOf("What is the capital of France?", 100) });
    const content = (ctx.inputResponses!.capital_question as { content?: { type?: string; text?: string } }).content;
    return text(`Sampling result: ${content?.type === "text" ? content.text : "no text response"}`);
  });
  server.tool("test_input_required_result_list_roots", { description: "MRTR: asks for the client's roots, then counts them" }, (_args, ctx) => {
    if (!has(ctx.inputResponses, "client_roots")) return inputRequired({ client_roots: ROOTS });
    const roots = (ctx.inputResponses!.client_roots as { roots?: unknown }).roots;
    return text(`Found ${Array.isArray(roots) ? roots.length : 0} root(s)`);
  });
  server.tool("test_input_required_result_request_state", { description: "MRTR: asks for confirmation, carrying requestState across the round trip" }, (_args, ctx) => {
    const s = stateOf(ctx, "request_state");
    if (s === undefined || !has(ctx.inputResponses, "confirm")) return inputRequired({ confirm: askFor("Please confirm", "ok", "boolean") }, state("request_state"));
    return text(`state-ok: confirmed=${answered(ctx.inputResponses, "confirm", "ok")}`);
  });
  server.tool("test_input_required_result_multiple_inputs", { description: "MRTR: asks for elicitation, sampling and roots at once" }, (_args, ctx) => {
    const r = ctx.inputResponses;
    const all = has(r, "user_name") && has(r, "greeting") && has(r, "client_roots");
    if (stateOf(ctx, "multiple_inputs") === undefined || !all) {
      return inputRequired(
        { user_name: askFor("What is your name?", "name"), greeting: sampleOf("Generate a greeting", 50), client_roots: ROOTS },
        state("multiple_inputs"),
      );
    }
    const greeting = (r!.greeting as { content?: { text?: string } }).content?.text ?? "?";
    const roots = (r!.client_roots as { roots?: unknown }).roots;
    return text(`Name: ${answered(r, "user_name", "name")}; Greeting: ${greeting}; Roots: ${Array.isArray(roots) ? roots.length : 0}`);
  });
  server.tool("test_input_required_result_multi_round", { description: "MRTR: two rounds of questions, the state growing between them" }, (_args, ctx) => {
    const s = stateOf(ctx, "multi_round");
    const step1 = askFor("Step 1: What is your name?", "name");
    if (s?.round === 2 && has(ctx.inputResponses, "step2")) return text(`Multi-round complete for ${String(s.name)} who likes ${answered(ctx.inputResponses, "step2", "color")}`);
    if (s?.round === 1 && has(ctx.inputResponses, "step1")) {
      const name = answered(ctx.inputResponses, "step1", "name");
      return inputRequired({ step2: askFor("Step 2: What is your favorite color?", "color") }, state("multi_round", { round: 2, name }));
    }
    return inputRequired({ step1 }, state("multi_round", { round: 1 }));
  });
  server.tool("test_input_required_result_tampered_state", { description: "MRTR: integrity-protected requestState (the kernel signs and verifies it)" }, (_args, ctx) => {
    if (stateOf(ctx, "tamper_test") === undefined || !has(ctx.inputResponses, "confirm")) return inputRequired({ confirm: askFor("Please confirm", "ok", "boolean") }, state("tamper_test"));
    return text("integrity-ok: state verified");
  });
  server.tool("test_input_required_result_capabilities", { description: "MRTR: asks only for what the client declared (elicitation, sampling)" }, (_args, ctx) => {
    if (ctx.inputResponses !== undefined && Object.keys(ctx.inputResponses).length > 0) return text(`capabilities-ok: received ${Object.keys(ctx.inputResponses).join(",")}`);
    const caps = declaredCapabilities(ctx);
    const asks: InputRequests = {};
    if (caps.elicitation !== undefined) asks.elicit_input = askFor("Elicitation input", "value");
    if (caps.sampling !== undefined) asks.sample_input = sampleOf("Sample request", 50);
    if (Object.keys(asks).length === 0) return text("No supported capabilities declared");
    return inputRequired(asks, state("capabilities"));
  });
  server.prompt("test_input_required_result_prompt", { description: "MRTR: a prompt that asks for its context first (elicitation)" }, (_args, ctx) => {
    if (!has(ctx.inputResponses, "user_context")) return inputRequired({ user_context: askFor("What context should the prompt use?", "context") });
    return { messages: [{ role: "user", content: { type: "text", text: `Prompt with context: ${answered(ctx.inputResponses, "user_context", "context")}` } }] };
  });
}

/** Registers the diagnostic tools of the `server-stateless` scenario. */
export function addStatelessFixtures(server: McpServer): void {
  server.tool("test_missing_capability", { description: "Needs the client's sampling capability: -32021 without it" }, (_args, ctx) => {
    // basic/index "Missing Required Client Capabilities": data.requiredCapabilities is a ClientCapabilities object.
    if (declaredCapabilities(ctx).sampling === undefined) {
      throw new ProtocolError({ code: ErrorCode.MissingRequiredClientCapability, message: "Missing required client capability: sampling", data: { requiredCapabilities: { sampling: {} } } });
    }
    return text("Success");
  });
  server.tool("test_streaming_elicitation", { description: "Reports progress on its response stream, then completes" }, (_args, ctx) => {
    ctx.progress(50, 100, "halfway");
    return text("Streaming complete");
  });
  server.tool("test_logging_tool", { description: "Logs at info: the kernel drops it unless the request set a log level" }, (_args, ctx) => {
    ctx.log("info", "Diagnostic trace logging activated");
    return text("Logging evaluated");
  });
}

/** Registers the tool whose arguments travel in `Mcp-Param-*` headers too. */
export function addHeaderFixtures(server: McpServer): void {
  server.tool(
    "test_custom_headers",
    {
      description: "Mirrors region and priority into Mcp-Param-Region / Mcp-Param-Priority headers (x-mcp-header)",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", description: "Where to run", "x-mcp-header": "Region" },
          priority: { type: "integer", description: "How urgent", "x-mcp-header": "Priority" },
          query: { type: "string", description: "Not mirrored" },
        },
        required: ["region"],
      },
    },
    (args) => text(`region=${String(args.region)} priority=${String(args.priority ?? "")} query=${String(args.query ?? "")}`),
  );
}
