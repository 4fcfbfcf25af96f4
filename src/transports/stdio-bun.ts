/**
 * stdio on Bun: the client side, with `Bun.spawn`.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio"); see `stdio.ts` for the entry point.
 * The server side on Bun is the Node one (`process.stdin` / `process.stdout`, which Bun
 * implements as Node streams, `write()` returning false and `"drain"` included).
 *
 * Theory of operation. `Bun.spawn` gives the child's stdout as a Web `ReadableStream`,
 * read with {@link readChildPipes}, and its stdin as a `FileSink`, which buffers writes and
 * sends them on `flush()`. The sink below flushes after every write; a flush that cannot
 * finish at once returns a promise, which is Bun's backpressure signal: the sink reports
 * full until it settles. Bun reports an exit by resolving `exited`, with the code or
 * signal on the process object. No Bun type package is needed: the few members used are
 * declared below.
 */
import type { Sink } from "./channel.js";
import type { ChildEvents, SpawnedChild, SpawnOptions } from "./child.js";
import { errorText } from "./error-text.js";
import { readChildPipes } from "./web-streams.js";

/** The members of Bun's `FileSink` used here. */
interface BunFileSink {
  write(chunk: string | Uint8Array): number;
  flush(): number | Promise<number>;
  end(): number | Promise<number>;
}

/** The members of a `Bun.Subprocess` used here. */
interface BunSubprocess {
  readonly pid: number;
  readonly stdin: BunFileSink;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array> | undefined;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  /** A signal's name, or its number when it has none. */
  readonly signalCode: string | number | null;
  kill(signal?: string): void;
}

type BunStdio = "pipe" | "inherit" | "ignore";

/** The members of the `Bun` namespace used here. */
interface BunNamespace {
  spawn(cmd: string[], options: { cwd?: string; env?: Record<string, string>; stdin: BunStdio; stdout: BunStdio; stderr: BunStdio }): BunSubprocess;
}

const ignore = (): void => {};

function isPromise(v: unknown): v is Promise<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === "function";
}

/**
 * A {@link Sink} over a `FileSink`: full while a flush is pending. It never throws: a write
 * or flush that fails (the child no longer reads its stdin) is reported to `failed`.
 */
class FileSinkAdapter implements Sink {
  private pending: Promise<unknown> | undefined = undefined;
  constructor(
    private readonly file: BunFileSink,
    private readonly failed: () => void,
  ) {}

  write(chunk: string): boolean {
    try {
      this.file.write(chunk);
      const flushed = this.file.flush();
      if (!isPromise(flushed)) return true;
      this.pending = flushed;
      return false;
    } catch {
      this.failed();
      return true;
    }
  }

  /** Called only after `write` returned false, so a flush is pending. */
  waitDrain(fn: () => void): void {
    const pending = this.pending!;
    this.pending = undefined;
    // A failed flush releases the queue too; what it writes is dropped.
    pending.then(fn, () => {
      this.failed();
      fn();
    });
  }

  end(): void {
    try {
      const ended = this.file.end();
      if (isPromise(ended)) ended.then(ignore, ignore);
    } catch {
      // Already closed.
    }
  }
}

/** Spawns a server with `Bun.spawn`; see `child.ts` for the lifecycle. Throws if the command cannot be started. */
export function bunSpawn(command: string, args: readonly string[], options: SpawnOptions, events: ChildEvents): SpawnedChild {
  const mode = options.stderr ?? "inherit";
  const bun = (globalThis as unknown as { Bun: BunNamespace }).Bun;
  const child = bun.spawn([command, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: mode === "inherit" || mode === "ignore" ? mode : "pipe",
  });
  const pipes = readChildPipes(child.stdout, () => child.stderr, mode, events);
  child.exited.then(
    () => events.exit(child.signalCode === null ? { code: child.exitCode, signal: null } : { code: null, signal: String(child.signalCode) }),
    (e) => events.exit({ code: null, signal: null, error: errorText(e) }),
  );
  return {
    pid: child.pid,
    stdin: new FileSinkAdapter(child.stdin, () => events.stdinFailed?.()),
    stderr: pipes.stderr,
    kill: (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already exited.
      }
    },
    release: pipes.release,
  };
}
