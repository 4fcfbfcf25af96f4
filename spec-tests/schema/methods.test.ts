// Spec: the ClientRequest/ServerRequest/ClientNotification/ServerNotification unions of
// each version's schema, the "Capabilities" section of each feature page, 2025-11-25
// `basic/utilities/tasks`, draft `basic/patterns/mrtr` and `docs/extensions/tasks/overview`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { capabilityFor, hasCapability, INPUT_REQUESTS, METHODS, methodSpec, type MethodSpec } from "../../src/model/methods.js";
import { SCHEMA_VERSIONS, type SchemaVersion } from "../../src/model/versions.js";
import { MetaKey, TASKS_EXTENSION } from "../../src/model/meta.js";
import { definitions, deref, examples, type Schema } from "./repo.js";

/** method -> [kind, senders] read from the schema unions. */
function unionMethods(version: SchemaVersion): Map<string, { kind: string; from: Set<string>; def: Schema }> {
  const defs = definitions(version);
  const out = new Map<string, { kind: string; from: Set<string>; def: Schema }>();
  const unions: [string, string, string][] = [
    ["ClientRequest", "client", "request"],
    ["ServerRequest", "server", "request"],
    ["ClientNotification", "client", "notification"],
    ["ServerNotification", "server", "notification"],
  ];
  for (const [name, from, kind] of unions) {
    const u = defs[name];
    if (!u) continue;
    for (const member of u.anyOf ?? [u]) {
      const def = deref(defs, member);
      const method = def.properties.method.const as string;
      const entry = out.get(method) ?? { kind, from: new Set<string>(), def };
      entry.from.add(from);
      out.set(method, entry);
    }
  }
  return out;
}

for (const version of SCHEMA_VERSIONS) {
  test(`schema ${version}: METHODS lists exactly the methods of the message unions, with kind and sender`, () => {
    const expected = unionMethods(version);
    const table = METHODS[version];
    assert.deepEqual(Object.keys(table).sort(), [...expected.keys()].sort());
    for (const [method, e] of expected) {
      const spec = table[method];
      assert.equal(spec.method, method);
      assert.equal(spec.kind, e.kind, method);
      assert.equal(spec.from, e.from.size === 2 ? "both" : [...e.from][0], method);
      assert.equal(spec.validateResult === null, e.kind === "notification", method);
      assert.equal(spec.resultType === null, e.kind === "notification", method);
    }
  });

  // "Export the tables so other tools can read the rules as data."
  test(`schema ${version}: every MethodSpec is plain JSON apart from its two validators`, () => {
    for (const spec of Object.values(METHODS[version])) {
      const { validateParams, validateResult, ...data } = spec;
      assert.equal(typeof validateParams, "function");
      assert.ok(validateResult === null || typeof validateResult === "function");
      assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
      assert.ok(Object.isFrozen(spec));
    }
  });
}

test("versions: 2024-11-05 uses the 2025-03-26 table; each version has its own methods", () => {
  assert.equal(methodSpec("2024-11-05", "tools/list"), METHODS["2025-03-26"]["tools/list"]);
  assert.equal(methodSpec("2026-07-28", "initialize"), undefined, "no handshake in the modern era");
  assert.equal(methodSpec("2026-07-28", "ping"), undefined);
  assert.equal(methodSpec("2025-11-25", "server/discover"), undefined);
  assert.equal(methodSpec("2025-03-26", "elicitation/create"), undefined, "elicitation arrived in 2025-06-18");
  assert.equal(methodSpec("2025-06-18", "tasks/get"), undefined, "tasks arrived in 2025-11-25");
  assert.equal(methodSpec("2026-07-28", "server/discover")?.kind, "request");
  assert.equal(methodSpec("2026-07-28", "subscriptions/listen")?.resultType, "SubscriptionsListenResult");
  assert.equal(methodSpec("2026-07-28", "nope"), undefined);
  assert.equal(methodSpec("1999-01-01" as never, "ping"), undefined);
  assert.equal(methodSpec("2025-11-25", 5 as never), undefined);
});

