// Spec: 2025-11-25 and draft server/utilities/logging: "Servers SHOULD: ... Rate limit log
// messages", and under Security, "Implementations SHOULD: Rate limit messages". The session
// option `maxLogMessagesPerSecond` of McpServer and McpClient (`session`) bounds
// notifications/message per second of the clock: a tool logging in a loop puts only the
// bound on the wire, and a client hands only the bound to its listener.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "./setup.js";
import type { McpServer } from "../../src/api/server.js";

/** A tool that logs `n` times (a handler logging in a loop). */
const flood = (n: number) => (s: McpServer) =>
  s.tool("flood", {}, (_a, ctx) => {
    for (let i = 0; i < n; i++) ctx.log("info", i);
    return { content: [{ type: "text" as const, text: "ok" }] };
  });

test("logging (2025-11-25), Servers SHOULD rate limit log messages / Implementations SHOULD rate limit messages: McpServer sends at most its maxLogMessagesPerSecond, McpClient delivers at most its own; the next second admits more", async () => {
  // Outgoing: the server's bound.
  const out = await connect(flood(5000), { session: { maxLogMessagesPerSecond: 0 } }, { session: { maxLogMessagesPerSecond: 20 } });
  assert.equal(out.client.protocolVersion, "2025-11-25");
  const got: unknown[] = [];
  out.client.onNotification("notifications/message", (p) => void got.push(p?.data));
  await out.client.callTool("flood", {});
  assert.equal(out.sent("server", "notifications/message").length, 20);
  assert.deepEqual(got, Array.from({ length: 20 }, (_, i) => i));
  out.clock.advance(1000);
  assert.equal(out.endpoint.state.logWindows?.outgoing, undefined, "the window's end was ticked (its diagnostic given)");
  await out.client.callTool("flood", {});
  assert.equal(out.sent("server", "notifications/message").length, 40);
  assert.equal(got.length, 40);
  await out.client.close();

  // Incoming: an unlimited server, a client that takes 10 a second.
  const inc = await connect(flood(3000), { session: { maxLogMessagesPerSecond: 10 } }, { session: { maxLogMessagesPerSecond: 0 } });
  const heard: unknown[] = [];
  inc.client.onNotification("notifications/message", (p) => void heard.push(p?.data));
  await inc.client.callTool("flood", {});
  assert.equal(inc.sent("server", "notifications/message").length, 3000);
  assert.deepEqual(heard, Array.from({ length: 10 }, (_, i) => i));
  inc.clock.advance(1000);
  await inc.client.callTool("flood", {});
  assert.equal(heard.length, 20);
  await inc.client.close();
});

test("logging (draft), Servers SHOULD rate limit log messages: a modern call's logLevel messages are bounded by McpServer's maxLogMessagesPerSecond", async () => {
  const c = await connect(flood(500), { session: { versions: ["2026-07-28"], maxLogMessagesPerSecond: 0 } }, { session: { versions: ["2026-07-28", "2025-11-25"], maxLogMessagesPerSecond: 15 } });
  assert.equal(c.client.protocolVersion, "2026-07-28");
  const got: unknown[] = [];
  c.client.onNotification("notifications/message", (p) => void got.push(p?.data));
  await c.client.callTool("flood", {}, { logLevel: "info" });
  assert.equal(c.sent("server", "notifications/message").length, 15);
  assert.equal(got.length, 15);
  await c.client.close();
});

test("logging, Implementations SHOULD rate limit messages (and basic/utilities/ping, Implementations SHOULD log ping failures): the dropped messages' diagnostic reaches the application through McpServer's and McpClient's onEvent, so it can log it; what onEvent throws goes to onError", async () => {
  const serverEvents: { type: string; code?: string; detail?: unknown }[] = [];
  const clientEvents: { type: string; code?: string; detail?: unknown }[] = [];
  const thrown: unknown[] = [];
  const c = await connect(
    flood(30),
    { session: { maxLogMessagesPerSecond: 5 }, onEvent: (e) => void clientEvents.push(e as never) },
    {
      session: { maxLogMessagesPerSecond: 20 },
      onEvent: (e) => {
        serverEvents.push(e as never);
        if (e.type === "initialized") throw new Error("a logger that fails");
      },
      onError: (e) => void thrown.push(e),
    },
  );
  await c.client.callTool("flood", {});
  c.clock.advance(1000);
  const limited = (events: typeof serverEvents) => events.filter((e) => e.type === "diagnostic" && e.code === "log-rate-limited").map((e) => e.detail);
  assert.deepEqual(limited(serverEvents), [{ direction: "outgoing", dropped: 10, limit: 20, windowStart: 0 }]);
  assert.deepEqual(limited(clientEvents), [{ direction: "incoming", dropped: 15, limit: 5, windowStart: 0 }]);
  assert.ok(clientEvents.some((e) => e.type === "initialized"), "the client's handshake too");
  assert.equal((thrown[0] as Error)?.message, "a logger that fails", "a throwing onEvent goes to onError, the session serves on");
  await c.client.close();
});
