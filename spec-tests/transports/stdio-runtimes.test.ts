/**
 * The Deno and Bun glue (src/transports/stdio-deno.ts, stdio-bun.ts) under Node, against
 * stand-ins for `Deno.Command` and `Bun.spawn` that follow those runtimes' documented
 * shapes: Web Streams for Deno's pipes, a `FileSink` (write, flush, end) for Bun's stdin,
 * `status` / `exited` for the exit. Some stand-ins run a real Node child, so the whole
 * path (framing, handshake, shutdown) is exercised; others are scripted, for the edge
 * cases. The real runtimes run runtime-suite.ts itself.
 * Spec: `basic/transports` of 2025-11-25 ("stdio"), `basic/lifecycle` ("Shutdown").
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { test } from "node:test";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { superviseChild, type SpawnOptions, type StdioChild } from "../../src/transports/child.js";
import { bunSpawn } from "../../src/transports/stdio-bun.js";
import { denoSpawn } from "../../src/transports/stdio-deno.js";
import { detectRuntime, stdioServerTransport } from "../../src/transports/stdio.js";
import { webStreamsTransport } from "../../src/transports/web-streams.js";
import { wire } from "./runtime-suite.js";

const ECHO_SERVER = fileURLToPath(new URL("../fixtures/stdio/echo-server.js", import.meta.url));
const g = globalThis as { Deno?: unknown; Bun?: unknown };

/** Installs a stand-in global for the duration of `fn`. */
async function withGlobal(name: "Deno" | "Bun", value: unknown, fn: () => Promise<void>): Promise<void> {
  g[name] = value;
  try {
    await fn();
  } finally {
    delete g[name];
  }
}

type Stdio = "piped" | "inherit" | "null" | "pipe" | "ignore";
const nodeStdio = (s: Stdio | undefined) => (s === "piped" || s === "pipe" ? "pipe" : "ignore"); // inherit → ignore: keep test output clean

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

// ---------------------------------------------------------------------------------------
// Deno

/** `Deno.Command` over a Node child; records the options it was given. */
function fakeDeno(record: unknown[]) {
  return {
    Command: class {
      constructor(
        private readonly command: string,
        private readonly options: { args?: string[]; cwd?: string; env?: Record<string, string>; clearEnv?: boolean; stdin?: Stdio; stdout?: Stdio; stderr?: Stdio },
      ) {
        record.push(options);
      }
      spawn() {
        const o = this.options;
        if (this.command.startsWith("/nonexistent")) throw new Error(`Failed to spawn '${this.command}': No such file or directory`);
        const env = o.clearEnv ? o.env : { ...process.env, ...o.env };
        const child = spawn(this.command, o.args ?? [], { cwd: o.cwd, env, stdio: [nodeStdio(o.stdin), nodeStdio(o.stdout), nodeStdio(o.stderr)] });
        const exit = exitOf(child);
        const stderr = o.stderr === "piped" ? (Readable.toWeb(child.stderr!) as ReadableStream<Uint8Array>) : undefined;
        return {
          pid: child.pid!,
          stdin: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
          stdout: Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
          get stderr(): ReadableStream<Uint8Array> {
            if (stderr === undefined) throw new TypeError("stderr is not piped");
            return stderr;
          },
          // Deno reports a signal death with code 128 + signal number.
          status: exit.then(({ code, signal }) => ({ success: code === 0, code: code ?? 143, signal })),
          kill(signal?: string) {
            if (child.exitCode !== null || child.signalCode !== null) throw new TypeError("Child process has already terminated");
            child.kill(signal as NodeJS.Signals);
          },
        };
      }
    },
  };
}

test("Deno: a server spawned with Deno.Command serves a handshake and requests; closing stdin lets it exit", async () => {
  const record: unknown[] = [];
  await withGlobal("Deno", fakeDeno(record), async () => {
    let logs = "";
    const child = superviseChild(denoSpawn, process.execPath, [ECHO_SERVER], { env: { ...(process.env as Record<string, string>) }, stderr: (t) => (logs += t) });
    assert.equal(typeof child.pid, "number");
    const c = wire(child, "client");
    await c.endpoint.open();
    const r = await c.endpoint.request("tools/call", { name: "echo", arguments: { big: "é".repeat(300_000) } });
    assert.equal((JSON.parse((r.content as { text: string }[])[0].text) as { big: string }).big.length, 300_000);
    child.close();
    assert.deepEqual(await child.exited, { code: 0, signal: null });
    assert.match(logs, /echo-server: ready/);
    // Deno merges `env` into the parent's unless clearEnv: here `env` is the whole environment.
    assert.deepEqual(record[0], { args: [ECHO_SERVER], cwd: undefined, env: { ...process.env }, clearEnv: true, stdin: "piped", stdout: "piped", stderr: "piped" });
  });
});

