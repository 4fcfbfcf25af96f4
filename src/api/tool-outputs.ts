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
 * (`isError: true`, which describes the failure instead). A tool the client never listed
 * is not checked: there is nothing to check it against. At most {@link MAX_TOOLS} schemas
 * are kept.
 *
 * A schema the validator cannot compile (an external `$ref`, which is never fetched; an
 * unsupported dialect; a pattern refused as unsafe; a malformed keyword) is not treated as
 * permissive: basic/index, "Schemas that fail to validate due to an unresolved external
 * `$ref` SHOULD be rejected rather than silently treated as permissive", and "MUST handle
 * unsupported dialects gracefully by returning an appropriate error". The tool stays
 * listed (the spec drops a tool from `tools/list` only for an invalid `x-mcp-header`, and
 * its other fields are still good to show), but each of its results, which cannot be
 * validated, fails with `-32603` naming the schema's issues; a tool execution error
 * (`isError: true`) still comes through.
 *
 * A call is checked against the schema known when it was made (a `tools/list` while it
 * runs may show the tool changed: its answer was made, and checked by the server, under
 * the old one). A result that fails it may still be right: the schema was learned from an
 * earlier list, and the tool may have changed since; the client then looks once more (see
 * McpClient) before refusing it.
 *
 * A call answered with a task (2025-11-25 `CreateTaskResult` to a call augmented with
 * `task`, or the extension's `resultType: "task"` to a client that declared it; any other
 * call's answer is its result, a `task` field or not) has no result yet: its task id is remembered with the tool's
 * schema, and the result is checked when it comes: the `tasks/result` answer (2025-11-25) or the
 * inlined `result` of a completed `tasks/get` (extension). A terminal task is forgotten (one
 * seen failed or cancelled too, and one the caller gave up: McpClient says so, see
 * {@link ToolOutputs.forget}); at most {@link MAX_TASKS} are remembered (the oldest go
 * unchecked past that).
 */
import { McpError } from "../driver/endpoint.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { issuesText, type JsonSchemaValidator } from "../schema/json-schema.js";
import type { Issue } from "../schema/validate.js";
import { createdTaskIdOf, modernTaskIdOf } from "../tasks/wire.js";

/** Most tools whose schemas are kept: a server listing more (hostile, or huge) leaves the rest unchecked rather than growing the client without end. */
const MAX_TOOLS = 10_000;

/** Most task ids of checked tools remembered until their result comes. */
const MAX_TASKS = 10_000;

/** Task states after which no result will follow (both eras). */
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** A tool's compiled output schema, or the issues of one that did not compile. */
export type OutputCheck = ((value: unknown) => Issue[] | null) | Issue[];

/** Reads the task id of a task answer, if a result is one. */
export type TaskIdOf = (result: JsonObject) => string | undefined;

const anyTaskIdOf: TaskIdOf = (result) => createdTaskIdOf(result) ?? modernTaskIdOf(result);

/**
 * How a `tools/call` answer may name a task: under 2026-07-28 the extension's
 * `resultType: "task"` (when the client declared it), before a 2025-11-25 `CreateTaskResult`
 * (when the call was augmented with `task`); null when the call cannot become a task
 * (`mayBeTask` false), whose answer is always the tool's result.
 */
export function taskAnswerOf(modern: boolean, mayBeTask: boolean): TaskIdOf | null {
  return !mayBeTask ? null : modern ? modernTaskIdOf : createdTaskIdOf;
}

/** Thrown for a result its output schema refuses (not for a schema the client cannot use). */
export class OutputMismatch extends McpError {}

export class ToolOutputs {
  /** Tool name → its output check. */
  private readonly checks = new Map<string, OutputCheck>();
  /** Task id → the checked tool whose call it runs, and the check its call was made under. */
  private readonly tasks = new Map<string, { name: string; check: OutputCheck }>();

  constructor(private readonly validator: JsonSchemaValidator) {}

  /** Records the output schemas of one `tools/list` result. */
  learn(result: JsonObject): void {
    const tools = result.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as { name?: unknown; outputSchema?: unknown }[]) {
      if (typeof tool?.name !== "string" || (this.checks.size >= MAX_TOOLS && !this.checks.has(tool.name))) continue;
      const compiled = tool.outputSchema === undefined ? undefined : this.validator.compile(tool.outputSchema);
      if (compiled === undefined) this.checks.delete(tool.name);
      else this.checks.set(tool.name, compiled.ok ? compiled.validate : compiled.issues);
    }
  }

  /**
   * Forgets every schema (the tools changed, or the session was renewed): a tool is
   * checked again once a `tools/list` shows it. Tasks already running keep their tool's
   * name, and are checked only if the tool is listed again by then.
   */
  clear(): void {
    this.checks.clear();
  }

  /** Tool `name`'s output check as known now (undefined: its results are not checked). */
  checkOf(name: unknown): OutputCheck | undefined {
    return typeof name === "string" ? this.checks.get(name) : undefined;
  }

  /** Forgets task `taskId`: it ended with no result to check (failed or cancelled), or its caller gave it up. */
  forget(taskId: string): void {
    this.tasks.delete(taskId);
  }

  /** Whether `taskId` runs a call of a checked tool, whose result is still to come. */
  hasTask(taskId: unknown): boolean {
    return typeof taskId === "string" && this.tasks.has(taskId);
  }

  /**
   * `result` of calling tool `name`, the call made under `check` (by default the one known
   * now, {@link checkOf}; none: not checked); throws `-32603` with the issues when it does
   * not conform. A task answer is remembered, its result checked later under the same check.
   * `taskIdOf` reads the task answer the call may have (by default either era's;
   * {@link taskAnswerOf}): null, for a call that cannot become a task, and a `task` field or
   * `resultType: "task"` on its result is just more of a result that must conform, or a
   * server could have any result go unchecked by adding one.
   */
  check(name: string, result: JsonObject, check: OutputCheck | undefined = this.checkOf(name), taskIdOf: TaskIdOf | null = anyTaskIdOf): JsonObject {
    if (check === undefined || result.isError === true) return result;
    const taskId = taskIdOf === null ? undefined : taskIdOf(result);
    if (taskId !== undefined) {
      if (this.tasks.size >= MAX_TASKS) this.tasks.delete(this.tasks.keys().next().value as string);
      this.tasks.set(taskId, { name, check });
      return result;
    }
    return checkFinal(name, check, result);
  }

  /**
   * A `tasks/result` (2025-11-25) or `tasks/get` (extension; the client passes only the
   * era's own method: a 2025-11-25 `tasks/get` carries no result) answer about a remembered
   * task: the tool result it carries checked like {@link ToolOutputs.check}'s.
   */
  checkTask(method: string, taskId: string, answer: JsonObject): JsonObject {
    const task = this.tasks.get(taskId);
    if (task === undefined) return answer;
    if (method === "tasks/result") {
      this.tasks.delete(taskId);
      return checkFinal(task.name, task.check, answer);
    }
    if (typeof answer.status !== "string" || !TERMINAL.has(answer.status)) return answer;
    this.tasks.delete(taskId);
    const result = answer.result;
    if (answer.status === "completed" && typeof result === "object" && result !== null && !Array.isArray(result)) checkFinal(task.name, task.check, result as JsonObject);
    return answer;
  }
}

/**
 * A final result of tool `name` (a plain call's, or its task's) checked under `check`. No
 * task shape exempts it: a task's result is never another task, so a `task` field or
 * `resultType: "task"` on it is just more of a result that must conform.
 */
function checkFinal(name: string, check: OutputCheck, result: JsonObject): JsonObject {
  if (result.isError === true) return result;
  if (typeof check !== "function") throw new McpError({ code: ErrorCode.InternalError, message: `tool ${name} has an outputSchema the client cannot use (${issuesText(check)}), so its result is not accepted`, data: { issues: check } });
  if (result.structuredContent === undefined) throw new OutputMismatch({ code: ErrorCode.InternalError, message: `tool ${name} has an outputSchema but its result has no structuredContent` });
  const issues = check(result.structuredContent);
  if (issues !== null) throw new OutputMismatch({ code: ErrorCode.InternalError, message: `tool ${name} returned structuredContent that does not match its outputSchema`, data: { issues } });
  return result;
}
