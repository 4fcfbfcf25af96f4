// Spec: 2025-11-25 client/elicitation. "Form Mode Security": "Clients SHOULD validate all
// responses against the provided schema" and "Servers SHOULD validate received data
// matches the requested schema"; "Requested Schema": a form's schema is the restricted
// subset (flat, primitive properties, no advanced JSON Schema). Both ends enforce both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientCore, McpServer, McpServerCore } from "../../src/api/index.js";
import { elicitationChecks } from "../../src/schema/elicitation.js";
import type { ServerContext } from "../../src/api/context.js";
import type { StandardSchema } from "../../src/api/index.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { connect, CLIENT, SERVER } from "./setup.js";

const FORM = { message: "Who are you?", requestedSchema: { type: "object" as const, properties: { name: { type: "string", minLength: 1 } }, required: ["name"] } };

/** A tool that elicits `params` and reports what came back, or the error's code, message and issues. */
function asking(params: object) {
  return async (_args: unknown, ctx: ServerContext) => {
    try {
      return { content: [{ type: "text" as const, text: JSON.stringify(await ctx.elicit(params as never)) }] };
    } catch (e: any) {
      return { content: [{ type: "text" as const, text: JSON.stringify({ code: e.code, message: e.message, issues: e.data?.issues }) }] };
    }
  };
}

const textOf = (r: { content: { type: string; text?: string }[] }) => JSON.parse(r.content[0].text!);

/** A Standard Schema (written by hand, no library) of `{ name: string }`, as a typed form. */
function handMadeName(): StandardSchema<unknown, { name: string }> {
  const json = () => FORM.requestedSchema;
  const validate = (v: unknown) => (typeof (v as { name?: unknown }).name === "string" ? { value: v as { name: string } } : { issues: [{ message: "name must be a string" }] });
  return { "~standard": { version: 1, vendor: "hand", validate, jsonSchema: { input: json, output: json } } };
}

test("elicitation: content from the client's handler that does not match the form is not sent; the server gets -32603 with the issues", async () => {
  const c = await connect((s) => s.tool("ask", {}, asking(FORM)), { handlers: { elicitation: () => ({ action: "accept", content: { name: 42 as never } }) } });
  const got = textOf(await c.client.callTool("ask", {}));
  assert.equal(got.code, -32603);
  assert.equal(got.message, "the elicitation handler's content does not match the requested schema: /name: must be a string");
  assert.equal(got.issues[0].path, "/name");
  const answer = c.wire.find((w) => w.from === "client" && w.message.id !== undefined && w.message.error !== undefined)!.message;
  assert.equal(answer.error.code, -32603, "the client answered with the error, not the content");
});

test("elicitation: matching content, a decline and a cancel pass both checks", async () => {
  for (const result of [{ action: "accept", content: { name: "Ada" } }, { action: "decline" }, { action: "cancel" }] as const) {
    const c = await connect((s) => s.tool("ask", {}, asking(FORM)), { handlers: { elicitation: () => result } });
    assert.deepEqual(textOf(await c.client.callTool("ask", {})), result);
  }
});

test("elicitation: For URL mode: The content field is omitted (client/elicitation; schema: content only when accept and mode was form): content a handler returns is dropped, in both eras, with or without form checks", async () => {
  const URL = { mode: "url", message: "Sign in", url: "https://example.com/auth", elicitationId: "e1" };
  for (const versions of [["2025-11-25"], ["2026-07-28"]] as const)
    for (const elicitationForms of [undefined, false] as const) {
      const c = await connect((s) => s.tool("ask", {}, asking(URL)), { session: { versions: [...versions] }, elicitationForms, capabilities: { elicitation: { url: {} } }, handlers: { elicitation: () => ({ action: "accept", content: { secret: "leak" } }) } }, { session: { versions: [...versions] } });
      const label = `${versions[0]} elicitationForms ${String(elicitationForms)}`;
      assert.deepEqual(textOf(await c.client.callTool("ask", {})), { action: "accept" }, label);
      assert.ok(!JSON.stringify(c.wire.filter((w) => w.from === "client")).includes("leak"), `${label}: no content on the wire`);
      c.client.close();
    }
});