// 2025-11-25 basic/utilities/tasks: either side can be a requestor; ping, cancellation and progress go both ways.
test("direction: ping, notifications/cancelled, notifications/progress and tasks/* go both ways in 2025-11-25", () => {
  for (const m of ["ping", "notifications/cancelled", "notifications/progress", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "notifications/tasks/status"]) {
    assert.equal(methodSpec("2025-11-25", m)?.from, "both", m);
  }
  assert.equal(methodSpec("2025-11-25", "tools/call")?.from, "client");
  assert.equal(methodSpec("2025-11-25", "sampling/createMessage")?.from, "server");
  // draft: no server-to-client requests, so the client never sends progress; it may cancel.
  assert.equal(methodSpec("2026-07-28", "notifications/progress")?.from, "server");
  assert.equal(methodSpec("2026-07-28", "notifications/cancelled")?.from, "both");
});

test("params and result type names", () => {
  const call = methodSpec("2026-07-28", "tools/call")!;
  assert.equal(call.paramsType, "CallToolRequestParams");
  assert.equal(call.resultType, "CallToolResult");
  assert.equal(methodSpec("2025-03-26", "tools/call")!.paramsType, null, "inline in 2025-03-26");
  assert.equal(methodSpec("2025-11-25", "ping")!.resultType, "EmptyResult");
  assert.equal(methodSpec("2025-11-25", "tasks/result")!.resultType, "GetTaskPayloadResult");
  assert.equal(methodSpec("2026-07-28", "server/discover")!.resultType, "DiscoverResult");
});

// The schema marks params optional (e.g. `params?: PaginatedRequestParams`) or required.
test("validateParams: absent params pass when optional and fail when required", () => {
  assert.equal(methodSpec("2025-11-25", "ping")!.validateParams(undefined), null);
  assert.equal(methodSpec("2025-03-26", "tools/list")!.validateParams(undefined), null);
  assert.equal(methodSpec("2025-03-26", "tools/list")!.validateParams({ cursor: "c" }), null);
  assert.deepEqual(methodSpec("2025-03-26", "tools/list")!.validateParams({ cursor: 1 })?.map((i) => i.path), ["/cursor"]);
  assert.equal(methodSpec("2025-11-25", "notifications/initialized")!.validateParams(undefined), null);
  assert.deepEqual(methodSpec("2025-11-25", "tools/call")!.validateParams(undefined), [{ path: "", reason: 'missing required "params"' }]);
  // draft basic/index: "Every request MUST include the required _meta fields", so params are required too.
  assert.notEqual(methodSpec("2026-07-28", "tools/list")!.validateParams(undefined), null);
  assert.equal(methodSpec("2025-03-26", "tools/call")!.validateParams({ name: "t", arguments: { a: 1 } }), null);
  assert.deepEqual(methodSpec("2025-03-26", "tools/call")!.validateParams({})?.map((i) => i.reason), ['missing required property "name"']);
  assert.equal(methodSpec("2025-11-25", "tasks/get")!.validateParams({ taskId: "t" }), null);
});

