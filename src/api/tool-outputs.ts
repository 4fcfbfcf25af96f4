/**
 * A client's check of tool results against the tools' output schemas.
 *
 * Spec: `server/tools` of 2025-06-18, 2025-11-25 and the draft ("Output Schema"): a tool
 * may declare an `outputSchema`; servers MUST then provide structured results that
 * conform to it, and "Clients SHOULD validate structured results against this schema".
 *
 * Theory of operation. The client learns each tool's schema from the `tools/list` pages
 * it fetches (a tool listed again without one is forgotten) and compiles it once with
 * the validator it was given. A `tools/call` result for a tool with a schema must then
 * carry `structuredContent` that validates, unless it is a tool execution error
 * (`isError: true`, which describes the failure instead). A schema the validator cannot
 * compile leaves that tool unchecked rather than failing every call. A tool the client
 * never listed is not checked: there is nothing to check it against. At most
 * {@link MAX_TOOLS} schemas are kept.
 */
import { McpError } from "../driver/endpoint.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { JsonSchemaValidator } from "../schema/json-schema.js";
import type { Issue } from "../schema/validate.js";

/** Most tools whose schemas are kept: a server listing more (hostile, or huge) leaves the rest unchecked rather than growing the client without end. */
const MAX_TOOLS = 10_000;

export class ToolOutputs {
  private readonly checks = new Map<string, (value: unknown) => Issue[] | null>();

  constructor(private readonly validator: JsonSchemaValidator) {}

  /** Records the output schemas of one `tools/list` result. */
  learn(result: JsonObject): void {
    const tools = result.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as { name?: unknown; outputSchema?: unknown }[]) {
      if (typeof tool?.name !== "string" || (this.checks.size >= MAX_TOOLS && !this.checks.has(tool.name))) continue;
      const compiled = tool.outputSchema === undefined ? undefined : this.validator.compile(tool.outputSchema);
      if (compiled?.ok) this.checks.set(tool.name, compiled.validate);
      else this.checks.delete(tool.name);
    }
  }

  /** Whether tool `name` has an output schema to check its results against. */
  has(name: unknown): boolean {
    return typeof name === "string" && this.checks.has(name);
  }

  /** `result` of calling tool `name` when it keeps the tool's output schema; else throws `-32603` with the issues. */
  check(name: unknown, result: JsonObject): JsonObject {
    const validate = typeof name === "string" ? this.checks.get(name) : undefined;
    if (validate === undefined || result.isError === true || result.resultType === "task" || result.task !== undefined) return result;
    if (result.structuredContent === undefined) throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} has an outputSchema but its result has no structuredContent` });
    const issues = validate(result.structuredContent);
    if (issues !== null) throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} returned structuredContent that does not match its outputSchema`, data: { issues } });
    return result;
  }
}
