// A consumer that holds values typed with the specification's own `schema.ts` (vendored in
// scripts/spec/schema/<version>/) and hands them to the API, and the API's results to code
// typed with it: what an SDK embedding the kernel writes. build.test.ts type-checks it
// against the emitted declarations, strict and with exactOptionalPropertyTypes, once per
// version. Every statement is one check; tsc's error names its line.
//
// Deliberate differences, not checked here: a JSON-RPC error's `id` is `RequestId | null`
// (the codec maps null to absent), and `InputRequiredResult.resultType` is the literal.

/** The versions whose `schema.ts` the consumer is checked against. */
export const SPEC_TYPE_VERSIONS = ["2025-11-25", "2026-07-28"] as const;
export type SpecTypeVersion = (typeof SPEC_TYPE_VERSIONS)[number];

/** What both versions check, `S` being that version's schema. */
const common = `
declare const specImpl: S.Implementation;
declare const specTool: S.Tool;
declare const specCallResult: S.CallToolResult;
declare const specText: S.TextContent;
declare const specBlocks: S.ContentBlock[];
declare const specPrompt: S.Prompt;
declare const specGetPrompt: S.GetPromptResult;
declare const specPromptMessages: S.PromptMessage[];
declare const specResource: S.Resource;
declare const specTemplate: S.ResourceTemplate;
declare const specRead: S.ReadResourceResult;
declare const specContents: (S.TextResourceContents | S.BlobResourceContents)[];
declare const specServerCaps: S.ServerCapabilities;
declare const specClientCaps: S.ClientCapabilities;
declare const specLevel: S.LoggingLevel;
declare const specPromptRef: S.PromptReference;
declare const specTemplateRef: S.ResourceTemplateReference;
declare const specElicitParams: S.ElicitRequestParams;
declare const specElicitResult: S.ElicitResult;
declare const specCreateParams: S.CreateMessageRequestParams;
declare const specCreateResult: S.CreateMessageResult;
declare const specRoots: S.Root[];
declare const specCompleteResult: S.CompleteResult;
declare const specCallParams: S.CallToolRequestParams;
declare const specProgressParams: S.ProgressNotificationParams;
declare const specLogParams: S.LoggingMessageNotificationParams;
declare const specSession: Endpoint;

// Spec -> API: constructors and options.
new McpServer(specImpl);
new McpServer({ ...specImpl, instructions: "use it" });
new McpServer({ name: "s", version: "1" }, { capabilities: specServerCaps });
export const server = new McpServer({ name: "s", version: "1" });
new McpClient(specImpl);
new McpClient({ name: "c", version: "1" }, { capabilities: specClientCaps });

// Spec -> API: registration from the spec's definitions, less the name (or URI).
export function register(): void {
  const { name, ...toolConfig } = specTool;
  server.tool(name, toolConfig, async () => specCallResult);
  const { name: promptName, ...promptConfig } = specPrompt;
  server.prompt(promptName, promptConfig, async () => specGetPrompt);
  const { uri, ...resourceConfig } = specResource;
  server.resource(uri, resourceConfig, async () => specRead);
  const { uriTemplate, ...templateConfig } = specTemplate;
  server.resourceTemplate(uriTemplate, templateConfig, async () => specRead);
}

// Spec -> API: handlers answering with the spec's results.
server.tool("a", {}, async () => specCallResult);
server.tool("b", {}, () => specCallResult);
server.tool("c", {}, async () => ({ content: specBlocks }));
server.tool("d", {}, async () => ({ content: [specText] }));
const typedHandler: (args: { [key: string]: unknown }) => Promise<S.CallToolResult> = async () => specCallResult;
server.tool("e", {}, typedHandler);
server.prompt("p", {}, async () => ({ messages: specPromptMessages }));
server.resource("mem://y", { name: "y" }, async () => ({ contents: specContents }));
server.resourceTemplate("mem://{id}", { name: "t", list: async () => [specResource] }, async () => specRead);
server.completion("ref/prompt", "p", "arg", async () => specCompleteResult.completion);
server.log(specLevel, "x");

// Spec -> API -> spec: what a handler asks the client, and what it gets back.
server.tool("ctx", {}, async (_args, ctx) => {
  ctx.log(specLevel, "x");
  const elicited: S.ElicitResult = await ctx.elicit(specElicitParams);
  const sampled = await ctx.sample(specCreateParams);
  const roots: S.ListRootsResult = await ctx.listRoots();
  void [elicited, sampled, roots];
  return { content: [] };
});

// Spec -> API: params typed with the spec's interfaces (no index signature) to the methods
// that send any method's params.
server.tool("send", {}, async (_args, ctx) => {
  ctx.notify("notifications/progress", specProgressParams);
  ctx.notify("notifications/message", specLogParams);
  await ctx.request("sampling/createMessage", specCreateParams);
  await ctx.requestAsTask("sampling/createMessage", specCreateParams);
  await ctx.requestAsTask("elicitation/create", specElicitParams);
  return { content: [] };
});
specSession.notify("notifications/message", specLogParams);

// Spec -> API: client handlers answering with the spec's results.
export const client = new McpClient({ name: "c", version: "1" }, {
  handlers: {
    sampling: async () => specCreateResult,
    elicitation: async () => specElicitResult,
    roots: async () => specRoots,
  },
});

// API -> spec: what the client hands back.
export async function results(): Promise<void> {
  const tools: Delivered<S.ListToolsResult> = await client.listTools();
  const tool: DeliveredTool = tools.tools[0];
  const called: Delivered<S.CallToolResult> = await client.callTool("t");
  const read: Delivered<S.ReadResourceResult> = await client.readResource("u");
  const prompt: Delivered<S.GetPromptResult> = await client.getPrompt("p");
  const prompts: Delivered<S.ListPromptsResult> = await client.listPrompts();
  const resources: Delivered<S.ListResourcesResult> = await client.listResources();
  const templates: Delivered<S.ListResourceTemplatesResult> = await client.listResourceTemplates();
  const byPrompt: Delivered<S.CompleteResult> = await client.complete(specPromptRef, { name: "a", value: "b" });
  const byTemplate: Delivered<S.CompleteResult> = await client.complete(specTemplateRef, { name: "a", value: "b" });
  const info: S.Implementation | undefined = client.serverInfo;
  const caps: S.ServerCapabilities | undefined = client.serverCapabilities;
  for await (const t of client.iterateTools()) { const each: DeliveredTool = t; void each; }
  for await (const r of client.iterateResources()) { const each: S.Resource = r; void each; }
  for await (const p of client.iteratePrompts()) { const each: S.Prompt = p; void each; }
  await client.setLoggingLevel(specLevel);
  await client.request("tools/call", specCallParams);
  client.notify("notifications/progress", specProgressParams);
  void [tool, called, read, prompt, prompts, resources, templates, byPrompt, byTemplate, info, caps];
}
`;

