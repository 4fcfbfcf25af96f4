/**
 * The demo server's task fixtures that ask for input: the ones the conformance suite's
 * `tasks-mrtr-input`, `tasks-dispatch-and-envelope` and `tasks-mrtr-composition`
 * scenarios call by name (`greet`, `slow_compute`, `failing_job` and
 * `protocol_error_job` live in `server.ts`).
 *
 * Spec: SEP-2663 (the `io.modelcontextprotocol/tasks` extension: a task waiting on the
 * client is `input_required` on `tasks/get`, answered through `tasks/update`; partial
 * answers keep it waiting), draft `basic/patterns/mrtr`, 2025-11-25
 * `basic/utilities/tasks` ("Input Required Status").
 *
 * Theory of operation. A task's handler asks for input the MRTR way: it answers
 * {@link inputRequired}, and the task runtime (`api/tasks.ts`) parks the task with those
 * input requests and runs the handler again once every one is answered. Called plainly
 * (no task), the same handler is an ordinary MRTR tool. Nothing here knows which.
 */
import { inputRequired, type InputResponses } from "../api/mrtr.js";
import type { McpServer } from "../api/server.js";
import type { BooleanSchema, CallToolResult, ElicitParams, StringSchema } from "../api/types.js";

function text(t: string): CallToolResult {
  return { content: [{ type: "text", text: t }] };
}

function elicitation(message: string, properties: Record<string, StringSchema | BooleanSchema>): { method: "elicitation/create"; params: ElicitParams } {
  return { method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties, required: Object.keys(properties) } } };
}

/** `{action, content}` of the answer under `key`, when the client gave one. */
function answerOf(responses: InputResponses | undefined, key: string): { action?: string; content?: Record<string, unknown> } | undefined {
  const r = responses?.[key];
  return r !== null && typeof r === "object" ? (r as { action?: string; content?: Record<string, unknown> }) : undefined;
}

/** Registers `confirm_delete`, `multi_input` and `test_tool_with_task`. */
export function addTaskInputFixtures(server: McpServer): void {
  server.tool(
    "confirm_delete",
    {
      description: "Asks the user to confirm deleting `filename` (one elicitation), then reports the decision; runs as a task",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      execution: { taskSupport: "optional" },
    },
    (args, ctx) => {
      const filename = args.filename ?? "file.txt";
      const answer = answerOf(ctx.inputResponses, "confirm");
      if (answer === undefined) return inputRequired({ confirm: elicitation(`Delete ${filename}?`, { confirm: { type: "boolean" } }) });
      const yes = answer.action === "accept" && answer.content?.confirm !== false;
      return text(yes ? `Deleted ${filename}` : `Kept ${filename} (${answer.action ?? "no answer"})`);
    },
  );
  server.tool(
    "multi_input",
    {
      description: "Asks two questions at once (two elicitations) and completes when both are answered; runs as a task",
      execution: { taskSupport: "optional" },
    },
    (_args, ctx) => {
      const first = answerOf(ctx.inputResponses, "first");
      const second = answerOf(ctx.inputResponses, "second");
      if (first === undefined || second === undefined) {
        // Ask again only for what is still missing: the task runtime keeps the task waiting until every key is answered.
        const asks: Record<string, ReturnType<typeof elicitation>> = {};
        if (first === undefined) asks.first = elicitation("First: your name, and do you confirm?", { name: { type: "string" }, confirm: { type: "boolean" } });
        if (second === undefined) asks.second = elicitation("Second: your name, and do you confirm?", { name: { type: "string" }, confirm: { type: "boolean" } });
        return inputRequired(asks);
      }
      return text(`multi_input: first=${String(first.content?.name ?? "?")}, second=${String(second.content?.name ?? "?")}`);
    },
  );
  server.tool(
    "test_tool_with_task",
    {
      description: "Asks for user_name in a synchronous round, then works as a task and reports it (task support required)",
      execution: { taskSupport: "required" },
      inputBeforeTask: true,
    },
    (_args, ctx) => {
      const answer = answerOf(ctx.inputResponses, "user_name");
      if (answer === undefined) return inputRequired({ user_name: elicitation("What is your name?", { name: { type: "string" } }) });
      return text(`Hello from the task, ${String(answer.content?.name ?? "friend")}!`);
    },
  );
}
