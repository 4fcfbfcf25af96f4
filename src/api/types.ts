/**
 * The shapes the product API hands to and takes from applications.
 *
 * Spec: `schema.ts` of 2025-11-25 and 2026-07-28 (tools, resources, prompts, completion,
 * sampling, elicitation, roots). These are structural copies of the schema's types that
 * accept the values of both versions, so a value typed with either `schema.ts` can be
 * handed to the API: where 2026-07-28 widened a field (a tool's `outputSchema`, a tool
 * result's `structuredContent`) or dropped one (a URL elicitation's `elicitationId`), the
 * type here is the wider. Like the schema, a leaf type (content, a tool, a resource…) has
 * no index signature, since TypeScript would not let an interface without one (the
 * schema's) be assigned to it; it is an object type alias, not an interface, so it is
 * still a JSON object where one is wanted. A result keeps the index signature of the
 * schema's `Result` (`[key: string]: unknown`): fields added by a later revision or an
 * extension pass through, and can be read. Nothing here is checked at runtime: the kernel
 * validates every message against the negotiated version's schema on the way out and on
 * the way in, so these types only help the compiler; they are not the source of truth.
 */
import type { JsonObject } from "../jsonrpc/types.js";
import type { Icon } from "../session/types.js";
import type { TaskStatus } from "../tasks/status.js";

/** `_meta` of any MCP object: reserved keys plus whatever an application adds. */
export type Meta = { [key: string]: unknown };

/**
 * What every result may carry (schema `Result`). 2026-07-28 requires a `resultType` of
 * each result, and the client of a modern session delivers one (`"complete"` when the
 * server left it out); a legacy session's results have none.
 */
export interface Result {
  resultType?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/**
 * A result a 2026-07-28 client may cache (schema `CacheableResult`): the client of a
 * modern session delivers its `ttlMs` and `cacheScope` (0 and `"private"` when the server
 * gave none); a legacy session's results have neither.
 */
export interface CacheableResult extends Result {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** Display hints on content and resources (schema `Annotations`). */
export type Annotations = {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
};

/** Text for the model (schema `TextContent`). */
export type TextContent = {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
};

/** Base64 image data (schema `ImageContent`). */
export type ImageContent = {
  type: "image";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
};

/** Base64 audio data (schema `AudioContent`). */
export type AudioContent = {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
};

/** The contents of a resource as text (schema `TextResourceContents`). */
export type TextResourceContents = {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
};

/** The contents of a resource as base64 bytes (schema `BlobResourceContents`). */
export type BlobResourceContents = {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
};

/** Either kind of resource contents. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** A resource inlined into a result (schema `EmbeddedResource`). */
export type EmbeddedResource = {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
};

/** A pointer to a resource the client may read (schema `ResourceLink`). */
export type ResourceLink = Resource & { type: "resource_link" };

/** Any content block of a tool result or prompt message (schema `ContentBlock`). */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** Behaviour hints of a tool; untrusted unless the server is (schema `ToolAnnotations`). */
export type ToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** A JSON Schema object, as a tool's registration gives its `inputSchema` (`type: "object"` is checked then). */
export type JsonSchemaObject = { type?: "object"; [key: string]: unknown };

/**
 * A tool's `inputSchema` as `tools/list` describes it: `type: "object"` at the root, which
 * the schema of every version requires (the server refuses to register another, and the
 * client validates the list it receives).
 */
export type ToolInputSchema = { $schema?: string; type: "object"; [key: string]: unknown };

/**
 * A tool's `outputSchema`: `type: "object"` at the root until 2025-11-25; from 2026-07-28
 * "any valid JSON Schema 2020-12" (draft `server/tools`), an array's say.
 */
export type OutputSchema = { type?: string; [key: string]: unknown };

/** How a tool may run as a task (schema `ToolExecution`, 2025-11-25). */
export type ToolExecution = { taskSupport?: "forbidden" | "optional" | "required" };

/** A tool as `tools/list` describes it (schema `Tool`). */
export type Tool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: ToolInputSchema;
  outputSchema?: OutputSchema;
  annotations?: ToolAnnotations;
  /** 2025-11-25: whether the tool may be run as a task. */
  execution?: ToolExecution;
  icons?: Icon[];
  _meta?: Meta;
};

/** What a tool's `structuredContent` may be: an object until 2025-11-25; from 2026-07-28 "any JSON value" its `outputSchema` allows (draft `server/tools`). */
export type StructuredContent = { [key: string]: unknown } | unknown[] | string | number | boolean | null;

/**
 * The result of `tools/call` (schema `CallToolResult`). `S` is its `structuredContent`: an
 * object by default, as every 2025-era result has; `CallToolResult<StructuredContent>` for
 * any JSON value, or a narrower type for a 2026-07-28 tool whose output is not an object.
 * A tool handler may answer `CallToolResult<unknown>`, as the 2026-07-28 schema types it:
 * the server checks what it is before it goes out.
 */
export interface CallToolResult<S = { [key: string]: unknown }> extends Result {
  content: ContentBlock[];
  structuredContent?: S;
  isError?: boolean;
}

/** A directly readable resource (schema `Resource`). */
export type Resource = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
};

