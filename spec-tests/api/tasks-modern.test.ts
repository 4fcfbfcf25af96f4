// Spec: SEP-2663 / docs/extensions/tasks/overview (the io.modelcontextprotocol/tasks
// extension of 2026-07-28): "Capability Negotiation", "Polymorphic Results", "Task
// Polling", "Task Update Requests", "Task Cancellation", "Error Handling", "Backward
// Compatibility"; composition with draft basic/patterns/mrtr.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CLIENT, connect, deferred, rawClient, rejection, SERVER } from "./setup.js";
import { McpServer } from "../../src/api/server.js";
import { McpClient } from "../../src/api/client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { inputRequired } from "../../src/api/mrtr.js";
import { ProtocolError } from "../../src/api/server/errors.js";
import { MemoryTaskStore, type TaskStore } from "../../src/api/tasks-store.js";
import type { CallToolResult, ElicitResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { answerOf, modernRequest, postModern } from "../http/modern-helpers.js";

const MODERN = { session: { versions: ["2026-07-28" as const] } };
const DUAL = { session: { versions: ["2026-07-28" as const, "2025-11-25" as const] } };
const EXT = "io.modelcontextprotocol/tasks";
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

function jobs(s: McpServer, gate: { promise: Promise<void> }): void {
  s.tool("job", { execution: { taskSupport: "optional" } }, async () => {
    await gate.promise;
    return text("done");
  });
  s.tool("must", { execution: { taskSupport: "required" } }, () => text("must"));
  s.tool("bad", { execution: { taskSupport: "optional" } }, () => ({ ...text("oops"), isError: true }));
}

async function flush(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

test("tasks extension: the server advertises io.modelcontextprotocol/tasks in server/discover capabilities, and never the v1 tasks slot there (SEP-2663)", async () => {
  const c = await connect((s) => jobs(s, deferred()), { ...MODERN, tasks: true }, DUAL);
  assert.ok((c.client.serverCapabilities as any).extensions?.[EXT]);
  assert.equal((c.client.serverCapabilities as any).tasks, undefined);
  // The same dual-era server still declares 2025-11-25 tasks to a legacy session.
  const legacy = await connect((s) => jobs(s, deferred()), { session: { versions: ["2025-11-25" as const] }, tasks: true }, DUAL);
  assert.ok((legacy.client.serverCapabilities as any).tasks?.requests?.tools?.call !== undefined);
});

// What a client keeps to check a task's result (the method that created it, its tool's output
// check) goes once no result will come; it was held until ten thousand later tasks pushed it
// out (found by review: callTool given up by its caller kept one per call).
test("tasks extension (Task Cancellation): a task callTool gave up on (its caller aborted: nobody else has its id), or one tasks/get shows cancelled, leaves nothing the client kept to check its result", { timeout: 10_000 }, async () => {
  const c = await connect((s) => s.tool("slow", { execution: { taskSupport: "optional" }, outputSchema: { type: "object" } }, () => new Promise<CallToolResult>(() => {})), { ...MODERN, tasks: true }, DUAL);
  await c.client.listTools();
  const client = c.client as any;
  const kept = (): number[] => [client.tasks.taskMethods.size, client.outputs.tasks.size];
  for (let i = 0; i < 3; i++) {
    const caller = new AbortController();
    const call = rejection(c.client.callTool("slow", {}, { signal: caller.signal }));
    await flush(50);
    assert.deepEqual(kept(), [1, 1], "remembered while the call waits for its task");
    caller.abort();
    assert.equal((await call).code, -32800);
    assert.deepEqual(kept(), [0, 0], "given up: nobody will ask for its result");
  }
  const id = c.client.taskIdOf(await c.client.callToolAsTask("slow"))!;
  assert.deepEqual(kept(), [1, 1]);
  await c.client.cancelTask(id);
  assert.equal((await rejection(c.client.waitForTask(id))).code, -32800);
  assert.deepEqual(kept(), [0, 0], "cancelled: no result will come");
});

test("tasks extension: to a declaring client the server MAY answer a CreateTaskResult with resultType task; tasks/get MUST stamp resultType complete and inline the result", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), { ...MODERN, tasks: true }, DUAL);
  const created = (await c.client.callToolAsTask("job")) as JsonObject;
  assert.equal(created.resultType, "task");
  assert.equal(created.status, "working");
  assert.equal(typeof created.ttlMs, "number");
  assert.equal(created.task, undefined, "not the 2025-11-25 nested shape");
  const id = c.client.taskIdOf(created)!;
  const working = (await c.client.getTask(id)) as JsonObject;
  assert.equal(working.resultType, "complete");
  assert.equal(working.status, "working");
  gate.resolve();
  await flush();
  const done = await c.client.getTask(id);
  assert.equal(done.status, "completed");
  assert.deepEqual((done.result as JsonObject).content, [{ type: "text", text: "done" }]);
  assert.deepEqual((await c.client.waitForTask(id)).content, [{ type: "text", text: "done" }]);
});

test("tasks extension (Server-directed: clients \"handle whichever result shape arrives\"): callTool, to which the server answered a task, waits for it and resolves with the tool's result; the caller's abort during the wait cancels the task", { timeout: 10_000 }, async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), { ...MODERN, tasks: true }, DUAL);
  const call = c.client.callTool("job");
  await flush();
  assert.equal(c.server.tasks!.size, 1, "the server made a task of the call");
  gate.resolve();
  await flush();
  c.clock.advance(1_000);
  const r = await call;
  assert.equal((r as JsonObject).resultType, undefined, "the tool's result, not a CreateTaskResult");
  assert.deepEqual(r.content, [{ type: "text", text: "done" }]);

  const d = await connect((s) => jobs(s, deferred()), { ...MODERN, tasks: true }, DUAL);
  const caller = new AbortController();
  const waiting = rejection(d.client.callTool("job", {}, { signal: caller.signal }));
  await flush();
  caller.abort();
  assert.equal((await waiting).code, -32800);
  await flush();
  assert.equal(d.sent("client", "tasks/cancel").length, 1, "the task the caller never saw is cancelled");
});

// Found by review: callTool's wait for a task read any answer's resultType and taskId, in a
// 2025-11-25 session too, where the call cannot become a task (it is not augmented).
test("tasks extension Backward Compatibility + 2025-11-25 tools (CallToolResult allows more members): a dual-era client declaring tasks, in a 2025-11-25 session, resolves callTool with the tool's result even when it carries resultType \"task\" and a taskId, never waiting for a task that is none", { timeout: 10_000 }, async () => {
  const result = { content: [{ type: "text" as const, text: "hi" }], resultType: "task", taskId: "not-a-task" };
  const c = await connect((s) => s.tool("plain", {}, () => result as unknown as CallToolResult), { ...DUAL, tasks: true }, { session: { versions: ["2025-11-25" as const] } });
  assert.equal(c.client.protocolVersion, "2025-11-25");
  const r = (await c.client.callTool("plain")) as JsonObject;
  assert.deepEqual(r.content, result.content);
  assert.equal(r.taskId, "not-a-task", "the result as the server sent it");
  assert.equal(c.sent("client", "tasks/result").length + c.sent("client", "tasks/get").length, 0, "no wait for a task");
});

