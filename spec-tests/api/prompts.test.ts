// Spec: 2025-11-25 server/prompts (capabilities, listing, getting, list changed, error
// handling) and server/utilities/completion.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rawClient, rejection } from "./setup.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/api/server.js";
import { McpError } from "../../src/driver/endpoint.js";

function prompts(s: McpServer) {
  s.prompt(
    "code_review",
    {
      title: "Review code",
      description: "Asks for a review",
      arguments: [
        { name: "code", description: "The code", required: true },
        { name: "language", description: "Its language" },
      ],
      complete: { language: (typed) => ["python", "pytorch", "pyside", "rust"].filter((v) => v.startsWith(typed)) },
    },
    (args) => ({ description: "review", messages: [{ role: "user", content: { type: "text", text: `Review this ${args.language ?? "code"}: ${args.code}` } }] }),
  );
  s.prompt("plain", {}, () => ({ messages: [] }));
}

test("prompts.mdx: servers that support prompts MUST declare the prompts capability", async () => {
  assert.deepEqual((await connect(prompts)).client.serverCapabilities!.prompts, { listChanged: true });
  assert.equal((await connect(() => {})).client.serverCapabilities!.prompts, undefined);
  assert.deepEqual((await connect(prompts, {}, { listChanged: false })).client.serverCapabilities!.prompts, {});
});

test("prompts.mdx Listing Prompts: every prompt with its arguments, in registration order", async () => {
  const { client } = await connect(prompts);
  const { prompts: list } = await client.listPrompts();
  assert.deepEqual(list, [
    {
      name: "code_review",
      title: "Review code",
      description: "Asks for a review",
      arguments: [
        { name: "code", description: "The code", required: true },
        { name: "language", description: "Its language" },
      ],
    },
    { name: "plain" },
  ]);
  const names = [];
  for await (const p of client.iteratePrompts()) names.push(p.name);
  assert.deepEqual(names, ["code_review", "plain"]);
  const paged = await connect(prompts, {}, { pageSize: 1 });
  const first = await paged.client.listPrompts();
  assert.deepEqual(first.prompts.map((p) => p.name), ["code_review"]);
  assert.deepEqual((await paged.client.listPrompts(first.nextCursor)).prompts.map((p) => p.name), ["plain"]);
});

test("prompts.mdx Getting a Prompt: arguments reach the getter; its messages come back", async () => {
  const { client } = await connect(prompts);
  const r = await client.getPrompt("code_review", { code: "x = 1", language: "python" });
  assert.deepEqual(r, { description: "review", messages: [{ role: "user", content: { type: "text", text: "Review this python: x = 1" } }] });
  assert.deepEqual(await client.getPrompt("plain"), { messages: [] });
});

test("prompts.mdx Error Handling: invalid prompt name is -32602", async () => {
  const { client } = await connect(prompts);
  const e = await rejection(client.getPrompt("nope"));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.match(e.message, /Unknown prompt: nope/);
});

test("prompts.mdx Error Handling: missing required arguments are -32602", async () => {
  const { client } = await connect(prompts);
  const e = await rejection(client.getPrompt("code_review", { language: "rust" }));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.deepEqual(e.data, { argument: "code" });
});

test("prompts.mdx List Changed Notification: adding and removing prompts notifies", async () => {
  const c = await connect(prompts);
  let n = 0;
  c.client.onNotification("notifications/prompts/list_changed", () => n++);
  const off = c.server.prompt("later", {}, () => ({ messages: [] }));
  await c.client.ping();
  off();
  off();
  await c.client.ping();
  assert.equal(n, 2);
  assert.throws(() => c.server.prompt("plain", {}, () => ({ messages: [] })), /already registered/);
});

