/**
 * stdio on Node (and on Bun, whose `process.stdin`/`process.stdout` are Node streams).
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio"); see `stdio.ts` for the entry point and
 * `channel.ts` / `child.ts` for everything that is not Node-specific. This is the only
 * file of the package that imports Node built-ins; the kernel layers never load it.
 *
 * Theory of operation. Node streams signal backpressure by `write()` returning false and
 * a later `"drain"`, which is exactly the {@link Sink} contract; chunks are read as
 * Buffers (Uint8Arrays), so invalid UTF-8 is seen by the framer rather than papered over
 * by a string decoder. The server side reads `process.stdin` and writes `process.stdout`;
 * closing it ends stdout and destroys stdin, so a server with nothing else to do exits on
 * its own. The client side spawns with three pipes (or stderr inherited) and reports
 * stdout data, stdout end and `"exit"` to the neutral supervisor. It listens for `"exit"`,
 * not `"close"`: `"close"` also waits for a piped stderr nobody may be reading.
 */
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import type { Transport } from "../api/transport.js";
import { withDefaults } from "../api/option-names.js";
import { INPUT_ENDED_REASON, StreamChannel, type ChannelOptions, type Sink } from "./channel.js";
import type { ChildEvents, SpawnedChild, SpawnOptions } from "./child.js";

/** The parts of a Node writable stream the sink uses. */
interface NodeWritable {
  write(chunk: string): boolean;
  once(event: "drain", fn: () => void): unknown;
  end(): unknown;
}

/** A {@link Sink} over a Node writable: full when `write` returns false, ready again on `"drain"`. */
function nodeSink(stream: NodeWritable): Sink {
  return {
    write: (chunk) => stream.write(chunk),
    waitDrain: (fn) => void stream.once("drain", fn),
    end: () => void stream.end(),
  };
}

/** Lets a child's pipe (a `net.Socket`) stop keeping the event loop alive. */
function unref(stream: unknown): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}

/** The server side of stdio over `process.stdin` / `process.stdout`. */
export function nodeServerTransport(options: Omit<ChannelOptions, "framing"> = {}): Transport {
  const stdin = process.stdin;
  const stdout = process.stdout;
  const onData = (chunk: Uint8Array) => channel.push(chunk);
  const onEnd = () => {
    channel.endInput();
    channel.closeWith(INPUT_ENDED_REASON);
  };
  const onError = (e: Error) => channel.closeWith(`stdio failed: ${e.message}`);
  const channel = new StreamChannel(nodeSink(stdout), { ...withDefaults({ batchWrites: true }, options), framing: "ndjson" }, () => {
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.off("error", onError);
    // Nothing more will be read; a destroyed stdin no longer keeps the process alive.
    stdin.destroy();
  });
  stdin.on("data", onData);
  stdin.on("end", onEnd);
  stdin.on("error", onError);
  // Stays attached after close: an EPIPE from a client that went away must not crash the server.
  stdout.on("error", onError);
  return channel;
}

/** Spawns a server with `node:child_process`; see `child.ts` for the lifecycle. */
export function nodeSpawn(command: string, args: readonly string[], options: SpawnOptions, events: ChildEvents): SpawnedChild {
  const mode = options.stderr ?? "inherit";
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", mode === "inherit" || mode === "ignore" ? mode : "pipe"],
    windowsHide: true,
  });
  // Failure to start (ENOENT, EACCES, EMFILE); also failure to signal, which changes nothing here.
  // Listened to first: an "error" nobody listens to ends this process.
  child.on("error", (e) => {
    if (child.pid === undefined) events.exit({ code: null, signal: null, error: e.message });
  });
  // Out of file descriptors (EMFILE, ENFILE), Node starts nothing and makes no pipes; the
  // "error" above follows. Reading the pipes threw instead, and that error went unheard:
  // the client process crashed.
  if (child.stdin == null || child.stdout == null) return { pid: undefined, stdin: { write: () => true, waitDrain: () => {}, end: () => {} }, stderr: undefined, kill: () => {} };
  const stdin = child.stdin;
  const stdout = child.stdout;
  // EPIPE: the child no longer reads its stdin (gone, or closed it); see child.ts.
  stdin.on("error", () => events.stdinFailed?.());
  stdout.on("data", events.stdout);
  stdout.on("end", events.stdoutEnd);
  stdout.on("error", events.stdoutEnd);
  child.on("exit", (code, signal) => events.exit({ code, signal }));
  let stderr: ReadableStream<Uint8Array> | undefined;
  if (typeof mode === "function") {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", mode);
  } else if (mode === "pipe") {
    stderr = Readable.toWeb(child.stderr!) as ReadableStream<Uint8Array>;
  }
  return {
    pid: child.pid,
    stdin: nodeSink(stdin),
    stderr,
    kill: (signal) => void child.kill(signal),
    // Still read (a grandchild's writes are taken and dropped), but no longer keeping this process alive.
    release: () => {
      unref(stdout);
      if (typeof mode === "function") unref(child.stderr);
    },
  };
}
