/**
 * The shapes the product API hands to and takes from applications.
 *
 * Spec: `schema.ts` of 2025-11-25 (tools, resources, prompts, completion, sampling,
 * elicitation, roots). These are deliberately loose, structural copies of the schema's
 * types: every object keeps an index signature, so fields added by a later revision or an
 * extension pass through untouched, and nothing here is checked at runtime. The kernel
 * validates every message against the negotiated version's schema on the way out and on
 * the way in, so these types only help the compiler; they are not the source of truth.
 */
import type { TaskStatus } from "../tasks/status.js";

/** `_meta` of any MCP object: reserved keys plus whatever an application adds. */
export type Meta = { [key: string]: unknown };

/** An icon for display (schema `Icon`). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
  [key: string]: unknown;
}

/** Display hints on content and resources (schema `Annotations`). */
export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
  [key: string]: unknown;
}

/** Text for the model (schema `TextContent`). */
export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** Base64 image data (schema `ImageContent`). */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** Base64 audio data (schema `AudioContent`). */
export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The contents of a resource as text (schema `TextResourceContents`). */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The contents of a resource as base64 bytes (schema `BlobResourceContents`). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** Either kind of resource contents. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** A resource inlined into a result (schema `EmbeddedResource`). */
export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A pointer to a resource the client may read (schema `ResourceLink`). */
export interface ResourceLink extends Resource {
  type: "resource_link";
}

/** Any content block of a tool result or prompt message (schema `ContentBlock`). */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** Behaviour hints of a tool; untrusted unless the server is (schema `ToolAnnotations`). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** A JSON Schema object, as `inputSchema` / `outputSchema` carry it. */
export type JsonSchemaObject = { type?: "object"; [key: string]: unknown };

/**
 * A tool's `outputSchema`: `type: "object"` at the root until 2025-11-25; from 2026-07-28
 * "any valid JSON Schema 2020-12" (draft `server/tools`), an array's say.
 */
export type OutputSchema = { type?: string; [key: string]: unknown };

/** A tool as `tools/list` describes it (schema `Tool`). */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: OutputSchema;
  annotations?: ToolAnnotations;
  /** 2025-11-25: whether the tool may be run as a task. */
  execution?: { taskSupport?: "forbidden" | "optional" | "required"; [key: string]: unknown };
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** What a tool's `structuredContent` may be: an object until 2025-11-25; from 2026-07-28 "any JSON value" its `outputSchema` allows (draft `server/tools`). */
export type StructuredContent = { [key: string]: unknown } | unknown[] | string | number | boolean | null;

/**
 * The result of `tools/call` (schema `CallToolResult`). `S` is its `structuredContent`: an
 * object by default, as every 2025-era result has; `CallToolResult<StructuredContent>` (what a
 * tool handler may return) or a narrower type for a 2026-07-28 tool whose output is not one.
 */
export interface CallToolResult<S extends StructuredContent = { [key: string]: unknown }> {
  content: ContentBlock[];
  structuredContent?: S;
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A directly readable resource (schema `Resource`). */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** A family of resources named by an RFC 6570 template (schema `ResourceTemplate`). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** The result of `resources/read` (schema `ReadResourceResult`). */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** One argument a prompt takes (schema `PromptArgument`). */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

/** A prompt as `prompts/list` describes it (schema `Prompt`). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** One message of a prompt (schema `PromptMessage`). */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
  [key: string]: unknown;
}

/** The result of `prompts/get` (schema `GetPromptResult`). */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** What `completion/complete` completes: a prompt's argument or a template's variable. */
export type CompletionReference = { type: "ref/prompt"; name: string; [key: string]: unknown } | { type: "ref/resource"; uri: string; [key: string]: unknown };

/** The `completion` member of a `completion/complete` result (schema `CompleteResult`). */
export interface Completion {
  /** At most 100 values. */
  values: string[];
  total?: number;
  hasMore?: boolean;
  [key: string]: unknown;
}

/** The result of `completion/complete`. */
export interface CompleteResult {
  completion: Completion;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A request from the model to call a tool, in a sampling conversation (schema `ToolUseContent`, 2025-11-25). */
export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: Meta;
  [key: string]: unknown;
}

/** A tool's result handed back to the model, in a sampling conversation (schema `ToolResultContent`, 2025-11-25). */
export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