/**
 * 2025-11-25 only: its results have no `resultType`, and tasks are in the core schema.
 * 2026-07-28 widened a tool's `outputSchema` to any JSON Schema (2025-11-25: `type:
 * "object"`), a tool result's `structuredContent` in a sampling message to any value
 * (2025-11-25: an object), and dropped a URL elicitation's `elicitationId` (2025-11-25
 * requires it): the API's types hold values of both versions, so code typed with
 * 2025-11-25's narrows these fields itself; they are left out of what is checked here. So
 * is a task's `ttl`, which the tasks extension does not have.
 */
const v2025 = `
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };
/** A tool as the client delivers it: 2025-11-25's, but for the outputSchema 2026-07-28 widened. */
type DeliveredTool = Without<S.Tool, "outputSchema"> & { outputSchema?: { [key: string]: unknown } };
/** A result as the client delivers it: 2025-11-25's, with the tools above. */
type Delivered<T> = T extends { tools: S.Tool[] } ? Without<T, "tools"> & { tools: DeliveredTool[] } : T;

declare const specInit: S.InitializeResult;
declare const specTask: S.Task;
new McpServer({ ...specInit.serverInfo, instructions: specInit.instructions });
server.tool("task", { execution: specTool.execution ?? {} }, async () => ({ content: [] }));
const task: Task = specTask;
void task;
`;

/**
 * 2026-07-28 only: `resultType`, `ttlMs` and `cacheScope` are required of its results,
 * which a modern session's client delivers and a legacy session's does not: the API's
 * types declare them optional, so they are checked as such.
 */
const v2026 = `
type Stamped = "resultType" | "ttlMs" | "cacheScope";
type Delivered<T> = { [K in keyof T as K extends Stamped ? never : K]: T[K] } & { [K in keyof T & Stamped]?: T[K] };
type DeliveredTool = S.Tool;

declare const specInputRequests: S.InputRequests;
declare const specInputRequest: S.InputRequest;
declare const specDiscover: S.DiscoverResult;
declare function specSampler(p: S.CreateMessageRequestParams): Promise<S.CreateMessageResult>;
declare function specElicitor(p: S.ElicitRequestParams): Promise<S.ElicitResult>;
// API -> spec: a client handler forwards what it is given to code typed with the spec.
new McpClient({ name: "c", version: "1" }, { handlers: { sampling: (p) => specSampler(p), elicitation: (p) => specElicitor(p) } });
server.tool("sampled", {}, async (_args, ctx) => {
  const sampled: S.CreateMessageResult = await ctx.sample(specCreateParams);
  void sampled;
  return { content: [] };
});
server.tool("in", {}, async () => inputRequired(specInputRequests));
server.tool("one", {}, async () => inputRequired({ a: specInputRequest }));
server.tool("url", {}, async () => inputRequired({ a: { method: "elicitation/create", params: { mode: "url", message: "m", url: "https://x" } } }));
server.tool("responses", {}, async (_args, ctx) => {
  const answers: S.InputResponses | undefined = ctx.inputResponses;
  void answers;
  return { content: [] };
});
server.tool("array", { outputSchema: { type: "array" } }, async () => ({ content: [], structuredContent: [1, 2] }));
server.tool("any", {}, async (): Promise<S.CallToolResult> => ({ resultType: "complete", content: [], structuredContent: "a string" }));
const discovered = specDiscover._meta?.["io.modelcontextprotocol/serverInfo"];
if (discovered !== undefined) new McpServer({ ...discovered, instructions: specDiscover.instructions });
new McpServer({ name: "s", version: "1" }, { capabilities: specDiscover.capabilities });
export async function modern(): Promise<void> {
  const called: Delivered<S.CallToolResult> = await client.callTool<StructuredContent>("t");
  const kind: S.ResultType | undefined = (await client.listTools()).resultType;
  const ttl: number | undefined = (await client.listTools()).ttlMs;
  const scope: "public" | "private" | undefined = (await client.readResource("u")).cacheScope;
  void [called, kind, ttl, scope];
}
`;

/** The consumer module for `version`, importing the spec's schema from `./schema-<version>.js`. */
export function specTypesConsumer(version: SpecTypeVersion): string {
  const names = ["McpClient", "McpServer", "inputRequired", "type Endpoint", "type StructuredContent", "type Task"];
  return [
    `import { ${names.join(", ")} } from "mcp-kernel";`,
    `import type * as S from "./schema-${version}.js";`,
    common,
    version === "2025-11-25" ? v2025 : v2026,
  ].join("\n");
}