test("capabilities: which side's capability gates each method (feature pages, Capabilities)", () => {
  const cap = (v: SchemaVersion, m: string) => METHODS[v][m]?.capability;
  for (const v of SCHEMA_VERSIONS) {
    // server/tools: "Servers that support tools MUST declare the tools capability".
    assert.deepEqual(cap(v, "tools/list"), { side: "server", path: "tools" }, v);
    assert.deepEqual(cap(v, "tools/call"), { side: "server", path: "tools" }, v);
    assert.deepEqual(cap(v, "notifications/tools/list_changed"), { side: "server", path: "tools.listChanged" }, v);
    // server/resources: resources, with the optional subscribe and listChanged features.
    for (const m of ["resources/list", "resources/templates/list", "resources/read"]) assert.deepEqual(cap(v, m), { side: "server", path: "resources" }, `${v} ${m}`);
    assert.deepEqual(cap(v, "notifications/resources/updated"), { side: "server", path: "resources.subscribe" }, v);
    assert.deepEqual(cap(v, "notifications/resources/list_changed"), { side: "server", path: "resources.listChanged" }, v);
    // server/prompts, server/utilities/logging ("Servers that emit log message notifications MUST declare the logging capability"), completion.
    assert.deepEqual(cap(v, "prompts/get"), { side: "server", path: "prompts" }, v);
    assert.deepEqual(cap(v, "prompts/list"), { side: "server", path: "prompts" }, v);
    assert.deepEqual(cap(v, "notifications/prompts/list_changed"), { side: "server", path: "prompts.listChanged" }, v);
    assert.deepEqual(cap(v, "notifications/message"), { side: "server", path: "logging" }, v);
    assert.deepEqual(cap(v, "completion/complete"), { side: "server", path: "completions" }, v);
    assert.equal(cap(v, "notifications/cancelled"), null, v);
    assert.equal(cap(v, "notifications/progress"), null, v);
  }
  for (const v of ["2025-03-26", "2025-06-18", "2025-11-25"] as const) {
    assert.deepEqual(cap(v, "resources/subscribe"), { side: "server", path: "resources.subscribe" }, v);
    assert.deepEqual(cap(v, "resources/unsubscribe"), { side: "server", path: "resources.subscribe" }, v);
    assert.deepEqual(cap(v, "logging/setLevel"), { side: "server", path: "logging" }, v);
    // client/sampling, client/roots: "Clients that support ... MUST declare the ... capability".
    assert.deepEqual(cap(v, "sampling/createMessage"), { side: "client", path: "sampling" }, v);
    assert.deepEqual(cap(v, "roots/list"), { side: "client", path: "roots" }, v);
    assert.deepEqual(cap(v, "notifications/roots/list_changed"), { side: "client", path: "roots.listChanged" }, v);
    assert.equal(cap(v, "initialize"), null, v);
    assert.equal(cap(v, "ping"), null, v);
  }
  assert.deepEqual(cap("2025-06-18", "elicitation/create"), { side: "client", path: "elicitation" });
  assert.deepEqual(cap("2025-11-25", "notifications/elicitation/complete"), { side: "client", path: "elicitation" });
  // 2025-11-25 tasks: "capabilities.tasks.list controls if the tasks/list operation is supported by the party".
  assert.deepEqual(cap("2025-11-25", "tasks/list"), { side: "server", path: "tasks.list" });
  assert.deepEqual(cap("2025-11-25", "tasks/cancel"), { side: "server", path: "tasks.cancel" });
  assert.deepEqual(cap("2025-11-25", "tasks/get"), { side: "server", path: "tasks" });
  assert.deepEqual(cap("2025-11-25", "tasks/result"), { side: "server", path: "tasks" });
  assert.equal(cap("2026-07-28", "server/discover"), null);
  assert.equal(cap("2026-07-28", "subscriptions/listen"), null);
});

test("capabilityFor: a method sent both ways is gated by the receiver's capability", () => {
  const list = methodSpec("2025-11-25", "tasks/list")!;
  assert.deepEqual(capabilityFor(list, "client"), { side: "server", path: "tasks.list" });
  assert.deepEqual(capabilityFor(list, "server"), { side: "client", path: "tasks.list" });
  assert.equal(capabilityFor(list, "server"), capabilityFor(list, "server"), "cached, not rebuilt per call");
  const call = methodSpec("2025-11-25", "tools/call")!;
  assert.equal(capabilityFor(call, "client"), call.capability);
  assert.equal(capabilityFor(methodSpec("2025-11-25", "ping")!, "server"), null);
});

