// Spec: none of its own; the brief's "bad input always gets a clear error": options and
// registration arguments JavaScript does not type-check are refused where the application
// passes them, naming them, instead of being misread by the kernel (which fills in defaults
// and never throws) or failing at the first call with an engine message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, McpServerCore } from "../../src/api/server.js";
import { McpClient, McpClientCore } from "../../src/api/client.js";
import { hmacRequestState } from "../../src/driver/request-state.js";
import { CLIENT, SERVER } from "./setup.js";

const BAD_SESSIONS: [unknown, RegExp][] = [
  [{ keepAliveMs: "100" }, /session\.keepAliveMs must be a finite number of milliseconds >= 0 \(got "100"\)/],
  [{ requestTimeoutMs: -1 }, /session\.requestTimeoutMs must be a finite number/],
  [{ requestTimeoutMs: Number.NaN }, /session\.requestTimeoutMs/],
  [{ maxLogMessagesPerSecond: -5 }, /session\.maxLogMessagesPerSecond must be a non-negative integer/],
  [{ keepAliveMaxMissed: 1.5 }, /session\.keepAliveMaxMissed/],
  [{ maxInboundRequests: "10" }, /session\.maxInboundRequests/],
  [{ validateOutgoing: "yes" }, /session\.validateOutgoing must be a boolean/],
  [{ versions: [] }, /session\.versions must be a non-empty array/],
  [{ versions: "2025-11-25" }, /session\.versions must be a non-empty array/],
  [{ versions: ["2099-01-01"] }, /session\.versions names versions this kernel does not speak: "2099-01-01"/],
  [{ cacheScope: "shared" }, /session\.cacheScope must be "public" or "private"/],
];

test("session options: a number given as text, a negative or non-finite one, a flag that is no boolean, versions that are no non-empty list of known versions are refused when a server or client is built, naming the option", () => {
  for (const [session, message] of BAD_SESSIONS) {
    for (const build of [() => new McpServer(SERVER, { session: session as never }), () => new McpServerCore(SERVER, { session: session as never }), () => new McpClient(CLIENT, { session: session as never }), () => new McpClientCore(CLIENT, { session: session as never })]) {
      assert.throws(build, (e: unknown) => (e instanceof TypeError || e instanceof RangeError) && message.test(e.message), JSON.stringify(session));
    }
  }
  // Valid ones are taken as they are.
  new McpServer(SERVER, { session: { keepAliveMs: 0, requestTimeoutMs: 1500.5, maxLogMessagesPerSecond: 0, versions: ["2025-11-25"], validateOutgoing: false } });
  new McpClient(CLIENT, { session: { versions: ["2026-07-28", "2025-11-25"], keepAliveMaxMissed: 0 } });
});

test("registration: a config that is not an object (the handler passed in its place) or a handler that is not a function is a TypeError at once, naming the tool, resource, template or prompt", () => {
  const s = new McpServer(SERVER);
  const fn = () => ({ content: [] });
  assert.throws(() => s.tool("t", fn as never, undefined as never), /tool "t": the second argument must be its config object \(got a function: the config comes before the handler\)/);
  assert.throws(() => s.tool("t", {}, "run" as never), /tool "t": the handler must be a function \(got string\)/);
  assert.throws(() => s.resource("note://a", { name: "a" }, undefined as never), /resource "note:\/\/a": the reader must be a function/);
  assert.throws(() => s.resourceTemplate("note://{id}", { name: "n" }, undefined as never), /resource template "note:\/\/\{id\}": the reader must be a function/);
  assert.throws(() => s.resourceTemplate("note://{id}", { name: "n", list: [] as never }, () => undefined), /list must be a function/);
  assert.throws(() => s.prompt("p", undefined as never, fn as never), /prompt "p": the second argument must be its config object/);
  assert.throws(() => s.prompt("p", {}, undefined as never), /prompt "p": the getter must be a function/);
  // Nothing half-registered: a correct registration of the same names still works.
  s.tool("t", {}, fn);
  s.prompt("p", {}, () => ({ messages: [] }));
});

test("hmacRequestState: a secret passed bare, or under another name, is a TypeError, not a random key per instance (the mismatch the option exists to prevent)", () => {
  assert.throws(() => hmacRequestState("0123456789012345678901234567890123456789" as never), /hmacRequestState takes \{ secret \}/);
  assert.throws(() => hmacRequestState({ secrets: ["0123456789012345678901234567890123456789"] } as never), /unknown option "secrets"/);
  hmacRequestState({ secret: "0123456789012345678901234567890123456789" });
  hmacRequestState();
});

test("transports: connect() of something that is no Transport (nothing, a URL) and serveNode() of something that is no handler are TypeErrors saying what to pass; createHttpHandler refuses options it would misread, naming them", async () => {
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  const { serveNode } = await import("../../src/transports/http-node.js");
  assert.throws(() => new McpServer(SERVER).connect(undefined as never), /connect takes a Transport .*a URL is not one/);
  await assert.rejects(new McpClient(CLIENT).connect("http://127.0.0.1:1/mcp" as never), /connect takes a Transport/);
  await assert.rejects(serveNode(undefined as never), /serveNode takes a fetch-style handler/);
  const createSession = new McpServer(SERVER).httpSession();
  assert.throws(() => createHttpHandler(undefined as never), /createHttpHandler takes an options object/);
  assert.throws(() => createHttpHandler({} as never), /createSession must be a function/);
  assert.throws(() => createHttpHandler({ createSession, maxSessions: -1 }), /maxSessions must be a number >= 0 \(got -1\)/);
  assert.throws(() => createHttpHandler({ createSession, maxBodyBytes: "big" as never }), /maxBodyBytes must be a number >= 0 \(got "big"\)/);
  assert.throws(() => createHttpHandler({ createSession, allowedHosts: "example.com" as never }), /allowedHosts must be a list of strings or a predicate \(or false\)/);
  // Valid ones are taken: Infinity is no bound, false turns the Host check off.
  createHttpHandler({ createSession, maxSessions: Number.POSITIVE_INFINITY, sessionIdleMs: 0, allowedHosts: false, allowedOrigins: ["https://app.example"] }).close();
});
