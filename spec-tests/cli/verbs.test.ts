// Every verb end to end, as a user runs it: the compiled CLI in a child process, HTTP on
// 127.0.0.1 port 0. Each test waits for what the process prints (no sleeps).
// Spec: 2025-11-25 basic/transports ("stdio", "Streamable HTTP"), basic/lifecycle.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcessByStdio } from "node:child_process";
import { createServer } from "node:net";
import type { Readable, Writable } from "node:stream";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, cli, running } from "./spawn.js";
import { projectRoot } from "../harness/project-root.js";
import { McpClient } from "../../src/api/client.js";
import { httpClientTransport } from "../../src/transports/http-client.js";

const START = join(projectRoot(), "scripts", "start.mjs");

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });

test("serve: HTTP on 127.0.0.1 port 0 prints `listening on http://127.0.0.1:PORT/mcp` to stderr; call prints results as JSON; a JSON-RPC error exits 1 with the error on stderr (marked local when not the server's); SIGTERM exits 0", async () => {
  const serve = cli(["serve", "--port", "0"]);
  const [, url, port] = await serve.waitErr(/^listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)\n/);
  assert.notEqual(Number(port), 0);

  const echo = cli(["call", url, "tools/call", JSON.stringify({ name: "echo", arguments: { text: "hello over HTTP" } })]);
  assert.equal(await echo.code, 0, echo.stderr());
  // The result as the server sent it: call probes (server/discover), and the demo serves it modern.
  const echoed = JSON.parse(echo.stdout()) as { resultType: string; content: unknown };
  assert.deepEqual([echoed.resultType, echoed.content], ["complete", [{ type: "text", text: "hello over HTTP" }]]);

  const list = cli(["call", url, "tools/list"]);
  assert.equal(await list.code, 0, list.stderr());
  const names = (JSON.parse(list.stdout()) as { tools: { name: string }[] }).tools.map((t) => t.name);
  assert.ok(names.includes("echo") && names.includes("test_simple_text"), names.join());

  // server/tools "Error Handling": an unknown tool is a protocol error (-32602).
  const bad = cli(["call", url, "tools/call", '{"name":"no_such_tool"}']);
  assert.equal(await bad.code, 1);
  assert.equal(bad.stdout(), "");
  const error = JSON.parse(bad.stderr()) as { code: number; message: string };
  assert.equal(error.code, -32602);
  assert.equal(typeof error.message, "string");
  // draft basic/index: the server's error is printed as it came; one raised here is marked local.
  assert.equal("local" in error, false);
  const unreachable = cli(["call", "http://127.0.0.1:9/mcp", "tools/list"]);
  assert.equal(await unreachable.code, 1);
  const local = JSON.parse(unreachable.stderr()) as { code: number; message: string; local?: boolean };
  assert.deepEqual([local.code, local.local], [-32000, true], unreachable.stderr());

  // Older clients: the deprecated HTTP+SSE transport at /sse, its stream opening with the endpoint event (2024-11-05 basic/transports).
  const old = await fetch(url.replace(/\/mcp$/, "/sse"), { headers: { accept: "text/event-stream" } });
  assert.equal(old.status, 200);
  const reader = old.body!.getReader();
  const { value } = await reader.read();
  assert.match(new TextDecoder().decode(value), /^event: endpoint\ndata: messages\?sessionId=\w+\n\n/);
  await reader.cancel();

  // The modern era on the same URL: a stateless server/discover POST (draft basic/versioning).
  const discover = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  const body = await discover.text();
  assert.equal(discover.status, 200, body);
  assert.match(body, /"id":7,"result":\{/, `modern server/discover answered: ${body}`);

  serve.child.kill("SIGTERM");
  assert.equal(await serve.code, 0);
});

