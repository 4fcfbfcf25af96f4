// Spec: 2025-11-25 server/tools (capabilities, tools/list, tools/call, error handling,
// structured content, output schema, list changed), server/utilities/pagination.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred, rejection, SERVER } from "./setup.js";
import { McpServer, ProtocolError, argumentErrorsAreResults } from "../../src/api/server.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonSchemaValidator } from "../../src/schema/json-schema.js";
import { MAX_ISSUES } from "../../src/schema/validate.js";

const ok = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

test("tools.mdx: servers that support tools MUST declare the tools capability (and only then)", async () => {
  const none = await connect(() => {}, {}, { logging: false });
  assert.deepEqual(none.client.serverCapabilities, {});
  // Without the capability the client refuses to send tools/list at all (-32601, no round trip).
  assert.equal((await rejection(none.client.listTools())).code, ErrorCode.MethodNotFound);
  const some = await connect((s) => s.tool("a", {}, () => ok("a")));
  assert.deepEqual(some.client.serverCapabilities!.tools, { listChanged: true });
  const quiet = await connect((s) => s.tool("a", {}, () => ok("a")), {}, { listChanged: false });
  assert.deepEqual(quiet.client.serverCapabilities!.tools, {});
});

test("tools.mdx Listing Tools: tools/list returns every tool, in registration order, with its definition", async () => {
  const { client } = await connect((s) => {
    s.tool("zeta", { description: "last letter", title: "Zeta" }, () => ok("z"));
    s.tool("alpha", {
      description: "first letter",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      outputSchema: { type: "object", properties: { r: { type: "number" } }, required: ["r"] },
      annotations: { readOnlyHint: true },
      execution: { taskSupport: "optional" },
      _meta: { "example.com/x": 1 },
    }, () => ({ content: [], structuredContent: { r: 1 } }));
  });
  const { tools, nextCursor } = await client.listTools();
  assert.equal(nextCursor, undefined);
  assert.deepEqual(tools.map((t) => t.name), ["zeta", "alpha"]);
  // A tool registered without a schema still has one: inputSchema MUST be a valid JSON Schema object.
  assert.deepEqual(tools[0], { name: "zeta", inputSchema: { type: "object", properties: {} }, description: "last letter", title: "Zeta" });
  assert.deepEqual(tools[1].annotations, { readOnlyHint: true });
  assert.deepEqual(tools[1].execution, { taskSupport: "optional" });
  assert.deepEqual(tools[1]._meta, { "example.com/x": 1 });
  assert.equal((tools[1].outputSchema as any).required[0], "r");
});

test("tools.mdx Calling Tools: arguments reach the handler and its result goes back as sent", async () => {
  let seen: unknown;
  const { client } = await connect((s) =>
    s.tool("add", { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, (args) => {
      seen = args;
      return ok(String((args.a as number) + (args.b as number)));
    }),
  );
  assert.deepEqual(await client.callTool("add", { a: 2, b: 3 }), ok("5"));
  assert.deepEqual(seen, { a: 2, b: 3 });
});

test("tools.mdx Calling Tools: a handler may answer synchronously, with a promise or with any thenable, and each result goes back as sent", async () => {
  const { client } = await connect((s) => {
    s.tool("sync", {}, () => ok("sync"));
    s.tool("promise", {}, async () => ok("promise"));
    // What `await` accepts is a result too: an object with a `then`, not a Promise.
    s.tool("thenable", {}, () => ({ then: (resolve: (v: unknown) => void) => resolve(ok("thenable")) }) as never);
    s.tool("thenable-fails", {}, () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(new Error("nope")) }) as never);
  });
  const answers = await Promise.all([client.callTool("sync"), client.callTool("promise"), client.callTool("thenable"), client.callTool("thenable-fails")]);
  assert.deepEqual(answers, [ok("sync"), ok("promise"), ok("thenable"), { content: [{ type: "text", text: "nope" }], isError: true }]);
});

test("tools.mdx Error Handling: an unknown tool is a protocol error, -32602", async () => {
  const { client } = await connect((s) => s.tool("a", {}, () => ok("a")));
  const e = await rejection(client.callTool("invalid_tool_name"));
  assert.ok(e instanceof McpError);
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.match(e.message, /Unknown tool: invalid_tool_name/);
});

test("tools.mdx Error Handling: a failing tool is a tool execution error, a result with isError: true and the message", async () => {
  const { client } = await connect((s) => {
    s.tool("boom", {}, () => {
      throw new Error("API down");
    });
    s.tool("async-boom", {}, async () => {
      throw "plain string";
    });
  });
  assert.deepEqual(await client.callTool("boom"), { content: [{ type: "text", text: "API down" }], isError: true });
  assert.deepEqual(await client.callTool("async-boom"), { content: [{ type: "text", text: "plain string" }], isError: true });
});