test("tasks extension + basic/lifecycle timeouts: callTool's timeoutMs bounds the call and its task wait together: the wait gets what the tools/call left (here the store held the task's creation 600 of 1000 ms), then the task is cancelled", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const memory = new MemoryTaskStore();
  const stored = deferred();
  let first = true;
  const store: TaskStore = {
    get: (o, id) => memory.get(o, id),
    list: (o) => memory.list(o),
    delete: (o, id) => memory.delete(o, id),
    put: async (o, r) => {
      if (first) ((first = false), await stored.promise);
      memory.put(o, r);
    },
  };
  const server = new McpServer(SERVER, { clock, ...DUAL, tasks: { store } });
  server.tool("job", { execution: { taskSupport: "optional" } }, () => new Promise<CallToolResult>(() => {}));
  const [a, b] = createMemoryPair();
  server.connect(a);
  const client = new McpClient(CLIENT, { clock, ...MODERN, tasks: true });
  await client.connect(b);
  let outcome = undefined as { code?: number } | undefined;
  const call = client.callTool("job", {}, { timeoutMs: 1000 }).catch((e: { code: number }) => (outcome = e));
  await flush();
  clock.advance(600);
  stored.resolve();
  await flush();
  assert.equal(outcome, undefined, "the CreateTaskResult came in time");
  clock.advance(400);
  await flush();
  assert.equal((outcome as { code?: number } | undefined)?.code, -32001, "1000 ms after the call, not 1000 ms after the task was created");
  await call;
  await flush();
  assert.equal(server.tasks!.size, 1);
  client.close();
});

test("tasks extension: a server MUST NOT return CreateTaskResult to a client that did not declare the extension; a required tool is -32021 naming it", async () => {
  const gate = deferred();
  gate.resolve();
  const c = await connect((s) => jobs(s, gate), MODERN, DUAL);
  const r = (await c.client.callTool("job")) as JsonObject;
  assert.notEqual(r.resultType, "task");
  assert.deepEqual(r.content, [{ type: "text", text: "done" }]);
  const e = await rejection(c.client.callTool("must"));
  assert.equal(e.code, -32021);
  assert.deepEqual(e.data.requiredCapabilities, { extensions: { [EXT]: {} } });
});

test("tasks extension: non-declaring clients issuing tasks/get, tasks/update, tasks/cancel MUST get -32021; tasks/result and tasks/list are -32601", async () => {
  const c = await connect((s) => jobs(s, deferred()), MODERN, DUAL);
  for (const m of ["tasks/get", "tasks/cancel"]) assert.equal((await rejection(c.client.request(m, { taskId: "x" }))).code, -32021, m);
  assert.equal((await rejection(c.client.request("tasks/update", { taskId: "x", inputResponses: {} }))).code, -32021);
  const d = await connect((s) => jobs(s, deferred()), { ...MODERN, tasks: true }, DUAL);
  assert.equal((await rejection(d.client.request("tasks/result", { taskId: "x" }))).code, -32601);
  assert.equal((await rejection(d.client.request("tasks/list", {}))).code, -32601);
  assert.equal((await rejection(d.client.getTask("unknown"))).code, -32602, "an unknown task id is -32602");
});

test("tasks extension Backward Compatibility: in 2026-07-28 the task param on CallToolRequest MUST be ignored (no opt-in) and a client declaring only the legacy tasks capability is non-declaring; in 2025-11-25 servers MUST NOT treat the extension capability as enabling tasks", async () => {
  const gate = deferred();
  gate.resolve();
  const server = new McpServer(SERVER, { clock: new ManualClock(), ...DUAL });
  jobs(server, gate);
  const modern = rawClient(server);
  const meta = (caps: JsonObject) => ({ "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps });
  const legacyCaps = { tasks: { requests: { tools: { call: {} } } } };
  const asked = await modern.request(1, "tools/call", { name: "job", task: { ttl: 60_000 }, _meta: meta(legacyCaps) });
  assert.notEqual(asked.result?.resultType, "task", "neither the task param nor the legacy capability opts in");
  assert.deepEqual(asked.result?.content, [{ type: "text", text: "done" }]);
  const required = await modern.request(2, "tools/call", { name: "must", task: {}, _meta: meta(legacyCaps) });
  assert.equal(required.error?.code, -32021, "a required tool still needs the extension");
  // A 2025-11-25 session whose client declared only the extension: no tasks there.
  const legacy = rawClient(server);
  await legacy.initialize("2025-11-25", { extensions: { [EXT]: {} } });
  const plain = await legacy.request(3, "tools/call", { name: "job", _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } } });
  assert.equal(plain.result?.task, undefined);
  assert.notEqual(plain.result?.resultType, "task");
  assert.deepEqual(plain.result?.content, [{ type: "text", text: "done" }]);
});

test("tasks extension: failed is only for JSON-RPC errors: a tool result with isError completes the task", async () => {
  const c = await connect((s) => jobs(s, deferred()), { ...MODERN, tasks: true }, DUAL);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("bad")) as JsonObject)!;
  await flush();
  const t = await c.client.getTask(id);
  assert.equal(t.status, "completed");
  assert.equal((t.result as JsonObject).isError, true);
});

test("tasks extension: tasks/cancel MUST be acknowledged with an empty result (also for a terminal task)", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), { ...MODERN, tasks: true }, DUAL);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("job")) as JsonObject)!;
  const ack = await c.client.cancelTask(id);
  assert.equal(ack.resultType, "complete");
  assert.equal(ack.taskId, undefined);
  assert.equal((await c.client.getTask(id)).status, "cancelled");
  assert.equal((await c.client.cancelTask(id)).resultType, "complete");
});

test("tasks extension + MRTR: input_required surfaces in tasks/get inputRequests; tasks/update answers it and the handler resumes with its requestState", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const c = await connect(
    (s) =>
      s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
        const answer = ctx.inputResponses?.user as ElicitResult | undefined;
        if (answer === undefined) return inputRequired({ user: { method: "elicitation/create", params: form } }, "kept");
        return text(`hi ${String(answer.content?.name)} (${ctx.requestState})`);
      }),
    { ...MODERN, tasks: true, handlers: { elicitation: () => ({ action: "accept" }) } },
    DUAL,
  );
  const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
  await flush();
  const t = await c.client.getTask(id);
  assert.equal(t.status, "input_required");
  const keys = Object.keys(t.inputRequests!);
  assert.equal(keys.length, 1);
  assert.equal(t.inputRequests![keys[0]].method, "elicitation/create");
  await c.client.updateTask(id, { [keys[0]]: { action: "accept", content: { name: "ada" } } });
  await flush();
  const done = await c.client.getTask(id);
  assert.equal(done.status, "completed");
  assert.deepEqual((done.result as JsonObject).content, [{ type: "text", text: "hi ada (kept)" }]);
});