test("hasCapability: present and not false/null, at every segment, own keys only", () => {
  assert.equal(hasCapability({ tools: {} }, "tools"), true, "{tools:{}} declares tools");
  assert.equal(hasCapability({ resources: { subscribe: true } }, "resources.subscribe"), true);
  assert.equal(hasCapability({ resources: {} }, "resources.subscribe"), false, "{resources:{}} does not declare resources.subscribe");
  assert.equal(hasCapability({ resources: { subscribe: false } }, "resources.subscribe"), false);
  assert.equal(hasCapability({ resources: { subscribe: null } }, "resources.subscribe"), false);
  assert.equal(hasCapability({ elicitation: {} }, "elicitation"), true, "{elicitation:{}} declares elicitation");
  assert.equal(hasCapability({ elicitation: {} }, "elicitation.url"), false);
  assert.equal(hasCapability({ tasks: { requests: { tools: { call: {} } } } }, "tasks.requests.tools.call"), true);
  assert.equal(hasCapability({ tools: true }, "tools.listChanged"), false, "a boolean has no members");
  assert.equal(hasCapability({ tools: null }, "tools"), false);
  assert.equal(hasCapability({ tools: [] }, "tools.x"), false);
  assert.equal(hasCapability({}, "tools"), false);
  assert.equal(hasCapability(undefined, "tools"), false);
  assert.equal(hasCapability(null, "tools"), false);
  assert.equal(hasCapability("tools", "tools"), false);
  assert.equal(hasCapability({ tools: {} }, ""), false);
  assert.equal(hasCapability({ tools: {} }, "tools."), false);
  assert.equal(hasCapability(Object.create({ tools: {} }), "tools"), false, "inherited members do not count");
  // Extension identifiers contain dots: extensions.io.modelcontextprotocol/tasks.
  const caps = { extensions: { [TASKS_EXTENSION]: {} }, experimental: { "a.b": { c: true } } };
  assert.equal(hasCapability(caps, `extensions.${TASKS_EXTENSION}`), true);
  assert.equal(hasCapability(caps, "experimental.a.b.c"), true);
  assert.equal(hasCapability(caps, "extensions.io.example/other"), false);
});

// 2025-11-25 basic/utilities/tasks: "The set of capabilities in capabilities.tasks.requests is exhaustive."
test("taskAugmentable: tools/call, sampling/createMessage and elicitation/create in 2025-11-25; tools/call in 2026-07-28", () => {
  const augmentable = (v: SchemaVersion) => Object.values(METHODS[v]).filter((s) => s.taskAugmentable).map((s) => s.method).sort();
  assert.deepEqual(augmentable("2025-11-25"), ["elicitation/create", "sampling/createMessage", "tools/call"]);
  assert.deepEqual(augmentable("2026-07-28"), ["tools/call"]);
  assert.deepEqual(augmentable("2025-06-18"), []);
  // Cross-check with the schema: exactly these requests have a `task` (TaskMetadata) param.
  const defs = definitions("2025-11-25");
  const withTask = [...unionMethods("2025-11-25")].filter(([, e]) => {
    const p = e.def.properties.params;
    const params = p ? deref(defs, p) : null;
    const alts: Schema[] = params?.anyOf ? params.anyOf.map((a: Schema) => deref(defs, a)) : params ? [params] : [];
    return alts.some((a) => a.properties?.task?.$ref?.endsWith("/TaskMetadata"));
  });
  assert.deepEqual(withTask.map(([m]) => m).sort(), augmentable("2025-11-25"));
});

// draft basic/patterns/mrtr: "Servers MUST NOT send InputRequiredResult responses on any other client requests."
test("inputRequired: exactly prompts/get, resources/read and tools/call in 2026-07-28", () => {
  const inputs = Object.values(METHODS["2026-07-28"]).filter((s) => s.inputRequired).map((s) => s.method).sort();
  assert.deepEqual(inputs, ["prompts/get", "resources/read", "tools/call"]);
  for (const v of ["2025-03-26", "2025-06-18", "2025-11-25"] as const) assert.ok(Object.values(METHODS[v]).every((s) => !s.inputRequired), v);
  // Cross-check with the schema: the *ResultResponse whose result may be an InputRequiredResult.
  const defs = definitions("2026-07-28");
  const fromSchema = [...unionMethods("2026-07-28")]
    .filter(([, e]) => e.kind === "request")
    .filter(([m]) => {
      const name = METHODS["2026-07-28"][m].resultType!.replace(/Result$/, "ResultResponse");
      const result = defs[name]?.properties?.result;
      return (result?.anyOf ?? []).some((a: Schema) => a.$ref?.endsWith("/InputRequiredResult"));
    })
    .map(([m]) => m)
    .sort();
  assert.deepEqual(fromSchema, inputs);
});