test("tools.mdx Error Handling: a tool throwing a ProtocolError (built from the error object or from code, message and data) answers with that JSON-RPC error (server errors are protocol errors)", async () => {
  const { client } = await connect((s) => {
    s.tool("strict", {}, () => {
      throw new ProtocolError({ code: ErrorCode.InternalError, message: "server fault", data: { why: 1 } });
    });
    // The official SDKs' spelling: code, message, data.
    s.tool("parts", {}, () => {
      throw new ProtocolError(ErrorCode.InvalidParams, "no such region", { region: "mars" });
    });
    s.tool("url", {}, () => {
      throw new McpError({ code: ErrorCode.UrlElicitationRequired, message: "visit the URL first", data: { elicitations: [{ mode: "url", elicitationId: "e1", url: "https://example.com/auth", message: "Sign in" }] } });
    });
    s.tool("plain", {}, () => {
      throw new McpError({ code: ErrorCode.InvalidParams, message: "from a nested request" });
    });
  }, { capabilities: { elicitation: { url: {} } } });
  const e = await rejection(client.callTool("strict"));
  assert.ok(e instanceof McpError);
  assert.equal(e.code, ErrorCode.InternalError);
  assert.deepEqual(e.data, { why: 1 });
  const parts = await rejection(client.callTool("parts"));
  assert.deepEqual([parts.code, parts.message, parts.data], [ErrorCode.InvalidParams, "no such region", { region: "mars" }]);
  // 2025-11-25 client/elicitation: -32042 is the answer to the request that needs the URL elicitation.
  assert.equal((await rejection(client.callTool("url"))).code, ErrorCode.UrlElicitationRequired);
  // Any other McpError (typically a failed request the tool made) means the tool failed.
  assert.deepEqual(await client.callTool("plain"), { content: [{ type: "text", text: "from a nested request" }], isError: true });
});