// lifecycle (Shutdown, stdio): SIGTERM when the server does not exit after its stdin closed.
test("Deno: a signal death is reported as the signal, not Deno's 128+n code", async () => {
  const record: { stderr?: string; clearEnv?: boolean }[] = [];
  await withGlobal("Deno", fakeDeno(record), async () => {
    const child = superviseChild(denoSpawn, process.execPath, [ECHO_SERVER, "--ignore-stdin-close"], { shutdownTimeoutMs: 0, killTimeoutMs: 60_000, stderr: "ignore" });
    const c = wire(child, "client");
    await c.endpoint.open();
    child.close();
    assert.deepEqual(await child.exited, { code: null, signal: "SIGTERM" });
    assert.equal(record[0].stderr, "null");
    assert.equal(record[0].clearEnv, false);
  });
});

test("Deno: stderr 'pipe' is the child's stream; 'inherit' passes it through; a command that does not exist closes the transport", async () => {
  const record: { stderr?: string }[] = [];
  await withGlobal("Deno", fakeDeno(record), async () => {
    const piped = superviseChild(denoSpawn, process.execPath, [ECHO_SERVER], { stderr: "pipe" });
    const logs = new Response(piped.stderr).text();
    piped.close();
    assert.match(await logs, /echo-server: ready/);
    const inherited = superviseChild(denoSpawn, process.execPath, [ECHO_SERVER], {});
    assert.equal(inherited.stderr, undefined);
    inherited.close();
    await inherited.exited;
    assert.deepEqual(record.map((r) => r.stderr), ["piped", "inherit"]);
    const missing = superviseChild(denoSpawn, "/nonexistent/server", [], {});
    assert.match((await missing.exited).error ?? "", /No such file/);
    // Deno's kill throws once the child has exited; the glue swallows it.
    let exited!: () => void;
    const done = new Promise<void>((r) => (exited = r));
    const raw = denoSpawn(process.execPath, ["-e", ""], { stderr: "ignore" }, { stdout: () => {}, stdoutEnd: () => {}, exit: () => exited() });
    await done;
    raw.kill("SIGTERM");
  });
});

test("Deno: a status that rejects is reported as an exit with an error; a broken stdout ends the input", async () => {
  const deno = {
    Command: class {
      spawn() {
        return {
          pid: 1,
          stdin: new WritableStream<Uint8Array>(),
          stdout: new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("EBADF")) }),
          stderr: undefined,
          status: Promise.reject(new Error("wait failed")),
          kill() {
            throw new TypeError("Child process has already terminated");
          },
        };
      }
    },
  };
  await withGlobal("Deno", deno, async () => {
    const child = superviseChild(denoSpawn, "server", [], { stderr: "ignore", shutdownTimeoutMs: 0 });
    const closed = new Promise<string>((r) => child.onClose(r));
    assert.deepEqual(await child.exited, { code: null, signal: null, error: "wait failed" });
    assert.equal(await closed, "server process failed: wait failed");
  });
});

test("Deno: the server side is the Web Streams transport over Deno.stdin.readable and Deno.stdout.writable", async () => {
  const toServer = new TransformStream<Uint8Array | string, Uint8Array | string>();
  const toClient = new TransformStream<Uint8Array | string, Uint8Array | string>();
  const deno = { stdin: { readable: toServer.readable }, stdout: { writable: toClient.writable } };
  await withGlobal("Deno", deno, async () => {
    // Picked by runtime detection, as an application would get it.
    assert.equal(detectRuntime(), "deno");
    const server = wire(stdioServerTransport(), "server", () => ({ content: [] }));
    const clientTransport = webStreamsTransport(toClient.readable, toServer.writable);
    const c = wire(clientTransport, "client");
    const { peer } = await c.endpoint.open();
    assert.equal(peer.info.name, "test-server");
    clientTransport.close();
    assert.ok((await server.closed).length > 0);
  });
});

// ---------------------------------------------------------------------------------------
// Bun

