// README "Options checked where they are given": an option given as `undefined` is read as
// one left out, in every options object (a caller forwarding settings it may not have:
// `{ onError: maybeFn }`, `{ timeoutMs: opts.timeout }`), so the defaults apply. A spread of
// such an object over defaults would put `undefined` in their place: the `tasks` and
// `receiveTasks` options, spread over the server's or client's clock, wall clock and
// onError, gave the task runtime the system clock instead.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, McpServerCore, type ToolConfig, type PromptConfig, type ResourceConfig, type ResourceTemplateConfig } from "../../src/api/server.js";
import { McpClient, McpClientCore, type CallOptions, type McpClientCoreOptions, type McpClientOptions } from "../../src/api/client.js";
import type { CreateMessageParams, CreateTaskResult } from "../../src/api/types.js";
import { ManualClock } from "../../src/driver/clock.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { CLIENT_NONE, SERVER_NONE, SESSION_NONE, TASKS_NONE, type AllUndefined } from "../harness/undefined-options.js";
import { CLIENT, SERVER } from "./setup.js";

const LEGACY = { versions: ["2025-11-25" as const] };
const CALL_NONE: AllUndefined<CallOptions> = { timeoutMs: undefined, signal: undefined, onProgress: undefined, logLevel: undefined };
const TOOL_NONE: AllUndefined<ToolConfig> = { title: undefined, description: undefined, inputSchema: undefined, outputSchema: undefined, annotations: undefined, execution: undefined, icons: undefined, _meta: undefined, inputBeforeTask: undefined };
const RESOURCE_NONE: AllUndefined<Omit<ResourceConfig, "name">> = { title: undefined, description: undefined, mimeType: undefined, size: undefined, annotations: undefined, icons: undefined, _meta: undefined };
const TEMPLATE_NONE: AllUndefined<Omit<ResourceTemplateConfig, "name">> = { title: undefined, description: undefined, mimeType: undefined, annotations: undefined, icons: undefined, _meta: undefined, complete: undefined, list: undefined };
const PROMPT_NONE: AllUndefined<PromptConfig> = { title: undefined, description: undefined, arguments: undefined, argsSchema: undefined, icons: undefined, _meta: undefined, complete: undefined };

test('README "Options checked where they are given" (an option given as undefined is read as left out): McpServer and McpServerCore with every option undefined, registrations and per-call options likewise, serve a round trip on the defaults; `tasks` options all undefined take the server\'s wall clock, as left-out ones do (a spread put undefined over it: task times read the system clock); a misspelled name is refused whatever its value', async () => {
  for (const make of [() => new McpServer(SERVER, SERVER_NONE), () => new McpServerCore(SERVER, { ...SERVER_NONE, tasks: undefined })]) {
    const server = make();
    for (const name of ["a", "b", "c"]) server.tool(name, TOOL_NONE, () => ({ content: [{ type: "text", text: name }] }));
    server.resource("note://a", { name: "a", ...RESOURCE_NONE }, (uri) => ({ contents: [{ uri, text: "A" }] }));
    server.resourceTemplate("note://{id}", { name: "n", ...TEMPLATE_NONE }, () => undefined);
    server.prompt("p", PROMPT_NONE, () => ({ messages: [] }));
    // Every capability on by default (listChanged, subscribe, logging).
    assert.deepEqual(server.capabilities, { logging: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } });
    const client = await connected(server, CLIENT_NONE);
    // pageSize 0: one page; a definition carries no member for a field given as undefined.
    assert.deepEqual(await client.listTools(undefined, CALL_NONE), { tools: ["a", "b", "c"].map((name) => ({ name, inputSchema: { type: "object", properties: {} } })) });
    assert.deepEqual((await client.callTool("b", {}, CALL_NONE)).content, [{ type: "text", text: "b" }]);
    assert.deepEqual((await client.listResources(undefined, CALL_NONE)).resources, [{ uri: "note://a", name: "a" }]);
    assert.deepEqual((await client.listPrompts(undefined, CALL_NONE)).prompts, [{ name: "p" }]);
    await client.close();
  }

  // `tasks` spread over the server's clock, wall clock and onError: its undefined ones keep the server's.
  const wall = 1_700_000_000_000;
  const server = new McpServer(SERVER, { ...SERVER_NONE, wallClock: () => wall, session: { ...SESSION_NONE, ...LEGACY }, tasks: TASKS_NONE });
  server.tool("job", { execution: { taskSupport: "optional" } }, () => ({ content: [] }));
  const client = await connected(server, { ...CLIENT_NONE, session: LEGACY });
  const { task } = (await client.callToolAsTask("job", {}, { ttl: undefined }, CALL_NONE)) as CreateTaskResult;
  assert.equal(task?.createdAt, new Date(wall).toISOString(), "the task was created on the server's wall clock");
  assert.equal(task?.ttl, 3_600_000, "the default TTL");
  await client.close();

  // A misspelled name is refused whatever its value: the typo is in the code either way.
  assert.throws(() => new McpServer(SERVER, { onEror: undefined } as never), /McpServer options: unknown option "onEror"; did you mean "onError"\?/);
  assert.throws(() => new McpClient(CLIENT, { session: { requestTimeout: undefined } } as never), /did you mean "requestTimeoutMs"\?/);
  assert.throws(() => new McpServer(SERVER, { tasks: { defaultTtlMS: undefined } } as never), /TaskRuntime options: unknown option "defaultTtlMS"/);
});