test("tools.mdx Error Handling (2025-11-25): input validation errors are tool execution errors (isError)", async () => {
  const { client } = await connect((s) => s.tool("n", { inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, () => ok("ran")));
  const r = await client.callTool("n", { n: "seven" });
  assert.equal(r.isError, true);
  assert.match((r.content[0] as any).text, /Invalid arguments for tool n: \/n/);
  // Absent arguments are an empty object, checked the same way.
  assert.equal((await client.callTool("n")).isError, true);
  // An issue about the arguments as a whole is reported at "/".
  const root = await connect((s) => s.tool("some", { inputSchema: { type: "object", minProperties: 1 } }, () => ok("ran")));
  assert.match(((await root.client.callTool("some", {})).content[0] as any).text, /: \/: /);
});

test("tools (2025-06-18 and earlier): invalid arguments are a protocol error, -32602", async () => {
  const { client } = await connect((s) => s.tool("n", { inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, () => ok("ran")), {
    session: { versions: ["2025-06-18"] },
  });
  assert.equal(client.protocolVersion, "2025-06-18");
  const e = await rejection(client.callTool("n", {}));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.ok(Array.isArray(e.data.issues));
  assert.equal(argumentErrorsAreResults("2024-11-05"), false);
  assert.equal(argumentErrorsAreResults("2026-07-28"), true);
  assert.equal(argumentErrorsAreResults(undefined), true);
});

// An invalid request gets a reply of bounded size: a list of issues as long as the value is
// invalid, written twice (message and data), made a 270 KB request an error reply of 23 MB.
test("tools: the error for invalid arguments lists at most MAX_ISSUES issues, once in data and clipped in the message", async () => {
  const schema = { type: "object" as const, properties: { people: { type: "array", items: { type: "object", required: ["name", "email", "age"] } } } };
  const { client } = await connect((s) => s.tool("import", { inputSchema: schema }, () => ok("ran")), { session: { versions: ["2025-06-18"] } });
  const e = await rejection(client.callTool("import", { people: Array(1000).fill({}) }));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.equal(e.data.issues.length, MAX_ISSUES + 1);
  assert.deepEqual(e.data.issues[0], { path: "/people/0/name", reason: "is required" });
  assert.deepEqual(e.data.issues[MAX_ISSUES], { path: "", reason: "more issues not listed" });
  assert.equal(e.message.split("; ").length, MAX_ISSUES + 1);
  // An application's own validator may list every issue: the reply still holds MAX_ISSUES,
  // and one more counting the rest; the message clips each entry (a path can be long).
  const every: JsonSchemaValidator = { compile: () => ({ ok: true, validate: () => Array.from({ length: 1000 }, (_, i) => ({ path: "/" + "k".repeat(1000) + i, reason: "bad" })) }) };
  const own = await connect((s) => s.tool("t", { inputSchema: { type: "object" } }, () => ok("ran")), { session: { versions: ["2025-06-18"] } }, { jsonSchema: every });
  const f = await rejection(own.client.callTool("t", {}));
  assert.equal(f.data.issues.length, MAX_ISSUES + 1);
  assert.deepEqual(f.data.issues[MAX_ISSUES], { path: "", reason: `${1000 - MAX_ISSUES} more issues not listed` });
  assert.ok(f.message.length < (MAX_ISSUES + 1) * 210, String(f.message.length));
  // From 2025-11-25 on, the same bounded text is the isError result.
  const modern = await connect((s) => s.tool("t", { inputSchema: { type: "object" } }, () => ok("ran")), {}, { jsonSchema: every });
  const r = await modern.client.callTool("t", {});
  assert.equal(r.isError, true);
  assert.ok((r.content[0] as any).text.length < (MAX_ISSUES + 1) * 210);
});

test("tools.mdx Output Schema: servers MUST provide structured results that conform to the outputSchema", async () => {
  const schema = { type: "object" as const, properties: { temp: { type: "number" } }, required: ["temp"] };
  const { client } = await connect((s) => {
    s.tool("good", { outputSchema: schema }, () => ({ content: [{ type: "text", text: "22" }], structuredContent: { temp: 22 } }));
    s.tool("bad", { outputSchema: schema }, () => ({ content: [], structuredContent: { temp: "warm" } }));
    s.tool("missing", { outputSchema: schema }, () => ({ content: [] }));
    s.tool("failed", { outputSchema: schema }, () => ({ content: [{ type: "text", text: "no sensor" }], isError: true }));
  });
  assert.deepEqual((await client.callTool("good")).structuredContent, { temp: 22 });
  const bad = await rejection(client.callTool("bad"));
  assert.equal(bad.code, ErrorCode.InternalError);
  assert.match(bad.message, /does not match its outputSchema/);
  assert.equal((await rejection(client.callTool("missing"))).code, ErrorCode.InternalError);
  // An error result need not carry structured content.
  assert.equal((await client.callTool("failed")).isError, true);
});

test("tools.mdx Structured Content: a tool returning only structuredContent also gets it serialized as TextContent", async () => {
  const { client } = await connect((s) => s.tool("s", {}, () => ({ structuredContent: { a: [1, 2] } }) as any));
  const r = await client.callTool("s");
  assert.deepEqual(r.content, [{ type: "text", text: '{"a":[1,2]}' }]);
  assert.deepEqual(r.structuredContent, { a: [1, 2] });
});

test("tools/call: a handler result that is not a result object is an internal error", async () => {
  const { client } = await connect((s) => s.tool("nothing", {}, () => undefined as any));
  assert.equal((await rejection(client.callTool("nothing"))).code, ErrorCode.InternalError);
});

test("tools.mdx Tool Names: registration refuses invalid and duplicate names and unusable schemas", () => {
  const s = new McpServer(SERVER);
  assert.throws(() => s.tool("", {}, () => ok("")), /invalid tool name/);
  assert.throws(() => s.tool("has space", {}, () => ok("")), /invalid tool name/);
  assert.throws(() => s.tool("x".repeat(129), {}, () => ok("")), /invalid tool name/);
  s.tool("A-z_0.9", {}, () => ok(""));
  assert.throws(() => s.tool("A-z_0.9", {}, () => ok("")), /already registered/);
  assert.throws(() => s.tool("t", { inputSchema: { type: "array" } as any }, () => ok("")), /type "object"/);
  assert.throws(() => s.tool("t", { outputSchema: { type: "object", properties: { a: { type: 5 } } } }, () => ok("")), /does not compile/);
  assert.throws(() => new McpServer(SERVER, { pageSize: -1 }), RangeError);
});

// basic/index "$ref Resolution": "MUST NOT automatically dereference $ref values that resolve to
// a network URI"; such schemas "SHOULD be rejected rather than silently treated as permissive".
// The server's own schemas are trusted: their patterns are compiled as written.
test("basic/index $ref Resolution: a tool schema with an external $ref is refused at registration; the server's own patterns are trusted", () => {
  const s = new McpServer(SERVER);
  const external = { type: "object" as const, properties: { a: { $ref: "https://example.com/schemas/n.json" } } };
  assert.throws(() => s.tool("in", { inputSchema: external }, () => ok("")), /inputSchema does not compile: \/properties\/a\/\$ref: network \$ref not dereferenced/);
  assert.throws(() => s.tool("out", { outputSchema: external }, () => ok("")), /outputSchema does not compile/);
  s.tool("own", { inputSchema: { type: "object", properties: { a: { type: "string", pattern: "^(a+)+$" } } } }, () => ok(""));
});

test("server/tools x-mcp-header (draft): registration refuses a non-token name, a case-insensitive duplicate, a number parameter, one not reachable through properties; valid ones register", () => {
  const s = new McpServer(SERVER);
  const schema = (properties: object) => ({ type: "object" as const, properties: properties as never });
  const refused: Array<[object, RegExp]> = [
    [{ a: { type: "string", "x-mcp-header": "Bad Name!" } }, /a: x-mcp-header must be a non-empty HTTP token/],
    [{ a: { type: "string", "x-mcp-header": "" } }, /non-empty HTTP token/],
    [{ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "region" } }, /x-mcp-header "region" is declared twice/],
    [{ a: { type: "number", "x-mcp-header": "A" } }, /a: x-mcp-header needs type string, integer or boolean/],
    [{ c: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }, /only allowed on properties reachable through "properties" keys/],
    [{ d: { anyOf: [{ type: "string", "x-mcp-header": "D" }] } }, /reachable through "properties" keys/],
  ];
  for (const [properties, why] of refused) {
    assert.throws(() => s.tool("bad", { inputSchema: schema(properties) }, () => ok("")), (e: Error) => e instanceof TypeError && /^tool "bad" inputSchema has an invalid x-mcp-header: /.test(e.message) && why.test(e.message), JSON.stringify(properties));
  }
  s.tool("good", { inputSchema: schema({ region: { type: "string", "x-mcp-header": "Region" }, nested: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" }, b: { type: "boolean", "x-mcp-header": "B" } } } }) }, () => ok(""));
});

test("progress.mdx: a tool's progress reaches the caller's onProgress, in order", async () => {
  const { client } = await connect((s) =>
    s.tool("p", {}, async (_a, ctx) => {
      ctx.progress(1, 3, "one");
      ctx.progress(2, 3);
      ctx.progress(3, 3, "done");
      return ok("p");
    }),
  );
  const seen: unknown[] = [];
  await client.callTool("p", {}, { onProgress: (p) => seen.push(p) });
  assert.deepEqual(seen, [
    { progress: 1, total: 3, message: "one" },
    { progress: 2, total: 3, message: undefined },
    { progress: 3, total: 3, message: "done" },
  ]);
});

test("progress.mdx: without a progressToken the tool's progress sends nothing", async () => {
  const c = await connect((s) =>
    s.tool("p", {}, async (_a, ctx) => {
      ctx.progress(1);
      return ok("p");
    }),
  );
  await c.client.callTool("p");
  assert.equal(c.sent("server", "notifications/progress").length, 0);
});

test("cancellation.mdx: aborting the caller's signal cancels the request and aborts the tool's ctx.signal", async () => {
  const started = deferred();
  const aborted = deferred<unknown>();
  const c = await connect((s) =>
    s.tool("wait", {}, (_a, ctx) => {
      started.resolve();
      return new Promise((_res, rej) => ctx.signal.addEventListener("abort", () => (aborted.resolve(ctx.signal.reason), rej(new Error("stopped")))));
    }),
  );
  const ac = new AbortController();
  const call = c.client.callTool("wait", {}, { signal: ac.signal });
  await started.promise;
  ac.abort("user gave up");
  assert.equal((await rejection(call)).code, ErrorCode.RequestCancelled);
  assert.equal(await aborted.promise, "user gave up");
  const cancel = c.sent("client", "notifications/cancelled");
  assert.equal(cancel.length, 1);
  await c.client.ping();
  // The receiver SHOULD NOT respond to a cancelled request.
  assert.equal(c.wire.filter((w) => w.from === "server" && w.message.id === cancel[0].params.requestId).length, 0);
});

test("sampling, elicitation and roots from inside a tool reach the client's handlers, tied to the tool call", async () => {
  const c = await connect(
    (s) =>
      s.tool("ask", {}, async (_a, ctx) => {
        assert.deepEqual(Object.keys(ctx.client!.capabilities).sort(), ["elicitation", "roots", "sampling"]);
        assert.equal(ctx.protocolVersion, "2025-11-25");
        assert.equal(typeof ctx.requestId, "number");
        const m = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 });
        const e = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
        const r = await ctx.listRoots();
        return ok(`${(m.content as any).text}|${e.action}:${e.content!.name}|${r.roots.map((x) => x.uri).join(",")}`);
      }),
    {
      handlers: {
        sampling: (p) => ({ role: "assistant", content: { type: "text", text: p.maxTokens === 5 ? "4" : "?" }, model: "m" }),
        elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
        roots: () => [{ uri: "file:///a" }, { uri: "file:///b", name: "b" }],
      },
    },
  );
  const r = await c.client.callTool("ask");
  assert.equal((r.content[0] as any).text, "4|accept:Ada|file:///a,file:///b");
  assert.equal(c.sent("server", "sampling/createMessage").length, 1);
});

test("client/sampling: a client without the sampling capability makes the tool's request fail, which the tool reports as isError", async () => {
  const { client } = await connect((s) =>
    s.tool("ask", {}, async (_a, ctx) => {
      await ctx.sample({ messages: [], maxTokens: 1 });
      return ok("unreachable");
    }),
  );
  const r = await client.callTool("ask");
  assert.equal(r.isError, true);
  assert.match((r.content[0] as any).text, /sampling/);
});

test("requests a tool makes are cancelled with the tool call, unless given a signal of their own", async () => {
  const asked = deferred();
  const inner = deferred<unknown>();
  const c = await connect(
    (s) =>
      s.tool("ask", {}, async (_a, ctx) => {
        const p = ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } });
        p.catch((e) => inner.resolve(e));
        return p.then(() => ok("answered"));
      }),
    { handlers: { elicitation: () => (asked.resolve(), new Promise(() => {})) } },
  );
  const ac = new AbortController();
  const call = c.client.callTool("ask", {}, { signal: ac.signal });
  await asked.promise;
  ac.abort();
  await rejection(call);
  assert.equal(((await inner.promise) as McpError).code, ErrorCode.RequestCancelled);
});