const byType = (type: string) => examples().filter((e) => e.type === type).map((e) => e.value);

// draft basic/patterns/mrtr and schema `Result.resultType`: "allows the client to determine how to parse the result".
test("validateResult (2026-07-28): resultType selects InputRequiredResult or the complete result", () => {
  const call = methodSpec("2026-07-28", "tools/call")!;
  for (const r of byType("CallToolResult")) assert.equal(call.validateResult!(r), null);
  for (const r of byType("InputRequiredResult")) assert.equal(call.validateResult!(r), null);
  // A broken complete result is not rescued by InputRequiredResult matching any object.
  assert.deepEqual(call.validateResult!({ resultType: "complete", content: "x" })?.map((i) => i.path), ["/content"]);
  assert.deepEqual(call.validateResult!({ resultType: "input_required", inputRequests: 5 })?.map((i) => i.path), ["/inputRequests"]);
  // tasks extension: "be prepared to receive either the standard result or a CreateTaskResult with resultType: task".
  const handle = { resultType: "task", taskId: "t", status: "working", createdAt: "2026-07-28T10:30:00Z", lastUpdatedAt: "2026-07-28T10:30:00Z", ttlMs: 60000 };
  assert.equal(call.validateResult!(handle), null);
  assert.equal(call.validateResult!({ ...handle, ttlMs: null, pollIntervalMs: 500, statusMessage: "queued" }), null);
  assert.notEqual(call.validateResult!({ resultType: 5 }), null);
  // Not supported elsewhere: an input_required answer to tools/list is not a ListToolsResult.
  assert.notEqual(methodSpec("2026-07-28", "tools/list")!.validateResult!({ resultType: "input_required", requestState: "s" }), null);
  assert.notEqual(methodSpec("2026-07-28", "completion/complete")!.validateResult!({ resultType: "task" }), null);
  const read = methodSpec("2026-07-28", "resources/read")!;
  for (const r of byType("ReadResourceResult")) assert.equal(read.validateResult!(r), null);
  assert.equal(read.validateResult!({ resultType: "input_required", requestState: "s" }), null);
  assert.equal(methodSpec("2026-07-28", "prompts/get")!.validateResult!({ resultType: "input_required", requestState: "s" }), null);
});

// SEP-2663 (docs/extensions/tasks/overview) "Tasks": `type CreateTaskResult = Result & Task`, and a Task has
// `taskId`, `status`, `createdAt`, `lastUpdatedAt` and `ttlMs`: without them there is no task to poll.
test("validateResult (2026-07-28, tasks extension): a resultType task answer is a CreateTaskResult, a Task's required members and all", () => {
  const call = methodSpec("2026-07-28", "tools/call")!;
  const paths = (r: unknown) => call.validateResult!(r)?.map((i) => i.path);
  assert.deepEqual(paths({ resultType: "task" }), ["/taskId", "/createdAt", "/lastUpdatedAt", "/status", "/ttlMs"]);
  const handle = { resultType: "task", taskId: "t", status: "working", createdAt: "2026-07-28T10:30:00Z", lastUpdatedAt: "2026-07-28T10:30:00Z", ttlMs: 60000 };
  assert.deepEqual(paths({ ...handle, taskId: 42 }), ["/taskId"]);
  assert.deepEqual(paths({ ...handle, status: "bogus" }), ["/status"]);
  assert.deepEqual(paths({ ...handle, ttlMs: "60000" }), ["/ttlMs"]);
  assert.deepEqual(paths({ ...handle, pollIntervalMs: "1", statusMessage: 3 }), ["/pollIntervalMs", "/statusMessage"]);
  // Own members only: a prototype supplies none.
  assert.deepEqual(paths(Object.assign(Object.create(handle), { resultType: "task" })), ["/taskId", "/createdAt", "/lastUpdatedAt", "/status", "/ttlMs"]);
});