/** A family of resources named by an RFC 6570 template (schema `ResourceTemplate`). */
export type ResourceTemplate = {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
};

/** The result of `resources/read` (schema `ReadResourceResult`). */
export interface ReadResourceResult extends CacheableResult {
  contents: ResourceContents[];
}

/** One argument a prompt takes (schema `PromptArgument`). */
export type PromptArgument = {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
};

/** A prompt as `prompts/list` describes it (schema `Prompt`). */
export type Prompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
};

/** One message of a prompt (schema `PromptMessage`). */
export type PromptMessage = {
  role: "user" | "assistant";
  content: ContentBlock;
};

/** The result of `prompts/get` (schema `GetPromptResult`). */
export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
}

/** What `completion/complete` completes: a prompt's argument or a template's variable (schema `PromptReference`, `ResourceTemplateReference`). */
export type CompletionReference = { type: "ref/prompt"; name: string; title?: string } | { type: "ref/resource"; uri: string };

/** The `completion` member of a `completion/complete` result (schema `CompleteResult`). */
export type Completion = {
  /** At most 100 values. */
  values: string[];
  total?: number;
  hasMore?: boolean;
};

/** The result of `completion/complete`. */
export interface CompleteResult extends Result {
  completion: Completion;
}

/** A request from the model to call a tool, in a sampling conversation (schema `ToolUseContent`, 2025-11-25). */
export type ToolUseContent = {
  type: "tool_use";
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: Meta;
};

/**
 * A tool's result handed back to the model, in a sampling conversation (schema
 * `ToolResultContent`, 2025-11-25): its `structuredContent` an object until 2025-11-25,
 * any JSON value from 2026-07-28.
 */
export type ToolResultContent = {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;
};

/** One block of a sampling message (schema `SamplingMessageContentBlock`; before 2025-11-25 text, image or audio only). */
export type SamplingContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/**
 * A sampling message's or result's content: one block, or (2025-11-25, a request that
 * gave `tools`) several, such as parallel tool uses. Narrow before reading a field:
 * `!Array.isArray(r.content) && r.content.type === "text"`.
 */
export type SamplingContent = SamplingContentBlock | SamplingContentBlock[];

/** A message of a sampling conversation (schema `SamplingMessage`). */
export type SamplingMessage = {
  role: "user" | "assistant";
  content: SamplingContent;
  _meta?: Meta;
};

/** A hint for choosing a model (schema `ModelHint`). */
export type ModelHint = { name?: string };