/** `Bun.spawn` over a Node child; its stdin is a FileSink whose flush returns a promise while the pipe is full. */
function fakeBun(record: unknown[], signalAsNumber = false) {
  return {
    spawn(cmd: string[], options: { cwd?: string; env?: Record<string, string>; stdin: Stdio; stdout: Stdio; stderr: Stdio }) {
      record.push({ cmd, ...options });
      if (cmd[0].startsWith("/nonexistent")) throw new Error(`ENOENT: no such file or directory, posix_spawn '${cmd[0]}'`);
      const child = spawn(cmd[0], cmd.slice(1), { cwd: options.cwd, env: options.env, stdio: [nodeStdio(options.stdin), nodeStdio(options.stdout), nodeStdio(options.stderr)] });
      let buffered: (string | Uint8Array)[] = [];
      const proc = {
        pid: child.pid!,
        exitCode: null as number | null,
        signalCode: null as string | number | null,
        stdin: {
          write(chunk: string | Uint8Array) {
            buffered.push(chunk);
            return chunk.length;
          },
          flush(): number | Promise<number> {
            const data = buffered.map((c) => (typeof c === "string" ? Buffer.from(c) : Buffer.from(c)));
            buffered = [];
            const joined = Buffer.concat(data);
            if (child.stdin!.write(joined)) return joined.length;
            return new Promise((resolve) => child.stdin!.once("drain", () => resolve(joined.length)));
          },
          end() {
            child.stdin!.end();
            return 0;
          },
        },
        stdout: Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
        stderr: options.stderr === "pipe" ? (Readable.toWeb(child.stderr!) as ReadableStream<Uint8Array>) : undefined,
        exited: exitOf(child).then(({ code, signal }) => {
          proc.exitCode = code;
          proc.signalCode = signal === null ? null : signalAsNumber ? 15 : signal;
          return code ?? 128 + 15;
        }),
        kill: (signal?: string) => void child.kill(signal as NodeJS.Signals),
      };
      child.stdin!.on("error", () => {});
      return proc;
    },
  };
}