test("a tool may send notifications tied to its call, and give a request its own signal", async () => {
  const c = await connect((s) =>
    s.tool("t", {}, async (_a, ctx) => {
      ctx.notify("notifications/tools/list_changed");
      const own = new AbortController();
      const r = await ctx.listRoots({ signal: own.signal });
      return ok(String(r.roots.length));
    }),
    { handlers: { roots: () => [] } },
  );
  let changed = 0;
  c.client.onNotification("notifications/tools/list_changed", () => changed++);
  assert.deepEqual(await c.client.callTool("t"), ok("0"));
  assert.equal(changed, 1);
});

test("logging.mdx: a tool's log messages reach the client, filtered by the level it set", async () => {
  const c = await connect((s) =>
    s.tool("chatty", {}, async (_a, ctx) => {
      ctx.log("debug", "fine detail");
      ctx.log("error", { code: 7 }, "db");
      return ok("done");
    }),
  );
  const logs: unknown[] = [];
  c.client.onNotification("notifications/message", (p) => logs.push(p));
  await c.client.callTool("chatty");
  assert.deepEqual(logs, [{ level: "debug", data: "fine detail" }, { level: "error", data: { code: 7 }, logger: "db" }]);
  await c.client.setLoggingLevel("warning");
  logs.length = 0;
  await c.client.callTool("chatty");
  assert.deepEqual(logs, [{ level: "error", data: { code: 7 }, logger: "db" }]);
  // The server may also log outside any request, to every client.
  c.server.log("critical", "disk full");
  await c.client.ping();
  assert.deepEqual(logs.at(-1), { level: "critical", data: "disk full" });
});

