/**
 * stdio on Node with real child processes, beyond the runtime-neutral suite: the server
 * transport driven byte by byte through a raw pipe, and backpressure in both directions.
 * Spec: `basic/transports` of 2025-11-25 ("stdio") and draft `basic/transports/stdio`.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ManualClock } from "../../src/driver/clock.js";
import { detectRuntime, spawnStdioServer } from "../../src/transports/stdio.js";
import { superviseChild, type SpawnFunction } from "../../src/transports/child.js";
import { SPAWN_NONE } from "../harness/undefined-options.js";
import { fixture, spawnFixture, wire } from "./runtime-suite.js";

const ECHO_SERVER = fileURLToPath(new URL("../fixtures/stdio/echo-server.js", import.meta.url));
const turn = () => new Promise<void>((r) => setImmediate(r));

/** The server fixture on raw pipes: write bytes, read whole lines. */
function rawServer(flags: string[]) {
  const child = spawn(process.execPath, [ECHO_SERVER, ...flags], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    out += d;
    let lf: number;
    while ((lf = out.indexOf("\n")) !== -1) {
      lines.push(out.slice(0, lf));
      out = out.slice(lf + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => (err += d));
  return {
    child,
    lines,
    stderr: () => err,
    /** Writes the chunks one by one, yielding to the event loop between them. */
    async write(...chunks: (string | Uint8Array)[]) {
      for (const c of chunks) {
        child.stdin.write(c);
        await turn();
      }
    },
    /** Resolves with the parsed reply to request `id` (or, for `null`, the first error whose id could not be read: it has none on the wire). */
    async reply(id: number | null): Promise<{ id?: unknown; result?: unknown; error?: { code: number } }> {
      for (;;) {
        const found = lines.map((l) => JSON.parse(l)).find((m) => (id === null ? !("id" in m) : m.id === id) && ("result" in m || "error" in m));
        if (found) return found;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

const init = (id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

// transports (stdio): newline-delimited messages over stdin, whatever the chunking; CRLF tolerated.
test("stdio server: a message in several writes, several messages in one write, CRLF", async () => {
  const s = rawServer([]);
  const msg = init(1);
  await s.write(msg.slice(0, 10), msg.slice(10, 40), msg.slice(40) + "\n");
  assert.equal((await s.reply(1)).id, 1);
  await s.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n' + ping(2) + "\n" + ping(3) + "\r\n");
  assert.deepEqual([(await s.reply(2)).result, (await s.reply(3)).result], [{}, {}]);
  s.child.stdin.end();
  await once(s.child, "exit");
});

// transports (stdio) + JSON-RPC: a line that is too long or not UTF-8 is answered, and the connection survives;
// basic/index: the error names the request's id when it can be read (the framer keeps the dropped line's two ends).
test("stdio server: an oversized request gets -32600 with its id, an invalid UTF-8 line -32700 with no id; the connection survives", async () => {
  const s = rawServer(["--max-line=1024"]);
  await s.write(init(1) + "\n");
  await s.reply(1);
  await s.write('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"', "x".repeat(3000), '"}}\n');
  const oversized = await s.reply(7);
  assert.equal(oversized.error?.code, -32600);
  assert.match(JSON.stringify(oversized), /message exceeds maxBytes \(1024\)/);
  // Its id at the end only (as some peers order members), read from the line's tail.
  await s.write('{"jsonrpc":"2.0","method":"ping","params":{"pad":"', "y".repeat(3000), '"},"id":9}\n');
  assert.equal((await s.reply(9)).error?.code, -32600);
  s.lines.length = 0;
  await s.write(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]));
  assert.equal((await s.reply(null)).error?.code, -32700);
  await s.write(ping(8) + "\n");
  assert.deepEqual((await s.reply(8)).result, {});
  s.child.stdin.end();
  const [code] = await once(s.child, "exit");
  assert.equal(code, 0, "the server exits when its stdin ends");
  // transports (stdio): the server MAY log to stderr; stdout carries only messages.
  assert.match(s.stderr(), /framing fault oversized[\s\S]*framing fault invalid-utf8/);
  assert.ok(s.lines.every((l) => typeof JSON.parse(l) === "object"));
});

test("stdio server: a client that stops reading stdout (EPIPE) closes the server transport instead of crashing the server", async () => {
  const s = rawServer([]);
  await s.write(init(1) + "\n");
  await s.reply(1);
  s.child.stdout.destroy();
  await s.write(ping(2) + "\n");
  const [code] = await once(s.child, "exit");
  assert.equal(code, 0);
  assert.match(s.stderr(), /echo-server: closed \(stdio failed: [^)]*EPIPE/);
});

test("stdio server backpressure: large answers that overrun the pipe all arrive whole, in order", async () => {
  const child = spawnFixture("echo-server");
  const c = wire(child, "client");
  await c.endpoint.open();
  const sizes = [1 << 20, 3, 1 << 19, 1 << 20, 7];
  const results = await Promise.all(sizes.map((size) => c.endpoint.request("tools/call", { name: "big", arguments: { size } })));
  assert.deepEqual(
    results.map((r) => ((r.content as { text: string }[])[0].text.length)),
    sizes,
  );
  child.close();
  assert.deepEqual(await child.exited, { code: 0, signal: null });
});

test("stdio client backpressure: large requests that overrun the pipe all arrive whole", async () => {
  const child = spawnFixture("echo-server");
  const c = wire(child, "client");
  await c.endpoint.open();
  const payloads = [600_000, 10, 900_000].map((n, i) => "abcdefgh"[i].repeat(n));
  const results = await Promise.all(payloads.map((p) => c.endpoint.request("tools/call", { name: "echo", arguments: { p } })));
  assert.deepEqual(
    results.map((r) => (JSON.parse((r.content as { text: string }[])[0].text) as { p: string }).p),
    payloads,
  );
  child.close();
  await child.exited;
});

test("stdio (README Limits: a limit answers while the connection serves on): six concurrent calls with 3.5 MiB arguments, and six 3.5 MiB answers, each within the 4 MiB message limit, all arrive at the default queue bound", async () => {
  // 21 MiB in one burst each way, over the 16 Mi maxQueuedChars: queued before any drain can come, though both peers read.
  const child = spawnFixture("echo-server");
  const c = wire(child, "client");
  await c.endpoint.open();
  const size = 3.5 * 1024 * 1024;
  const payloads = "abcdef".split("").map((ch) => ch.repeat(size));
  const echoed = await Promise.all(payloads.map((p) => c.endpoint.request("tools/call", { name: "echo", arguments: { p } })));
  assert.ok(echoed.every((r, i) => (JSON.parse((r.content as { text: string }[])[0].text) as { p: string }).p === payloads[i]), "every argument arrived whole");
  const big = await Promise.all(payloads.map(() => c.endpoint.request("tools/call", { name: "big", arguments: { size } })));
  assert.ok(big.every((r) => (r.content as { text: string }[])[0].text.length === size), "every answer arrived whole (and the connection served on between the bursts)");
  child.close();
  await child.exited;
});

test("stdio client: a server that does not read its stdin stalls the queue past maxQueuedChars; after maxStallMs the transport closes saying so", async () => {
  // This child never reads stdin: the first write (2 MB) is more than a pipe buffers (64 KiB by default on Linux, 1 MiB at most unprivileged), so the second is queued.
  const clock = new ManualClock();
  const child = spawnStdioServer(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { maxQueuedChars: 1000, maxStallMs: 5_000, shutdownTimeoutMs: 0, killTimeoutMs: 60_000, clock });
  const closed = new Promise<string>((r) => child.onClose(r));
  child.send(JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "x".repeat(2_000_000) } }));
  child.send(JSON.stringify({ jsonrpc: "2.0", method: "y", params: { pad: "y".repeat(2000) } }));
  // The shutdown sequence runs on the same clock: its SIGTERM (shutdownTimeoutMs 0) fires within this advance too.
  clock.advance(5_000);
  assert.match(await closed, /the output did not drain for 5000 ms with \d+ characters waiting \(over maxQueuedChars 1000\): the peer is not reading/);
  assert.deepEqual(await child.exited, { code: null, signal: "SIGTERM" });
});

// lifecycle (Shutdown, stdio) and README (`client.close(); // closes the server's stdin; it exits`):
// once closed and the server exited, the client is done, even if a grandchild the server
// started (a wrapper's helper, a daemon) still holds the stdout pipe it inherited.
test("stdio client: after close() and the server's exit, a grandchild holding the server's stdout does not keep the client's process alive", { timeout: 10_000 }, async () => {
  // The server starts a grandchild that inherits its stdout and outlives it (20 s), prints the
  // grandchild's pid to stderr, and exits when its stdin ends.
  const server = [
    "const g = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: ['ignore', 'inherit', 'ignore'] });",
    "process.stderr.write('grandchild ' + g.pid + '\\n');",
    "process.stdin.resume();",
    "process.stdin.on('end', () => process.exit(0));",
  ].join(" ");
  // The client closes as soon as the grandchild runs, then has nothing left to do.
  const client = [
    `import { spawnStdioServer } from ${JSON.stringify(new URL("../../src/transports/stdio.js", import.meta.url).href)};`,
    `const child = spawnStdioServer(process.execPath, ["-e", ${JSON.stringify(server)}], { stderr: (text) => { process.stderr.write(text); child.close(); } });`,
    `child.exited.then((status) => process.stderr.write("server exited " + JSON.stringify(status) + "\\n"));`,
  ].join("\n");
  const proc = spawn(process.execPath, ["--input-type=module", "-e", client], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  proc.stderr.setEncoding("utf8");
  proc.stderr.on("data", (d: string) => (err += d));
  const [code] = await once(proc, "exit");
  const grandchild = Number(/grandchild (\d+)/.exec(err)?.[1]);
  try {
    assert.equal(code, 0, err);
    assert.match(err, /server exited \{"code":0,"signal":null\}/);
  } finally {
    if (grandchild > 0) process.kill(grandchild);
  }
});

// README (spawnStdioServer: "A command that cannot be started gives a transport that closes at
// once with the error ... nothing throws"): also when the client is out of file descriptors.
// Node then starts nothing and makes no pipes; reading them threw, and the spawn's "error",
// emitted before anyone listened, crashed the client.
test("stdio client: a spawn that fails for want of file descriptors (EMFILE) closes the transport with that error; the client process does not crash", { timeout: 20_000, skip: process.platform === "win32" }, async () => {
  // The client fills its descriptor table (ulimit -n 64), spawns, then gives the descriptors back.
  const client = [
    `import { openSync, closeSync } from "node:fs";`,
    `import { spawnStdioServer } from ${JSON.stringify(new URL("../../src/transports/stdio.js", import.meta.url).href)};`,
    `const held = [];`,
    `try { for (;;) held.push(openSync("/dev/null", "r")); } catch {}`,
    `const child = spawnStdioServer(process.execPath, ["-e", "0"], { stderr: "ignore" });`,
    `for (const fd of held) closeSync(fd);`,
    `const reason = await new Promise((r) => child.onClose(r));`,
    `process.stdout.write(JSON.stringify({ reason, status: await child.exited, pid: child.pid ?? null }));`,
  ].join("\n");
  const proc = spawn("/bin/sh", ["-c", 'ulimit -n 64 && exec "$0" "$@"', process.execPath, "--input-type=module", "-e", client], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  proc.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const [code] = await once(proc, "exit");
  assert.equal(code, 0, err);
  const got = JSON.parse(out) as { reason: string; status: { error?: string }; pid: null };
  assert.match(got.reason, /^server process failed: spawn .* EMFILE$/);
  assert.match(got.status.error ?? "", /EMFILE/);
  assert.equal(got.pid, null);
});

test("stdio client: stderr 'pipe' exposes the server's stderr as a ReadableStream", async () => {
  const [command, args] = fixture("echo-server");
  const child = spawnStdioServer(command, args, { stderr: "pipe" });
  assert.ok(child.stderr instanceof ReadableStream);
  const logs = new Response(child.stderr).text();
  const c = wire(child, "client");
  await c.endpoint.open();
  child.close();
  assert.match(await logs, /echo-server: ready/);
});

// README "Options checked where they are given": an option given as undefined is read as
// one left out. The spawn transport's default of `batchWrites` (on) was spread under the
// options, and an undefined one turned it off.
test('README "Options checked where they are given" (an option given as undefined is read as left out): spawnStdioServer with every option undefined serves a round trip and exits cleanly; a burst sent in one turn goes to the child in one write as by default, and close() waits for the exit before SIGTERM (default 2 s, not at once)', async () => {
  const child = spawnStdioServer(...fixture("echo-server"), { ...SPAWN_NONE, stderr: "ignore" });
  const c = wire(child, "client");
  await c.endpoint.open();
  const r = await c.endpoint.request("tools/call", { name: "echo", arguments: { a: 1 } });
  assert.deepEqual(r.content, [{ type: "text", text: '{"a":1}' }]);
  child.close();
  assert.deepEqual(await child.exited, { code: 0, signal: null });

  // A scripted process: what is written to its stdin, and the signals it gets.
  const written: string[] = [];
  const signals: string[] = [];
  let exit!: (code: number) => void;
  const spawnScripted: SpawnFunction = (_command, _args, _options, events) => {
    exit = (code) => events.exit({ code, signal: null });
    return { pid: 1, stdin: { write: (chunk) => (written.push(chunk), true), waitDrain: () => {}, end: () => {} }, stderr: undefined, kill: (s) => void signals.push(s) };
  };
  const scripted = superviseChild(spawnScripted, "server", [], SPAWN_NONE);
  for (let n = 1; n <= 3; n++) scripted.send(`{"n":${n}}`);
  await turn();
  assert.deepEqual(written, ['{"n":1}\n', '{"n":2}\n{"n":3}\n'], "the first line at once, the rest of the turn's in one write");
  scripted.close();
  await turn();
  assert.deepEqual(signals, [], "no SIGTERM before shutdownTimeoutMs");
  exit(0);
  assert.deepEqual(await scripted.exited, { code: 0, signal: null });
});

test("runtime detection: Node here; Deno and Bun by their globals", () => {
  assert.equal(detectRuntime(), "node");
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  try {
    g.Bun = {};
    assert.equal(detectRuntime(), "bun");
    g.Deno = {};
    assert.equal(detectRuntime(), "deno", "Deno first: it also defines process");
  } finally {
    delete g.Bun;
    delete g.Deno;
  }
});