test("tasks extension + basic/patterns/mrtr: an inputBeforeTask tool's retry with a tampered requestState is refused with -32602 and creates no task; the option is not in tools/list", async () => {
  const c = await connect((s) => {
    s.tool("greet", { execution: { taskSupport: "optional" }, inputBeforeTask: true }, (_a, ctx) => {
      if (ctx.inputResponses === undefined) return inputRequired({ who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: {} } } } }, "mine");
      return text("hi");
    });
  }, { ...MODERN, tasks: true }, DUAL);
  const listed = (await c.client.listTools()).tools.find((t) => t.name === "greet")!;
  assert.equal((listed as JsonObject).inputBeforeTask, undefined);
  const e = await rejection(c.client.request("tools/call", { name: "greet", inputResponses: { who: { action: "accept", content: {} } }, requestState: "forged" }));
  assert.equal(e.code, -32602);
  assert.deepEqual(Object.keys(JSON.parse(c.server.tasks.snapshot()).tasks), [], "no task was created");
});

test("tasks extension + basic/patterns/mrtr (servers MUST treat requestState as attacker-controlled and MUST reject state that fails verification): a task tool's call carrying a forged requestState is refused with -32602 before any task or handler; its ctx.elicit never takes the forged answers as the user's", async () => {
  const ran: unknown[] = [];
  const c = await connect((s) => {
    s.tool("transfer", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
      const approval = await ctx.elicit({ message: "Approve?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } });
      ran.push(approval);
      return text("sent");
    });
  }, { ...MODERN, tasks: true }, DUAL);
  // The layout of the state ctx.elicit keeps its earlier answers in, unsealed.
  const forged = JSON.stringify({ "mcp-kernel/answers": { "ask-0": { action: "accept", content: { ok: true } } }, "mcp-kernel/asked": {} });
  const e = await rejection(c.client.request("tools/call", { name: "transfer", arguments: {}, requestState: forged }));
  assert.equal(e.code, -32602);
  assert.equal(e.data?.reason, "integrity");
  await flush();
  assert.deepEqual(ran, [], "the handler never ran on the forged approval");
  assert.deepEqual(Object.keys(JSON.parse(c.server.tasks.snapshot()).tasks), [], "no task was created");
});

test("tasks extension, input_required: the client MUST inspect inputRequests; waitForTask answers them once with the client's own handlers (tasks/update), then resolves with the result; a failing handler rejects the wait", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const asker = (s: McpServer) =>
    s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
      const answer = ctx.inputResponses?.user as ElicitResult | undefined;
      if (answer === undefined) return inputRequired({ user: { method: "elicitation/create", params: form } });
      return text(`hi ${String(answer.content?.name)}`);
    });
  /** Settles `p`, advancing the manual clock through any poll waits. */
  const settle = async <T>(p: Promise<T>, clock: { advance(ms: number): void }): Promise<T> => {
    let done = false;
    const out = p.finally(() => (done = true));
    for (let i = 0; i < 50 && !done; i++) {
      await flush();
      clock.advance(10);
    }
    return out;
  };
  const asked: JsonObject[] = [];
  const c = await connect(asker, { ...MODERN, tasks: true, handlers: { elicitation: (p) => (asked.push(p as JsonObject), { action: "accept", content: { name: "ada" } }) } }, DUAL);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
  const result = await settle(c.client.waitForTask(id, { intervalMs: 10 }), c.clock);
  assert.deepEqual(result.content, [{ type: "text", text: "hi ada" }]);
  assert.equal(asked.length, 1, "each input request is answered once");
  assert.equal(asked[0].message, "name?");
  assert.equal(c.sent("client", "tasks/update").length, 1);

  const failing = await connect(asker, { ...MODERN, tasks: true, handlers: { elicitation: () => Promise.reject(new Error("no UI")) } }, DUAL);
  const id2 = failing.client.taskIdOf((await failing.client.callToolAsTask("ask")) as JsonObject)!;
  const e = await rejection(settle(failing.client.waitForTask(id2, { intervalMs: 10 }), failing.clock));
  assert.match(e.message, /elicitation\/create input of task .* could not be provided: no UI/);
  assert.equal(failing.sent("client", "tasks/update").length, 0);
});

// Found by review: callTool never hands out the task's id, and its wait rejecting on a failure
// of the client's own left the task input_required on the server until its TTL, where nobody
// could cancel it.
test("tasks extension Task Polling (clients SHOULD continue polling until the task reaches a terminal status or until invoking tasks/cancel): callTool, whose wait for the task it never handed out fails on this client's side (its input handler fails), cancels that task; one the server failed gets no tasks/cancel", { timeout: 10_000 }, async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const tools = (s: McpServer) => {
    s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ user: { method: "elicitation/create", params: form } }) : text("hi")));
    s.tool("broken", { execution: { taskSupport: "optional" } }, () => Promise.reject(new ProtocolError(-32603, "down")));
  };
  const c = await connect(tools, { ...MODERN, tasks: true, handlers: { elicitation: () => Promise.reject(new Error("no UI")) } }, DUAL);
  const settle = async <T>(p: Promise<T>): Promise<T> => {
    let done = false;
    const out = p.finally(() => (done = true));
    for (let i = 0; i < 50 && !done; i++) {
      await flush();
      c.clock.advance(100);
    }
    return out;
  };
  const e = await rejection(settle(c.client.callTool("ask")));
  assert.match(e.message, /could not be provided: no UI/);
  await flush();
  const cancels = c.sent("client", "tasks/cancel");
  assert.equal(cancels.length, 1, "the task callTool gave up is cancelled");
  const [rec] = Object.values(JSON.parse(c.server.tasks.snapshot()).tasks) as { status: string }[];
  assert.equal(rec.status, "cancelled", "not input_required until its TTL");

  const failed = await rejection(settle(c.client.callTool("broken")));
  assert.equal(failed.code, -32603);
  await flush();
  assert.equal(c.sent("client", "tasks/cancel").length, 1, "a task seen failed is over: nothing to cancel");
});