test('README "Options checked where they are given" (an option given as undefined is read as left out): McpClient and McpClientCore with every option undefined declare nothing and connect; session options all undefined keep the default 60 s request timeout in force (not off); `receiveTasks` options all undefined take the client\'s clock, as left-out ones do (a spread put undefined over it: the task receiver read the system clock)', async () => {
  for (const make of [(o: McpClientOptions) => new McpClient(CLIENT, o), (o: McpClientOptions) => new McpClientCore(CLIENT, o as McpClientCoreOptions)]) {
    assert.deepEqual(make(CLIENT_NONE).capabilities, {});
    assert.deepEqual(make({ ...CLIENT_NONE, handlers: { sampling: undefined, elicitation: undefined, roots: undefined } }).capabilities, {});
    const clock = new ManualClock();
    const server = new McpServer(SERVER, { ...SERVER_NONE, clock, session: SESSION_NONE });
    server.tool("hang", {}, () => new Promise(() => {}));
    const client = make({ ...CLIENT_NONE, clock, session: SESSION_NONE });
    const [s, c] = createMemoryPair();
    server.connect(s);
    await client.connect(c);
    let outcome: unknown = "pending";
    const call = client.callTool("hang", {}, CALL_NONE).then(() => (outcome = "answered"), (e: { code?: number }) => (outcome = e.code));
    clock.advance(59_999);
    await new Promise<void>((r) => setImmediate(r));
    assert.equal(outcome, "pending", "not timed out before 60 s");
    clock.advance(1);
    await call;
    assert.equal(outcome, ErrorCode.RequestTimeout, "timed out at the default 60 s");
    await client.close();
  }

  // `receiveTasks` spread over the client's clock and onError: its undefined ones keep the client's.
  const clock = new ManualClock(1_700_000_000_000);
  const server = new McpServer(SERVER, { clock, session: LEGACY });
  let created: JsonObject | undefined;
  const ask: CreateMessageParams = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 };
  server.tool("ask", {}, async (_args, ctx) => {
    created = await ctx.request("sampling/createMessage", { ...(ask as unknown as JsonObject), task: {} });
    return { content: [] };
  });
  const sampling = () => ({ role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m" });
  const client = await connected(server, { ...CLIENT_NONE, clock, session: LEGACY, receiveTasks: TASKS_NONE, handlers: { sampling, elicitation: undefined, roots: undefined } });
  await client.callTool("ask");
  assert.equal((created?.task as JsonObject | undefined)?.createdAt, new Date(clock.now()).toISOString(), "the task was created on the client's clock");
  await client.close();
});

/** A client made with `options`, connected to `server` over the memory pair. */
async function connected(server: McpServerCore, options: McpClientOptions): Promise<McpClient> {
  const client = new McpClient(CLIENT, options);
  const [s, c] = createMemoryPair();
  server.connect(s);
  await client.connect(c);
  return client;
}
