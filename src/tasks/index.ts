/**
 * `mcp-kernel/tasks`: the task table of 2025-11-25 `basic/utilities/tasks` and of the
 * `io.modelcontextprotocol/tasks` extension (SEP-2663), with its negotiation helpers.
 */
export {
  TASK_TABLE_DEFAULTS,
  createTaskTable,
  findTask,
  isWaiting,
  mayUpdateStatus,
  nextTaskDeadline,
  progressAllowed,
  resolveTaskOptions,
  restoreTasks,
  resultStreams,
  snapshotTasks,
  stepTasks,
  tableFromRecords,
} from "./table.js";
export { INITIAL_TASK_STATUS, TASK_STATUSES, TASK_TRANSITIONS, TERMINAL_STATUSES, canTransition, isTaskStatus, isTerminalStatus, outcomeStatus } from "./status.js";
export type { TaskEra, TaskStatus } from "./status.js";
export { expiryOf, grantTtl, isExpired } from "./ttl.js";
export type { TtlPolicy } from "./ttl.js";
export {
  TASK_REQUEST_CAPABILITIES,
  acceptsTaskAugmented,
  augmentationFor,
  checkTaskAugmentation,
  supportsTaskCancel,
  supportsTaskList,
  taskMetadataOf,
  taskSupportOf,
} from "./capabilities.js";
export type { AugmentationCheck, TaskAugmentation, ToolTaskSupport } from "./capabilities.js";
export {
  TASK_DIALECTS,
  TASK_ROUTING_HEADERS,
  declaresTasksExtension,
  gateExtensionRequest,
  mayReturnTask,
  methodNotInDialect,
  missingTasksExtension,
  taskEraOf,
  taskRoutingHeaders,
} from "./modern.js";
export type { TaskDialect } from "./modern.js";
export { createTaskResult, detailedView, modelImmediateResponseOf, relatedTaskOf, taskView, withModelImmediateResponse, withRelatedTask } from "./wire.js";
export { taskOwnerKey } from "./records.js";
export type {
  ResolvedTaskTableOptions,
  TaskInput,
  TaskInputRequest,
  TaskOutput,
  TaskOwner,
  TaskOwnerEntry,
  TaskRecord,
  TaskStepResult,
  TaskTableOptions,
  TaskTableState,
  TaskWaiter,
} from "./types.js";