test("tasks extension, input_required: a handler's answer that is no valid result of the method asked (client/roots: a root MUST be a file:// URI; a sampling request answered like an elicitation) is not sent with tasks/update; the wait rejects with -32603 naming the handler, as an input_required round does", { timeout: 10_000 }, async () => {
  const asks = [
    { method: "roots/list", handlers: { roots: () => [{ uri: "https://example.com/" }] }, issue: /invalid roots\/list result: \/roots\/0\/uri: must be a file:\/\/ URI/ },
    { method: "sampling/createMessage", params: { messages: [], maxTokens: 3 }, handlers: { sampling: () => ({ action: "accept" }) as never }, issue: /invalid sampling\/createMessage result: \/: missing required property "content"/ },
  ];
  for (const ask of asks) {
    const input = (ask.params === undefined ? { method: ask.method } : { method: ask.method, params: ask.params }) as never;
    const tool = (s: McpServer) => s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ user: input }) : text("answered")));
    const c = await connect(tool, { ...MODERN, tasks: true, handlers: ask.handlers }, DUAL);
    const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
    let settled: unknown;
    const wait = c.client.waitForTask(id, { intervalMs: 10 }).then((r) => (settled = r), (e: unknown) => (settled = e));
    for (let i = 0; i < 50 && settled === undefined; i++) {
      await flush();
      c.clock.advance(10);
    }
    await wait;
    const e = settled as { code?: number; message?: string };
    assert.equal(e.code, -32603, ask.method);
    assert.match(e.message!, new RegExp(`${ask.method.replace("/", "\\/")} input of task .* could not be provided: the handler produced an`));
    assert.match(e.message!, ask.issue);
    assert.equal(c.sent("client", "tasks/update").length, 0, `${ask.method}: nothing invalid on the wire`);
    c.client.close();
  }
});

test("tasks extension, input_required: a wait whose handler has not answered yet rejects at once when the client closes (-32000) or the caller aborts (-32800), as waitForTask's doc says, and the handler sees its signal abort", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  for (const how of ["close", "abort"] as const) {
    let handlerSignal: AbortSignal | undefined;
    const c = await connect(
      (s) => s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ user: { method: "elicitation/create", params: form } }) : text("hi"))),
      // The user never answers.
      { ...MODERN, tasks: true, handlers: { elicitation: (_p, ctx) => ((handlerSignal = ctx.signal), new Promise<ElicitResult>(() => {})) } },
      DUAL,
    );
    const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
    const caller = new AbortController();
    let error: any;
    c.client.waitForTask(id, { intervalMs: 10, signal: caller.signal }).catch((e) => (error = e));
    while (handlerSignal === undefined) {
      await flush();
      c.clock.advance(10);
    }
    if (how === "close") c.client.close();
    else caller.abort();
    await flush();
    assert.equal(error?.code, how === "close" ? -32000 : -32800, `${how}: the wait rejects at once`);
    assert.equal(handlerSignal.aborted, true, `${how}: the handler is told to stop`);
  }
});

test("tasks extension Task Polling: a completed task's result is the request's result, so one the plain call refuses as invalid (-32603) fails the task with that error instead", async () => {
  const c = await connect((s) => s.tool("bogus", { execution: { taskSupport: "optional" } }, () => ({ content: [{ type: "bogus" }] }) as unknown as CallToolResult), { ...MODERN, tasks: true }, DUAL);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("bogus")) as JsonObject)!;
  await flush();
  const t = await c.client.getTask(id);
  assert.equal(t.status, "failed");
  assert.equal(t.result, undefined);
  assert.equal((t.error as JsonObject).code, -32603);
  assert.match((t.error as JsonObject).message as string, /^the handler produced an invalid tools\/call result: \/content\/0\/type: /);
  assert.equal(((t.error as JsonObject).data as { issues: { path: string }[] }).issues[0].path, "/content/0/type");
});

test("tasks extension Task Polling: a completed task's result \"contains what the original request would have returned synchronously\": a handler whose final result is a CreateTaskResult (resultType task) fails the task with -32603", async () => {
  const handle = { resultType: "task", taskId: "other", status: "working", ttlMs: 1000 };
  const c = await connect((s) => s.tool("nested", { execution: { taskSupport: "optional" } }, () => handle as unknown as CallToolResult), { ...MODERN, tasks: true }, DUAL);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("nested")) as JsonObject)!;
  await flush();
  const t = await c.client.getTask(id);
  assert.equal(t.status, "failed");
  assert.equal((t.error as JsonObject).code, -32603);
  assert.match((t.error as JsonObject).message as string, /CreateTaskResult/);
});

// Found by review: a plain call's handler result carrying resultType "task" went out as a
// CreateTaskResult naming a task no tasks/get could find.
test("tasks extension Polymorphic Results (servers MUST NOT set resultType to \"task\" on result types other than CreateTaskResult) + Task Creation (MUST NOT return CreateTaskResult until a tasks/get for it would resolve): a plain call's tool handler result carrying resultType task is refused -32603; a 2025-11-25 call's is its result", async () => {
  const forged = { content: [], resultType: "task", taskId: "forged", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 1000 };
  const tools = (s: McpServer) => {
    s.tool("plain", {}, () => forged as unknown as CallToolResult);
    // A task tool makes the server declare the extension, so the kernel lets a task answer to tools/call through.
    s.tool("job", { execution: { taskSupport: "optional" } }, () => text("done"));
  };
  const c = await connect(tools, { ...MODERN, tasks: true }, DUAL);
  const e = await rejection(c.client.request("tools/call", { name: "plain" }));
  assert.equal(e.code, -32603);
  assert.match(e.message, /resultType "task"/);
  assert.equal(c.sent("server", "tasks/get").length + c.wire.filter((w) => w.from === "server" && w.message.result?.resultType === "task").length, 0, "no task answer went out");
  const legacy = await connect(tools, { session: { versions: ["2025-11-25" as const] } }, DUAL);
  assert.equal(((await legacy.client.callTool("plain")) as JsonObject).taskId, "forged", "in 2025-11-25 resultType is just more of a result");
});

test("tasks extension + basic/patterns/mrtr: servers MUST NOT send inputRequests the client has not declared support for: the task fails with the -32021 a plain call gets, naming the capability", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const c = await connect(
    (s) => {
      const ask = () => inputRequired({ user: { method: "elicitation/create", params: form } });
      s.tool("ask", { execution: { taskSupport: "optional" } }, ask);
      s.tool("askPlain", {}, ask);
    },
    { ...MODERN, tasks: true }, // no elicitation handler: elicitation not declared
    DUAL,
  );
  const plain = await rejection(c.client.request("tools/call", { name: "askPlain" }));
  assert.equal(plain.code, -32021);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
  await flush();
  const t = await c.client.getTask(id);
  assert.equal(t.status, "failed", "not input_required until the TTL");
  assert.equal(t.inputRequests, undefined);
  assert.deepEqual(t.error, { code: -32021, message: plain.message, data: { requiredCapabilities: { elicitation: {} } } });
});

test("tasks extension Task Update Requests + basic/patterns/mrtr: an answer that is not a result of the request it answers is refused -32602 with the schema's issues, as a plain retry's is; the task keeps waiting", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  let runs = 0;
  const c = await connect(
    (s) =>
      s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
        runs++;
        const answer = ctx.inputResponses?.user as ElicitResult | undefined;
        return answer === undefined ? inputRequired({ user: { method: "elicitation/create", params: form } }) : text(answer.action);
      }),
    { ...MODERN, tasks: true, handlers: { elicitation: () => ({ action: "accept" }) } },
    DUAL,
  );
  const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
  await flush();
  const [key] = Object.keys((await c.client.getTask(id)).inputRequests!);
  const refused = await rejection(c.client.updateTask(id, { [key]: { nonsense: true } }));
  assert.equal(refused.code, -32602);
  assert.deepEqual(refused.data.issues, [{ path: `/inputResponses/${key}`, reason: 'missing required property "action"' }]);
  await flush();
  assert.equal((await c.client.getTask(id)).status, "input_required", "still waiting for a real answer");
  assert.equal(runs, 1, "the handler did not run on it");
  await c.client.updateTask(id, { [key]: { action: "decline" } });
  await flush();
  assert.deepEqual(((await c.client.getTask(id)).result as JsonObject).content, [{ type: "text", text: "decline" }]);
});

