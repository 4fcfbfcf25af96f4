// Spec: draft basic/index ("Statelessness": each modern request stands alone, so it is served
// with what the server declares now) and draft server/discover (the capabilities the server
// supports); 2025-11-25 basic/lifecycle (capabilities are negotiated at initialization, so a
// legacy session keeps what its handshake declared). On a long-lived dual-era connection (stdio)
// a server that registers its first prompt after connecting declares `prompts` from then on to
// server/discover and modern requests, and not to the legacy session that negotiated without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createSession, step } from "../../src/session/session.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { connect, rawClient, SERVER } from "./setup.js";
import type { McpError } from "../../src/driver/endpoint.js";
import { McpClient } from "../../src/api/client.js";
import type { Transport } from "../../src/api/transport.js";

const MV = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": MV, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
const turn = () => new Promise<void>((r) => setImmediate(r));

test("server/discover (draft): a prompt registered after connect is declared to server/discover and served to modern requests on the same connection", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV, "2025-11-25"] } });
  server.tool("t", {}, () => ({ content: [] }));
  const raw = rawClient(server);
  const before = await raw.request(1, "server/discover", { _meta: META });
  assert.equal(before.result.capabilities.prompts, undefined);
  assert.equal((await raw.request(2, "prompts/list", { _meta: META })).error?.code, -32601, "not declared yet");
  server.prompt("greet", {}, () => ({ messages: [] }));
  await turn();
  const after = await raw.request(3, "server/discover", { _meta: META });
  assert.ok(after.result.capabilities.prompts, "declared from now on");
  assert.deepEqual((await raw.request(4, "prompts/list", { _meta: META })).result.prompts.map((p: { name: string }) => p.name), ["greet"]);
});

test("completion (draft): servers that support completions MUST declare `completions`; a completer registered after connect is declared to server/discover and served, and stays declared once removed (an empty completion, not -32601)", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV] } });
  server.prompt("p", { arguments: [{ name: "who" }] }, () => ({ messages: [] }));
  const raw = rawClient(server);
  await turn();
  const unregister = server.completion("ref/prompt", "p", "who", () => ["alice", "bob"]);
  await turn();
  assert.ok((await raw.request(1, "server/discover", { _meta: META })).result.capabilities.completions, "declared from now on");
  const complete = { _meta: META, ref: { type: "ref/prompt", name: "p" }, argument: { name: "who", value: "a" } };
  assert.deepEqual((await raw.request(2, "completion/complete", complete)).result.completion.values, ["alice", "bob"]);
  unregister();
  await turn();
  assert.deepEqual((await raw.request(3, "server/discover", { _meta: META })).result.capabilities.completions, {}, "still declared");
  assert.deepEqual((await raw.request(4, "completion/complete", complete)).result.completion.values, []);
});

test("server/tools (draft: an unknown tool is a protocol error, -32602) + caching (a client re-fetches a list after list_changed): once a kind was registered it stays declared, so removing the last tool leaves an empty tools/list and an Unknown tool, as a legacy session has, not -32601 for both", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV] } });
  const unregister = server.tool("t", {}, () => ({ content: [] }));
  const raw = rawClient(server);
  await turn();
  assert.ok((await raw.request(1, "server/discover", { _meta: META })).result.capabilities.tools);
  unregister();
  await turn();
  assert.deepEqual((await raw.request(2, "server/discover", { _meta: META })).result.capabilities.tools, { listChanged: true });
  assert.deepEqual((await raw.request(3, "tools/list", { _meta: META })).result.tools, []);
  const call = await raw.request(4, "tools/call", { _meta: META, name: "t", arguments: {} });
  assert.deepEqual([call.error?.code, call.error?.message], [-32602, "Unknown tool: t"]);
});