test("tools.mdx List Changed Notification: servers that declared listChanged SHOULD notify; a burst of changes sends one", async () => {
  const c = await connect((s) => s.tool("a", {}, () => ok("a")));
  let n = 0;
  c.client.onNotification("notifications/tools/list_changed", () => n++);
  const off = [c.server.tool("b", {}, () => ok("b")), c.server.tool("c", {}, () => ok("c")), c.server.tool("d", {}, () => ok("d"))];
  await c.client.ping();
  assert.equal(n, 1);
  assert.deepEqual((await c.client.listTools()).tools.map((t) => t.name), ["a", "b", "c", "d"]);
  off[1]();
  off[1](); // idempotent: the second call changes nothing
  await c.client.ping();
  assert.equal(n, 2);
  assert.deepEqual((await c.client.listTools()).tools.map((t) => t.name), ["a", "b", "d"]);
  // A tool registered again under the same name is a new entry; the old unregister leaves it alone.
  c.server.tool("c", {}, () => ok("c2"));
  off[1]();
  assert.deepEqual(await c.client.callTool("c"), ok("c2"));
});

test("tools.mdx: a server that did not declare listChanged sends no list_changed", async () => {
  const c = await connect((s) => s.tool("a", {}, () => ok("a")), {}, { listChanged: false });
  c.server.tool("b", {}, () => ok("b"));
  await c.client.ping();
  assert.equal(c.sent("server", "notifications/tools/list_changed").length, 0);
});

test("pagination.mdx: pages of the server's size, opaque cursors, a missing nextCursor ends the list", async () => {
  const c = await connect(
    (s) => {
      for (const n of ["t1", "t2", "t3", "t4", "t5"]) s.tool(n, {}, () => ok(n));
    },
    {},
    { pageSize: 2 },
  );
  const p1 = await c.client.listTools();
  assert.deepEqual(p1.tools.map((t) => t.name), ["t1", "t2"]);
  assert.equal(typeof p1.nextCursor, "string");
  const p2 = await c.client.listTools(p1.nextCursor);
  assert.deepEqual(p2.tools.map((t) => t.name), ["t3", "t4"]);
  const p3 = await c.client.listTools(p2.nextCursor);
  assert.deepEqual(p3.tools.map((t) => t.name), ["t5"]);
  assert.equal(p3.nextCursor, undefined);
  const all: string[] = [];
  for await (const t of c.client.iterateTools()) all.push(t.name);
  assert.deepEqual(all, ["t1", "t2", "t3", "t4", "t5"]);
});