test("tasks extension Task Polling: tasks/get keeps answering for a live task after the last task tool is unregistered (the task outlives the registration)", async () => {
  const gate = deferred();
  const unregister: Array<() => void> = [];
  const c = await connect(
    (s) => {
      unregister.push(s.tool("job", { execution: { taskSupport: "optional" } }, async () => (await gate.promise, text("done"))));
      s.tool("plain", {}, () => text("plain"));
    },
    { ...MODERN, tasks: true },
    DUAL,
  );
  const id = c.client.taskIdOf((await c.client.callToolAsTask("job")) as JsonObject)!;
  for (const u of unregister) u();
  assert.equal((await c.client.getTask(id)).status, "working");
  gate.resolve();
  await flush();
  assert.deepEqual((await c.client.waitForTask(id)).content, [{ type: "text", text: "done" }]);
});

test("tasks extension + draft basic/patterns/cancellation (the receiver SHOULD stop processing, free resources): a tools/call cancelled before the server answered it with a task has that task cancelled and forgotten, its work never run", async () => {
  const started: AbortSignal[] = [];
  const c = await connect((s) => s.tool("job", { execution: { taskSupport: "optional" } }, (_a, ctx) => (started.push(ctx.signal), new Promise<CallToolResult>(() => {}))), { ...MODERN, tasks: true }, DUAL);
  const caller = new AbortController();
  const call = rejection(c.client.callToolAsTask("job", {}, {}, { signal: caller.signal }));
  caller.abort("user"); // notifications/cancelled reaches the server in the delivery of the request
  assert.equal((await call).code, -32800);
  await flush();
  assert.equal(c.sent("client", "notifications/cancelled").length, 1);
  assert.equal(c.server.tasks!.size, 0, "no orphan task left until its TTL");
  assert.equal(started.length, 0, "its work never ran");
  // The client awaited a task answer that might have crossed its cancellation until the request's deadline only.
  c.clock.advance(60_000);
  assert.equal(c.client.connection!.state.outboundCount, 0);
});

test("tasks extension Task Cancellation + draft basic/patterns/cancellation: a tools/call cancelled after the server answered it with a task (the answers crossed) gets tasks/cancel for that task, declaring the extension, so its work stops", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock, ...DUAL });
  const started: AbortSignal[] = [];
  server.tool("job", { execution: { taskSupport: "optional" } }, (_a, ctx) => (started.push(ctx.signal), new Promise<CallToolResult>(() => {})));
  const caller = new AbortController();
  const sent: JsonObject[] = [];
  // The caller gives up as the server's CreateTaskResult is on its way, before the client reads it.
  const [a, b] = createMemoryPair({ onSend: (from, t) => {
    const m = JSON.parse(t);
    if (from === 1) sent.push(m);
    if (from === 0 && m.result?.resultType === "task") queueMicrotask(() => caller.abort("user"));
  } });
  server.connect(a);
  const client = new McpClient(CLIENT, { clock, ...MODERN, tasks: true });
  await client.connect(b);
  const e = await rejection(client.callToolAsTask("job", {}, {}, { signal: caller.signal }));
  assert.equal(e.code, -32800);
  await flush(50);
  const [task] = Object.values(JSON.parse(server.tasks!.snapshot()).tasks) as JsonObject[];
  const cancels = sent.filter((m) => m.method === "tasks/cancel");
  assert.equal(cancels.length, 1, "tasks/cancel sent for the task the late answer named");
  assert.equal((cancels[0].params as JsonObject).taskId, task.taskId);
  assert.deepEqual(((cancels[0].params as any)._meta["io.modelcontextprotocol/clientCapabilities"]).extensions, { [EXT]: {} }, "a modern request declares the extension itself");
  assert.equal(task.status, "cancelled");
  assert.equal(started[0]?.aborted, true, "its work is told to stop");
  client.close();
});

// Draft basic/patterns/cancellation, "Timeouts": "the sender SHOULD cancel the request and
// stop waiting for a response": a timeout leaves the server as a cancellation does.
test("tasks extension Task Cancellation + draft basic/patterns/cancellation (Timeouts: the sender SHOULD cancel the request): a tools/call that timed out as the server answered it with a task gets tasks/cancel for that task, so its work stops", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock, ...DUAL });
  const started: AbortSignal[] = [];
  server.tool("job", { execution: { taskSupport: "optional" } }, (_a, ctx) => (started.push(ctx.signal), new Promise<CallToolResult>(() => {})));
  const sent: JsonObject[] = [];
  // The call times out as the server's CreateTaskResult is on its way, before the client reads it.
  const [a, b] = createMemoryPair({ onSend: (from, t) => {
    const m = JSON.parse(t);
    if (from === 1) sent.push(m);
    if (from === 0 && m.result?.resultType === "task") queueMicrotask(() => clock.advance(100));
  } });
  server.connect(a);
  const client = new McpClient(CLIENT, { clock, ...MODERN, tasks: true });
  await client.connect(b);
  const e = await rejection(client.callToolAsTask("job", {}, {}, { timeoutMs: 100 }));
  assert.equal(e.code, -32001);
  await flush(50);
  const [task] = Object.values(JSON.parse(server.tasks!.snapshot()).tasks) as JsonObject[];
  assert.equal(sent.filter((m) => m.method === "notifications/cancelled").length, 1, "the call is cancelled as it times out");
  const cancels = sent.filter((m) => m.method === "tasks/cancel");
  assert.equal(cancels.length, 1, "tasks/cancel sent for the task the late answer named");
  assert.equal((cancels[0].params as JsonObject).taskId, task.taskId);
  assert.equal(task.status, "cancelled");
  assert.equal(started[0]?.aborted, true, "its work is told to stop");
  client.close();
});