test("serve: asked to stop (SIGTERM), HTTP serve drains (README Deploying): the tool call in flight, waiting on the client's elicitation answer, still finishes with its result while a new initialize gets 503; then it exits 0. A second signal stops it at once", async () => {
  const serve = cli(["serve", "--port", "0"]);
  const [, url] = await serve.waitErr(/^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
  let asked!: () => void;
  const elicited = new Promise<void>((r) => (asked = r));
  let answer!: () => void;
  const answered = new Promise<void>((r) => (answer = r));
  const client = new McpClient({ name: "t", version: "1" }, {
    handlers: {
      elicitation: async () => {
        asked();
        await answered;
        return { action: "accept", content: { username: "u", email: "e@x" } };
      },
    },
  });
  await client.connect(httpClientTransport(url, { openGetStream: false }));
  const result = client.callTool("test_elicitation", { message: "who?" });
  await elicited;
  serve.child.kill("SIGTERM");
  await serve.waitErr(/closing: the requests in flight have up to 10 s to finish/);
  const late = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: INIT });
  assert.equal(late.status, 503);
  await late.body?.cancel();
  answer();
  assert.deepEqual((await result).content, [{ type: "text", text: 'User response: action=accept, content={"username":"u","email":"e@x"}' }]);
  assert.equal(await serve.code, 0);
  client.close();

  // A second signal during a drain: the default, at once.
  const again = cli(["serve", "--port", "0"]);
  const [, url2] = await again.waitErr(/^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
  let stuckAsked!: () => void;
  const stuckElicited = new Promise<void>((r) => (stuckAsked = r));
  const stuck = new McpClient({ name: "t", version: "1" }, { handlers: { elicitation: () => (stuckAsked(), new Promise(() => {})) } });
  await stuck.connect(httpClientTransport(url2, { openGetStream: false }));
  const never = stuck.callTool("test_elicitation", { message: "who?" }).catch((e: Error) => e);
  await stuckElicited;
  again.child.kill("SIGTERM");
  await again.waitErr(/closing:/);
  // Another kind of signal stops it too (SIGTERM, then Ctrl-C).
  again.child.kill("SIGINT");
  assert.equal(await again.code, null);
  assert.equal(again.child.signalCode, "SIGINT");
  await never;
  stuck.close();
});

