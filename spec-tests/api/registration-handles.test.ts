/**
 * Registration handles: what `tool`, `resource`, `resourceTemplate` and `prompt` return
 * removes the registration when called, as before, and also disables, enables and
 * updates it in place (the official SDK's `RegisteredTool.disable()` / `.enable()` /
 * `.update()` / `.remove()`).
 *
 * Spec: 2025-11-25 `server/tools`, `server/resources`, `server/prompts`, "List Changed
 * Notification": when the list changes, servers that declared `listChanged` SHOULD send
 * the notification; a tool, resource or prompt not listed is not served (`-32602` for an
 * unknown tool or prompt, `-32002` for an unknown resource).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rejection } from "./setup.js";
import type { McpServer } from "../../src/api/server.js";

/** Connects a client to a server on which `register` ran first (so its capabilities are declared), with what it returned. */
async function connected<R>(register: (s: McpServer) => R) {
  let handles!: R;
  const c = await connect((s) => void (handles = register(s)));
  return { ...c, handles };
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const first = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

test("server/tools: a disabled tool is neither listed nor called, and comes back when enabled; each change is announced (list_changed)", async () => {
  const c = await connected((s) => s.tool("greet", { description: "says hello" }, () => text("hello")));
  const handle = c.handles;
  let changes = 0;
  c.client.onNotification("notifications/tools/list_changed", () => changes++);
  assert.equal(handle.enabled, true);
  handle.disable();
  assert.equal(handle.enabled, false);
  assert.deepEqual((await c.client.listTools()).tools, []);
  assert.equal((await rejection(c.client.callTool("greet"))).code, -32602);
  handle.disable(); // already disabled: nothing changes, nothing announced
  handle.enable();
  assert.equal(first(await c.client.callTool("greet")), "hello");
  assert.equal(changes, 2);
});

test("server/tools: update() changes the definition and the handler in place, merged over what it was; one list_changed", async () => {
  const c = await connected((s) => s.tool("greet", { description: "says hello", inputSchema: { type: "object", properties: { who: { type: "string" } } } }, (args) => text(`hello ${String(args.who)}`)));
  const handle = c.handles;
  let changes = 0;
  c.client.onNotification("notifications/tools/list_changed", () => changes++);
  handle.update({ config: { description: "says hi" } });
  const [tool] = (await c.client.listTools()).tools;
  assert.equal(tool.description, "says hi");
  assert.deepEqual(Object.keys((tool.inputSchema as unknown as { properties: object }).properties), ["who"], "the rest of the config is kept");
  assert.equal(first(await c.client.callTool("greet", { who: "you" })), "hello you");
  handle.update({ handler: (args) => text(`hi ${String(args.who)}`) });
  assert.equal(first(await c.client.callTool("greet", { who: "you" })), "hi you");
  assert.equal(changes, 2);
});

test("server/tools: an update registration would refuse throws and leaves the tool as it was", async () => {
  const c = await connected((s) => s.tool("greet", { description: "ok" }, () => text("hello")));
  const handle = c.handles;
  assert.throws(() => handle.update({ config: { inputSchema: { type: "string" } as never } }), /inputSchema/);
  assert.equal((await c.client.listTools()).tools[0].description, "ok");
  assert.equal(first(await c.client.callTool("greet")), "hello");
});

test("registration handles: a disabled name may be taken by another registration, and enabling the first then throws; a removed handle refuses enable and update", async () => {
  const c = await connected((s) => s.tool("greet", {}, () => text("old")));
  const old = c.handles;
  old.disable();
  const replacement = c.server.tool("greet", {}, () => text("new"));
  assert.throws(() => old.enable(), /already registered/);
  assert.equal(first(await c.client.callTool("greet")), "new");
  replacement.remove();
  replacement(); // idempotent, as the unregister function always was
  assert.equal(replacement.enabled, false);
  assert.throws(() => replacement.enable(), /removed/);
  assert.throws(() => replacement.update({ config: {} }), /removed/);
  old.enable();
  assert.equal(first(await c.client.callTool("greet")), "old");
});

test("server/resources, server/prompts: resources, templates and prompts have the same handles", async () => {
  const c = await connected((s) => ({
    res: s.resource("mem://a", { name: "a" }, () => ({ contents: [{ uri: "mem://a", text: "A" }] })),
    tpl: s.resourceTemplate("mem://items/{id}", { name: "item", list: () => [{ uri: "mem://items/1", name: "one" }] }, (uri) => ({ contents: [{ uri, text: "item" }] })),
    prompt: s.prompt("p", { description: "first" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "first" } }] })),
  }));
  const { res, tpl, prompt } = c.handles;
  const uris = async () => (await c.client.listResources()).resources.map((r) => r.uri).sort();
  assert.deepEqual(await uris(), ["mem://a", "mem://items/1"]);
  res.disable();
  tpl.disable();
  assert.deepEqual(await uris(), [], "a disabled template's list is not asked");
  assert.equal((await rejection(c.client.readResource("mem://a"))).code, -32002);
  tpl.enable();
  assert.deepEqual(await uris(), ["mem://items/1"]);
  prompt.update({ config: { description: "second" }, handler: () => ({ messages: [{ role: "user", content: { type: "text", text: "second" } }] }) });
  assert.equal((await c.client.listPrompts()).prompts[0].description, "second");
  assert.equal(((await c.client.getPrompt("p")).messages[0].content as { text: string }).text, "second");
  prompt.disable();
  assert.equal((await rejection(c.client.getPrompt("p"))).code, -32602);
});

test("server/tools Listing: an updated tool keeps its place in the list", async () => {
  const c = await connected((s) => [s.tool("a", {}, () => text("a")), s.tool("b", {}, () => text("b")), s.tool("c", {}, () => text("c"))]);
  c.handles[0].update({ config: { description: "first, still" } });
  assert.deepEqual((await c.client.listTools()).tools.map((t) => t.name), ["a", "b", "c"]);
});

test("server/utilities/completion: a prompt updated to complete its arguments makes the server declare completions (servers that support completions MUST)", async () => {
  const s = new (await import("../../src/api/server.js")).McpServer({ name: "s", version: "1" });
  const handle = s.prompt("p", { arguments: [{ name: "lang" }] }, () => ({ messages: [] }));
  handle.update({ config: { complete: { lang: () => ["go", "rust"] } } });
  const c = await connect(s);
  assert.deepEqual(c.client.serverCapabilities?.completions, {});
  assert.deepEqual((await c.client.complete({ type: "ref/prompt", name: "p" }, { name: "lang", value: "r" })).completion.values, ["go", "rust"]);
});

test("registration handles: the SDK's flat update({ description, callback }) is refused naming the shape, not read as no change", async () => {
  const c = await connected((s) => s.tool("greet", { description: "old" }, () => text("old")));
  let changes = 0;
  c.client.onNotification("notifications/tools/list_changed", () => changes++);
  assert.throws(() => c.handles.update({ description: "new", callback: () => text("new") } as never), /update takes \{ config, handler \} \(got description, callback\)/);
  c.handles.update({});
  await c.client.ping();
  assert.equal(changes, 0, "nothing changed, nothing announced");
  assert.equal((await c.client.listTools()).tools[0].description, "old");
});