/** The server's preferences for the model the client picks (schema `ModelPreferences`). */
export type ModelPreferences = {
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

/** Whether and how the model may use the request's `tools` (schema `ToolChoice`, 2025-11-25). */
export type ToolChoice = { mode?: "auto" | "required" | "none" };

/** A request's ask to run as a task (schema `TaskMetadata`, 2025-11-25). */
export type TaskMetadata = { ttl?: number };

/** Params of `sampling/createMessage` (schema `CreateMessageRequestParams`). */
export type CreateMessageParams = {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  /** Any object until 2025-11-25, a JSON object from 2026-07-28. */
  metadata?: object;
  tools?: Tool[];
  toolChoice?: ToolChoice;
  /** 2025-11-25: run as a task on the client (see `ServerContext.requestAsTask`). */
  task?: TaskMetadata;
  _meta?: Meta;
};

/** The result of `sampling/createMessage` (schema `CreateMessageResult`; an input response of 2026-07-28, with no `resultType`). */
export type CreateMessageResult = {
  role: "user" | "assistant";
  content: SamplingContent;
  model: string;
  stopReason?: string;
  _meta?: Meta;
};

/**
 * What a client's sampling handler answers: a {@link CreateMessageResult} whose `content`
 * may be any object or list of them, since the kernel checks the answer against the
 * schema before it goes out (a refused one fails the server's request with `-32603`). So a
 * block built apart, whose `type` TypeScript widens to `string`, needs no `as const`.
 */
export type CreateMessageAnswer = {
  role: "user" | "assistant";
  content: SamplingContent | JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
};

/** A text field of an elicitation form (schema `StringSchema`). */
export type StringSchema = {
  type: "string";
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  default?: string;
};

/** A number field of an elicitation form (schema `NumberSchema`). */
export type NumberSchema = {
  type: "number" | "integer";
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
};

/** A yes/no field of an elicitation form (schema `BooleanSchema`). */
export type BooleanSchema = {
  type: "boolean";
  title?: string;
  description?: string;
  default?: boolean;
};

/** A choice of one string (schema `UntitledSingleSelectEnumSchema`). */
export type UntitledSingleSelectEnumSchema = {
  type: "string";
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
};

/** A choice of one string, each option with a title (schema `TitledSingleSelectEnumSchema`). */
export type TitledSingleSelectEnumSchema = {
  type: "string";
  title?: string;
  description?: string;
  oneOf: { const: string; title: string }[];
  default?: string;
};

/** A choice of several strings (schema `UntitledMultiSelectEnumSchema`). */
export type UntitledMultiSelectEnumSchema = {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] };
  default?: string[];
};

/** A choice of several strings, each option with a title (schema `TitledMultiSelectEnumSchema`). */
export type TitledMultiSelectEnumSchema = {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { anyOf: { const: string; title: string }[] };
  default?: string[];
};

/** A choice of one string with display names beside (schema `LegacyTitledEnumSchema`, deprecated). */
export type LegacyTitledEnumSchema = {
  type: "string";
  title?: string;
  description?: string;
  enum: string[];
  enumNames?: string[];
  default?: string;
};

/** Any choice field of an elicitation form (schema `EnumSchema`). */
export type EnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema | UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema | LegacyTitledEnumSchema;

/** One field of an elicitation form: the restricted subset of JSON Schema (schema `PrimitiveSchemaDefinition`). */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** Params of `elicitation/create` in form mode, the default (schema `ElicitRequestFormParams`). */
export type ElicitFormParams = {
  mode?: "form";
  message: string;
  requestedSchema: {
    $schema?: string;
    type: "object";
    properties: { [key: string]: PrimitiveSchemaDefinition };
    required?: string[];
  };
  /** 2025-11-25: run as a task on the client (see `ServerContext.requestAsTask`). */
  task?: TaskMetadata;
  _meta?: Meta;
};