test("completion.mdx: servers that support completions MUST declare the completions capability", async () => {
  assert.deepEqual((await connect(prompts)).client.serverCapabilities!.completions, {});
  const none = await connect((s) => s.prompt("p", {}, () => ({ messages: [] })));
  assert.equal(none.client.serverCapabilities!.completions, undefined);
  // Without it the client does not send completion/complete (-32601 from its own kernel).
  assert.equal((await rejection(none.client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" }))).code, ErrorCode.MethodNotFound);
});

test("completion.mdx Requesting Completions: values for a prompt argument, ranked by the completer", async () => {
  const { client } = await connect(prompts);
  assert.deepEqual(await client.complete({ type: "ref/prompt", name: "code_review" }, { name: "language", value: "py" }), {
    completion: { values: ["python", "pytorch", "pyside"] },
  });
  // An argument without a completer has no suggestions.
  assert.deepEqual(await client.complete({ type: "ref/prompt", name: "code_review" }, { name: "code", value: "" }), { completion: { values: [] } });
});

test("completion.mdx: context.arguments carries the arguments already resolved", async () => {
  let seen: unknown;
  const { client } = await connect((s) => {
    s.resourceTemplate("github://repos/{owner}/{repo}", { name: "repo" }, () => undefined);
    s.completion("ref/resource", "github://repos/{owner}/{repo}", "repo", (typed, { arguments: a }) => {
      seen = a;
      return { values: [`${a.owner}/flask`].filter((v) => v.includes(typed)), total: 1, hasMore: false };
    });
  });
  const r = await client.complete({ type: "ref/resource", uri: "github://repos/{owner}/{repo}" }, { name: "repo", value: "fla" }, { owner: "pallets" });
  assert.deepEqual(r, { completion: { values: ["pallets/flask"], total: 1, hasMore: false } });
  assert.deepEqual(seen, { owner: "pallets" });
});

test("completion.mdx Security (implementations MUST validate all completion inputs): 2025-03-26 and 2024-11-05 have no context, so schema validation leaves a request's context unchecked; a context.arguments that is not argument names to strings (a string, an array, numbers) reaches a completer as no arguments, not as itself (found by review: the completer, typed to get strings, got them), and a well-formed one still reaches it", async () => {
  for (const version of ["2025-03-26", "2024-11-05"]) {
    const seen: unknown[] = [];
    const server = new McpServer({ name: "s", version: "1" });
    server.prompt("p", { arguments: [{ name: "a" }, { name: "b" }], complete: { a: (_v, { arguments: args }) => (seen.push(args), []) } }, () => ({ messages: [] }));
    const raw = rawClient(server);
    await raw.initialize(version);
    const contexts = [{ arguments: { b: 1 } }, { arguments: "b" }, { arguments: ["b"] }, { arguments: null }, "b", { arguments: { b: "x" } }];
    for (const [i, context] of contexts.entries()) {
      const r = await raw.request(i, "completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" }, context });
      assert.deepEqual(r.result, { completion: { values: [] } }, `${version} ${JSON.stringify(context)}`);
    }
    assert.deepEqual(seen, [{}, {}, {}, {}, {}, { b: "x" }], version);
  }
});

test("completion.mdx Completion Results: at most 100 items per response, with total and hasMore", async () => {
  const many = Array.from({ length: 150 }, (_, i) => `v${i}`);
  const { client } = await connect((s) => {
    s.prompt("p", { arguments: [{ name: "a" }], complete: { a: () => many } }, () => ({ messages: [] }));
    s.prompt("q", { arguments: [{ name: "a" }] }, () => ({ messages: [] }));
    s.completion("ref/prompt", "q", "a", async () => ({ values: many, total: 9999 }));
  });
  const r = await client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" });
  assert.equal(r.completion.values.length, 100);
  assert.equal(r.completion.total, 150);
  assert.equal(r.completion.hasMore, true);
  const q = await client.complete({ type: "ref/prompt", name: "q" }, { name: "a", value: "" });
  assert.equal(q.completion.values.length, 100);
  assert.equal(q.completion.hasMore, true);
  // "total: Optional total matches": a completer that knows of more than it returned keeps its own count.
  assert.equal(q.completion.total, 9999);
});

test("completion.mdx (CompleteResult: completion.values, an array of strings): a completer that returns neither a list nor { values } (undefined, a lone string, { values: \"x\" }) fails the request -32603 saying so, for a prompt and a template; the client got the engine's \"Cannot read properties of undefined (reading 'values')\" (found by review)", async () => {
  const bad: unknown[] = [undefined, "python", { values: "python" }, null];
  let n = 0;
  const { client } = await connect((s) => {
    s.prompt("p", { arguments: [{ name: "lang" }], complete: { lang: () => bad[n++ % bad.length] as string[] } }, () => ({ messages: [] }));
    s.resourceTemplate("file:///{path}", { name: "t", complete: { path: async () => undefined as unknown as string[] } }, () => undefined);
  });
  for (let i = 0; i < bad.length; i++) {
    const e = await rejection(client.complete({ type: "ref/prompt", name: "p" }, { name: "lang", value: "" }));
    assert.equal(e.code, ErrorCode.InternalError);
    assert.equal(e.message, "the completer of argument lang of p returned neither a list of values nor { values }", String(bad[i]));
  }
  const t = await rejection(client.complete({ type: "ref/resource", uri: "file:///{path}" }, { name: "path", value: "" }));
  assert.equal(t.message, "the completer of argument path of file:///{path} returned neither a list of values nor { values }");
});

test("completion.mdx Error Handling: invalid prompt name (or template) is -32602", async () => {
  const { client, server } = await connect((s) => {
    prompts(s);
    s.resource("file:///static", { name: "static" }, () => undefined);
  });
  assert.equal((await rejection(client.complete({ type: "ref/prompt", name: "nope" }, { name: "a", value: "" }))).code, ErrorCode.InvalidParams);
  assert.equal((await rejection(client.complete({ type: "ref/resource", uri: "x://{nope}" }, { name: "a", value: "" }))).code, ErrorCode.InvalidParams);
  // A static resource has nothing to complete, but is not an error.
  assert.deepEqual(await client.complete({ type: "ref/resource", uri: "file:///static" }, { name: "a", value: "" }), { completion: { values: [] } });
  // A completer registered on its own names no prompt into being: a name no prompt has is still -32602.
  const ghost = server.completion("ref/prompt", "ghost", "a", () => ["boo"]);
  assert.equal((await rejection(client.complete({ type: "ref/prompt", name: "ghost" }, { name: "a", value: "" }))).code, ErrorCode.InvalidParams);
  ghost();
  // Unregistering (twice is harmless) removes it: its prompt's argument completes to nothing.
  const off = server.completion("ref/prompt", "code_review", "code", () => ["boo"]);
  assert.deepEqual((await client.complete({ type: "ref/prompt", name: "code_review" }, { name: "code", value: "" })).completion.values, ["boo"]);
  off();
  off();
  assert.deepEqual((await client.complete({ type: "ref/prompt", name: "code_review" }, { name: "code", value: "" })).completion.values, []);
});

test("completion.mdx Error Handling (invalid prompt name: -32602); README Resources and prompts (.disable() takes it off the list, a call then gets the unknown-name error): a disabled or removed prompt or resource template completes no more, though server.completion() registered completers for it; enabled again, it completes", async () => {
  let p!: ReturnType<McpServer["prompt"]>;
  let t!: ReturnType<McpServer["resourceTemplate"]>;
  const { client } = await connect((s) => {
    p = s.prompt("p", { arguments: [{ name: "a" }] }, () => ({ messages: [] }));
    t = s.resourceTemplate("u://{id}", { name: "u" }, () => undefined);
    s.completion("ref/prompt", "p", "a", () => ["x"]);
    s.completion("ref/resource", "u://{id}", "id", () => ["1"]);
  });
  const prompt = () => client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" });
  const template = () => client.complete({ type: "ref/resource", uri: "u://{id}" }, { name: "id", value: "" });
  assert.deepEqual((await prompt()).completion.values, ["x"]);
  assert.deepEqual((await template()).completion.values, ["1"]);
  p.disable();
  t.disable();
  assert.equal((await rejection(prompt())).code, ErrorCode.InvalidParams);
  assert.equal((await rejection(template())).code, ErrorCode.InvalidParams);
  p.enable();
  t.enable();
  assert.deepEqual((await prompt()).completion.values, ["x"]);
  assert.deepEqual((await template()).completion.values, ["1"]);
  p.remove();
  t.remove();
  assert.equal((await rejection(prompt())).code, ErrorCode.InvalidParams);
  assert.equal((await rejection(template())).code, ErrorCode.InvalidParams);
});

test("completion: a template's own completers are used for its variables", async () => {
  const { client } = await connect((s) => s.resourceTemplate("u://{id}", { name: "u", complete: { id: (t) => [t + "1", t + "2"] } }, () => undefined));
  assert.deepEqual((await client.complete({ type: "ref/resource", uri: "u://{id}" }, { name: "id", value: "a" })).completion.values, ["a1", "a2"]);
  assert.deepEqual((await client.complete({ type: "ref/resource", uri: "u://{id}" }, { name: "other", value: "a" })).completion.values, []);
});

test("completion.mdx Security (implementations MUST validate all completion inputs): an argument named after an Object.prototype member (constructor, __proto__, toString, valueOf) has no completer and completes to nothing, for a prompt and a template with completers (found by review: those members were called as completers, and each request failed with -32603)", async () => {
  const { client } = await connect((s) => {
    s.prompt("p", { arguments: [{ name: "x" }], complete: { x: () => ["a"] } }, () => ({ messages: [] }));
    s.resourceTemplate("u://{id}", { name: "u", complete: { id: () => ["1"] } }, () => undefined);
  });
  for (const name of ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"]) {
    assert.deepEqual((await client.complete({ type: "ref/prompt", name: "p" }, { name, value: "v" })).completion, { values: [] }, name);
    assert.deepEqual((await client.complete({ type: "ref/resource", uri: "u://{id}" }, { name, value: "v" })).completion, { values: [] }, name);
  }
  assert.deepEqual((await client.complete({ type: "ref/prompt", name: "p" }, { name: "x", value: "" })).completion.values, ["a"]);
});

test("basic/index (a request's error says what failed): a prompt getter, resource reader or completer whose request to the client fails answers -32603 naming that request, not the inner error's code (-32601 'cannot send', or the client's -32602, would describe prompts/get itself); an McpError the handler throws itself still goes out as it is", async () => {
  const form = { message: "Name?", requestedSchema: { type: "object" as const, properties: { n: { type: "string" as const } } } };
  const setup = (s: McpServer) => {
    const topics = async (_v: string, { ctx }: { ctx: { elicit(p: typeof form): Promise<unknown> } }) => (await ctx.elicit(form), []);
    s.prompt("ask", { description: "asks first", arguments: [{ name: "topic" }], complete: { topic: topics } }, async (_a, ctx) => {
      const r = await ctx.elicit(form);
      return { messages: [{ role: "user", content: { type: "text", text: String(r.action) } }] };
    });
    s.resource("note://ask", { name: "ask" }, async (uri, ctx) => ({ contents: [{ uri, text: String((await ctx.elicit(form)).action) }] }));
    s.prompt("own", { description: "throws its own" }, () => {
      throw new McpError({ code: ErrorCode.InvalidParams, message: "no such topic" });
    });
  };
  // A client without elicitation: the kernel refuses to send the request (its -32601).
  const plain = await connect(setup, { session: { versions: ["2025-11-25"] } });
  for (const call of [plain.client.getPrompt("ask"), plain.client.readResource("note://ask"), plain.client.complete({ type: "ref/prompt", name: "ask" }, { name: "topic", value: "" })]) {
    const e = await rejection(call);
    assert.equal(e.code, ErrorCode.InternalError);
    assert.match(e.message, /its elicitation\/create request to the client failed: cannot send elicitation\/create/);
    assert.deepEqual(e.data, { request: "elicitation/create", code: ErrorCode.MethodNotFound });
  }
  assert.equal((await rejection(plain.client.getPrompt("own"))).code, ErrorCode.InvalidParams);
  // A client whose handler answers with an error: its code is data, not this request's code.
  const failing = await connect(setup, {
    session: { versions: ["2025-11-25"] },
    handlers: {
      elicitation: () => {
        throw new McpError({ code: ErrorCode.InvalidParams, message: "form refused" });
      },
    },
  });
  const e = await rejection(failing.client.getPrompt("ask"));
  assert.equal(e.code, ErrorCode.InternalError);
  assert.deepEqual(e.data, { request: "elicitation/create", code: ErrorCode.InvalidParams });
});

test("prompts.mdx Image, Audio Content (data MUST be base64 with a MIME type) and Embedded Resources (MUST include a valid URI, and text or base64 blob): a getter's message breaking them is not sent (-32603 naming the field), and a client refuses one from a server that does not check what it sends", async () => {
  const cases: [string, object, RegExp][] = [
    ["image_data", { type: "image", data: "not base64!", mimeType: "image/png" }, /\/messages\/0\/content\/data: expected base64 data/],
    ["audio_type", { type: "audio", data: "AAAA" }, /\/messages\/0\/content: missing required property "mimeType"/],
    ["resource_uri", { type: "resource", resource: { uri: "no uri", text: "x" } }, /\/messages\/0\/content\/resource\/uri: expected a URI with a scheme/],
    ["resource_blob", { type: "resource", resource: { uri: "test://x", blob: "not base64!" } }, /blob: expected base64 data/],
    ["resource_empty", { type: "resource", resource: { uri: "test://x" } }, /missing required property/],
  ];
  const setup = (s: McpServer) => {
    for (const [name, content] of cases) s.prompt(name, {}, () => ({ messages: [{ role: "user", content: content as never }] }));
    s.prompt("fine", {}, () => ({ messages: [{ role: "user", content: { type: "image", data: "AAAA", mimeType: "image/png" } }] }));
  };
  const checked = await connect(setup);
  const unchecked = await connect(setup, {}, { session: { validateOutgoing: false } });
  for (const [name, , why] of cases) {
    const e = await rejection(checked.client.getPrompt(name));
    assert.equal(e.code, ErrorCode.InternalError, name);
    assert.match(e.message, why, name);
    const refused = await rejection(unchecked.client.getPrompt(name));
    assert.equal(refused.code, ErrorCode.InternalError, name);
    assert.equal(refused.fromPeer, false, `${name}: the client's own refusal`);
  }
  assert.equal(checked.sent("server", "prompts/get").length, 0);
  assert.equal((await checked.client.getPrompt("fine")).messages.length, 1);
});

test("draft prompts.mdx Capabilities: servers that support prompts MUST declare the prompts capability in their DiscoverResult (a 2026-07-28 client reads it there)", async () => {
  const modern = { session: { versions: ["2026-07-28" as const] } };
  const c = await connect(prompts, modern);
  assert.equal(c.client.protocolVersion, "2026-07-28");
  const discover = c.wire.find((w) => w.from === "server" && w.message.id === c.sent("client", "server/discover")[0].id)!.message;
  assert.deepEqual(discover.result.capabilities.prompts, { listChanged: true });
  assert.deepEqual(c.client.serverCapabilities!.prompts, { listChanged: true });
  const none = await connect(() => {}, modern);
  assert.equal(none.client.serverCapabilities!.prompts, undefined);
});
