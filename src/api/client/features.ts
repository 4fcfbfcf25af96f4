/**
 * The client features: how an `McpClientCore` (`../client.ts`) serves the requests a server
 * sends it, with the handlers it was given. Functions of the {@link ClientFeatures} record
 * the client holds.
 *
 * Spec: 2025-11-25 `client/sampling`, `client/elicitation` and `client/roots` (the requests
 * served), `basic/utilities/tasks` (a task-augmented request the client runs as a task,
 * and "Associating Task-Related Messages"); the same pages of the draft.
 *
 * Theory of operation. {@link serve} routes one request to its handler:
 * `sampling/createMessage`, `elicitation/create` (an answer other than an accepted form loses any `content`;
 * with form checks, the form's schema is checked on receipt and the handler's content
 * before it goes out), `roots/list`, and, when the client receives tasks, the server's
 * `tasks/*` requests to its task runtime; anything else is `-32601`. A sampling or
 * elicitation request the server augmented with `task`, for which the client declared
 * task support, runs as a task in that runtime ({@link maybeAsTask}); otherwise at once.
 * The answer to a request about one of the server's tasks names that task
 * ({@link relatedResult}). The same {@link serve} answers a task's input requests under
 * the tasks extension (`./tasks.ts`), as the spec asks: as the standalone request would be.
 */
import { McpError, type RequestContext } from "../../driver/endpoint.js";
import { echoed, ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { progressTokenOf } from "../../session/progress.js";
import { checkTaskAugmentation } from "../../tasks/capabilities.js";
import type { TaskOwner } from "../../tasks/types.js";
import { relatedTaskOf, withRelatedTask } from "../../tasks/wire.js";
import { assertElicitParams, checkedElicitResult, withoutUnaskedContent } from "../elicitation.js";
import type { TaskRuntime } from "../tasks.js";
import { withoutTaskField } from "../tasks-server.js";
import type { ElicitParams } from "../types.js";
import type { Issue } from "../../schema/validate.js";
import { samplingAnswerIssues } from "../../model/constraints.js";
import { invalidResultError } from "../../model/schema-errors.js";
import type { McpClientCoreOptions, ReceivedCreateMessageParams } from "./options.js";

/** What serving the server's requests reads of an `McpClientCore`. */
export interface ClientFeatures {
  /** The client, for the capabilities it declares (a task-augmented request is checked against them). */
  readonly client: { readonly capabilities: JsonObject };
  /** Its options: the handlers, the elicitation form checks. */
  readonly options: McpClientCoreOptions;
  /** The tasks this client runs for the server, when it receives tasks. */
  readonly tasksReceived: TaskRuntime | undefined;
  /** This session's tasks: the only owner there is on a client. */
  readonly taskOwner: TaskOwner;
}

/** Answers the server's request `method` with this client's handlers; `-32601` when none serves it. */
export async function serve(features: ClientFeatures, method: string, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const h = features.options.handlers ?? {};
  switch (method) {
    case "sampling/createMessage":
      // A tool use the request did not allow (none offered, or toolChoice none: client/sampling,
      // the "Model MUST NOT use any tools") is refused, so that a server forcing a final answer
      // never gets one.
      if (h.sampling !== undefined) {
        const sample = h.sampling;
        return maybeAsTask(features, method, params, ctx, async (p, c) => checkedAnswer(features, method, (await sample(p as ReceivedCreateMessageParams, c)) as JsonObject, (a) => samplingAnswerIssues(p, a)));
      }
      break;
    case "elicitation/create": {
      const elicit = h.elicitation;
      if (elicit === undefined) break;
      const forms = features.options.elicitationForms;
      if (!forms) return maybeAsTask(features, method, params, ctx, async (p, c) => withoutUnaskedContent(p, await elicit(p as ElicitParams, c)));
      // client/elicitation: the form's schema is checked on receipt, the handler's content before it goes out.
      assertElicitParams(forms, params);
      return maybeAsTask(features, method, params, ctx, async (p, c) => checkedElicitResult(forms, p, withoutUnaskedContent(p, await elicit(p as ElicitParams, c)), "the elicitation handler's content"));
    }
    case "tasks/get":
    case "tasks/result":
    case "tasks/list":
    case "tasks/cancel":
      if (features.tasksReceived !== undefined) return features.tasksReceived.request(method, params, ctx, features.taskOwner, "legacy");
      break;
    case "roots/list":
      if (h.roots !== undefined) return { roots: await h.roots(ctx) };
      break;
    default:
      if (features.options.fallback !== undefined) return features.options.fallback(method, params, ctx);
  }
  throw new McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${echoed(method)}` });
}

/**
 * A handler's `answer` to `method`, unless `issues` finds it wrong: then the `-32603` naming
 * what is wrong, so that it never goes out and the handler is blamed. Not checked when the
 * client's session checks nothing it sends (`validateOutgoing: false`).
 */
export function checkedAnswer(features: ClientFeatures, method: string, answer: JsonObject, issues: (answer: JsonObject) => Issue[] | null): JsonObject {
  const found = features.options.session?.validateOutgoing === false ? null : issues(answer);
  if (found) throw new McpError(invalidResultError(method, found));
  return answer;
}

/**
 * Runs `handler` as a task when the request is task-augmented and this client declared
 * task support for it; otherwise at once ("MUST process requests of that type normally,
 * ignoring any task-augmentation metadata").
 */
async function maybeAsTask(features: ClientFeatures, method: string, params: JsonObject, ctx: RequestContext, handler: (params: JsonObject, ctx: RequestContext) => JsonObject | Promise<JsonObject>): Promise<JsonObject> {
  const tasks = features.tasksReceived;
  const check = tasks === undefined ? undefined : checkTaskAugmentation({ method, params, capabilities: features.client.capabilities, version: ctx.protocolVersion });
  if (tasks === undefined || check?.kind !== "task") return handler(withoutTaskField(params), ctx);
  const extra: { ttl?: number; progressToken?: string | number } = {};
  if (check.requestedTtl !== undefined) extra.ttl = check.requestedTtl;
  const token = progressTokenOf(params);
  if (token !== undefined) extra.progressToken = token;
  return tasks.create(ctx, features.taskOwner, "legacy", withoutTaskField(params), async (p, c) => handler(p, c), extra);
}

/**
 * The answer to a request the server sent about one of its tasks (an elicitation a task
 * needs, say) carries the same related-task key: 2025-11-25 `basic/utilities/tasks`,
 * "All requests, notifications, and responses related to a task MUST include" it, the
 * `CreateTaskResult` of a task this client runs for such a request included (its own
 * task is named by its `task.taskId`; the page exempts only the `tasks/get`, `tasks/list`
 * and `tasks/cancel` results). A `tasks/*` answer names its task itself (and
 * `tasks/result`'s is the client's own task).
 */
export function relatedResult(method: string, params: JsonObject | undefined, result: JsonObject): JsonObject {
  const taskId = method.startsWith("tasks/") ? undefined : relatedTaskOf(params);
  return taskId === undefined ? result : withRelatedTask(result, taskId);
}
