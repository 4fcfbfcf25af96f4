/**
 * Task status: the five states and the transitions between them, as data.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Task Status Lifecycle"), the same in the
 * tasks extension (SEP-2663, "Task Status"). Tasks MUST begin in `working`; from `working`
 * a task may move to `input_required` or a terminal state, from `input_required` back to
 * `working` or a terminal state; `completed`, `failed` and `cancelled` are terminal and
 * MUST NOT transition to any other status.
 *
 * Theory of operation. {@link TASK_TRANSITIONS} lists every legal (from, to) pair and
 * nothing else; {@link canTransition} is a lookup in a table built from that list, so a
 * test can enumerate the full from×to square against the same data the reducer uses.
 * Re-stating the current non-terminal status (to change `statusMessage`, add input
 * requests) is not a transition and is allowed separately by the reducer; re-stating a
 * terminal status is not.
 *
 * The eras disagree on one classification, also data here: in 2025-11-25 a tool result
 * with `isError: true` makes the task `failed` ("Task Execution Errors"); in the extension
 * `failed` "MUST NOT be used for non-JSON-RPC errors" and such a result is `completed`.
 */
import type { JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";

/** Every task status, initial first (schema `TaskStatus`). */
export const TASK_STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;

/** One task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses a task can never leave. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

/** The status every task begins in ("Tasks MUST begin in the `working` status when created"). */
export const INITIAL_TASK_STATUS: TaskStatus = "working";

/** Every legal status transition, and only those. */
export const TASK_TRANSITIONS: readonly (readonly [from: TaskStatus, to: TaskStatus])[] = [
  ["working", "input_required"],
  ["working", "completed"],
  ["working", "failed"],
  ["working", "cancelled"],
  ["input_required", "working"],
  ["input_required", "completed"],
  ["input_required", "failed"],
  ["input_required", "cancelled"],
];

// from → to → true, built once from the list above so the list stays the only source
// (in a pure call, not a top-level loop: a bundler keeps a top-level statement, and with
// it everything it reads, even in a consumer that never touches tasks).
const LEGAL: Record<string, Record<string, true>> = /* @__PURE__ */ legalTable();

function legalTable(): Record<string, Record<string, true>> {
  const legal: Record<string, Record<string, true>> = {};
  for (const [from, to] of TASK_TRANSITIONS) (legal[from] ??= {})[to] = true;
  return legal;
}

/** True when `s` is one of the five task statuses. */
export function isTaskStatus(s: unknown): s is TaskStatus {
  return typeof s === "string" && (TASK_STATUSES as readonly string[]).includes(s);
}

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalStatus(s: TaskStatus): boolean {
  return s === "completed" || s === "failed" || s === "cancelled";
}

/** True when `(from, to)` is listed in {@link TASK_TRANSITIONS}. */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return Object.hasOwn(LEGAL, from) && LEGAL[from][to] === true;
}

/** Which spec governs a task: the 2025-11-25 experimental feature, or the tasks extension. */
export type TaskEra = "legacy" | "extension";

/**
 * The terminal status an outcome of the underlying request gives its task: a JSON-RPC
 * error is `failed` in both eras; a result is `completed`, except a tool result with
 * `isError: true` under 2025-11-25, which is `failed`.
 */
export function outcomeStatus(era: TaskEra, outcome: { result: JsonObject } | { error: JsonRpcErrorObject }): "completed" | "failed" {
  if ("error" in outcome) return "failed";
  return era === "legacy" && outcome.result.isError === true ? "failed" : "completed";
}