test("Bun: a server spawned with Bun.spawn serves requests; large writes wait for FileSink flushes", async () => {
  const record: unknown[] = [];
  await withGlobal("Bun", fakeBun(record), async () => {
    let logs = "";
    const child = superviseChild(bunSpawn, process.execPath, [ECHO_SERVER], { stderr: (t) => (logs += t), cwd: process.cwd() });
    const c = wire(child, "client");
    await c.endpoint.open();
    const payloads = [700_000, 5, 900_000].map((n) => "q".repeat(n));
    const results = await Promise.all(payloads.map((p) => c.endpoint.request("tools/call", { name: "echo", arguments: { p } })));
    assert.deepEqual(
      results.map((r) => (JSON.parse((r.content as { text: string }[])[0].text) as { p: string }).p.length),
      payloads.map((p) => p.length),
    );
    child.close();
    assert.deepEqual(await child.exited, { code: 0, signal: null });
    assert.match(logs, /echo-server: ready/);
    assert.deepEqual(record[0], { cmd: [process.execPath, ECHO_SERVER], cwd: process.cwd(), env: undefined, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  });
});

test("Bun: signal deaths are reported by name (a numbered signal as its number); stderr modes map to Bun's", async () => {
  const record: { stderr?: string }[] = [];
  for (const numbered of [false, true]) {
    await withGlobal("Bun", fakeBun(record, numbered), async () => {
      const child: StdioChild = superviseChild(bunSpawn, process.execPath, [ECHO_SERVER, "--ignore-stdin-close"], { shutdownTimeoutMs: 0, killTimeoutMs: 60_000, stderr: numbered ? "ignore" : "pipe" });
      const c = wire(child, "client");
      await c.endpoint.open();
      child.close();
      assert.deepEqual(await child.exited, { code: null, signal: numbered ? "15" : "SIGTERM" });
    });
  }
  await withGlobal("Bun", fakeBun(record), async () => {
    const child = superviseChild(bunSpawn, process.execPath, [ECHO_SERVER], {} satisfies SpawnOptions);
    child.close();
    await child.exited;
    const missing = superviseChild(bunSpawn, "/nonexistent/server", [], {});
    assert.match((await missing.exited).error ?? "", /ENOENT/);
  });
  assert.deepEqual(record.map((r) => r.stderr), ["pipe", "ignore", "inherit", "inherit"]);
});

test("Bun: FileSink failures never throw out of the transport; a failed flush or write (the child no longer reads its stdin) releases the queue and starts the shutdown sequence; a rejected exit is an error", async () => {
  const calls: string[] = [];
  let mode: "throw" | "reject" | "ok" = "reject";
  let failExit!: (e: Error) => void;
  const bun = {
    spawn: () => ({
      pid: 2,
      exitCode: null,
      signalCode: null,
      stdin: {
        write(chunk: string) {
          calls.push(`write ${chunk.length}`);
          if (mode === "throw") throw new Error("closed");
          return chunk.length;
        },
        flush() {
          calls.push("flush");
          return mode === "reject" ? Promise.reject(new Error("EPIPE")) : 0;
        },
        end() {
          calls.push("end");
          if (mode === "throw") throw new Error("closed");
          return Promise.reject(new Error("EPIPE"));
        },
      },
      stdout: new ReadableStream<Uint8Array>(),
      stderr: undefined,
      exited: new Promise<number>((_, reject) => (failExit = reject)),
      kill() {
        throw new Error("ESRCH");
      },
    }),
  };
  await withGlobal("Bun", bun, async () => {
    const child = superviseChild(bunSpawn, "server", [], { stderr: "ignore", shutdownTimeoutMs: 0, killTimeoutMs: 0 });
    const closed = new Promise<string>((r) => child.onClose(r));
    child.send("{}"); // flush rejects: full until it settles
    child.send("[]"); // queued
    await new Promise((r) => setTimeout(r, 0));
    // end() returns a rejected promise: handled; kill throws (ESRCH) on the escalation path: swallowed.
    assert.deepEqual(calls, ["write 3", "flush", "end"], "the failed flush released the queue and closed stdin (draft stdio Shutdown: the server is reaped, not waited for forever)");
    child.send("{}");
    assert.deepEqual(calls, ["write 3", "flush", "end"], "later writes are dropped");
    failExit(new Error("waitpid failed"));
    assert.deepEqual(await child.exited, { code: null, signal: null, error: "waitpid failed" });
    assert.equal(await closed, "server process failed: waitpid failed");
    calls.length = 0;
    mode = "throw";
    const thrown = superviseChild(bunSpawn, "server", [], { stderr: "ignore", shutdownTimeoutMs: 0, killTimeoutMs: 0 });
    thrown.send("{}"); // write throws: dropped, stdin closed (end throws too: swallowed)
    assert.deepEqual(calls, ["write 3", "end"]);
    thrown.close();
    assert.equal(await new Promise<string>((r) => thrown.onClose(r)), "transport closed by this side");
    failExit(new Error("waitpid failed"));
    await thrown.exited;
  });
  const ended = {
    spawn: () => ({ ...bun.spawn(), stdin: { write: () => 0, flush: () => 0, end: () => { throw new Error("closed"); } }, exited: new Promise<number>(() => {}) }),
  };
  await withGlobal("Bun", ended, async () => {
    const child = superviseChild(bunSpawn, "server", [], { stderr: "ignore", shutdownTimeoutMs: 0, killTimeoutMs: 0 });
    child.send("{}");
    child.close(); // end() throws: swallowed
    assert.equal(await new Promise<string>((r) => child.onClose(r)), "transport closed by this side");
  });
});

// ---------------------------------------------------------------------------------------
// Both

// stdio (basic/transports, 2025-11-25): once the transport has closed and the server has
// exited, a grandchild the server left running (a wrapper's helper, a daemon) holds both of
// the pipes it inherited, stdout and stderr. Node unrefs both; here, with stderr handed to a
// callback, the logs' pending read was left, and the Deno or Bun client did not exit until
// that grandchild did.
test("Deno and Bun: once closed and exited, a stderr read by a callback is let go too, so a grandchild holding it does not keep the client alive", async () => {
  for (const runtime of ["Deno", "Bun"] as const) {
    const cancelled: string[] = [];
    let exit!: () => void;
    const held = (name: string, text?: string) =>
      new ReadableStream<Uint8Array>({
        start: (c) => void (text !== undefined && c.enqueue(new TextEncoder().encode(text))),
        cancel: () => void cancelled.push(name),
      });
    const process = () => ({ pid: 3, stdin: new WritableStream<Uint8Array>(), stdout: held("stdout"), stderr: held("stderr", "server: bye\n") });
    const deno = {
      Command: class {
        spawn() {
          return { ...process(), status: new Promise((r) => (exit = () => r({ success: true, code: 0, signal: null }))), kill() {} };
        }
      },
    };
    const proc = { ...process(), stdin: { write: () => 0, flush: () => 0, end: () => 0 }, exitCode: 0, signalCode: null, kill() {} };
    const bun = { spawn: () => Object.assign(proc, { exited: new Promise<number>((r) => (exit = () => r(0))) }) };
    await withGlobal(runtime, runtime === "Deno" ? deno : bun, async () => {
      let logs = "";
      const child = superviseChild(runtime === "Deno" ? denoSpawn : bunSpawn, "server", [], { stderr: (t) => (logs += t), shutdownTimeoutMs: 60_000 });
      child.close();
      await new Promise((r) => setTimeout(r, 0));
      assert.deepEqual(cancelled, [], `${runtime}: the process still runs`);
      exit();
      await child.exited;
      assert.deepEqual(cancelled.sort(), ["stderr", "stdout"], `${runtime}: both pipes let go`);
      assert.equal(logs, "server: bye\n");
    });
  }
});