/** One block of a sampling message (schema `SamplingMessageContentBlock`; before 2025-11-25 text, image or audio only). */
export type SamplingContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/**
 * A sampling message's or result's content: one block, or (2025-11-25, a request that
 * gave `tools`) several, such as parallel tool uses. Narrow before reading a field:
 * `!Array.isArray(r.content) && r.content.type === "text"`.
 */
export type SamplingContent = SamplingContentBlock | SamplingContentBlock[];

/** A message of a sampling conversation (schema `SamplingMessage`). */
export interface SamplingMessage {
  role: "user" | "assistant";
  content: SamplingContent;
  _meta?: Meta;
  [key: string]: unknown;
}

/** Params of `sampling/createMessage` (schema `CreateMessageRequestParams`). */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: { [key: string]: unknown };
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: { [key: string]: unknown };
  tools?: Tool[];
  toolChoice?: { [key: string]: unknown };
  _meta?: Meta;
  [key: string]: unknown;
}

/** The result of `sampling/createMessage` (schema `CreateMessageResult`). */
export interface CreateMessageResult {
  role: "user" | "assistant";
  content: SamplingContent;
  model: string;
  stopReason?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/**
 * What a client's sampling handler answers: a {@link CreateMessageResult} whose `content`
 * may be any object or list of them, since the kernel checks the answer against the
 * schema before it goes out (a refused one fails the server's request with `-32603`). So a
 * block built apart, whose `type` TypeScript widens to `string`, needs no `as const`.
 */
export interface CreateMessageAnswer {
  role: "user" | "assistant";
  content: SamplingContent | { [key: string]: unknown } | { [key: string]: unknown }[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/**
 * Params of `elicitation/create`: a form (the default mode) or, from 2025-11-25, a URL.
 * A URL elicitation's `elicitationId` is required by 2025-11-25 and gone from 2026-07-28:
 * one left out is filled in when the request goes to a 2025-11-25 session, from the
 * request's own id (`elicitation-<id>`, unique in that session).
 */
export type ElicitParams =
  | { mode?: "form"; message: string; requestedSchema: { type: "object"; properties: { [key: string]: unknown }; required?: string[]; [key: string]: unknown }; _meta?: Meta; [key: string]: unknown }
  | { mode: "url"; message: string; url: string; elicitationId?: string; _meta?: Meta; [key: string]: unknown };

/** The result of `elicitation/create` (schema `ElicitResult`). */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: Meta;
  [key: string]: unknown;
}

/** A root the client exposes (schema `Root`). */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The result of `roots/list`. */
export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** One page of a paginated list. `nextCursor` absent means the last page. */
export interface Page {
  nextCursor?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A page of `tools/list`. */
export interface ListToolsResult extends Page {
  tools: Tool[];
}

/** A page of `resources/list`. */
export interface ListResourcesResult extends Page {
  resources: Resource[];
}

/** A page of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends Page {
  resourceTemplates: ResourceTemplate[];
}

/** A page of `prompts/list`. */
export interface ListPromptsResult extends Page {
  prompts: Prompt[];
}

/** A task's status (2025-11-25 `basic/utilities/tasks`, and the tasks extension). */
export type { TaskStatus };

/**
 * A task as `tasks/get`, `tasks/list` and `CreateTaskResult` show it. 2025-11-25 names
 * the lifetime `ttl` / `pollInterval`; the extension `ttlMs` / `pollIntervalMs` and
 * inlines `result`, `error` or `inputRequests` in `tasks/get`.
 */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  ttl?: number | null;
  ttlMs?: number | null;
  pollInterval?: number;
  pollIntervalMs?: number;
  /** Extension, `completed`: the request's result. */
  result?: { [key: string]: unknown };
  /** Extension, `failed`: the request's JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  /** Extension, `input_required`: what the server needs, by key (answer with `tasks/update`). */
  inputRequests?: { [key: string]: { method: string; params?: { [key: string]: unknown } } };
  _meta?: Meta;
  [key: string]: unknown;
}

/** The answer to a task-augmented request: `{ task }` (2025-11-25) or the task itself with `resultType: "task"` (extension). */
export interface CreateTaskResult {
  task?: Task;
  resultType?: string;
  taskId?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A page of `tasks/list` (2025-11-25). */
export interface ListTasksResult extends Page {
  tasks: Task[];
}
