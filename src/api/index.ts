/**
 * The product API: {@link McpServer}, {@link McpClient}, the {@link Transport} seam
 * and the shapes they exchange.
 *
 * Spec: 2025-11-25 `server/*` and `client/*`. This layer holds no protocol logic of its
 * own beyond the features' semantics (registries, pagination, URI templates, the split
 * between tool errors and protocol errors); sessions, validation, cancellation,
 * progress and timeouts are the kernel's, driven by an {@link Endpoint}.
 */
export * from "./types.js";
export type { Transport } from "./transport.js";
export type { ArgumentsOf, InstanceOf, PromptArgumentsOf } from "./schema-types.js";
export type { StandardIssue, StandardJsonSchemaOptions, StandardOutput, StandardResult, StandardSchema, StandardSchemaProps } from "./standard-schema.js";
export { attach, type AttachHooks } from "./connection.js";
export { ServerContext, type ElicitFormWith, type ElicitResultWith, type PeerRequestOptions, type RequestOrigin } from "./context.js";
export {
  McpServer,
  McpServerCore,
  ProtocolError,
  resourceNotFoundCode,
  argumentErrorsAreResults,
  type ServerInfo,
  type EventOrigin,
  type RecordOrigin,
  type McpServerOptions,
  type McpServerCoreOptions,
  type Notifier,
  type ToolHandler,
  type ToolConfig,
  type ToolConfigOf,
  type Completer,
  type ResourceReader,
  type TemplateReader,
  type ResourceConfig,
  type ResourceTemplateConfig,
  type ResourceLister,
  type PromptGetter,
  type PromptConfig,
  type PromptConfigOf,
  type PromptConfigWith,
  type ReadResult,
  type Unregister,
} from "./server.js";
export type { Registration } from "./server/registration.js";
export {
  inputRequired,
  isInputRequired,
  type InputRequest,
  type InputRequests,
  type InputResponse,
  type InputResponses,
  type InputRequiredResult,
  type InputRetry,
  type RequestStateRejection,
} from "./mrtr.js";
export { McpClient, McpClientCore, type ClientHandlers, type McpClientOptions, type McpClientCoreOptions, type CallOptions, type ReceivedCreateMessageParams } from "./client.js";
export type { Subscription, SubscriptionEnd, SubscriptionListener } from "./client/subscriptions.js";
export type { ListChangedHandlers, ListChangedOptions } from "./client/list-changed.js";
export type { SubscriptionFilter } from "../modern/subscriptions.js";
export { TaskRuntime, taskIdFrom, TASK_ID_BYTES, type TaskRuntimeOptions, type TaskWork } from "./tasks.js";
export { MemoryTaskStore, type TaskStore } from "./tasks-store.js";
export { parseUriTemplate, matchUriTemplate, expandUriTemplate, type UriTemplate, type UriTemplateExpression, type UriTemplateValue, type UriTemplateVariable } from "./uri-template.js";
