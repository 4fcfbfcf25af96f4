// The Endpoint's `record` hook (README "Replay"): a real session, McpServer and McpClient in
// memory or a server behind the HTTP handler, writes a kernel transcript (`mcp-kernel/1`)
// that `replay` verifies step for step. Spec: 2025-11-25 server/utilities/logging,
// basic/utilities/progress, basic/utilities/cancellation, basic/lifecycle (Timeouts: on a
// timeout the sender SHOULD send notifications/cancelled), basic/transports (Streamable
// HTTP), draft basic/versioning (2026-07-28 requests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { ManualClock } from "../../src/driver/clock.js";
import { Endpoint, McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { connectMemory } from "../../src/transports/memory.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { recordingSession, replay } from "../../src/session/transcript.js";
import type { SessionOptions } from "../../src/session/types.js";

const settle = async (n = 20): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const text = (lines: string[]): string => lines.join("\n") + "\n";
const inputTypes = (lines: string[]): string[] => lines.slice(1).map((l) => (JSON.parse(l) as { input: { type: string } }).input.type);

/** A recorded McpServer + McpClient conversation in memory on one manual clock: logs, progress, a cancellation, a timeout. */
async function conversation(): Promise<{ server: string[][]; client: string[]; events: { progress: number[]; logs: unknown[]; cancelled: string[] } }> {
  const clock = new ManualClock(1_000);
  const serverTranscripts: string[][] = [];
  const server = new McpServer(
    { name: "rec-server", version: "1" },
    {
      clock,
      record: () => {
        const lines: string[] = [];
        serverTranscripts.push(lines);
        return (line) => lines.push(line);
      },
    },
  );
  const started = { slow: deferred(), hang: deferred() };
  const cancelled: string[] = [];
  server.tool("work", {}, async (_args, ctx) => {
    ctx.log("info", { step: "begin" });
    ctx.progress(1, 2, "half");
    await Promise.resolve();
    ctx.progress(2, 2);
    ctx.log("debug", "end", "worker");
    return { content: [{ type: "text", text: "done" }] };
  });
  const waitForAbort = (name: "slow" | "hang") => (_args: unknown, ctx: { signal: AbortSignal }) =>
    new Promise<never>((_r, reject) => {
      ctx.signal.addEventListener("abort", () => (cancelled.push(name), reject(new Error("aborted"))));
      started[name].resolve();
    });
  server.tool("slow", {}, waitForAbort("slow"));
  server.tool("hang", {}, waitForAbort("hang"));
  const clientLines: string[] = [];
  const client = new McpClient({ name: "rec-client", version: "1" }, { clock, record: (line) => clientLines.push(line), session: { versions: ["2025-11-25"] } });
  const logs: unknown[] = [];
  client.onNotification("notifications/message", (params) => logs.push(params?.data));
  const connected = connectMemory((t) => server.connect(t), (t) => client.connect(t));
  await connected.client;
  await client.setLoggingLevel("debug");
  const progress: number[] = [];
  const r = await client.callTool("work", {}, { onProgress: (p) => progress.push(p.progress) });
  assert.equal((r.content[0] as { text: string }).text, "done");

  // A cancellation: the caller aborts, the server's handler is aborted.
  const abort = new AbortController();
  const slow = client.callTool("slow", {}, { signal: abort.signal });
  await started.slow.promise;
  clock.advance(5);
  abort.abort("user gave up");
  await assert.rejects(slow, (e: McpError) => e.code === ErrorCode.RequestCancelled);

  // A timeout on the injected clock: the client gives up and tells the server.
  const hang = client.callTool("hang", {}, { timeoutMs: 1_000 });
  await started.hang.promise;
  clock.advance(1_000);
  await assert.rejects(hang, (e: McpError) => e.code === ErrorCode.RequestTimeout);
  await settle();

  client.close();
  await settle();
  return { server: serverTranscripts, client: clientLines, events: { progress, logs, cancelled } };
}

test("record (README Replay): an McpServer and McpClient session in memory, with logs, progress, a cancellation and a timeout on an injected clock, writes a transcript on each side that replays identically", { timeout: 10_000 }, async () => {
  const { server, client, events } = await conversation();
  // The session ran as it does unrecorded.
  assert.deepEqual(events.progress, [1, 2]);
  assert.deepEqual(events.logs, [{ step: "begin" }, "end"]);
  assert.deepEqual(events.cancelled, ["slow", "hang"]);
  assert.equal(server.length, 1, "one connect(), one transcript");
  for (const [who, lines] of [["server", server[0]], ["client", client]] as const) {
    assert.deepEqual(JSON.parse(lines[0]).transcript, "mcp-kernel/1", `${who}: the header comes first`);
    assert.deepEqual(replay(text(lines)), { ok: true, steps: lines.length - 1 }, `${who} transcript replays`);
  }
  // Both sides' steps are all there: the server answered, logged and reported progress; the client cancelled and timed out.
  const s = inputTypes(server[0]);
  for (const t of ["receive", "respond", "log", "progress", "closed"]) assert.ok(s.includes(t), `server records ${t}`);
  const c = inputTypes(client);
  for (const t of ["open", "request", "receive", "cancel", "tick"]) assert.ok(c.includes(t), `client records ${t}`);
  assert.ok(server[0].some((l) => l.includes("notifications/cancelled") && l.includes('"type":"receive"')), "the server recorded both cancellations");
  assert.ok(client.some((l) => l.includes('"type":"tick"') && l.includes("notifications/cancelled")), "the client recorded the timeout's tick and its cancellation");
});

test("record: a recorded transcript with one output byte changed fails replay at that step, naming its line", { timeout: 10_000 }, async () => {
  const { server } = await conversation();
  const lines = [...server[0]];
  const at = lines.findIndex((l, i) => i > 0 && l.startsWith('{"input":{"type":"respond"') && l.includes('"text":"done"'));
  assert.ok(at > 0, "the tool's answer is recorded");
  const outputs = lines[at].indexOf('"outputs"');
  const byte = lines[at].indexOf('"done"', outputs) + 4;
  lines[at] = lines[at].slice(0, byte) + "x" + lines[at].slice(byte + 1);
  const result = replay(text(lines));
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.equal(result.malformed, undefined, "a divergence, not an unreadable file");
  assert.equal(result.index, at - 1);
  assert.equal(result.line, at + 1);
  assert.match(JSON.stringify(result.expected), /"donx"/);
  assert.match(JSON.stringify(result.actual), /"done"/);
});

test("record: the lines are exactly those recordingSession writes for the same inputs", { timeout: 10_000 }, async () => {
  const { client } = await conversation();
  const header = JSON.parse(client[0]) as { options: SessionOptions };
  const rec = recordingSession(header.options);
  for (const l of client.slice(1)) rec.step((JSON.parse(l) as { input: never }).input);
  assert.equal(rec.text(), text(client));
});

test("record (Streamable HTTP): httpSession records each legacy session and each 2026-07-28 request as its own transcript, each replaying identically", { timeout: 10_000 }, async () => {
  const server = new McpServer({ name: "rec-http", version: "1" });
  server.tool("work", {}, async (_args, ctx) => {
    ctx.log("info", "working");
    ctx.progress(1, 1);
    return { content: [{ type: "text", text: "done" }] };
  });
  const transcripts: { sessionId: string | undefined; lines: string[] }[] = [];
  const httpSession = server.httpSession();
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    createSession: (ctx) => {
      const lines: string[] = [];
      transcripts.push({ sessionId: ctx.sessionId || undefined, lines });
      return { ...httpSession(ctx), record: (line) => lines.push(line) };
    },
  });
  const through = (url: string | URL | Request, init?: RequestInit) => handler(new Request(url, init));
  try {
    // A legacy session: one transcript under its MCP-Session-Id.
    const legacy = new McpClient({ name: "legacy", version: "1" }, { session: { versions: ["2025-11-25"] } });
    await legacy.connect(httpClientTransport("http://127.0.0.1/mcp", { fetch: through }));
    await legacy.setLoggingLevel("info");
    const progress: number[] = [];
    const r = await legacy.callTool("work", {}, { onProgress: (p) => progress.push(p.progress) });
    assert.equal((r.content[0] as { text: string }).text, "done");
    assert.deepEqual(progress, [1]);
    legacy.close();
    await settle();
    // Modern requests: each one its own endpoint, so its own transcript.
    const before = transcripts.length;
    const modern = new McpClient({ name: "modern", version: "1" }, { session: { versions: ["2026-07-28"] } });
    await modern.connect(httpClientTransport("http://127.0.0.1/mcp", { fetch: through }));
    const m = await modern.callTool("work", {}, { logLevel: "info" });
    assert.equal((m.content[0] as { text: string }).text, "done");
    modern.close();
    await settle();

    const sessions = transcripts.filter((t) => t.sessionId !== undefined);
    assert.equal(sessions.length, 1, "one legacy session");
    assert.ok(inputTypes(sessions[0].lines).filter((t) => t === "respond").length >= 1);
    const modernOnes = transcripts.slice(before);
    assert.ok(modernOnes.length >= 2, `server/discover and tools/call each had their own (got ${modernOnes.length})`);
    assert.ok(modernOnes.some((t) => t.lines.some((l) => l.includes('"method":"tools/call"'))));
    for (const t of transcripts) assert.deepEqual(replay(text(t.lines)), { ok: true, steps: t.lines.length - 1 }, `transcript of ${t.sessionId ?? "a modern request"} replays`);
  } finally {
    handler.close();
  }
});

