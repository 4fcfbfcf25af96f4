/**
 * The child-process lifecycle (src/transports/child.ts) against a scripted process: the
 * shutdown sequence, unexpected exits, ordering of the last messages and the close.
 * Spec: `basic/lifecycle` of 2025-11-25 ("Shutdown", stdio); draft
 * `basic/transports/stdio` ("Shutdown", "Unexpected Termination").
 *
 * The timers are real but set to 0 ms, and every wait is for an event (a signal being
 * sent), never for an amount of time.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { LOCAL_CLOSE_REASON } from "../../src/transports/channel.js";
import { ManualClock } from "../../src/driver/clock.js";
import { McpClientCore } from "../../src/api/client.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, describeExit, EXIT_DRAIN_MS, EXIT_GRACE_MS, OUTPUT_CLOSED_REASON, superviseChild, type ChildEvents, type SpawnedChild, type SpawnFunction, type SpawnOptions } from "../../src/transports/child.js";

/** A process that exists only as the events the test fires and the calls it records. */
class FakeProcess {
  events!: ChildEvents;
  written: string[] = [];
  stdinEnded = 0;
  signals: string[] = [];
  released = 0;
  private waiters: (() => void)[] = [];
  readonly spawn: SpawnFunction = (_command, _args, _options, events) => {
    this.events = events;
    const child: SpawnedChild = {
      pid: 4242,
      stdin: { write: (c) => (this.written.push(c), true), waitDrain: () => {}, end: () => void this.stdinEnded++ },
      stderr: undefined,
      kill: (signal) => {
        this.signals.push(signal);
        for (const w of this.waiters.splice(0)) w();
      },
      release: () => void this.released++,
    };
    return child;
  };
  /** Resolves once `n` signals have been sent. */
  async signalled(n: number): Promise<void> {
    while (this.signals.length < n) await new Promise<void>((r) => this.waiters.push(r));
  }
}

const utf8 = new TextEncoder();

function start(options: SpawnOptions = {}) {
  const p = new FakeProcess();
  const child = superviseChild(p.spawn, "server", ["--flag"], options);
  const got: string[] = [];
  const closes: string[] = [];
  child.onMessage((t) => got.push(t));
  child.onClose((r) => closes.push(r));
  return { p, child, got, closes };
}