test("server/discover (draft): a connection opened after the server changed with none open is told what it declares later, even when that equals what an earlier connection was told", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV] } });
  server.tool("t", {}, () => ({ content: [] }));
  const [a, peerOfA] = createMemoryPair();
  server.connect(a);
  const unregister = server.prompt("p", {}, () => ({ messages: [] }));
  await turn(); // connection A is told {tools, prompts}
  peerOfA.close();
  await turn();
  assert.equal(server.connectionCount, 0);
  unregister(); // nobody to tell
  const raw = rawClient(server); // opens with {tools}
  server.prompt("p", {}, () => ({ messages: [] })); // {tools, prompts} again, as A was told
  await turn();
  assert.ok((await raw.request(1, "server/discover", { _meta: META })).result.capabilities.prompts);
  assert.deepEqual((await raw.request(2, "prompts/list", { _meta: META })).result.prompts.map((p: { name: string }) => p.name), ["p"]);
});

test("basic/lifecycle: a legacy session keeps the capabilities its handshake declared when the server registers more", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV, "2025-11-25"] } });
  server.tool("t", {}, () => ({ content: [] }));
  const raw = rawClient(server);
  const init = await raw.initialize("2025-11-25");
  assert.equal(init.result.capabilities.prompts, undefined);
  server.prompt("greet", {}, () => ({ messages: [] }));
  await turn();
  assert.equal((await raw.request(5, "prompts/list")).error?.code, -32601, "the session negotiated no prompts");
  assert.ok(!raw.inbox.some((m) => m.method === "notifications/prompts/list_changed"), "nor is it told of a list it never had");
});

test("basic/versioning (draft: a dual-era server MAY serve both eras on one stdio process) + basic/index Statelessness: a prompt registered after a legacy handshake on the connection is declared to server/discover, served to modern requests and listenable there, while the legacy session keeps what its handshake declared (found by review: the handshake froze the capabilities of the whole connection, so every later modern request got -32601)", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV, "2025-11-25"] } });
  server.tool("t", {}, () => ({ content: [] }));
  const raw = rawClient(server);
  await raw.initialize("2025-11-25");
  server.prompt("greet", {}, () => ({ messages: [] }));
  await turn();
  assert.ok((await raw.request(1, "server/discover", { _meta: META })).result.capabilities.prompts, "declared to modern requests from now on");
  assert.deepEqual((await raw.request(2, "prompts/list", { _meta: META })).result.prompts.map((p: { name: string }) => p.name), ["greet"]);
  raw.send({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { _meta: META, notifications: { promptsListChanged: true } } });
  await turn();
  const ack = raw.inbox.find((m) => m.method === "notifications/subscriptions/acknowledged");
  assert.deepEqual(ack?.params.notifications, { promptsListChanged: true }, "a listen stream may ask for prompts");
  assert.equal((await raw.request(4, "prompts/list")).error?.code, -32601, "the legacy session negotiated no prompts");
});

test("basic/lifecycle (capabilities are negotiated at initialization): a prompt registered before the server serves a client's initialize is in that initialize's capabilities, though the initialize was already on its way (found by review: the new capabilities waited for the microtask that coalesces list_changed, the initialize was answered without prompts, and the session then refused prompts/list with -32601 for good)", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV, "2025-11-25"] } });
  server.tool("t", {}, () => ({ content: [] }));
  const raw = rawClient(server);
  // The memory pair delivers on a microtask: the initialize is queued, not yet served.
  const init = raw.request("init", "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
  server.prompt("greet", {}, () => ({ messages: [] }));
  assert.deepEqual((await init).result.capabilities.prompts, { listChanged: true });
  raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  assert.deepEqual((await raw.request(1, "prompts/list")).result.prompts.map((p: { name: string }) => p.name), ["greet"]);
});