test("record: a handler's answer with no JSON form is refused as recordingSession refuses it, and the peer still gets -32603; the transcript replays", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const lines: string[] = [];
  const events: string[] = [];
  const toClient: JsonRpcMessage[] = [];
  const serverEnd = new Endpoint(
    { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } },
    {
      send: (m) => void toClient.push(m),
      onRequest: () => ({ content: [], big: 1n }) as never,
      onEvent: (e) => void (e.type === "diagnostic" && events.push(e.code)),
      record: (line) => lines.push(line),
    },
    clock,
  );
  serverEnd.receive(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
  serverEnd.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  serverEnd.receive(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t", arguments: {} } }));
  assert.ok(events.includes("input-refused"));
  const answer = toClient.find((m) => "id" in m && m.id === 2) as { error?: { code: number } } | undefined;
  assert.equal(answer?.error?.code, ErrorCode.InternalError);
  assert.deepEqual(replay(text(lines)), { ok: true, steps: lines.length - 1 });

  // A request of ours whose params have no JSON form fails at once, unrecorded, and its id stays free.
  await assert.rejects(serverEnd.request("roots/list", { x: 1n } as never), (e: McpError) => e.code === ErrorCode.InternalError && !e.fromPeer);
  assert.deepEqual(replay(text(lines)), { ok: true, steps: lines.length - 1 });
});