test("elicitation: content only when action is accept and mode was form (2025-11-25 schema ElicitResult): a decline or cancel a handler returns with the form's content goes out without it, in both eras, with or without form checks", async () => {
  for (const versions of [["2025-11-25"], ["2026-07-28"]] as const)
    for (const elicitationForms of [undefined, false] as const)
      for (const action of ["decline", "cancel"] as const) {
        const c = await connect((s) => s.tool("ask", {}, asking(FORM)), { session: { versions: [...versions] }, elicitationForms, handlers: { elicitation: () => ({ action, content: { name: "leak" } }) } }, { session: { versions: [...versions] } });
        const label = `${versions[0]} elicitationForms ${String(elicitationForms)} ${action}`;
        assert.deepEqual(textOf(await c.client.callTool("ask", {})), { action }, label);
        assert.ok(!JSON.stringify(c.wire.filter((w) => w.from === "client")).includes("leak"), `${label}: the user's refused input is not on the wire`);
        c.client.close();
      }
});

test("elicitation: a server drops content a client sent with a decline (schema: only when accept), so a typed ctx.elicit never hands its handler unparsed content as parsed", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock });
  const typed = handMadeName();
  server.tool("plain", {}, asking(FORM));
  server.tool("typed", {}, asking({ message: "Who are you?", requestedSchema: typed }));
  const [s, raw] = createMemoryPair();
  server.connect(s);
  const replies: any[] = [];
  // Another implementation: it declines, yet sends what the form held, of the wrong type.
  raw.onMessage((text) => {
    const m = JSON.parse(text);
    if (m.method === "elicitation/create") raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { action: "decline", content: { name: 7 } } }));
    else replies.push(m);
  });
  const settled = () => new Promise<void>((r) => setImmediate(r));
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: CLIENT } }));
  await settled();
  raw.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "plain", arguments: {} } }));
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "typed", arguments: {} } }));
  for (let i = 0; i < 10 && replies.length < 3; i++) await settled();
  for (const id of [1, 2]) assert.deepEqual(JSON.parse(replies.find((r) => r.id === id).result.content[0].text), { action: "decline" }, `call ${id}`);
});

test("elicitation: a server checks what a client sends: content that does not match the form rejects ctx.elicit with -32603", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock });
  server.tool("ask", {}, asking(FORM));
  const [s, raw] = createMemoryPair();
  server.connect(s);
  const replies: any[] = [];
  // A client that skips its own check (another implementation): it answers the form with a number.
  raw.onMessage((text) => {
    const m = JSON.parse(text);
    if (m.method === "elicitation/create") raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { action: "accept", content: { name: 7 } } }));
    else replies.push(m);
  });
  const settled = () => new Promise<void>((r) => setImmediate(r));
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: CLIENT } }));
  await settled();
  raw.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: {} } }));
  for (let i = 0; i < 5 && replies.length < 2; i++) await settled();
  const got = JSON.parse(replies.find((r) => r.id === 1).result.content[0].text);
  assert.equal(got.code, -32603);
  assert.equal(got.message, "the client's elicitation content does not match the requested schema: /name: must be a string");
  assert.deepEqual(got.issues.map((i: any) => i.path), ["/name"]);
});