// SEP-2663 "Task Polling" (`type GetTaskResult = Result & DetailedTask`; "The resultType field MUST be set
// to complete"; input_required "MUST return ... an inputRequests field", completed "a result field", failed
// "MUST include the error field with the JSON-RPC error"), "Task Update Requests" / "Task Cancellation"
// (`UpdateTaskResult` / `CancelTaskResult = Result`, resultType "complete"), "Task Status Notifications"
// (`TaskStatusNotificationParams = NotificationParams & Task`, "a complete DetailedTask"). Found by review:
// these results and params were held to "an object" only, so a tasks/get answer with no task in it went out
// and resolved getTask.
test("validateResult / validateParams (2026-07-28, tasks extension): tasks/get answers a DetailedTask with resultType complete, tasks/update and tasks/cancel a complete Result, notifications/tasks carries a DetailedTask", () => {
  const get = methodSpec("2026-07-28", "tasks/get")!;
  const paths = (spec: MethodSpec, r: unknown, as: "result" | "params" = "result") => (as === "result" ? spec.validateResult!(r) : spec.validateParams(r))?.map((i) => i.path);
  // The SEP's own examples.
  const working = { resultType: "complete", taskId: "786512e2", status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:50:00Z", ttlMs: 3600000, pollIntervalMs: 5000 };
  const form = { mode: "form", message: "Please enter your name.", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
  assert.equal(get.validateResult!(working), null);
  assert.equal(get.validateResult!({ ...working, status: "input_required", inputRequests: { name: { method: "elicitation/create", params: form } } }), null);
  assert.equal(get.validateResult!({ ...working, status: "completed", result: { content: [{ type: "text", text: "Hello, Luca!" }], isError: false } }), null);
  assert.equal(get.validateResult!({ ...working, status: "failed", statusMessage: "Tool execution failed", error: { code: -32603, message: "API rate limit exceeded" } }), null);
  assert.equal(get.validateResult!({ ...working, status: "cancelled", ttlMs: null }), null);
  // No task at all, or a Task's member of the wrong type.
  assert.deepEqual(paths(get, { resultType: "complete" }), ["/taskId", "/createdAt", "/lastUpdatedAt", "/status", "/ttlMs"]);
  assert.deepEqual(paths(get, { ...working, ttlMs: "1h", pollIntervalMs: "5" }), ["/ttlMs", "/pollIntervalMs"]);
  assert.deepEqual(paths(get, { ...working, resultType: "task" }), ["/resultType"]);
  // What the status inlines.
  assert.deepEqual(paths(get, { ...working, status: "input_required" }), ["/inputRequests"]);
  assert.deepEqual(paths(get, { ...working, status: "input_required", inputRequests: { k: { method: "tasks/get" }, j: 5 } }), ["/inputRequests/k/method", "/inputRequests/j"]);
  assert.deepEqual(paths(get, { ...working, status: "completed" }), ["/result"]);
  assert.deepEqual(paths(get, { ...working, status: "completed", result: "done" }), ["/result"]);
  assert.deepEqual(paths(get, { ...working, status: "failed" }), ["/error"]);
  assert.deepEqual(paths(get, { ...working, status: "failed", error: { code: "x", message: 5 } }), ["/error"]);
  for (const m of ["tasks/update", "tasks/cancel"]) {
    const spec = methodSpec("2026-07-28", m)!;
    assert.equal(spec.validateResult!({ resultType: "complete" }), null, m);
    assert.deepEqual(paths(spec, { resultType: "task" }), ["/resultType"], m);
    assert.deepEqual(paths(spec, { resultType: "complete", _meta: 5 }), ["/_meta"], m);
  }
  // Params: RequestParams (its _meta) and a string taskId.
  const meta = { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: { extensions: { [TASKS_EXTENSION]: {} } } };
  assert.equal(get.validateParams({ _meta: meta, taskId: "t" }), null);
  assert.deepEqual(paths(get, { _meta: { ...meta, [MetaKey.clientCapabilities]: 5 }, taskId: "t" }, "params"), [`/_meta/${MetaKey.clientCapabilities.replace("/", "~1")}`]);
  assert.deepEqual(paths(methodSpec("2026-07-28", "tasks/update")!, { _meta: meta, taskId: "t", inputResponses: [] }, "params"), ["/inputResponses"]);
  // The push is the task as tasks/get shows it (no resultType: a notification).
  const note = methodSpec("2026-07-28", "notifications/tasks")!;
  const { resultType: _, ...pushed } = working;
  assert.equal(note.validateParams({ ...pushed, status: "completed", result: { content: [] }, _meta: { [MetaKey.subscriptionId]: "L" } }), null);
  assert.deepEqual(paths(note, { taskId: 5, status: "bogus" }, "params"), ["/taskId", "/createdAt", "/lastUpdatedAt", "/status", "/ttlMs"]);
  assert.deepEqual(paths(note, { ...pushed, status: "completed" }, "params"), ["/result"]);
});

// 2025-11-25 tasks: "Receivers that accept a task-augmented request MUST return a CreateTaskResult".
test("validateResult (2025-11-25): a result carrying `task` is a CreateTaskResult", () => {
  const task = { taskId: "t", status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60000 };
  for (const m of ["tools/call", "sampling/createMessage", "elicitation/create"]) {
    const spec = methodSpec("2025-11-25", m)!;
    assert.equal(spec.validateResult!({ task }), null, m);
    assert.deepEqual(spec.validateResult!({ task: { taskId: "t" } })?.every((i) => i.path === "/task"), true, m);
  }
  const call = methodSpec("2025-11-25", "tools/call")!;
  assert.equal(call.validateResult!({ content: [{ type: "text", text: "ok" }] }), null);
  assert.notEqual(call.validateResult!({}), null);
  assert.notEqual(methodSpec("2025-11-25", "tools/list")!.validateResult!({ task }), null, "tools/list is not task-augmentable");
});

test("INPUT_REQUESTS: the 2026-07-28 requests a server embeds in an InputRequiredResult", () => {
  assert.deepEqual(Object.keys(INPUT_REQUESTS).sort(), ["elicitation/create", "roots/list", "sampling/createMessage"]);
  const elicit: MethodSpec = INPUT_REQUESTS["elicitation/create"];
  assert.equal(elicit.from, "server");
  assert.deepEqual(elicit.capability, { side: "client", path: "elicitation" });
  for (const r of byType("ElicitResult")) assert.equal(elicit.validateResult!(r), null);
  assert.notEqual(elicit.validateResult!({ action: "maybe" }), null);
  for (const r of byType("ElicitRequest")) assert.equal(elicit.validateParams((r as { params: unknown }).params), null);
  assert.equal(INPUT_REQUESTS["roots/list"].validateParams(undefined), null);
  for (const r of byType("ListRootsResult")) assert.equal(INPUT_REQUESTS["roots/list"].validateResult!(r), null);
});

test("meta: the reserved _meta keys of draft basic/index", () => {
  assert.equal(MetaKey.protocolVersion, "io.modelcontextprotocol/protocolVersion");
  assert.equal(MetaKey.clientCapabilities, "io.modelcontextprotocol/clientCapabilities");
  assert.equal(MetaKey.progressToken, "progressToken");
  // Each io.modelcontextprotocol/* key the 2026-07-28 schema spells out is one of ours.
  const text = JSON.stringify(definitions("2026-07-28"));
  const used = new Set(text.match(/io\.modelcontextprotocol\/[A-Za-z-]+(?=")/g));
  const ours = new Set<string>(Object.values(MetaKey));
  for (const key of used) assert.ok(ours.has(key), key);
});