test("session (kernel): declare takes new capabilities before a legacy handshake; after it the session keeps its own and only modern requests see the new ones; a malformed one is refused", () => {
  const s = createSession({ role: "server", info: SERVER, capabilities: { tools: {} }, versions: [MV, "2025-11-25"] });
  step(s, { type: "declare", now: 0, capabilities: { tools: {}, prompts: {} } });
  const init = step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
  const sent = init.outputs.find((o) => o.type === "send") as unknown as { message: { result: { capabilities: object } } };
  assert.deepEqual(sent.message.result.capabilities, { tools: {}, prompts: {} }, "the handshake declares what was declared before it");
  const later = step(s, { type: "declare", now: 0, capabilities: { tools: {}, prompts: {}, resources: {} } });
  assert.deepEqual(later.outputs, []);
  assert.deepEqual(s.options.capabilities, { tools: {}, prompts: {} }, "the legacy session keeps what its handshake declared");
  const discover = step(s, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "server/discover", params: { _meta: META } }) });
  const found = discover.outputs.find((o) => o.type === "send") as unknown as { message: { result: { capabilities: object } } };
  assert.deepEqual(found.message.result.capabilities, { tools: {}, prompts: {}, resources: {} }, "server/discover names what is declared now");
  const client = createSession({ role: "client", info: SERVER, capabilities: {}, versions: ["2025-11-25"] });
  client.phase = { name: "operating", version: "2025-11-25", peer: { info: SERVER, capabilities: {} } };
  const refused = step(client, { type: "declare", now: 0, capabilities: { roots: {} } });
  assert.deepEqual(refused.outputs.map((o) => o.type === "diagnostic" && o.code), ["declare-refused"]);
  assert.deepEqual(client.options.capabilities, {});
  const bad = step(createSession({ role: "server", info: SERVER, capabilities: { tools: {} } }), { type: "declare", now: 0 } as never);
  assert.deepEqual(bad.outputs.map((o) => o.type === "diagnostic" && o.code), ["input-refused"]);
});

test("server/discover + caching (draft: a DiscoverResult with ttlMs 0 is stale at once): a 2026-07-28 client asks server/discover again before refusing a request its last answer did not admit, so a prompt first registered after it connected is reachable; requests waiting at once share one question, and none is asked again within MIN_REDISCOVER_MS (1 s) of the last answer", async () => {
  const { server, client, clock, sent } = await connect(() => {}, { session: { versions: [MV] } }, { session: { versions: [MV] } });
  const questions = () => sent("client", "server/discover").length;
  assert.equal(client.serverCapabilities?.prompts, undefined);
  server.prompt("greet", {}, () => ({ messages: [] }));
  await turn();
  assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name), ["greet"]);
  assert.deepEqual(client.serverCapabilities?.prompts, { listChanged: true });
  assert.equal(questions(), 2, "the probe, then one question");
  // Declared now: no more questions.
  await client.listPrompts();
  assert.equal(questions(), 2);
  // Still undeclared: refused here (a local error), without asking again within the second.
  const refusal = (e: McpError) => e.code === -32601 && e.fromPeer === false && /capability server\.resources was not declared/.test(e.message);
  await assert.rejects(client.listResources(), refusal);
  assert.equal(questions(), 2);
  clock.advance(1000);
  const waiting = Array.from({ length: 5 }, () => assert.rejects(client.listResources(), refusal));
  await Promise.all(waiting);
  assert.equal(questions(), 3, "five refusals, one question");
});

test("server/discover + caching (draft): requests sharing one server/discover question each wait with their own signal and timeoutMs: one caller aborting neither cancels the question nor has the others refused (found by review: the question ran under the first caller's signal and timeout, and its abort left the others refused with -32601, with no new question for 1 s)", { timeout: 10_000 }, async () => {
  const { server, client, clock, sent } = await connect(() => {}, { session: { versions: [MV] } }, { session: { versions: [MV] } });
  server.prompt("greet", {}, () => ({ messages: [] }));
  await turn();
  const timers = clock.pendingTimers;
  const ac = new AbortController();
  const first = client.listPrompts(undefined, { signal: ac.signal });
  const timed = client.listPrompts(undefined, { timeoutMs: 5 });
  const second = client.listPrompts();
  ac.abort("gave up");
  clock.advance(5);
  const aborted = await first.then(() => undefined, (e: McpError) => e);
  assert.equal(aborted?.code, -32800);
  const late = await timed.then(() => undefined, (e: McpError) => e);
  assert.equal(late?.code, -32001);
  assert.deepEqual((await second).prompts.map((p) => p.name), ["greet"]);
  assert.equal(sent("client", "server/discover").length, 2, "the probe, then one question");
  assert.equal(sent("client", "notifications/cancelled").length, 0, "the question was not cancelled");
  assert.equal(clock.pendingTimers, timers, "the waits left no timer");
});