test("elicitation: a form schema outside the restricted subset is refused before it is sent (-32602), and by a client on receipt", async () => {
  // exclusiveMinimum passes the schema's own types (extra keys are allowed there) but is not in the subset.
  const outside = { message: "How many?", requestedSchema: { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } } } };
  let asked = 0;
  const c = await connect((s) => s.tool("ask", {}, asking(outside)), { handlers: { elicitation: () => (asked++, { action: "accept", content: { n: 1 } }) } });
  const got = textOf(await c.client.callTool("ask", {}));
  assert.equal(got.code, -32602);
  assert.equal(got.issues[0].path, "/properties/n/exclusiveMinimum");
  assert.equal(c.sent("server", "elicitation/create").length, 0, "nothing went out");

  // A server that sends it anyway (another implementation): the client answers -32602 and never asks its user.
  const clock = new ManualClock();
  const client = new McpClient(CLIENT, { clock, handlers: { elicitation: () => (asked++, { action: "accept", content: { n: 1 } }) } });
  const [s, raw] = createMemoryPair();
  const replies: any[] = [];
  raw.onMessage((text) => {
    const m = JSON.parse(text);
    if (m.method === "initialize") raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: SERVER } }));
    else if (m.id !== undefined && m.method === undefined) replies.push(m);
  });
  await client.connect(s);
  raw.send(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "elicitation/create", params: outside }));
  for (let i = 0; i < 5 && replies.length === 0; i++) await new Promise<void>((r) => setImmediate(r));
  assert.equal(replies[0].id, 5);
  assert.equal(replies[0].error.code, -32602);
  assert.match(replies[0].error.message, /outside the restricted elicitation schema/);
  assert.equal(asked, 0, "the handler never ran");
  client.close();
});

test("elicitation: McpServer and McpClient check forms by default (elicitationForms: false turns it off); the core classes only with the checks given", async () => {
  const bad = () => ({ action: "accept" as const, content: { name: 42 as never } });
  const run = async (server: McpServerCore, client: McpClientCore) => {
    server.tool("ask", {}, asking(FORM));
    const [s, c] = createMemoryPair();
    server.connect(s);
    await client.connect(c);
    const got = textOf(await client.callTool("ask", {}));
    client.close();
    return got.code ?? "content passed";
  };
  const opts = { clock: new ManualClock() };
  assert.equal(await run(new McpServer(SERVER, opts), new McpClient(CLIENT, { ...opts, handlers: { elicitation: bad } })), -32603);
  assert.equal(await run(new McpServer(SERVER, { ...opts, elicitationForms: false }), new McpClient(CLIENT, { ...opts, elicitationForms: false, handlers: { elicitation: bad } })), "content passed");
  assert.equal(await run(new McpServerCore(SERVER, opts), new McpClientCore(CLIENT, { ...opts, handlers: { elicitation: bad } })), "content passed");
  // Only the server checking: it rejects what the client sent.
  assert.equal(await run(new McpServerCore(SERVER, { ...opts, elicitationForms: elicitationChecks }), new McpClientCore(CLIENT, { ...opts, handlers: { elicitation: bad } })), -32603);
});

test("elicitation as a task (2025-11-25 basic/utilities/tasks): the server checks the form before it goes out and the tasks/result content when it comes", async () => {
  const LEGACY = { session: { versions: ["2025-11-25" as const] } };
  const asTask = (params: object) => async (_args: unknown, ctx: ServerContext) => {
    try {
      return { content: [{ type: "text" as const, text: JSON.stringify(await ctx.requestAsTask("elicitation/create", params as never)) }] };
    } catch (e: any) {
      return { content: [{ type: "text" as const, text: JSON.stringify({ code: e.code, issues: e.data?.issues }) }] };
    }
  };
  let content: object = { name: 7 };
  // A client that skips its own check (elicitationForms: false), answering as a task.
  const c = await connect(
    (s) => {
      s.tool("ask", {}, asTask(FORM));
      s.tool("outside", {}, asTask({ ...FORM, requestedSchema: { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } } } }));
    },
    { ...LEGACY, receiveTasks: true, elicitationForms: false, handlers: { elicitation: () => ({ action: "accept", content: content as never }) } },
    LEGACY,
  );
  const bad = textOf(await c.client.callTool("ask", {}));
  assert.equal(bad.code, -32603);
  assert.deepEqual(bad.issues.map((i: any) => i.path), ["/name"]);
  assert.ok(c.wire.some((w) => w.from === "client" && w.message.result?.task !== undefined), "the client did answer with a task");
  content = { name: "Ada" };
  assert.deepEqual(textOf(await c.client.callTool("ask", {})).content, { name: "Ada" });
  const before = c.sent("server", "elicitation/create").length;
  assert.equal(textOf(await c.client.callTool("outside", {})).code, -32602);
  assert.equal(c.sent("server", "elicitation/create").length, before, "an out-of-subset form never went out");
});