test("pagination.mdx: servers SHOULD provide stable cursors: removing a listed tool does not make the next page skip one", async () => {
  const offs: (() => void)[] = [];
  const c = await connect((s) => {
    for (const n of ["t1", "t2", "t3", "t4"]) offs.push(s.tool(n, {}, () => ok(n)));
  }, {}, { pageSize: 2 });
  const p1 = await c.client.listTools();
  offs[0]();
  c.server.tool("t5", {}, () => ok("t5"));
  const p2 = await c.client.listTools(p1.nextCursor);
  assert.deepEqual(p2.tools.map((t) => t.name), ["t3", "t4"]);
  assert.deepEqual((await c.client.listTools(p2.nextCursor)).tools.map((t) => t.name), ["t5"]);
});

test("pagination.mdx: invalid cursors SHOULD result in -32602", async () => {
  const c = await connect((s) => {
    s.tool("t1", {}, () => ok(""));
    s.prompt("p1", {}, () => ({ messages: [] }));
  }, {}, { pageSize: 1 });
  for (const bad of ["nonsense", "!!!", btoa("tools:"), btoa("tools:1x"), btoa("tools:01"), btoa("tools:99999999999999999999")]) {
    const e = await rejection(c.client.listTools(bad));
    assert.equal(e.code, ErrorCode.InvalidParams, bad);
  }
  // A cursor of one list is not a cursor of another.
  const tools = await c.client.listTools();
  assert.equal(tools.nextCursor, undefined);
  c.server.tool("t2", {}, () => ok(""));
  const again = await c.client.listTools();
  assert.equal((await rejection(c.client.listPrompts(again.nextCursor))).code, ErrorCode.InvalidParams);
  // A non-string cursor never reaches the handler through the kernel; the handler still refuses it.
  const h = c.server.handler();
  assert.throws(() => h("tools/list", { cursor: 5 }, {} as any), (e: any) => e.code === ErrorCode.InvalidParams);
});

test("many connections: list_changed goes to every client; a closed one is forgotten", async () => {
  const a = await connect((s) => s.tool("a", {}, () => ok("a")));
  const b = await connect(a.server);
  assert.equal(a.server.connectionCount, 2);
  const seen: string[] = [];
  a.client.onNotification("notifications/tools/list_changed", () => seen.push("a"));
  b.client.onNotification("notifications/tools/list_changed", () => seen.push("b"));
  a.server.tool("x", {}, () => ok("x"));
  await a.client.ping();
  await b.client.ping();
  assert.deepEqual(seen.sort(), ["a", "b"]);
  const closed = deferred<string>();
  b.client.onClose((r) => closed.resolve(r));
  a.server.close();
  assert.equal(await closed.promise, "peer closed");
  assert.equal(a.server.connectionCount, 0);
});

test("server/tools: a definition a 2025-era schema refuses (a boolean subschema, which JSON Schema 2020-12 allows) is refused at registration by a server serving that era, naming the version, instead of failing every tools/list there; a 2026-07-28-only server takes it", async () => {
  const boolProps = { type: "object" as const, properties: { a: true, b: false } };
  const dual = new McpServer(SERVER, { session: { versions: ["2026-07-28", "2025-11-25", "2025-06-18"] } });
  assert.throws(() => dual.tool("bool", { inputSchema: boolProps }, () => ok("")), /tool "bool" cannot be listed to 2025-11-25 clients, which this server serves: \/inputSchema\/properties\/a/);
  // The refused tool left nothing behind: the others still list in every era.
  const { client } = await connect((s) => {
    assert.throws(() => s.tool("bool", { inputSchema: boolProps }, () => ok("")), /cannot be listed to 2025-11-25 clients/);
    s.tool("plain", {}, () => ok("p"));
  });
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["plain"]);
  const modern = await connect((s) => s.tool("bool", { inputSchema: boolProps }, () => ok("b")), { session: { versions: ["2026-07-28"] } }, { session: { versions: ["2026-07-28"] } });
  assert.deepEqual((await modern.client.listTools()).tools.map((t) => t.name), ["bool"]);
  assert.equal((await modern.client.callTool("bool", { b: 1 })).isError, true, "b: false refuses any value");
});

test("server/tools (draft) Tool: a definition the 2026-07-28 schema refuses (a title that is no string, an annotation hint that is no boolean, an icon without a string src) is refused at registration by a server serving only 2026-07-28, naming the version, instead of failing every tools/list there (found by review: only the 2025-era versions were checked)", async () => {
  const bad: [string, object, RegExp][] = [
    ["title", { title: 5 }, /\/title: expected string/],
    ["hint", { annotations: { readOnlyHint: "yes" } }, /\/annotations\/readOnlyHint: expected boolean/],
    ["icon", { icons: [{ src: 5 }] }, /\/icons\/0\/src: expected string/],
  ];
  const modern = { session: { versions: ["2026-07-28" as const] } };
  const { client } = await connect(
    (s) => {
      for (const [name, config, issue] of bad) {
        assert.throws(() => s.tool(name, config as never, () => ok(name)), (e: Error) => e instanceof TypeError && new RegExp(`tool "${name}" cannot be listed to 2026-07-28 clients, which this server serves: `).test(e.message) && issue.test(e.message));
      }
      s.tool("plain", {}, () => ok("p"));
    },
    modern,
    modern,
  );
  // The refused tools left nothing behind: the list still goes out.
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["plain"]);
});