/**
 * Params of `elicitation/create` in URL mode, from 2025-11-25 (schema
 * `ElicitRequestURLParams`). 2025-11-25 requires an `elicitationId`, 2026-07-28 has none:
 * one left out is filled in when the request goes to a 2025-11-25 session, from the
 * request's own id (`elicitation-<id>`, unique in that session).
 */
export type ElicitUrlParams = {
  mode: "url";
  message: string;
  url: string;
  elicitationId?: string;
  /** 2025-11-25: run as a task on the client (see `ServerContext.requestAsTask`). */
  task?: TaskMetadata;
  _meta?: Meta;
};

/** Params of `elicitation/create`: a form (the default mode) or, from 2025-11-25, a URL. */
export type ElicitParams = ElicitFormParams | ElicitUrlParams;

/** The result of `elicitation/create` (schema `ElicitResult`; an input response of 2026-07-28, with no `resultType`). */
export type ElicitResult = {
  action: "accept" | "decline" | "cancel";
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: Meta;
};

/** A root the client exposes (schema `Root`). */
export type Root = {
  uri: string;
  name?: string;
  _meta?: Meta;
};

/** The result of `roots/list` (an input response of 2026-07-28, with no `resultType`). */
export type ListRootsResult = {
  roots: Root[];
  _meta?: Meta;
};

/** One page of a paginated list. `nextCursor` absent means the last page. */
export interface Page extends Result {
  nextCursor?: string;
}

/** A page of `tools/list`. */
export interface ListToolsResult extends Page, CacheableResult {
  tools: Tool[];
}

/** A page of `resources/list`. */
export interface ListResourcesResult extends Page, CacheableResult {
  resources: Resource[];
}

/** A page of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends Page, CacheableResult {
  resourceTemplates: ResourceTemplate[];
}

/** A page of `prompts/list`. */
export interface ListPromptsResult extends Page, CacheableResult {
  prompts: Prompt[];
}

/** A task's status (2025-11-25 `basic/utilities/tasks`, and the tasks extension). */
export type { TaskStatus };

/**
 * A task as `tasks/get`, `tasks/list` and `CreateTaskResult` show it. 2025-11-25 names
 * the lifetime `ttl` / `pollInterval`; the extension `ttlMs` / `pollIntervalMs` and
 * inlines `result`, `error` or `inputRequests` in `tasks/get`.
 */
export type Task = {
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
};

/** The answer to a task-augmented request: `{ task }` (2025-11-25) or the task itself with `resultType: "task"` (extension). */
export interface CreateTaskResult extends Result {
  task?: Task;
  taskId?: string;
}

/**
 * The capabilities a server declares (schema `ServerCapabilities` of 2025-11-25 and
 * 2026-07-28 together: `tasks` is 2025-11-25's, `extensions` 2026-07-28's). `O` is a
 * capability's settings: any object in what the application declares (2025-11-25 types
 * them `object`), a JSON object in what a client receives (2026-07-28 types them
 * `JSONObject`), so that either version's type holds it.
 */
export type ServerCapabilities<O extends object = object> = {
  experimental?: { [key: string]: O };
  logging?: O;
  completions?: O;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  tasks?: { list?: O; cancel?: O; requests?: { tools?: { call?: O } } };
  extensions?: { [key: string]: O };
};

/** The capabilities a client declares (schema `ClientCapabilities` of 2025-11-25 and 2026-07-28 together; `O` as in {@link ServerCapabilities}). */
export type ClientCapabilities<O extends object = object> = {
  experimental?: { [key: string]: O };
  roots?: { listChanged?: boolean };
  sampling?: { context?: O; tools?: O };
  elicitation?: { form?: O; url?: O };
  tasks?: { list?: O; cancel?: O; requests?: { sampling?: { createMessage?: O }; elicitation?: { create?: O } } };
  extensions?: { [key: string]: O };
};

/** A page of `tasks/list` (2025-11-25). */
export interface ListTasksResult extends Page {
  tasks: Task[];
}