test("tasks extension + 2025-11-25 Resource Management (limits on concurrent tasks per requestor): finished tasks make room, so a client is refused only for tasks still running, and past a limit the server (SEP-2663: it decides) runs an optional tool as the plain call", async () => {
  const clock = new ManualClock();
  const gate = deferred();
  const server = new McpServer(SERVER, { clock, ...MODERN, tasks: { maxTasksPerOwner: 2, maxTasks: 6 } });
  jobs(server, gate);
  server.tool("quick", { execution: { taskSupport: "optional" } }, () => text("quick"));
  const alice = await connect(server, { ...MODERN, tasks: true });
  const bob = await connect(server, { ...MODERN, tasks: true });
  // No principal: both are the anonymous owner, which maxTasksPerOwner does not bind (else
  // all such clients would share its small quota): it may hold half the table. Alice's
  // finished tasks do not lock bob out (they used to count until their TTL, an hour): at
  // that cap they make room.
  for (let i = 0; i < 4; i++) assert.equal(((await alice.client.callToolAsTask("quick")) as JsonObject).resultType, "task", `alice #${i}`);
  await flush();
  assert.equal(server.tasks.size, 3);
  for (let i = 0; i < 3; i++) assert.equal(((await bob.client.callToolAsTask("job")) as JsonObject).resultType, "task", `bob #${i}`);
  // Full of unfinished tasks: an optional tool runs as the plain call; a required one is refused.
  const plain = (await bob.client.callToolAsTask("quick")) as JsonObject;
  assert.notEqual(plain.resultType, "task");
  assert.deepEqual(plain.content, [{ type: "text", text: "quick" }]);
  assert.deepEqual((await alice.client.callTool("quick")).content, [{ type: "text", text: "quick" }]);
  const e = await rejection(alice.client.callToolAsTask("must"));
  assert.equal(e.code, -32600);
  assert.deepEqual(e.data, { limit: 3, scope: "requestor" });
  gate.resolve();
});

test("tasks extension, input_required (as 2025-11-25's notifications/cancelled tells a handler its request is moot): while this client's handler waits on the user, the task's end stops it: its own cancelTask at once, the task's expiry or an answer from elsewhere at the next tasks/get; the wait then settles as tasks/get says", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  const tool = (s: McpServer) => s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ user: { method: "elicitation/create", params: form } }) : text("answered")));
  for (const how of ["cancel", "expire", "answered elsewhere"] as const) {
    let handlerSignal: AbortSignal | undefined;
    const c = await connect(
      tool,
      // The user never answers.
      { ...MODERN, tasks: true, handlers: { elicitation: (_p, ctx) => ((handlerSignal = ctx.signal), new Promise<ElicitResult>(() => {})) } },
      { ...DUAL, tasks: { defaultTtlMs: 60_000 } },
    );
    const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
    let outcome: any;
    c.client.waitForTask(id, { intervalMs: 10 }).then((r) => (outcome = { result: r }), (e) => (outcome = { error: e }));
    while (handlerSignal === undefined) {
      await flush();
      c.clock.advance(10);
    }
    if (how === "cancel") {
      await c.client.cancelTask(id);
      assert.equal(handlerSignal.aborted, true, "cancelTask stops the handler at once");
    } else if (how === "expire") c.clock.advance(60_000);
    else {
      // Another of the user's clients answers (under the key the server gave the request).
      const [key] = Object.keys((await c.client.getTask(id)).inputRequests ?? {});
      await c.client.updateTask(id, { [key]: { action: "accept", content: {} } });
    }
    // Polls follow the server's pollIntervalMs (the client SHOULD respect it): a second apart at most here.
    for (let i = 0; i < 50 && outcome === undefined; i++) {
      await flush();
      c.clock.advance(1000);
    }
    assert.equal(handlerSignal.aborted, true, `${how}: the handler is told to stop`);
    if (how === "cancel") assert.equal(outcome?.error?.code, -32800);
    else if (how === "expire") assert.equal(outcome?.error?.code, -32602);
    else assert.deepEqual(outcome?.result?.content, [{ type: "text", text: "answered" }]);
  }
});

test("tasks extension, input_required: one tasks/get of the watch that fails (times out) does not end it: the task's later expiry still stops the handler still asking the user", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock, ...DUAL, tasks: { defaultTtlMs: 60_000 } });
  server.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ user: { method: "elicitation/create", params: form } }) : text("answered")));
  const [s, c] = createMemoryPair();
  server.connect(s);
  let handlerSignal: AbortSignal | undefined;
  // The client's end loses the answer to the watch's first tasks/get: the first one sent
  // while the handler is asking the user.
  let lost: unknown;
  let watchGets = 0;
  const lossy = {
    send: (text: string) => {
      const m = JSON.parse(text) as { id?: unknown; method?: string };
      if (m.method === "tasks/get" && handlerSignal !== undefined && watchGets++ === 0) lost = m.id;
      c.send(text);
    },
    onMessage: (fn: (text: string) => void) => c.onMessage((text) => (lost !== undefined && (JSON.parse(text) as { id?: unknown }).id === lost ? undefined : fn(text))),
    onClose: (fn: (reason: string) => void) => c.onClose(fn),
    close: () => c.close(),
  };
  const client = new McpClient(CLIENT, { clock, ...MODERN, session: { ...MODERN.session, requestTimeoutMs: 500 }, tasks: true, handlers: { elicitation: (_p, ctx) => ((handlerSignal = ctx.signal), new Promise<ElicitResult>(() => {})) } });
  await client.connect(lossy);
  const id = client.taskIdOf((await client.callToolAsTask("ask")) as JsonObject)!;
  let outcome: any;
  client.waitForTask(id, { intervalMs: 10 }).then((r) => (outcome = { result: r }), (e) => (outcome = { error: e }));
  for (let i = 0; i < 100 && handlerSignal === undefined; i++) {
    await flush();
    clock.advance(10);
  }
  assert.ok(handlerSignal !== undefined, "the handler is asking");
  // The watch's first tasks/get times out; the next ones see the task, then its expiry.
  for (let i = 0; i < 120 && outcome === undefined; i++) {
    await flush();
    clock.advance(1000);
  }
  assert.ok(lost !== undefined && watchGets > 1, "the watch asked again after the lost answer");
  assert.equal(handlerSignal.aborted, true, "the handler is told to stop once the task expired");
  assert.equal(outcome?.error?.code, -32602);
  await client.close();
});

test("tasks extension Task Cancellation (cooperative: the task may still reach a non-cancelled terminal status): with cooperativeCancel the handler's signal aborts, and what it answers afterwards still ends the task; a task waiting on input has nothing running and is cancelled at once", async () => {
  const gate = deferred();
  let aborted = false;
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  const c = await connect(
    (s) => {
      s.tool("job", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        await gate.promise;
        aborted = ctx.signal.aborted;
        return text("finished anyway");
      });
      s.tool("ask", { execution: { taskSupport: "optional" } }, () => inputRequired({ user: { method: "elicitation/create", params: form } }));
    },
    { ...MODERN, tasks: true, handlers: { elicitation: () => ({ action: "accept" }) } },
    { ...DUAL, tasks: { cooperativeCancel: true } },
  );
  const id = c.client.taskIdOf((await c.client.callToolAsTask("job")) as JsonObject)!;
  await flush();
  assert.equal((await c.client.cancelTask(id)).resultType, "complete", "the ack MUST be an empty result");
  assert.equal((await c.client.getTask(id)).status, "working", "a cooperative cancel only signals");
  gate.resolve();
  await flush();
  assert.equal(aborted, true, "the handler is told to stop");
  const done = await c.client.getTask(id);
  assert.equal(done.status, "completed", "the handler's answer ends the task");
  assert.deepEqual((done.result as JsonObject).content, [{ type: "text", text: "finished anyway" }]);

  const asking = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
  await flush();
  assert.equal((await c.client.getTask(asking)).status, "input_required");
  await c.client.cancelTask(asking);
  await flush();
  assert.equal((await c.client.getTask(asking)).status, "cancelled");
});

