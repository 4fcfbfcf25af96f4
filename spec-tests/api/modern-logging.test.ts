// Spec: draft server/utilities/logging (per-request log level): a 2026-07-28 client asks
// for log messages with `io.modelcontextprotocol/logLevel` in a request's `_meta`, and "the
// server MUST NOT emit notifications/message for a request that does not include this
// field"; logging/setLevel is no client request in that era. McpClient's per-call
// `logLevel` option (callTool, readResource, getPrompt) carries it, an MRTR retry (draft
// basic/patterns/mrtr) included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rawClient, SERVER } from "./setup.js";
import { McpServer, type McpServerOptions } from "../../src/api/server.js";
import type { ServerContext } from "../../src/api/context.js";

const DUAL: McpServerOptions = { session: { versions: ["2026-07-28", "2025-11-25"] } };
const MODERN = { session: { versions: ["2026-07-28" as const] } };
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";

/** Each handler logs once at debug and once at warning, naming itself. */
function loggers(s: McpServer): void {
  const log = (ctx: ServerContext, name: string) => {
    ctx.log("debug", `${name} debug`);
    ctx.log("warning", `${name} warning`);
  };
  s.tool("t", {}, (_a, ctx) => (log(ctx, "tool"), { content: [{ type: "text" as const, text: "ok" }] }));
  s.resource("mem://r", { name: "r" }, (uri, ctx) => (log(ctx, "resource"), { contents: [{ uri, text: "r" }] }));
  s.prompt("p", {}, (_a, ctx) => (log(ctx, "prompt"), { messages: [{ role: "user" as const, content: { type: "text" as const, text: "p" } }] }));
}

test("logging (draft): a modern callTool / readResource / getPrompt with logLevel gets the server's log messages at that level and above (onNotification); without it, none, and its _meta has no logLevel", async () => {
  const c = await connect(loggers, MODERN, DUAL);
  assert.equal(c.client.protocolVersion, "2026-07-28");
  const logs: unknown[] = [];
  c.client.onNotification("notifications/message", (p) => void logs.push(p?.data));
  await c.client.callTool("t", {}, { logLevel: "info" });
  await c.client.readResource("mem://r", { logLevel: "info" });
  await c.client.getPrompt("p", undefined, { logLevel: "debug" });
  assert.deepEqual(logs, ["tool warning", "resource warning", "prompt debug", "prompt warning"]);
  const asked = c.wire.filter((w) => w.from === "client" && ["tools/call", "resources/read", "prompts/get"].includes(w.message.method));
  assert.deepEqual(asked.map((w) => w.message.params._meta[LOG_LEVEL]), ["info", "info", "debug"]);
  logs.length = 0;
  c.wire.length = 0;
  await c.client.callTool("t", {});
  await c.client.readResource("mem://r");
  await c.client.getPrompt("p");
  assert.deepEqual(logs, [], "no logLevel: the server MUST NOT emit notifications/message");
  assert.equal(c.wire.filter((w) => w.from === "client" && LOG_LEVEL in (w.message.params?._meta ?? {})).length, 0);
});

test("logging (draft) + mrtr: the retry of a call that got input_required asks for the same logLevel, so the handler's logs of the round that answers still arrive", async () => {
  const c = await connect(
    (s) =>
      s.tool("ask", {}, async (_a, ctx) => {
        const r = await ctx.elicit({ message: "v?", requestedSchema: { type: "object", properties: { v: { type: "string" } }, required: ["v"] } });
        ctx.log("info", `got ${String(r.content?.v)}`);
        return { content: [{ type: "text" as const, text: "done" }] };
      }),
    { ...MODERN, handlers: { elicitation: () => ({ action: "accept" as const, content: { v: "x" } }) } },
    DUAL,
  );
  const logs: unknown[] = [];
  c.client.onNotification("notifications/message", (p) => void logs.push(p?.data));
  await c.client.callTool("ask", {}, { logLevel: "info" });
  const calls = c.sent("client", "tools/call");
  assert.equal(calls.length, 2, "the call and its retry");
  assert.deepEqual(calls.map((m) => m.params._meta[LOG_LEVEL]), ["info", "info"]);
  assert.deepEqual(logs, ["got x"]);
});

test("logging (draft: the server MUST NOT emit notifications/message for a request that does not include logLevel; 2025-11-25 SetLevelRequest: the server sends logs at the level set and more severe): a notifications/message a handler gives ctx.notify (the official SDKs' way to log) is filtered as ctx.log is", async () => {
  const notifier = (s: McpServer) =>
    s.resource("mem://r", { name: "r" }, (uri, ctx) => {
      for (const level of ["debug", "error"] as const) ctx.notify("notifications/message", { level, data: `notify ${level}` });
      return { contents: [{ uri, text: "r" }] };
    });
  // 2026-07-28: only for a request that asked, at or above its level, on its stream.
  const m = await connect(notifier, MODERN, DUAL);
  const modern: unknown[] = [];
  m.client.onNotification("notifications/message", (p) => void modern.push(p?.data));
  await m.client.readResource("mem://r");
  await m.client.readResource("mem://r", { logLevel: "warning" });
  assert.deepEqual(modern, ["notify error"]);
  // 2025-11-25: at or above the level the client set.
  const l = await connect(notifier);
  const legacy: unknown[] = [];
  l.client.onNotification("notifications/message", (p) => void legacy.push(p?.data));
  await l.client.setLoggingLevel("error");
  await l.client.readResource("mem://r");
  await l.client.ping();
  assert.deepEqual(legacy, ["notify error"]);
  // A 2026-07-28 request on a connection a 2025 handshake opened (dual-era): none without its logLevel.
  const server = new McpServer(SERVER, DUAL);
  notifier(server);
  const raw = rawClient(server);
  await raw.initialize("2025-11-25");
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
  assert.equal((await raw.request(1, "resources/read", { uri: "mem://r", _meta: meta })).result.contents[0].text, "r");
  assert.deepEqual(raw.inbox.filter((msg) => msg.method === "notifications/message"), []);
});

test("logging (draft; LoggingMessageNotification: data required, logger a string): a log for a 2026-07-28 request is checked as a legacy session's is: one whose logger is no string, or whose data JSON cannot hold, is refused with a notification-refused diagnostic, not sent as a message the client drops (found by review: the per-request path sent it unchecked)", async () => {
  const refused: string[] = [];
  const c = await connect(
    (s) =>
      s.tool("t", {}, (_a, ctx) => {
        ctx.log("info", "bad logger", 5 as unknown as string);
        ctx.log("info", () => 1);
        ctx.notify("notifications/message", { level: "info", data: "bad level", logger: { name: "x" } } as never);
        ctx.log("info", "fine", "db");
        return { content: [] };
      }),
    MODERN,
    { ...DUAL, onEvent: (e) => void (e.type === "diagnostic" && e.code === "notification-refused" && refused.push(e.message)) },
  );
  const logs: unknown[] = [];
  c.client.onNotification("notifications/message", (p) => void logs.push(p));
  await c.client.callTool("t", {}, { logLevel: "debug" });
  assert.deepEqual(c.sent("server", "notifications/message").map((m) => m.params), [{ level: "info", data: "fine", logger: "db" }]);
  assert.deepEqual(logs, [{ level: "info", data: "fine", logger: "db" }]);
  assert.equal(refused.length, 3);
});