test("record: an endpoint restored from a snapshot cannot record (its transcript would have no start)", () => {
  const options: SessionOptions = { role: "server", info: { name: "s", version: "1" }, capabilities: {} };
  const snapshot = structuredClone(new Endpoint(options, { send: () => {} }).state);
  assert.throws(() => new Endpoint(snapshot, { send: () => {}, record: () => {} }), TypeError);
});

test("record: the kernel is fed each input as the transcript holds it (its JSON text, parsed back), so what the live run did is what replay does", () => {
  const lines: string[] = [];
  const sent: JsonRpcMessage[] = [];
  const e = new Endpoint({ role: "server", info: { name: "s", version: "1" }, capabilities: { logging: {} } }, { send: (m) => void sent.push(m), record: (line) => lines.push(line) }, new ManualClock());
  e.receive(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
  e.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  // A level whose JSON text ("info") is not what it is (an object the kernel would refuse): the transcript holds "info".
  e.log({ toJSON: () => "info" } as never, "x");
  assert.equal(sent.length, 2, "the live kernel read the level as the transcript holds it, and sent the message");
  assert.deepEqual(replay(text(lines)), { ok: true, steps: lines.length - 1 });
});

test("record (README Observability: what an McpClient or McpServer callback throws goes to onError): a record writer that throws (a full disk) costs the connection nothing; its errors reach onError, and the calls are answered", { timeout: 10_000 }, async () => {
  const errors: string[] = [];
  const boom = (who: string) => (): void => {
    throw new Error(`${who} record failed`);
  };
  const server = new McpServer({ name: "s", version: "1" }, { onError: (e) => errors.push((e as Error).message), record: () => boom("server") });
  server.tool("hi", {}, () => ({ content: [{ type: "text", text: "hi" }] }));
  const client = new McpClient({ name: "c", version: "1" }, { onError: (e) => errors.push((e as Error).message), record: boom("client") });
  await connectMemory((t) => server.connect(t), (t) => client.connect(t)).client;
  const r = await client.callTool("hi");
  assert.equal((r.content[0] as { text: string }).text, "hi");
  await settle();
  assert.ok(errors.includes("server record failed") && errors.includes("client record failed"), `both writers' errors reach onError: ${JSON.stringify(errors)}`);
  client.close();
  await settle();
});