test("tasks extension Task Update Requests + the resumeWhenAnswered option: off, a task whose input is all answered stays input_required for its application to move, and the handler (a TaskRuntime's application) is run again with the answers, so its answer ends the task rather than the TTL", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const second = deferred();
  let runs = 0;
  const c = await connect(
    (s) =>
      s.tool("ask", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        runs++;
        const answer = ctx.inputResponses?.user as ElicitResult | undefined;
        if (answer === undefined) return inputRequired({ user: { method: "elicitation/create", params: form } }, "kept");
        await second.promise;
        return text(`hi ${String(answer.content?.name)} (${ctx.requestState})`);
      }),
    { ...MODERN, tasks: true, handlers: { elicitation: () => ({ action: "accept" }) } },
    { ...DUAL, tasks: { resumeWhenAnswered: false } },
  );
  const id = c.client.taskIdOf((await c.client.callToolAsTask("ask")) as JsonObject)!;
  await flush();
  const t = await c.client.getTask(id);
  assert.equal(t.status, "input_required");
  await c.client.updateTask(id, { [Object.keys(t.inputRequests!)[0]]: { action: "accept", content: { name: "ada" } } });
  await flush();
  assert.equal(runs, 2, "the handler learns its input is answered");
  assert.equal((await c.client.getTask(id)).status, "input_required", "off: not moved back to working");
  second.resolve();
  await flush();
  const done = await c.client.getTask(id);
  assert.equal(done.status, "completed");
  assert.deepEqual((done.result as JsonObject).content, [{ type: "text", text: "hi ada (kept)" }]);
});

test("tasks extension Task Cancellation (cooperative; clients MAY delete all state of the task, its inputRequests keys included, as soon as they send a cancellation): a handler that asks for input after tasks/cancel reached it (an input_required answer, or ctx.elicit once its signal aborted) has its task cancelled at once, not left in input_required, where nothing cancels it again, until its TTL", async () => {
  const gates = { job: deferred(), elicit: deferred() };
  const sawAbort: Record<string, boolean> = {};
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  let elicited = 0;
  const c = await connect(
    (s) => {
      s.tool("job", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        await gates.job.promise;
        sawAbort.job = ctx.signal.aborted;
        return inputRequired({ user: { method: "elicitation/create", params: form } });
      });
      s.tool("elicit", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        await gates.elicit.promise;
        sawAbort.elicit = ctx.signal.aborted;
        const r = await ctx.elicit(form);
        return text(`got ${r.action}`);
      });
    },
    { ...MODERN, tasks: true, handlers: { elicitation: () => { elicited++; return { action: "accept", content: {} }; } } },
    { ...DUAL, tasks: { cooperativeCancel: true } },
  );
  for (const tool of ["job", "elicit"] as const) {
    const id = c.client.taskIdOf((await c.client.callToolAsTask(tool)) as JsonObject)!;
    await flush();
    await c.client.cancelTask(id);
    assert.equal((await c.client.getTask(id)).status, "working", "a cooperative cancel only signals");
    gates[tool].resolve();
    await flush(40);
    assert.equal(sawAbort[tool], true, "the handler was told to stop");
    const t = await c.client.getTask(id);
    assert.equal(t.status, "cancelled", `${tool}: asking for input after the cancel ends the task as cancelled`);
    assert.equal(t.inputRequests, undefined);
    c.clock.advance(60_000);
    await flush();
    assert.equal((await c.client.getTask(id)).status, "cancelled");
  }
  assert.equal(elicited, 0, "the requestor is asked nothing after its cancel");
});

test("tasks extension + basic/versioning (draft: a dual-era server serves both eras on one stdio process) + server/utilities/logging (draft: notifications/message is request-scoped, and MUST NOT be emitted for a request without a logLevel): once a 2026-07-28 task's creating request is answered, what its work sends goes nowhere, never to a legacy session on the same connection (found by review: its ctx.log and ctx.notify went out untagged to that legacy session, and its ctx.request sent a ping to the client)", { timeout: 10_000 }, async () => {
  const gate = deferred();
  let outcome = "pending";
  const server = new McpServer(SERVER, { clock: new ManualClock(), ...DUAL });
  server.tool("work", { execution: { taskSupport: "required" } }, async (_args, ctx) => {
    await gate.promise;
    ctx.log("error", "from the task");
    ctx.notify("notifications/message", { level: "error", data: "notified" });
    ctx.notify("notifications/tools/list_changed");
    try {
      await ctx.request("ping");
      outcome = "answered";
    } catch (e) {
      outcome = `refused ${(e as { code?: number }).code}`;
    }
    return text("done");
  });
  const raw = rawClient(server);
  await raw.initialize("2025-11-25");
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const created = await raw.request("t", "tools/call", { _meta: meta, name: "work", arguments: {} });
  assert.equal(created.result.resultType, "task");
  const before = raw.inbox.length;
  gate.resolve();
  for (let turn = 0; turn < 10; turn++) await new Promise<void>((r) => setImmediate(r));
  assert.deepEqual(raw.inbox.slice(before).map((m) => m.method ?? m.id), [], "nothing reached the legacy session");
  assert.equal(outcome, "refused -32600");
});

// Found by review: a tool's ProtocolError with a bogus code left its task working until its
// TTL (the table takes only an integer code and a string message); a plain call gets -32603.
test("tasks extension (Error Handling: failed carries the JSON-RPC error; basic/index: error codes MUST be integers): a task whose tool throws an error with no integer code fails with the -32603 a plain call gets, not left working", { timeout: 10_000 }, async () => {
  const c = await connect((s) => s.tool("bogus", { execution: { taskSupport: "optional" } }, async () => { throw new ProtocolError(1.5, "bogus code"); }), { ...MODERN, tasks: true }, DUAL);
  const created = await c.client.request("tools/call", { name: "bogus", arguments: {} });
  assert.equal(created.resultType, "task");
  await flush(50);
  const got = (await c.client.getTask(created.taskId as string)) as any;
  assert.equal(got.status, "failed");
  assert.deepEqual(got.error, { code: -32603, message: "the handler failed with a malformed error" });
});