test("the transport writes NDJSON lines to the child's stdin and reads its stdout", () => {
  const { p, child, got } = start();
  assert.equal(child.pid, 4242);
  assert.equal(child.stderr, undefined);
  child.send('{"jsonrpc":"2.0","method":"ping","id":1}');
  assert.deepEqual(p.written, ['{"jsonrpc":"2.0","method":"ping","id":1}\n']);
  p.events.stdout(utf8.encode('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
  assert.deepEqual(got, ['{"jsonrpc":"2.0","id":1,"result":{}}']);
});

// lifecycle (Shutdown, stdio): close the input stream, wait, SIGTERM, wait, SIGKILL.
test("close(): onClose at once, stdin closed, then SIGTERM, then SIGKILL, until the exit", async () => {
  const { p, child, closes } = start({ shutdownTimeoutMs: 0, killTimeoutMs: 0 });
  child.close();
  assert.deepEqual(closes, [LOCAL_CLOSE_REASON]);
  assert.equal(p.stdinEnded, 1);
  child.send("dropped after close");
  assert.deepEqual(p.written, []);
  await p.signalled(2);
  assert.deepEqual(p.signals, ["SIGTERM", "SIGKILL"]);
  p.events.exit({ code: null, signal: "SIGKILL" });
  assert.deepEqual(await child.exited, { code: null, signal: "SIGKILL" });
  assert.deepEqual(closes, [LOCAL_CLOSE_REASON], "no second close");
});

test("close(): an exit after SIGTERM stops the escalation", async () => {
  const { p, child } = start({ shutdownTimeoutMs: 0, killTimeoutMs: 0 });
  child.close();
  await p.signalled(1);
  p.events.exit({ code: null, signal: "SIGTERM" });
  await child.exited;
  // Had the SIGKILL timer survived the exit, a 0 ms timer would have fired by now.
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(p.signals, ["SIGTERM"]);
});

test("close(): a server that exits when its stdin closes gets no signal", async () => {
  const { p, child } = start({ shutdownTimeoutMs: 0 });
  child.close();
  p.events.stdoutEnd();
  p.events.exit({ code: 0, signal: null });
  await child.exited;
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(p.signals, []);
});

// stdio (Unexpected Termination): the exit is surfaced, after every message the server wrote before it.
test("an unexpected exit closes the transport with its code, once stdout has ended, after the last messages", () => {
  const { p, got, closes } = start();
  p.events.exit({ code: 3, signal: null });
  p.events.exit({ code: 99, signal: null }); // reported once
  assert.deepEqual(closes, [], "stdout may still hold messages");
  p.events.stdout(utf8.encode('{"jsonrpc":"2.0","method":"last"}'));
  p.events.stdoutEnd();
  p.events.stdoutEnd(); // an 'error' after the 'end' changes nothing
  assert.deepEqual(got, ['{"jsonrpc":"2.0","method":"last"}']);
  assert.deepEqual(closes, ["server process exited with code 3"]);
});

// basic/transports (stdio): an exit the client did not ask for is surfaced, with its status,
// even when a grandchild that inherited the server's stdout (a wrapper's helper, a daemon)
// keeps the pipe open: the close, and every pending call, waited until that grandchild exited.
test("an unexpected exit whose stdout a grandchild keeps open closes the transport EXIT_DRAIN_MS after the exit, with the exit's status, after what the pipe still held; the pipes are then released", () => {
  const clock = new ManualClock();
  const { p, got, closes } = start({ clock });
  p.events.exit({ code: 1, signal: null });
  p.events.stdout(utf8.encode('{"jsonrpc":"2.0","method":"last"}\n'));
  clock.advance(EXIT_DRAIN_MS - 1);
  assert.deepEqual(closes, [], "what the server wrote is still read meanwhile");
  assert.equal(p.released, 0);
  clock.advance(1);
  assert.deepEqual(got, ['{"jsonrpc":"2.0","method":"last"}']);
  assert.deepEqual(closes, ["server process exited with code 1"]);
  assert.equal(p.released, 1);
  p.events.stdoutEnd(); // the grandchild leaves at last: nothing more happens
  assert.deepEqual(closes, ["server process exited with code 1"]);
  assert.equal(clock.pendingTimers, 0);
});

// README (spawnStdioServer): once closed and exited, nothing of the child holds the client
// (found by review: a close() during the EXIT_DRAIN_MS wait left its timer, which holds the
// process on the default clock, running for up to 1 s).
test("close() while stdout is still read after an unexpected exit (a grandchild holds it) releases the pipes and leaves no timer", () => {
  const clock = new ManualClock();
  const { p, child, closes } = start({ clock });
  p.events.exit({ code: 1, signal: null });
  child.close();
  assert.deepEqual(closes, [LOCAL_CLOSE_REASON]);
  assert.equal(p.released, 1);
  assert.equal(clock.pendingTimers, 0);
  clock.advance(EXIT_DRAIN_MS);
  assert.deepEqual(closes, [LOCAL_CLOSE_REASON]);
});

// lifecycle (Shutdown, stdio): "The server MAY initiate shutdown by closing its output stream to the client and exiting."
test("the server closing stdout: the client closes stdin and reaps the server if it does not exit", async () => {
  const { p, closes } = start({ shutdownTimeoutMs: 0, killTimeoutMs: 0 });
  p.events.stdoutEnd();
  assert.equal(p.stdinEnded, 1);
  assert.deepEqual(closes, [], "the close waits for the exit, to carry its status");
  await p.signalled(1);
  p.events.exit({ code: null, signal: "SIGTERM" });
  assert.deepEqual(closes, ["server process was killed by SIGTERM"]);
});

test("the server closing stdout but not exiting: the transport closes after EXIT_GRACE_MS (pending calls fail then, not after the escalation), and the process is still reaped", () => {
  // lifecycle (Shutdown, stdio): once the output stream is closed nothing can answer a request.
  const clock = new ManualClock();
  const { p, child, closes } = start({ clock });
  p.events.stdoutEnd();
  assert.equal(p.stdinEnded, 1);
  clock.advance(EXIT_GRACE_MS - 1);
  assert.deepEqual(closes, [], "an exiting process gets its grace, so the reason can carry its status");
  clock.advance(1);
  assert.deepEqual(closes, [OUTPUT_CLOSED_REASON]);
  clock.advance(DEFAULT_SHUTDOWN_TIMEOUT_MS);
  assert.deepEqual(p.signals, ["SIGTERM"], "the shutdown sequence goes on");
  p.events.exit({ code: null, signal: "SIGTERM" });
  assert.deepEqual(closes, [OUTPUT_CLOSED_REASON], "closed once");
  return child.exited.then((status) => assert.deepEqual(status, { code: null, signal: "SIGTERM" }));
});

// draft stdio (Shutdown): a server that can no longer read its stdin is shut down as the client
// would shut it down (stdin closed, SIGTERM, SIGKILL), not waited for forever.
test("a write to the child's stdin failing (EPIPE: the server closed its stdin but runs on): the shutdown sequence starts, answers already on their way still arrive, and the exit closes the transport", () => {
  const clock = new ManualClock();
  const { p, child, got, closes } = start({ clock });
  child.send('{"jsonrpc":"2.0","method":"ping","id":1}');
  p.events.stdinFailed!();
  assert.equal(p.stdinEnded, 1, "stdin is closed");
  child.send('{"jsonrpc":"2.0","method":"ping","id":2}');
  assert.equal(p.written.length, 1, "later writes are dropped");
  p.events.stdout(utf8.encode('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
  assert.deepEqual(got, ['{"jsonrpc":"2.0","id":1,"result":{}}'], "the transport still reads what the server writes");
  clock.advance(DEFAULT_SHUTDOWN_TIMEOUT_MS);
  assert.deepEqual(p.signals, ["SIGTERM"]);
  clock.advance(DEFAULT_SHUTDOWN_TIMEOUT_MS);
  assert.deepEqual(p.signals, ["SIGTERM", "SIGKILL"]);
  p.events.exit({ code: null, signal: "SIGKILL" });
  p.events.stdoutEnd();
  assert.deepEqual(closes, ["server process was killed by SIGKILL"]);
});

test("exitGraceMs lengthens the grace: a process reaped late still closes with its exit status", () => {
  const clock = new ManualClock();
  const { p, closes } = start({ clock, exitGraceMs: 5000 });
  p.events.stdoutEnd();
  clock.advance(4999);
  assert.deepEqual(closes, []);
  p.events.exit({ code: 0, signal: null });
  assert.deepEqual(closes, ["server process exited with code 0"]);
});

test("the server closing stdout and exiting within the grace: the close carries the exit status", () => {
  const clock = new ManualClock();
  const { p, closes } = start({ clock });
  p.events.stdoutEnd();
  clock.advance(EXIT_GRACE_MS / 2);
  p.events.exit({ code: 0, signal: null });
  clock.advance(EXIT_GRACE_MS);
  assert.deepEqual(closes, ["server process exited with code 0"]);
});

test("a process that cannot be started: the transport closes with the error, nothing throws", async () => {
  const spawn: SpawnFunction = () => {
    throw new Error("spawn nope ENOENT");
  };
  const child = superviseChild(spawn, "nope", []);
  const closes: string[] = [];
  child.onClose((r) => closes.push(r));
  child.send("{}");
  child.close();
  assert.equal(child.pid, undefined);
  assert.deepEqual(closes, ["server process failed: spawn nope ENOENT"]);
  assert.deepEqual(await child.exited, { code: null, signal: null, error: "spawn nope ENOENT" });
  const thrown = superviseChild(() => {
    throw "a string";
  }, "x", []);
  assert.deepEqual(await thrown.exited, { code: null, signal: null, error: "a string" });
});

test("McpClient.connect over a command that cannot be started rejects at once (Deno and Bun throw at spawn, before the client is attached)", async () => {
  const child = superviseChild(() => {
    throw new Error("spawn nope ENOENT");
  }, "nope", []);
  const client = new McpClientCore({ name: "c", version: "1" });
  await assert.rejects(client.connect(child), (e: McpError) => e.code === ErrorCode.ConnectionClosed && /spawn nope ENOENT/.test(e.message));
});

test("an exit reported with an error (failed to start after all) closes at once, without waiting for stdout", () => {
  const { p, closes } = start();
  p.events.exit({ code: null, signal: null, error: "spawn x EACCES" });
  assert.deepEqual(closes, ["server process failed: spawn x EACCES"]);
});

// lifecycle (Shutdown, stdio): the client closes, the server exits, and the client is done: a
// grandchild that inherited the server's stdout (a wrapper's helper) must not keep the client's
// process alive. The pipes are let go once both happened, in either order, and only then.
test("the child's pipes are released once the transport has closed and the process has exited, whichever comes last, and not before", () => {
  const closedFirst = start({ clock: new ManualClock() });
  closedFirst.child.close();
  assert.equal(closedFirst.p.released, 0, "the process still runs: its exit is still awaited");
  closedFirst.p.events.exit({ code: 0, signal: null });
  assert.equal(closedFirst.p.released, 1);
  closedFirst.p.events.stdoutEnd();
  assert.equal(closedFirst.p.released, 1, "once");

  // An unexpected exit whose stdout stays open (the grandchild holds it): released once the application closes.
  const exitedFirst = start({ clock: new ManualClock() });
  exitedFirst.p.events.exit({ code: 1, signal: null });
  assert.deepEqual([exitedFirst.closes, exitedFirst.p.released], [[], 0], "stdout may still hold messages");
  exitedFirst.child.close();
  assert.equal(exitedFirst.p.released, 1);

  const serverClosed = start({ clock: new ManualClock() });
  serverClosed.p.events.stdoutEnd();
  serverClosed.p.events.exit({ code: 0, signal: null });
  assert.deepEqual([serverClosed.closes, serverClosed.p.released], [["server process exited with code 0"], 1]);
});

test("describeExit names the code, the signal or the error", () => {
  assert.equal(describeExit({ code: 1, signal: null }), "server process exited with code 1");
  assert.equal(describeExit({ code: null, signal: "SIGKILL" }), "server process was killed by SIGKILL");
  assert.equal(describeExit({ code: null, signal: null, error: "boom" }), "server process failed: boom");
});

test("the shutdown clock (draft stdio Shutdown: SIGKILL only after the wait): a wait past setTimeout's 2^31 − 1 ms (killTimeoutMs: Infinity, \"never\") is not fired at once, as a plain setTimeout fires it; a time option that is no number >= 0 is a RangeError naming it", async () => {
  const { SHUTDOWN_CLOCK } = await import("../../src/transports/child.js");
  const fired: string[] = [];
  const never = SHUTDOWN_CLOCK.schedule(SHUTDOWN_CLOCK.now() + 2 ** 31, () => fired.push("2^31 ms"));
  const forever = SHUTDOWN_CLOCK.schedule(Infinity, () => fired.push("Infinity"));
  await new Promise<void>((resolve) => SHUTDOWN_CLOCK.schedule(SHUTDOWN_CLOCK.now() + 5, () => resolve()));
  SHUTDOWN_CLOCK.cancel(never);
  SHUTDOWN_CLOCK.cancel(forever);
  assert.deepEqual(fired, []);
  for (const [key, value] of [["killTimeoutMs", NaN], ["shutdownTimeoutMs", "2000"], ["exitGraceMs", -1], ["maxStallMs", NaN], ["maxQueuedChars", "16M"]] as const) {
    assert.throws(() => start({ [key]: value } as SpawnOptions), (e: Error) => e instanceof RangeError && e.message.includes(`${key} must be a number >= 0`), key);
  }
  const { p, child } = start({ shutdownTimeoutMs: 0, killTimeoutMs: Infinity, maxStallMs: Infinity });
  child.close();
  await p.signalled(1);
  // The process exits on SIGTERM: the held wait for SIGKILL is cancelled (or the test would never end).
  p.events.exit({ code: null, signal: "SIGTERM" });
  assert.deepEqual(p.signals, ["SIGTERM"]);
});