test("server/tools (draft): an outputSchema may be any JSON Schema 2020-12 (an array's) on a server serving only 2026-07-28; a server serving a 2025 era, where it is restricted to type object, refuses it", async () => {
  const arrays = { type: "array", items: { type: "number" } };
  assert.throws(() => new McpServer(SERVER).tool("arr", { outputSchema: arrays }, () => ok("")), /outputSchema must be a JSON Schema with type "object"/);
  const modern = await connect(
    (s) => {
      s.tool("arr", { outputSchema: arrays }, () => ({ content: [], structuredContent: [1, 2] }));
      s.tool("bad", { outputSchema: arrays }, () => ({ content: [], structuredContent: ["x"] }));
    },
    { session: { versions: ["2026-07-28"] } },
    { session: { versions: ["2026-07-28"] } },
  );
  assert.deepEqual((await modern.client.listTools()).tools[0].outputSchema, arrays);
  assert.deepEqual((await modern.client.callTool("arr", {})).structuredContent, [1, 2]);
  assert.match((await rejection(modern.client.callTool("bad", {}))).message, /does not match its outputSchema/);
});

test("tools.mdx Tool Result (content is required) + basic/index error data: a handler whose result the schema refuses ({}, a content block of no known type) gets -32603 whose message and data.issues say what is wrong, in both eras", async () => {
  const setup = (s: McpServer) => {
    s.tool("empty", {}, () => ({}) as never);
    s.tool("txt", {}, () => ({ content: [{ type: "txt", text: "x" }] }) as never);
  };
  for (const versions of [["2025-11-25"], ["2026-07-28"]] as const) {
    const { client } = await connect(setup, { session: { versions: [...versions] } }, { session: { versions: ["2026-07-28", "2025-11-25"] } });
    const empty = await rejection(client.callTool("empty", {}));
    assert.equal(empty.code, ErrorCode.InternalError, versions[0]);
    assert.match(empty.message, /^the handler produced an invalid tools\/call result: \/: missing required property "content"$/, versions[0]);
    assert.deepEqual(empty.data, { issues: [{ path: "", reason: 'missing required property "content"' }] }, versions[0]);
    const txt = await rejection(client.callTool("txt", {}));
    assert.match(txt.message, /invalid tools\/call result: \/content\/0\/type: expected one of "text", /, versions[0]);
    assert.equal(txt.data.issues[0].path, "/content/0/type", versions[0]);
  }
});

test("server/tools, server/prompts, client/sampling with a 2024-11-05 peer, which has no AudioContent (it arrived in 2025-03-26): audio in a tool result, a prompt or a sampling answer is not sent but refused -32603 naming the version, as a resource_link to a 2025-03-26 peer is; the rest goes through", { timeout: 10_000 }, async () => {
  const audio = { type: "audio" as const, data: "AAAA", mimeType: "audio/wav" };
  const c = await connect(
    (s) => {
      s.tool("sound", {}, () => ({ content: [audio] }));
      s.tool("words", {}, () => ok("hi"));
      s.tool("ask", {}, async (_args, ctx) => {
        const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 });
        return ok(JSON.stringify(answer.content));
      });
      s.prompt("p", {}, () => ({ messages: [{ role: "user", content: audio }] }));
    },
    { session: { versions: ["2024-11-05"] }, handlers: { sampling: () => ({ role: "assistant", content: audio, model: "m" }) } },
  );
  assert.equal(c.client.protocolVersion, "2024-11-05");
  for (const call of [c.client.callTool("sound"), c.client.getPrompt("p")]) {
    const e = await rejection(call);
    assert.equal(e.code, ErrorCode.InternalError);
    assert.match(e.message, /audio content is not defined in 2024-11-05/);
  }
  // The client's sampling answer is refused before it is sent: the server's request gets -32603, which the tool reports.
  const asked = await c.client.callTool("ask");
  assert.equal(asked.isError, true);
  assert.match((asked.content[0] as { text: string }).text, /audio content is not defined in 2024-11-05/);
  assert.equal(c.wire.some((w) => JSON.stringify(w.message).includes('"audio"')), false, "no audio block on the wire");
  assert.deepEqual(await c.client.callTool("words"), ok("hi"));
});