// Found by review: a plain call's error is held to the era's codes as it leaves the endpoint,
// but a task's rides inside the tasks/get result, which that check never saw: -32002, -32042
// and undefined reserved codes went out to 2026-07-28 clients.
test("tasks extension + basic/index Error Codes (draft: implementations of this version MUST NOT emit -32002 or -32042, nor an undefined code of -32020..-32099): a failed task's error in tasks/get is held to them as a plain call's is", { timeout: 10_000 }, async () => {
  const thrown: Record<string, ProtocolError> = {
    notFound: new ProtocolError(-32002, "Resource not found", { uri: "file:///x" }),
    url: new ProtocolError(-32042, "open the page", { elicitations: [{ mode: "url", elicitationId: "e", url: "https://example.com", message: "m" }] }),
    reserved: new ProtocolError(-32050, "undefined reserved"),
    legacyRange: new ProtocolError(-32001, "legacy range"),
  };
  const setup = (s: McpServer) => {
    for (const [name, e] of Object.entries(thrown)) s.tool(name, { execution: { taskSupport: "optional" } }, async () => { throw e; });
  };
  const c = await connect(setup, { ...MODERN, tasks: true, capabilities: { elicitation: { form: {}, url: {} } } }, DUAL);
  const failed = async (name: string): Promise<any> => {
    const created = await c.client.request("tools/call", { name, arguments: {} });
    await flush(50);
    const got = (await c.client.getTask(created.taskId as string)) as any;
    assert.equal(got.status, "failed", name);
    return got.error;
  };
  assert.deepEqual(await failed("notFound"), { code: -32602, message: "Resource not found", data: { uri: "file:///x" } }, "the meaning survives as -32602");
  const url = await failed("url");
  assert.equal(url.code, -32603);
  assert.match(url.message, /error code -32042 not sent: 2026-07-28 has no such code/);
  const reserved = await failed("reserved");
  assert.equal(reserved.code, -32603);
  assert.match(reserved.message, /error code -32050 not sent/);
  assert.equal((await failed("legacyRange")).code, -32001, "the legacy range is SHOULD NOT, not forbidden");
  // A 2025-11-25 task on the same server keeps -32002, its resource-not-found code.
  const legacy = await connect(setup, { session: { versions: ["2025-11-25" as const] }, tasks: true }, DUAL);
  const { task } = (await legacy.client.callToolAsTask("notFound")) as any;
  await flush(50);
  assert.equal((await rejection(legacy.client.getTaskResult(task.taskId))).code, -32002);
});

// SEP-2663 Task Polling: `type GetTaskResult = Result & DetailedTask` ("the server MUST return a Task
// object"; completed: "a result field"; input_required: "an inputRequests field"). Found by review: the
// extension's results were held to "an object" only, so a tasks/get answer with no task in it (here an
// `intercept` that rewrites it) went out under validateOutgoing, and the client's getTask resolved with it.
test("tasks extension Task Polling: a tasks/get answer that is no Task (no taskId, timestamps or ttlMs; completed without result; input_required without inputRequests) is refused: the server answers -32603 instead of sending it, and a client given one rejects getTask -32603", { timeout: 10_000 }, async () => {
  const broken: Record<string, (r: JsonObject) => JsonObject> = {
    "no task": () => ({ resultType: "complete", status: "working" }),
    "completed without result": (r) => ({ ...r, status: "completed" }),
    "input_required without inputRequests": (r) => ({ ...r, status: "input_required" }),
    "a ttlMs that is no number": (r) => ({ ...r, ttlMs: "1h" }),
  };
  for (const [label, rewrite] of Object.entries(broken)) {
    for (const validateOutgoing of [true, false]) {
      const intercept = async (method: string, _p: unknown, _ctx: unknown, next: () => Promise<JsonObject> | JsonObject) => (method === "tasks/get" ? rewrite(await next()) : next());
      const c = await connect((s) => jobs(s, deferred()), { ...MODERN, tasks: true }, { ...DUAL, session: { ...DUAL.session, validateOutgoing }, intercept });
      const id = c.client.taskIdOf((await c.client.callToolAsTask("job")) as JsonObject)!;
      const e = await rejection(c.client.getTask(id));
      assert.equal(e.code, -32603, `${label}, server validateOutgoing ${validateOutgoing}`);
      assert.match(e.message, validateOutgoing ? /invalid tasks\/get result/ : /^invalid tasks\/get result from the peer$/, label);
      const answer = c.wire.find((w) => w.from === "server" && w.message.id !== undefined && w.message.method === undefined && c.sent("client", "tasks/get").some((q) => q.id === w.message.id))!.message;
      assert.equal(answer.result === undefined, validateOutgoing, `${label}: ${validateOutgoing ? "not sent" : "sent, and refused by the client"}`);
      c.client.close();
    }
  }
});

test("tasks extension Task Polling over a stateless Streamable HTTP handler: a tasks/get answer that is no Task is not sent; the client gets -32603", { timeout: 10_000 }, async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), ...DUAL, intercept: async (method, _p, _ctx, next) => (method === "tasks/get" ? { resultType: "complete", status: "working" } : next()) });
  jobs(server, deferred());
  const handler = createHttpHandler({ createSession: server.httpSession({}) });
  const meta = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const created = await answerOf(await postModern(handler, modernRequest(1, "tools/call", { name: "job", arguments: {} }, meta)));
  const taskId = created.result.taskId as string;
  const got = await answerOf(await postModern(handler, modernRequest(2, "tasks/get", { taskId }, meta), { "mcp-name": taskId }));
  assert.equal(got.result, undefined);
  assert.equal(got.error.code, -32603);
  assert.match(got.error.message, /invalid tasks\/get result/);
});

// SEP-2663 Task Status Notifications: "Each notification carries a complete DetailedTask for the current
// status, identical to what tasks/get would have returned". Found by review: notifications/tasks params
// were held to "an object", so a push with no task in it reached the listener.
test("tasks extension Task Status Notifications: a notifications/tasks push that is no DetailedTask is dropped by the client (malformed notifications are ignored); a valid one reaches the listener", { timeout: 10_000 }, async () => {
  const c = await connect((s) => jobs(s, deferred()), { ...MODERN, tasks: true }, DUAL);
  const id = c.client.taskIdOf((await c.client.callToolAsTask("job")) as JsonObject)!;
  const heard: JsonObject[] = [];
  const sub = await c.client.listen({ taskIds: [id] }, (method, params) => void (method === "notifications/tasks" && heard.push(params!)));
  const push = (task: JsonObject) => c.endpoint.feed({ type: "changed", now: c.clock.now(), what: "task", taskId: id, task });
  const valid = { taskId: id, status: "completed", createdAt: "2026-07-28T10:30:00Z", lastUpdatedAt: "2026-07-28T10:31:00Z", ttlMs: null, result: { content: [] } };
  push({ taskId: id, status: "bogus" });
  push({ ...valid, result: undefined } as unknown as JsonObject);
  push(valid);
  await flush(50);
  assert.equal(c.sent("server", "notifications/tasks").length, 3, "all three went out");
  assert.deepEqual(heard.map((p) => p.status), ["completed"], "only the DetailedTask reached the listener");
  sub.close();
  c.client.close();
});
