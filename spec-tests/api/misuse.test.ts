// Spec: none of its own; the brief's "bad input always gets a clear error": options and
// registration arguments JavaScript does not type-check are refused where the application
// passes them, naming them, instead of being misread by the kernel (which fills in defaults
// and never throws) or failing at the first call with an engine message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, McpServerCore } from "../../src/api/server.js";
import { McpClient, McpClientCore } from "../../src/api/client.js";
import { hmacRequestState } from "../../src/driver/request-state.js";
import { CLIENT, SERVER, connect, rejection } from "./setup.js";

const BAD_SESSIONS: [unknown, RegExp][] = [
  [{ keepAliveMs: "100" }, /session\.keepAliveMs must be a finite number of milliseconds >= 0 \(got "100"\)/],
  [{ requestTimeoutMs: -1 }, /session\.requestTimeoutMs must be a finite number/],
  // A number JSON cannot write (it would print null) is shown as written.
  [{ requestTimeoutMs: Number.NaN }, /session\.requestTimeoutMs must be a finite number of milliseconds >= 0 \(got NaN\)/],
  [{ keepAliveMs: Number.POSITIVE_INFINITY }, /session\.keepAliveMs must be a finite number of milliseconds >= 0 \(got Infinity\)/],
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

test("draft basic/versioning, Extension Negotiation (extension identifiers MUST follow the _meta key naming rules, with a mandatory prefix): an McpServer or McpClient declaring an extension with no valid prefixed id is a TypeError naming it; valid ones are taken", () => {
  for (const id of ["search", "acme/x/", "com.example/-x", "1com/x", "com./x", "com-/x", "/x", "com..example/x", "com.example/x y"]) {
    const capabilities = { extensions: { [id]: {} } };
    for (const build of [() => new McpServer(SERVER, { capabilities }), () => new McpServerCore(SERVER, { capabilities }), () => new McpClient(CLIENT, { capabilities }), () => new McpClientCore(CLIENT, { capabilities })]) {
      assert.throws(build, (e: unknown) => e instanceof TypeError && e.message.includes(`capabilities.extensions names ${JSON.stringify(id)}`) && e.message.includes('"com.example/search"'), id);
    }
  }
  for (const id of ["io.modelcontextprotocol/tasks", "com.example/search", "a/b", "com.example-co.api/x_y.z-1", "com.example/"]) {
    const capabilities = { extensions: { [id]: {} } };
    new McpServer(SERVER, { capabilities });
    new McpClient(CLIENT, { capabilities });
  }
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

test("registration: completers that are no functions (a config's complete given a list of values, or no object; completion() given no function or a reference type no request names) are a TypeError at once, naming them, rather than a declared `completions` whose every request fails with -32603", async () => {
  const s = new McpServer(SERVER);
  const get = () => ({ messages: [] });
  assert.throws(() => s.prompt("p", { arguments: [{ name: "lang" }], complete: { lang: ["py", "rs"] as never } }, get), /prompt "p": complete\.lang must be a completer function \(got \["py","rs"\]\)/);
  assert.throws(() => s.prompt("p", { complete: (() => []) as never }, get), /prompt "p": complete must be an object of completer functions/);
  assert.throws(() => s.resourceTemplate("note://{id}", { name: "n", complete: { id: "1" as never } }, () => undefined), /resource template "note:\/\/\{id\}": complete\.id must be a completer function/);
  assert.throws(() => s.completion("ref/prompt", "p", "lang", ["py"] as never), /completion: the completer must be a function \(got object\)/);
  assert.throws(() => s.completion("prompt" as never, "p", "lang", () => []), /completion: refType must be "ref\/prompt" or "ref\/resource"/);
  // Nothing declared or registered by them: completions stays undeclared, and correct ones still work.
  assert.equal(s.capabilities.completions, undefined);
  s.prompt("p", { arguments: [{ name: "lang" }], complete: { lang: (v) => ["py"].filter((x) => x.startsWith(v)) } }, get);
  const { client } = await connect(s);
  assert.deepEqual((await client.complete({ type: "ref/prompt", name: "p" }, { name: "lang", value: "p" })).completion.values, ["py"]);
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
  assert.throws(() => createHttpHandler({ createSession, maxBodyBytes: Number.NaN }), /maxBodyBytes must be a number >= 0 \(got NaN\)/);
  assert.throws(() => createHttpHandler({ createSession, allowedHosts: "example.com" as never }), /allowedHosts must be a list of strings or a predicate \(or false\)/);
  // Valid ones are taken: Infinity is no bound, false turns the Host check off.
  createHttpHandler({ createSession, maxSessions: Number.POSITIVE_INFINITY, sessionIdleMs: 0, allowedHosts: false, allowedOrigins: ["https://app.example"] }).close();
});

test("misspelled option names (within two edits of a known one, ignoring case; one for names of up to six letters) are a TypeError naming the one meant, in every options object an application builds; other unknown names are left alone", async () => {
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  const createSession = new McpServer(SERVER).httpSession();
  const cases: [() => unknown, RegExp][] = [
    [() => new McpServer(SERVER, { sesion: {} } as never), /McpServer options: unknown option "sesion"; did you mean "session"\?/],
    [() => new McpServerCore(SERVER, { pagesize: 2 } as never), /McpServer options: unknown option "pagesize"; did you mean "pageSize"\?/],
    [() => new McpClient(CLIENT, { handler: {} } as never), /McpClient options: unknown option "handler"; did you mean "handlers"\?/],
    [() => new McpClientCore(CLIENT, { onEvnt: () => {} } as never), /did you mean "onEvent"\?/],
    [() => new McpClient(CLIENT, { session: { requestTimeout: 5 } } as never), /session options: unknown option "requestTimeout"; did you mean "requestTimeoutMs"\?/],
    [() => createHttpHandler({ createSesion: createSession } as never), /createHttpHandler: unknown option "createSesion"; did you mean "createSession"\?/],
    [() => createHttpHandler({ createSession, allowedOrigin: ["https://a.example"] } as never), /did you mean "allowedOrigins"\?/],
    [() => httpClientTransport("http://127.0.0.1:1/mcp", { header: { Authorization: "Bearer x" } } as never), /httpClientTransport: unknown option "header"; did you mean "headers"\?/],
    [() => httpClientTransport("http://127.0.0.1:1/mcp", { reconnect: { maxRetrie: 2 } } as never), /httpClientTransport reconnect: unknown option "maxRetrie"; did you mean "maxRetries"\?/],
    // Registration configs: a misspelled field was dropped from the definition (`inputSchma`: no input schema, arguments unchecked).
    [() => new McpServer(SERVER).tool("t", { inputSchma: { type: "object" } } as never, () => ({ content: [] })), /tool "t" config: unknown option "inputSchma"; did you mean "inputSchema"\?/],
    [() => new McpServer(SERVER).prompt("p", { argument: [] } as never, () => ({ messages: [] })), /prompt "p" config: unknown option "argument"; did you mean "arguments"\?/],
    [() => new McpServer(SERVER).resource("file:///a", { name: "a", mimetype: "text/plain" } as never, () => ({ contents: [] })), /resource "file:\/\/\/a" config: unknown option "mimetype"; did you mean "mimeType"\?/],
    [() => new McpServer(SERVER).resourceTemplate("file:///{x}", { name: "x", complte: {} } as never, () => ({ contents: [] })), /did you mean "complete"\?/],
    [() => new McpServer(SERVER, { tasks: { defaultTtlMS: 5 } } as never), /TaskRuntime options: unknown option "defaultTtlMS"; did you mean "defaultTtlMs"\?/],
    [() => createHttpHandler({ createSession, eventStore: { maxEventPerStream: 5 } } as never), /createHttpHandler eventStore: unknown option "maxEventPerStream"; did you mean "maxEventsPerStream"\?/],
    // The official SDKs' store of events (methods): it would be read as no limits, and never used.
    [() => createHttpHandler({ createSession, eventStore: new (class InMemoryEventStore { async storeEvent() { return "1"; } async replayEventsAfter() { return "s"; } })() } as never), /^createHttpHandler: eventStore takes the replay log's limits .* \(it has storeEvent, replayEventsAfter\)/],
    [() => createHttpHandler({ createSession, eventStore: { storeEvent: async () => "1", replayEventsAfter: async () => "s" } } as never), /^createHttpHandler: eventStore takes the replay log's limits \(maxEventsPerStream, maxTotalSize, maxSessionSize, maxRetainedStreams\), not a store of your own \(it has storeEvent, replayEventsAfter\)/],
  ];
  for (const [build, message] of cases) assert.throws(build, (e: unknown) => e instanceof TypeError && message.test(e.message), String(message));
  // Not misspellings: a name far from every known one (an option of a newer release, an
  // application's own field), a short name two edits from a short known one (`mode`,
  // `modern`), one that holds a known name whole (`sessions`, `unsubscribe`), one given beside
  // the name it resembles, and a class instance's `_private` fields.
  new McpServer(SERVER, { somethingNew: 1, sessions: 2, unsubscribe: true } as never);
  new McpClient(CLIENT, { session: { traceId: "x" } } as never);
  createHttpHandler({ createSession, port: 3000, mode: "x" } as never).close();
  httpClientTransport("http://127.0.0.1:1/mcp", { retries: 3, headers: {}, header: "x" } as never).close();
  class Options {
    _clock = 1;
    pageSize = 2;
  }
  new McpServer(SERVER, new Options() as never);
});

test("client handlers: a function under a name that is no handler (it would declare nothing) and a handler that is no function are TypeErrors; other fields of the object are left alone", () => {
  assert.throws(() => new McpClient(CLIENT, { handlers: { sampler: () => ({}) } as never }), /handlers\.sampler is not a client handler \(they are sampling, elicitation, roots\)/);
  assert.throws(() => new McpClientCore(CLIENT, { handlers: { elicitation: "ask" } as never }), /handlers\.elicitation must be a function/);
  assert.throws(() => new McpClient(CLIENT, { handlers: [] as never }), /handlers must be an object/);
  assert.throws(() => new McpClient(CLIENT, { handlers: { elicit: () => ({ action: "cancel" }) } as never }), /handlers\.elicit is not a client handler/);
  // The application's own fields, functions among them (a handlers object that is a class instance), are its own.
  const c = new McpClient(CLIENT, { handlers: { roots: () => [], store: new Map(), onLog: () => {} } as never });
  assert.deepEqual(c.capabilities, { roots: { listChanged: true } });
});

test("httpClientTransport: no URL, a message bound or reconnect setting given as text, negative or shrinking, and a callback that is no function are refused, naming the option", async () => {
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  const url = "http://127.0.0.1:1/mcp";
  const cases: [() => unknown, RegExp][] = [
    [() => httpClientTransport(undefined as never), /httpClientTransport takes the server's MCP endpoint URL \(a string or URL\)/],
    [() => httpClientTransport(url, null as never), /options must be an object/],
    [() => httpClientTransport(url, { maxMessageBytes: -1 }), /maxMessageBytes must be a positive integer or Infinity \(got -1\)/],
    [() => httpClientTransport(url, { maxMessageBytes: "4mb" as never }), /maxMessageBytes must be a positive integer or Infinity \(got "4mb"\)/],
    [() => httpClientTransport(url, { headers: "Authorization: x" as never }), /headers must be an object/],
    [() => httpClientTransport(url, { fetch: "fetch" as never }), /fetch must be a function/],
    [() => httpClientTransport(url, { reconnect: { initialDelayMs: "1s" as never } }), /reconnect\.initialDelayMs must be a finite number of milliseconds >= 0 \(got "1s"\)/],
    [() => httpClientTransport(url, { reconnect: { factor: 0.5 } }), /reconnect\.factor must be a finite number >= 1 \(got 0\.5\)/],
    [() => httpClientTransport(url, { reconnect: { maxRetries: -1 } }), /reconnect\.maxRetries must be a non-negative integer or Infinity \(got -1\)/],
    [() => httpClientTransport(url, { reconnect: { initialDelayMs: Number.POSITIVE_INFINITY } }), /reconnect\.initialDelayMs must be a finite number of milliseconds >= 0 \(got Infinity\)/],
  ];
  for (const [build, message] of cases) assert.throws(build, message);
  httpClientTransport(new URL(url), { maxMessageBytes: 1024, reconnect: { initialDelayMs: 0, factor: 1, maxRetries: 0, maxReissues: 0 } }).close();
  // Infinity is no bound, as for the HTTP handler's: retry for ever, no cap on the delay or the message.
  httpClientTransport(url, { maxMessageBytes: Number.POSITIVE_INFINITY, reconnect: { maxRetries: Number.POSITIVE_INFINITY, maxDelayMs: Number.POSITIVE_INFINITY, maxReissues: Number.POSITIVE_INFINITY } }).close();
});

test("httpClientTransport: headers given as a Headers or a Map are sent (Object.entries sees no entries in either, so they were dropped)", async () => {
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  for (const headers of [new Headers({ Authorization: "Bearer h" }), new Map([["Authorization", "Bearer h"]]) as never, { Authorization: "Bearer h" }]) {
    let sent: Headers | undefined;
    const t = httpClientTransport("http://127.0.0.1:1/mcp", {
      headers: headers as never,
      fetch: async (_input, init) => {
        sent = new Headers(init.headers);
        return new Response(null, { status: 202 });
      },
    });
    t.onMessage(() => {});
    t.onClose(() => {});
    t.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    for (let i = 0; i < 10 && sent === undefined; i++) await new Promise((r) => setImmediate(r));
    assert.equal(sent?.get("authorization"), "Bearer h", headers.constructor.name);
    t.close();
  }
});

test("call options: a misspelled one (timeout, onprogress: the official SDKs' names) rejects the call with a TypeError naming the one meant, instead of a call with no timeout or no progress; other unknown names are left alone", async () => {
  const c = await connect((s) => s.tool("echo", {}, () => ({ content: [] })));
  const timeout = await rejection(c.client.callTool("echo", {}, { timeout: 50 } as never));
  assert.ok(timeout instanceof TypeError);
  assert.equal(timeout.message, 'call options: unknown option "timeout"; did you mean "timeoutMs"?');
  assert.equal((await rejection(c.client.request("tools/list", {}, { onprogress: () => {} } as never))).message, 'call options: unknown option "onprogress"; did you mean "onProgress"?');
  assert.equal(c.sent("client", "tools/call").length, 0, "nothing went out");
  assert.deepEqual((await c.client.callTool("echo", {}, { timeoutMs: 1000, tag: "mine" } as never)).content, []);
  // listen() takes call options too, in either era (found by review: its misspelled timeout was dropped).
  for (const versions of [["2026-07-28"], ["2025-11-25"]] as const) {
    const d = await connect((s) => s.tool("echo", {}, () => ({ content: [] })), { session: { versions: [...versions] } });
    const listen = await rejection(d.client.listen({ toolsListChanged: true }, () => {}, { timeout: 50 } as never));
    assert.equal(listen.message, 'call options: unknown option "timeout"; did you mean "timeoutMs"?', versions[0]);
    assert.equal(d.sent("client", "subscriptions/listen").length, 0);
  }
});