test("tools.mdx Tool (inputSchema MUST be a valid JSON Schema object, not null): registration refuses null or no object, and a client refuses a tools/list whose tool has a null inputSchema", async () => {
  const s = new McpServer(SERVER);
  assert.throws(() => s.tool("n", { inputSchema: null as never }, () => ok("")), /inputSchema must be a JSON Schema object/);
  assert.throws(() => s.tool("n", { inputSchema: "object" as never }, () => ok("")), /inputSchema must be a JSON Schema object/);
  // A server that checks nothing it sends, answering tools/list with what the schema refuses.
  const c = await connect(
    (srv) => srv.tool("t", {}, () => ok("")),
    {},
    { session: { validateOutgoing: false }, intercept: (method, _params, _ctx, next) => (method === "tools/list" ? ({ tools: [{ name: "t", inputSchema: null }] } as never) : next()) },
  );
  const e = await rejection(c.client.listTools());
  assert.equal(e.code, ErrorCode.InternalError);
  assert.equal(e.fromPeer, false, "the client's own refusal");
  assert.ok(e.data.issues.some((i: { path: string }) => i.path.startsWith("/tools/0/inputSchema")), JSON.stringify(e.data));
});

test("server/tools (draft) Structured Content: structuredContent \"can be any JSON value (object, array, string, number, boolean, or null)\": each reaches a 2026-07-28 caller (null held to an outputSchema of type null too); a server serving 2025-11-25 too, whose schema has it an object, refuses a non-object to that era's session (-32603)", async () => {
  const values: unknown[] = [[1, "a"], "text", 42, false, null];
  const setup = (s: McpServer) => {
    values.forEach((v, i) => s.tool(`v${i}`, {}, () => ({ content: [], structuredContent: v })));
    s.tool("nothing", {}, () => ({ content: [], structuredContent: null }));
  };
  const modern = await connect(setup, { session: { versions: ["2026-07-28", "2025-11-25"] } });
  assert.equal(modern.client.protocolVersion, "2026-07-28");
  for (const [i, v] of values.entries()) assert.deepEqual((await modern.client.callTool(`v${i}`, {})).structuredContent, v, `v${i}`);
  const nulls = await connect(
    (s) => s.tool("n", { outputSchema: { type: "null" } }, () => ({ structuredContent: null }) as any),
    { session: { versions: ["2026-07-28"] } },
    { session: { versions: ["2026-07-28"] } },
  );
  const r = await nulls.client.callTool("n", {});
  assert.equal(r.structuredContent, null, "null is structured content, not its absence");
  assert.deepEqual(r.content, [{ type: "text", text: "null" }]);
  const legacy = await connect(setup);
  assert.equal(legacy.client.protocolVersion, "2025-11-25");
  for (const i of values.keys()) assert.equal((await rejection(legacy.client.callTool(`v${i}`, {}))).code, ErrorCode.InternalError, `v${i}`);
});

test("server/tools, server/prompts, server/resources (draft Capabilities): the list a server answers MUST NOT vary per-connection or as a side effect of other requests on the connection: a 2026-07-28 caller declaring capabilities, one declaring none and a 2025-11-25 session get the same tools, prompts, resources and templates, before and after other calls", async () => {
  const server = new McpServer(SERVER);
  server.tool("a", { annotations: { readOnlyHint: true } }, () => ok("a"));
  server.tool("b", { inputSchema: { type: "object", properties: { x: { type: "string" } } } }, (args, ctx) => ok(`${args.x}:${ctx.protocolVersion}`));
  server.prompt("p", {}, () => ({ messages: [] }));
  server.resource("test://r", { name: "r" }, (uri) => ({ contents: [{ uri, text: "r" }] }));
  server.resourceTemplate("test://t/{id}", { name: "t", list: () => [{ uri: "test://t/1", name: "one" }] }, (uri) => ({ contents: [{ uri, text: "t" }] }));
  const lists = async (c: Awaited<ReturnType<typeof connect>>["client"]) => ({
    tools: (await c.listTools()).tools,
    prompts: (await c.listPrompts()).prompts,
    resources: (await c.listResources()).resources,
    templates: (await c.listResourceTemplates()).resourceTemplates,
  });
  const modern = await connect(server, { session: { versions: ["2026-07-28"] }, capabilities: { elicitation: {} }, handlers: { elicitation: () => ({ action: "cancel" }) } });
  const bare = await connect(server, { session: { versions: ["2026-07-28"] } });
  const legacy = await connect(server);
  assert.equal(modern.client.protocolVersion, "2026-07-28");
  assert.equal(legacy.client.protocolVersion, "2025-11-25");
  const first = await lists(modern.client);
  assert.deepEqual(first.tools.map((t) => t.name), ["a", "b"]);
  assert.deepEqual(first.resources.map((r) => r.uri), ["test://r", "test://t/1"]);
  assert.deepEqual(await lists(bare.client), first);
  assert.deepEqual(await lists(legacy.client), first);
  // Other requests on each connection change nothing of what it is listed.
  for (const c of [modern.client, bare.client, legacy.client]) {
    await c.callTool("b", { x: "1" });
    await c.getPrompt("p");
    await c.readResource("test://t/1");
    assert.deepEqual(await lists(c), first);
  }
});