test("serve --stateless: 2025-era clients served without MCP-Session-Id (basic/transports Session Management: MAY), each call its own POST; GET is 405", async () => {
  const serve = cli(["serve", "--port", "0", "--stateless"]);
  const [, url] = await serve.waitErr(/^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(url, { method: "POST", headers, body: INIT });
  assert.equal(init.status, 200);
  assert.equal(init.headers.get("mcp-session-id"), null);
  await init.text();
  // A 2025-era client (McpClient speaks the 2025 versions by default): initialize, then its call, each its own POST.
  const legacy = new McpClient({ name: "t", version: "1" });
  await legacy.connect(httpClientTransport(url, { openGetStream: false }));
  assert.equal(legacy.protocolVersion, "2025-11-25");
  assert.deepEqual(await legacy.callTool("echo", { text: "stateless" }), { content: [{ type: "text", text: "stateless" }] });
  legacy.close();
  // call, which probes first, is served modern there (stateless by nature).
  const echo = cli(["call", url, "tools/call", JSON.stringify({ name: "echo", arguments: { text: "stateless" } })]);
  assert.equal(await echo.code, 0, echo.stderr());
  assert.deepEqual((JSON.parse(echo.stdout()) as { content: unknown }).content, [{ type: "text", text: "stateless" }]);
  const get = await fetch(url, { headers: { accept: "text/event-stream" } });
  assert.equal(get.status, 405);
  await get.text();
  serve.child.kill("SIGTERM");
  assert.equal(await serve.code, 0);
  const both = cli(["serve", "--stdio", "--stateless"]);
  assert.equal(await both.code, 2);
  assert.match(both.stderr(), /--stateless is for HTTP/);
});

test("serve: a bad --port is a usage error (exit 2); --help prints the usage", async () => {
  const bad = cli(["serve", "--port", "99999"]);
  assert.equal(await bad.code, 2);
  assert.match(bad.stderr(), /--port needs a number from 0 to 65535/);
  const help = cli(["serve", "--help"]);
  assert.equal(await help.code, 0);
  assert.match(help.stdout(), /^usage: mcp-kernel serve/);
});

test("serve --stdio: one message per line on stdout, nothing else; exits 0 when stdin ends (basic/transports stdio)", async () => {
  const serve = cli(["serve", "--stdio"]);
  serve.child.stdin!.write(INIT + "\n");
  const [line] = await serve.waitLines(1);
  const reply = JSON.parse(line) as { id: number; result: { serverInfo: { name: string }; protocolVersion: string } };
  assert.equal(reply.id, 1);
  assert.equal(reply.result.serverInfo.name, "mcp-kernel-demo");
  assert.equal(reply.result.protocolVersion, "2025-11-25");
  serve.child.stdin!.end();
  assert.equal(await serve.code, 0);
  assert.equal(serve.stdout(), line + "\n");
});

test("call --stdio CMD ARGS... initialize: launches the server, prints the handshake's result", async () => {
  const call = cli(["call", "--stdio", process.execPath, BIN, "serve", "--stdio", "initialize"]);
  assert.equal(await call.code, 0, call.stderr());
  const result = JSON.parse(call.stdout()) as { serverInfo: { name: string }; capabilities: Record<string, unknown> };
  assert.equal(result.serverInfo.name, "mcp-kernel-demo");
  assert.ok("tools" in result.capabilities);
  const noMethod = cli(["call", "--stdio"]);
  assert.equal(await noMethod.code, 2);
});

test("call --stdio ... ping (2025-11-25 basic/utilities/ping; draft basic/versioning): a method only the 2025 era has reaches a dual-era server in a 2025 session, where it exists, instead of the 2026-07-28 one that refused it locally (-32601)", async () => {
  const ping = cli(["call", "--stdio", process.execPath, BIN, "serve", "--stdio", "ping"]);
  assert.equal(await ping.code, 0, ping.stderr());
  assert.deepEqual(JSON.parse(ping.stdout()), {});
});

// draft basic/versioning: a dual-era client probes with server/discover and falls back to
// initialize, so it reaches servers of either era. call spoke only the 2025 versions: a server
// speaking only 2026-07-28 refused its initialize, printed as a local -32000.
test("call speaks every version the kernel does: a stdio server speaking only 2026-07-28 is reached (its result, its own JSON-RPC error printed as the server's, not local), and one speaking only 2025-11-25 too", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-call-"));
  try {
    const server = join(dir, "server.mjs");
    const root = new URL("../../src/", import.meta.url).href;
    writeFileSync(
      server,
      `import { McpServer } from ${JSON.stringify(root + "index.js")};
import { stdioServerTransport } from ${JSON.stringify(root + "node.js")};
const server = new McpServer({ name: "only", version: "1" }, { session: { versions: [process.argv[2]] } });
server.tool("greet", { inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }] }));
server.connect(stdioServerTransport());
`,
    );
    for (const version of ["2026-07-28", "2025-11-25"]) {
      const init = cli(["call", "--stdio", process.execPath, server, version, "initialize"]);
      assert.equal(await init.code, 0, init.stderr());
      assert.equal((JSON.parse(init.stdout()) as { protocolVersion: string }).protocolVersion, version);
      const greet = cli(["call", "--stdio", process.execPath, server, version, "tools/call", '{"name":"greet"}']);
      assert.equal(await greet.code, 0, greet.stderr());
      assert.deepEqual((JSON.parse(greet.stdout()) as { content: unknown }).content, [{ type: "text", text: "hi" }], version);
      // server/tools "Error Handling": an unknown tool is the server's -32602, as it sent it.
      const bad = cli(["call", "--stdio", process.execPath, server, version, "tools/call", '{"name":"nope"}']);
      assert.equal(await bad.code, 1);
      const error = JSON.parse(bad.stderr()) as { code: number; local?: boolean };
      assert.deepEqual([error.code, "local" in error], [-32602, false], bad.stderr());
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record -- serve --stdio, driven by call, then replay: exit 0; a tampered transcript prints the first divergence and exits 1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-record-"));
  try {
    const file = join(dir, "t.jsonl");
    // call probes with server/discover and the demo serves it modern: the call asks for its log messages (logLevel).
    const params = { name: "test_tool_with_logging", _meta: { "io.modelcontextprotocol/logLevel": "info" } };
    const call = cli(["call", "--stdio", process.execPath, BIN, "record", "--out", file, "--", process.execPath, BIN, "serve", "--stdio", "tools/call", JSON.stringify(params)]);
    assert.equal(await call.code, 0, call.stderr());
    assert.equal(JSON.parse(call.stdout()).content[0].text, "Tool with logging executed successfully");
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines[0].transcript, "mcp-kernel/stdio-2");
    assert.equal(lines.filter((l) => l.from === "server").length, 5, "server/discover result, three logs, the call's result");
    assert.deepEqual(lines.at(-1)!.exit, { code: 0, signal: null });

    const replay = cli(["replay", file]);
    assert.equal(await replay.code, 0, replay.stdout() + replay.stderr());
    assert.equal(replay.stdout(), "ok 2 steps replayed identically\n");

    // The demo is told by the serverInfo it answered with, not by the command that ran it.
    const [header, ...rest] = readFileSync(file, "utf8").split("\n");
    const viaNpm = join(dir, "npm.jsonl");
    writeFileSync(viaNpm, [JSON.stringify({ ...JSON.parse(header), command: ["npm", "start", "--silent", "--", "--stdio"] }), ...rest].join("\n"));
    const npm = cli(["replay", viaNpm]);
    assert.equal(await npm.code, 0, npm.stdout() + npm.stderr());
    const other = join(dir, "other.jsonl");
    writeFileSync(other, readFileSync(file, "utf8").replaceAll("mcp-kernel-demo", "other-server"));
    const refused = cli(["replay", other]);
    assert.equal(await refused.code, 2, refused.stdout() + refused.stderr());
    assert.match(refused.stderr(), /this one recorded another server/);

    const tampered = join(dir, "tampered.jsonl");
    writeFileSync(tampered, readFileSync(file, "utf8").replace("Tool processing data", "Tool processing dada"));
    const diverged = cli(["replay", tampered]);
    assert.equal(await diverged.code, 1);
    assert.match(diverged.stdout(), /^divergence at step 2 \(line \d+\): server line 3 differs/);
    assert.match(diverged.stdout(), /expected .*Tool processing dada/);
    assert.match(diverged.stdout(), /actual .*Tool processing data/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs `record` around the "server" `node -e script` in a fresh folder (removed afterwards); `fn` drives it. */
async function withRecord(script: string, fn: (child: ChildProcessByStdio<Writable, Readable, Readable>, code: Promise<number | null>, transcript: () => Record<string, unknown>[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-record-"));
  try {
    const file = join(dir, "t.jsonl");
    const child = spawn(process.execPath, [BIN, "record", "--out", file, "--", process.execPath, "-e", script], { stdio: ["pipe", "pipe", "pipe"] });
    running.add(child);
    child.stdin.on("error", () => {});
    const code = new Promise<number | null>((resolve) => child.on("close", resolve));
    await fn(child, code, () => readFileSync(file, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as Record<string, unknown>));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("record: passes stdin and stdout through byte for byte (not-UTF-8 bytes too), logs them, and exits with the command's exit code", async () => {
  const input = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"x"}\n'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from("tail without newline")]);
  // A "server" that copies its input to its output, then exits 3.
  await withRecord("process.stdin.pipe(process.stdout); process.stdin.on('end', () => { process.exitCode = 3; });", async (child, exit, transcript) => {
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stdin.end(input);
    assert.equal(await exit, 3);
    assert.deepEqual(Buffer.concat(chunks), input);
    const events = transcript();
    const client = events.filter((e) => e.from === "client");
    assert.deepEqual(client.map((e) => e.line ?? e.bytes ?? (e.end === true ? "END" : "?")), ['{"jsonrpc":"2.0","method":"x"}', Buffer.from([0xff, 0xfe]).toString("base64"), "tail without newline", "END"]);
    assert.equal(events.filter((e) => e.from === "server").length, 3);
    assert.deepEqual(events.at(-1)!.exit, { code: 3, signal: null });
  });
});

/** Resolves once `stream` has delivered a chunk containing `text`. */
function seen(stream: NodeJS.ReadableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    let got = "";
    const on = (c: Buffer) => {
      got += c.toString();
      if (got.includes(text)) {
        stream.off("data", on);
        resolve();
      }
    };
    stream.on("data", on);
  });
}

// transports (stdio): a client that stops reading the server's stdout (EPIPE) is a client gone, not a crash.
test("serve --stdio: a client that stops reading stdout (EPIPE) ends the session; the server exits 0 instead of crashing", async () => {
  const child = spawn(process.execPath, [BIN, "serve", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  child.stdin.on("error", () => {});
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = new Promise<number | null>((resolve) => child.on("close", resolve));
  const answered = seen(child.stdout, '"id":0');
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }) + "\n");
  await answered;
  child.stdout.destroy();
  // Answers to these can no longer be written: the first write fails with EPIPE.
  for (let i = 1; i <= 20; i++) child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" }) + "\n");
  assert.equal(await code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
});

test("record: a client that stops reading (EPIPE) closes the server's stdin; record exits with the server's code, the transcript has what the server said", async () => {
  // Echoes its input, exits 5 when its stdin ends.
  await withRecord("process.stdin.pipe(process.stdout); process.stdin.on('end', () => { process.exitCode = 5; });", async (child, code, transcript) => {
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const echoed = seen(child.stdout, "first");
    child.stdin.write('{"n":"first"}\n');
    await echoed;
    child.stdout.destroy();
    for (let i = 0; i < 20; i++) child.stdin.write(`{"n":"after ${i}"}\n`);
    // Our stdin stays open: the client's end is the EPIPE, not an end of input.
    assert.equal(await code, 5, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
    const events = transcript();
    assert.ok(events.some((e) => e.from === "client" && e.end === true), "the client's end is recorded");
    assert.deepEqual(events.at(-1)!.exit, { code: 5, signal: null });
  });
});

// README "record": the transcript holds every byte record passed on. A line the client had
// begun is CMD's already when the input ends by the client going away (EPIPE) or by CMD's
// exit; it was dropped from the transcript, so a server's -32700 for it could not replay.
test("record: the unfinished line the client had sent is logged (as a final line without newline) when the input ends because the client stopped reading or the server exited; a `serve --stdio` recording of it replays", async () => {
  // Echoes its input, exits 5 when its stdin ends.
  await withRecord("process.stdin.pipe(process.stdout); process.stdin.on('end', () => { process.exitCode = 5; });", async (child, code, transcript) => {
    const echoed = seen(child.stdout, "first");
    child.stdin.write('{"n":"first"}\n');
    await echoed;
    child.stdout.destroy();
    // Forwarded, then echoed: record's write of the echo is the EPIPE that ends the input.
    child.stdin.write('{"n":"par');
    assert.equal(await code, 5);
    const client = transcript().filter((e) => e.from === "client");
    assert.deepEqual(client.map((e) => e.line ?? (e.end === true ? "END" : "?")), ['{"n":"first"}', '{"n":"par', "END"]);
  });
  // Exits on its first input, the client's input still open.
  await withRecord("process.stdin.once('data', () => process.exit(4));", async (child, code, transcript) => {
    child.stdin.write('{"n":1');
    assert.equal(await code, 4);
    child.stdin.destroy();
    assert.deepEqual(transcript().filter((e) => e.from === "client").map((e) => e.line), ['{"n":1']);
  });

  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-record-"));
  try {
    const file = join(dir, "t.jsonl");
    const child = spawn(process.execPath, [BIN, "record", "--out", file, "--", process.execPath, BIN, "serve", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    running.add(child);
    child.stdin.on("error", () => {});
    const code = new Promise<number | null>((resolve) => child.on("close", resolve));
    const answered = seen(child.stdout, '"id":1');
    child.stdin.write(INIT + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    await answered;
    child.stdout.destroy();
    // The ping's answer is the EPIPE; the server, its input ended, answers the unfinished line -32700.
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) + '\n{"jsonrpc":"2.0","id":3,"meth');
    assert.equal(await code, 0);
    const text = readFileSync(file, "utf8");
    assert.match(text, /"from":"client","line":"\{\\"jsonrpc\\":\\"2\.0\\",\\"id\\":3,\\"meth"\}/);
    const replay = cli(["replay", file]);
    assert.equal(await replay.code, 0, replay.stdout() + replay.stderr());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record: a server that exits while the client keeps its input open ends record with the server's code at once", async () => {
  await withRecord("process.stdin.once('data', () => process.exit(4));", async (child, code) => {
    child.stdin.write('{"n":1}\n');
    assert.equal(await code, 4);
    child.stdin.destroy();
  });
});

test("record: SIGTERM, SIGINT and SIGHUP are passed on to the server, whose exit completes the transcript and ends record with its code (the server is not orphaned)", async () => {
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    // Exits 7 on the signal, once it has said it listens for it.
    await withRecord(`process.on(${JSON.stringify(signal)}, () => process.exit(7)); process.stdin.resume(); console.log("ready");`, async (child, code, transcript) => {
      await seen(child.stdout, "ready");
      child.kill(signal);
      assert.equal(await code, 7, signal);
      assert.deepEqual(transcript().at(-1)!.exit, { code: 7, signal: null }, signal);
      child.stdin.destroy();
    });
  }
});

test("record: a terminal's Ctrl-C (SIGINT to record's process group) reaches the server once, through record, which passes on a second one too", { skip: process.platform === "win32" }, async () => {
  // A server for which a second SIGINT means "force quit" (exit 9); its input ending exits with the count.
  const script = `let n = 0; process.on("SIGINT", () => { n++; console.log("sigint " + n); if (n === 2) process.exit(9); }); process.stdin.on("end", () => process.exit(n)).resume(); console.log("ready");`;
  for (const presses of [1, 2]) {
    const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-record-"));
    try {
      const file = join(dir, "t.jsonl");
      // Its own process group, as a terminal's foreground job: a signal to the group is what Ctrl-C sends.
      const child = spawn(process.execPath, [BIN, "record", "--out", file, "--", process.execPath, "-e", script], { stdio: ["pipe", "pipe", "pipe"], detached: true });
      running.add(child);
      child.stdin.on("error", () => {});
      const code = new Promise<number | null>((resolve) => child.on("close", resolve));
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      await seen(child.stdout, "ready");
      for (let press = 1; press <= presses; press++) {
        const said = seen(child.stdout, `sigint ${press}`);
        process.kill(-child.pid!, "SIGINT");
        await said;
      }
      child.stdin.end();
      const expected = presses === 1 ? 1 : 9;
      assert.equal(await code, expected, `${presses} presses: ${out}`);
      assert.doesNotMatch(out, new RegExp(`sigint ${presses + 1}`));
      const last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1)!) as { exit?: unknown };
      assert.deepEqual(last.exit, { code: expected, signal: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test("record: no command, or one that cannot start, is a usage error (exit 2)", async () => {
  const none = cli(["record", "--out", join(tmpdir(), "never.jsonl")]);
  assert.equal(await none.code, 2);
  assert.match(none.stderr(), /no command/);
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-record-"));
  try {
    const missing = cli(["record", "--out", join(dir, "t.jsonl"), "--", join(dir, "no-such-command")], { input: "" });
    assert.equal(await missing.code, 2);
    assert.match(missing.stderr(), /cannot run/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("npm start (scripts/start.mjs): runs serve with its arguments; --port 0 listens and SIGTERM exits 0", async () => {
  const start = cli(["--port", "0"], { script: START });
  await start.waitErr(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
  start.child.kill("SIGTERM");
  assert.equal(await start.code, 0);
});

test("npm start (scripts/start.mjs) as npm runs it, through `sh -c`: SIGTERM to the shell, which dies without passing it on, still stops the server and frees its port", { skip: process.platform === "win32" ? "POSIX shells and reparenting" : false, timeout: 20_000 }, async () => {
  // As npm runs a script: `sh -c "node scripts/start.mjs --port 0"`, with npm's variables for its `start` set.
  const env = { ...process.env, npm_lifecycle_event: "start", npm_lifecycle_script: "node scripts/start.mjs" };
  const sh = spawn("sh", ["-c", '"$0" "$@"', process.execPath, START, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"], env });
  running.add(sh);
  // The server holds the shell's stdout and stderr too: they close when it exits, not when the shell does.
  let closed = false;
  const close = new Promise<void>((resolve) => sh.on("close", () => ((closed = true), resolve())));
  let stderr = "";
  const port = await new Promise<number>((resolve) =>
    sh.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp\n/.exec(stderr);
      if (m !== null) resolve(Number(m[1]));
    }),
  );
  // Were the server orphaned for good (the test failing), it must not outlive the run.
  let server: number | undefined;
  try {
    server = Number(execFileSync("pgrep", ["-P", String(sh.pid)], { encoding: "utf8" }).trim());
  } catch {}
  after(() => {
    if (!closed && server !== undefined) process.kill(server, "SIGKILL");
  });
  sh.kill("SIGTERM");
  await close;
  // Where the shell passes the signal on (bash execs the command) the watch never fires.
  if (server !== undefined && server !== sh.pid) assert.match(stderr, /npm start went away/);
  const again = createServer();
  await new Promise<void>((resolve, reject) => again.once("error", reject).listen(port, "127.0.0.1", resolve));
  await new Promise((resolve) => again.close(resolve));
});

test("validate | head -1: a reader that goes away (EPIPE) stops validate quietly with 141, as SIGPIPE ends a filter; no stack trace, not exit 1 (\"some are not valid\")", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-validate-"));
  try {
    const file = join(dir, "many.jsonl");
    // Far more output than a pipe holds: validate is still writing when the reader goes.
    writeFileSync(file, `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n`.repeat(20_000));
    const child = spawn(process.execPath, [BIN, "validate", "--version", "2025-11-25", file], { stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = new Promise<number | null>((resolve) => child.on("close", resolve));
    await seen(child.stdout, "\n");
    child.stdout.destroy();
    assert.equal(await code, 141, stderr);
    assert.equal(stderr, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--help and validate with stdout on a full device (ENOSPC): one line on stderr, exit 2, no stack trace", { skip: existsSync("/dev/full") ? false : "no /dev/full here" }, async () => {
  for (const [args, who] of [[["--help"], "mcp-kernel"], [["validate", "-"], "mcp-kernel validate"]] as const) {
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ["pipe", full, "pipe"] });
      running.add(child);
      let stderr = "";
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
      const code = new Promise<number | null>((resolve) => child.on("close", resolve));
      child.stdin!.end(INIT + "\n");
      assert.equal(await code, 2, stderr);
      assert.equal(stderr, `${who}: cannot write output: ENOSPC: no space left on device, write\n`);
    } finally {
      closeSync(full);
    }
  }
});

test("record: a transcript that cannot be written whole (ENOSPC on /dev/full) is said on stderr; exit 2 when CMD exited 0, CMD's code otherwise", { skip: existsSync("/dev/full") ? false : "no /dev/full here" }, async () => {
  // /dev/full opens, and fails the first write (the header) with ENOSPC.
  for (const [script, expected] of [["", 2], ["process.exitCode = 3", 3]] as const) {
    const run = cli(["record", "--out", "/dev/full", "--", process.execPath, "-e", script], { input: "" });
    assert.equal(await run.code, expected, run.stderr());
    assert.equal(run.stderr(), "mcp-kernel record: transcript /dev/full incomplete: ENOSPC: no space left on device, write\n");
  }
});