test("session (kernel, client 2026-07-28): a server/discover the application sends replaces the capabilities the session checks requests against (a `rediscovered` output), unless the answer no longer lists the session's version", () => {
  const client = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: [MV] });
  const answer = (id: number, result: object) => step(client, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", ttlMs: 0, cacheScope: "private", ...result } }) }).outputs;
  const discover = (capabilities: object, supportedVersions = [MV]) => ({ supportedVersions, capabilities, _meta: { "io.modelcontextprotocol/serverInfo": SERVER } });
  const [probe] = step(client, { type: "open", now: 0 }).outputs as { message: { id: number } }[];
  answer(probe.message.id, discover({ tools: {} }));
  const refused = step(client, { type: "request", now: 0, method: "prompts/list" }).outputs;
  assert.match((refused.find((o) => o.type === "error") as { error: { message: string } }).error.message, /server\.prompts was not declared/);
  const ask = (step(client, { type: "request", now: 0, method: "server/discover" }).outputs[0] as { message: { id: number } }).message.id;
  const told = answer(ask, discover({ tools: {}, prompts: {} }));
  assert.deepEqual(told.filter((o) => o.type === "rediscovered").map((o) => (o as { peer: { capabilities: object } }).peer.capabilities), [{ tools: {}, prompts: {} }]);
  assert.equal(step(client, { type: "request", now: 0, method: "prompts/list" }).outputs[0].type, "send");
  const other = (step(client, { type: "request", now: 0, method: "server/discover" }).outputs[0] as { message: { id: number } }).message.id;
  assert.deepEqual(answer(other, discover({}, ["2099-01-01"])).filter((o) => o.type === "rediscovered"), []);
  assert.equal(step(client, { type: "request", now: 0, method: "prompts/list" }).outputs[0].type, "send", "kept what it knew");
});

test("server/discover + caching (draft) + basic/lifecycle timeouts: a request that waited for its server/discover question is sent with what is left of its timeoutMs, not a fresh one (the wait is part of the call)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock, session: { versions: [MV] } });
  const [s, c] = createMemoryPair();
  server.connect(s);
  // The server's answers are held while `holding`, as a slow network would.
  let holding = false;
  const held: (() => void)[] = [];
  const slow: Transport = {
    send: (text) => c.send(text),
    onMessage: (fn) => c.onMessage((text, local) => (holding ? held.push(() => fn(text, local)) : fn(text, local))),
    onClose: (fn) => c.onClose(fn),
    close: () => c.close(),
  };
  const client = new McpClient({ name: "c", version: "1" }, { clock, session: { versions: [MV] } });
  await client.connect(slow);
  server.tool("slow", {}, () => new Promise(() => {}));
  await turn();
  holding = true;
  let outcome = undefined as McpError | undefined;
  const call = client.callTool("slow", {}, { timeoutMs: 100 }).catch((e: McpError) => (outcome = e));
  await turn();
  clock.advance(60);
  holding = false;
  for (const deliver of held.splice(0)) deliver();
  await turn();
  assert.equal(outcome, undefined, "the discover answered in time; the call went out");
  clock.advance(40);
  await turn();
  assert.equal((outcome as McpError | undefined)?.code, -32001, "timed out 100 ms after the call, not 100 ms after the discover answer");
  await call;
  client.close();
});
