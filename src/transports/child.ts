/**
 * A server child process as a transport: the client side of stdio, runtime-neutral.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio": "The client launches the MCP server as
 * a subprocess"), `basic/lifecycle` of 2025-11-25 ("Shutdown", stdio) and draft
 * `basic/transports/stdio` ("Shutdown", "Unexpected Termination"). The client SHOULD shut
 * down by "closing the input stream to the child process", "waiting for the server to
 * exit, or sending SIGTERM if the server does not exit within a reasonable time", then
 * "SIGKILL if the server does not exit within a reasonable time after SIGTERM".
 *
 * Theory of operation. A runtime module (Node, Deno, Bun) starts the process and reports
 * three events: a stdout chunk, stdout's end, the exit. This module turns them into a
 * {@link StreamChannel} over the child's stdin and runs the lifecycle, the same on every
 * runtime:
 *
 * - `close()` closes the transport at once (`onClose` fires), ends the child's stdin,
 *   then escalates on the clock's timers (injectable: `clock`): SIGTERM after
 *   `shutdownTimeoutMs`, SIGKILL after a further `killTimeoutMs`. The exit cancels whatever is pending; `exited` resolves with it.
 * - The server ending its stdout is the server shutting down ("The server MAY initiate
 *   shutdown by closing its output stream to the client and exiting"): the client closes
 *   stdin and runs the same escalation, so a server that closed stdout but hangs is still
 *   reaped. Nothing can answer a request after that, so the transport closes when the
 *   exit comes (its status in the reason) or {@link EXIT_GRACE_MS} later, whichever is
 *   first: pending calls do not wait out the escalation.
 * - An exit the client did not ask for closes the transport with the exit code or signal
 *   in the reason, once stdout has ended too, so every message the server wrote before
 *   dying is delivered first, or {@link EXIT_DRAIN_MS} after the exit, whichever is first:
 *   a grandchild that inherited stdout and keeps it open (a wrapper's helper, a daemon)
 *   would otherwise hold the close, and every pending call, until it exits.
 * - A process that cannot be started (no such command) is reported the same way: the
 *   transport closes with the error, `exited` resolves with it, nothing throws.
 *
 * Writes to stdin after it was closed are dropped. A stdin write error (EPIPE) starts the
 * same escalation as `close()` without closing the transport: from a dead child, the exit
 * that follows at once carries the cause; a child that closed its stdin but lingers is
 * reaped, and its exit closes the transport, instead of every call waiting for it forever.
 */
import { refuseMisreadNumbers, withDefaults } from "../api/option-names.js";
import { errorText } from "./error-text.js";
import type { Transport } from "../api/transport.js";
import { systemClock, type Clock } from "../driver/clock.js";
import { StreamChannel, type ChannelOptions, type Sink } from "./channel.js";

/** How a child process ended. */
export interface ExitStatus {
  /** Exit code, or null when it was killed by a signal or never started. */
  code: number | null;
  /** Signal that killed it (e.g. `"SIGTERM"`), or null. */
  signal: string | null;
  /** Set when the process could not be started (or could not be waited for). */
  error?: string;
}

/** What the server's stderr becomes: passed through, a stream to read, dropped, or text handed to a callback. */
export type StderrMode = "inherit" | "pipe" | "ignore" | ((text: string) => void);

/** Options for spawning a server. */
export interface SpawnOptions extends Omit<ChannelOptions, "framing"> {
  /** The child's whole environment. Default: the parent's. */
  env?: Record<string, string> | undefined;
  /** Working directory. Default: the parent's. */
  cwd?: string | undefined;
  /**
   * The server's stderr (logs, which the client "MAY capture, forward, or ignore").
   * Default `"inherit"`. With `"pipe"`, read {@link StdioChild.stderr}, or the server may
   * block once the pipe fills.
   */
  stderr?: StderrMode | undefined;
  /** After stdin is closed, how long to wait for an exit before SIGTERM. Default 2000 ms. */
  shutdownTimeoutMs?: number | undefined;
  /** After SIGTERM, how long to wait before SIGKILL. Default 2000 ms. */
  killTimeoutMs?: number | undefined;
  /**
   * After the server's stdout ends, how long to wait for its exit status before closing
   * without it. Default {@link EXIT_GRACE_MS} (100 ms); longer on a machine so loaded that
   * an exiting process takes longer to be reaped.
   */
  exitGraceMs?: number | undefined;
  /**
   * The timers of the shutdown sequence, and of the channel's `maxStallMs`. Default:
   * {@link SHUTDOWN_CLOCK} for the shutdown sequence, the driver's `systemClock` for the
   * stall. Tests pass a `ManualClock` to step through either without waiting.
   */
  clock?: Clock | undefined;
}

/** A running server process: a transport to it, plus the process. */
export interface StdioChild extends Transport {
  /** Process id, or undefined if it could not be started. */
  readonly pid: number | undefined;
  /** Resolves when the process has exited (or failed to start); never rejects. */
  readonly exited: Promise<ExitStatus>;
  /** The server's stderr, when spawned with `stderr: "pipe"`. */
  readonly stderr: ReadableStream<Uint8Array> | undefined;
}

/** The events a runtime module reports for a child it started. */
export interface ChildEvents {
  /** A chunk of the child's stdout. */
  stdout(chunk: Uint8Array): void;
  /** The child's stdout ended. */
  stdoutEnd(): void;
  /** A write to the child's stdin failed (EPIPE): the child no longer reads it. Optional for a runtime module that cannot tell. */
  stdinFailed?(): void;
  /** The child exited (reported once; later calls are ignored). */
  exit(status: ExitStatus): void;
}

/** What a runtime module hands back for a started child. */
export interface SpawnedChild {
  pid: number | undefined;
  /** The child's stdin. Its `end` is called once. */
  stdin: Sink;
  stderr: ReadableStream<Uint8Array> | undefined;
  /** Sends a signal; must not throw (a child that already exited is fine). */
  kill(signal: "SIGTERM" | "SIGKILL"): void;
  /**
   * Called once, when the transport has closed and the process has exited: nothing more is
   * read, so the pipes must stop keeping this process alive (a grandchild that inherited
   * stdout may hold it open for good). Must not throw.
   */
  release?(): void;
}

/** Starts a process; may throw if it cannot be started (reported as an exit with `error`). */
export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions, events: ChildEvents) => SpawnedChild;

/** Default of {@link SpawnOptions.shutdownTimeoutMs} and {@link SpawnOptions.killTimeoutMs}. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 2000;

/**
 * After the server's stdout ends, how long the transport waits for the exit before it
 * closes without the exit status: enough for an exiting process to be reaped, short
 * enough that calls the server can no longer answer fail at once.
 */
export const EXIT_GRACE_MS = 100;

/**
 * How long stdout is still read after the server exited before the transport closes
 * anyway, in ms: what the server wrote is already in the pipe, and is read well within
 * it; only a grandchild holding the pipe open keeps it from ending.
 */
export const EXIT_DRAIN_MS = 1000;

/** The close reason when the server closed stdout but has not exited within {@link EXIT_GRACE_MS}. */
export const OUTPUT_CLOSED_REASON = "the server closed its output (stdout) and has not exited";

/** The close reason for an exit status. */
export function describeExit(status: ExitStatus): string {
  if (status.error !== undefined) return `server process failed: ${status.error}`;
  if (status.signal !== null) return `server process was killed by ${status.signal}`;
  return `server process exited with code ${status.code}`;
}

/**
 * The default clock of the shutdown sequence: the driver's `systemClock`, whose timers
 * here keep the process alive: a client that closes the transport and has nothing else to
 * do must still stay to send the signals, or a server that ignores its stdin would be left
 * running. (Its waits past 2^31 − 1 ms are made of legs: a plain `setTimeout` fires such
 * a one after 1 ms, so `killTimeoutMs: Infinity`, "never", sent SIGKILL at once.)
 */
export const SHUTDOWN_CLOCK: Clock = {
  now: () => systemClock.now(),
  schedule: (at, fn) => systemClock.schedule(at, fn, true),
  cancel: (handle) => systemClock.cancel(handle),
};

const noop = (): void => {};
/** Stands for a child that could not be started: the channel is closed at once, so only `end` is ever called. */
const NO_CHILD: SpawnedChild = { pid: undefined, stdin: { write: () => true, waitDrain: noop, end: noop }, stderr: undefined, kill: noop };

/** The transport and lifecycle of one child; see the module comment. */
class ChildTransport implements StdioChild {
  readonly pid: number | undefined;
  readonly exited: Promise<ExitStatus>;
  readonly stderr: ReadableStream<Uint8Array> | undefined;
  private readonly channel: StreamChannel;
  private child: SpawnedChild = NO_CHILD;
  private status: ExitStatus | undefined = undefined;
  private resolveExited!: (status: ExitStatus) => void;
  private stdoutEnded = false;
  private stdinEnded = false;
  private shuttingDown = false;
  private released = false;
  private timer: unknown = undefined;
  /** The {@link EXIT_GRACE_MS} wait after stdout ended. */
  private grace: unknown = undefined;
  private readonly graceMs: number;
  private readonly shutdownMs: number;
  private readonly killMs: number;
  private readonly clock: Clock;

  constructor(spawn: SpawnFunction, command: string, args: readonly string[], options: SpawnOptions) {
    refuseMisreadNumbers("spawnStdioServer", options, ["shutdownTimeoutMs", "killTimeoutMs", "exitGraceMs"]);
    this.shutdownMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.killMs = options.killTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.graceMs = options.exitGraceMs ?? EXIT_GRACE_MS;
    this.clock = options.clock ?? SHUTDOWN_CLOCK;
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    const stdin: Sink = {
      write: (chunk) => this.stdinEnded || this.child.stdin.write(chunk),
      waitDrain: (fn) => this.child.stdin.waitDrain(fn),
      end: () => this.endStdin(),
    };
    this.channel = new StreamChannel(stdin, { ...withDefaults({ batchWrites: true }, options), framing: "ndjson" }, () => {
      // Closed: the grace or drain wait has nothing left to close, and its timer would hold the process.
      if (this.grace !== undefined) this.clock.cancel(this.grace);
      this.grace = undefined;
      this.shutdown();
      this.release();
    });
    const events: ChildEvents = {
      stdout: (chunk) => this.channel.push(chunk),
      stdoutEnd: () => this.onStdoutEnd(),
      // The server closed its stdin (or let it go) without exiting: it can read no request
      // again, so it is shut down as if the client had closed: without this, every call
      // waited forever for a process that lingered. Its exit (at once, for a server that
      // is dying anyway) still closes the transport, after the answers it may yet write.
      stdinFailed: () => this.shutdown(),
      exit: (status) => this.onExit(status),
    };
    try {
      this.child = spawn(command, args, options, events);
    } catch (e) {
      this.onExit({ code: null, signal: null, error: errorText(e) });
    }
    this.pid = this.child.pid;
    this.stderr = this.child.stderr;
  }

  send(text: string): void {
    this.channel.send(text);
  }
  onMessage(fn: (text: string) => void): void {
    this.channel.onMessage(fn);
  }
  onClose(fn: (reason: string) => void): void {
    this.channel.onClose(fn);
  }
  /** Closes the transport now and shuts the process down (stdin, then SIGTERM, then SIGKILL). */
  close(): void {
    this.channel.close();
  }

  private endStdin(): void {
    if (this.stdinEnded) return;
    this.stdinEnded = true;
    this.child.stdin.end();
  }

  /** Step 1 of the shutdown sequence; the timers do the rest unless the exit comes first. */
  private shutdown(): void {
    if (this.shuttingDown || this.status !== undefined) return;
    this.shuttingDown = true;
    this.endStdin();
    this.timer = this.clock.schedule(this.clock.now() + this.shutdownMs, () => this.escalate("SIGTERM"));
  }

  /** Runs on a timer, which the exit cancels: the process is still running. */
  private escalate(signal: "SIGTERM" | "SIGKILL"): void {
    this.timer = undefined;
    this.child.kill(signal);
    if (signal === "SIGTERM") this.timer = this.clock.schedule(this.clock.now() + this.killMs, () => this.escalate("SIGKILL"));
  }

  private onStdoutEnd(): void {
    if (this.stdoutEnded) return;
    this.stdoutEnded = true;
    this.channel.endInput();
    // Its close cancels the wait of EXIT_DRAIN_MS after the exit.
    if (this.status !== undefined) return this.channel.closeWith(describeExit(this.status));
    this.shutdown();
    this.grace = this.clock.schedule(this.clock.now() + this.graceMs, () => {
      this.grace = undefined;
      this.channel.closeWith(OUTPUT_CLOSED_REASON);
    });
  }

  private onExit(status: ExitStatus): void {
    if (this.status !== undefined) return;
    this.status = status;
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    if (this.grace !== undefined) this.clock.cancel(this.grace);
    this.timer = this.grace = undefined;
    this.resolveExited(status);
    // Messages still in the stdout pipe are delivered before the close, except when there is no pipe at all.
    if (this.stdoutEnded || status.error !== undefined) this.channel.closeWith(describeExit(status));
    else if (!this.channel.closed) {
      this.grace = this.clock.schedule(this.clock.now() + EXIT_DRAIN_MS, () => {
        this.grace = undefined;
        this.channel.closeWith(describeExit(status)); // (its close releases the pipes)
      });
    }
    this.release();
  }

  /**
   * Once closed and exited, the child's pipes are let go: without this, a client whose
   * server left a grandchild holding stdout (a wrapper's helper, a daemon) did not exit
   * after `close()` until that grandchild did.
   */
  private release(): void {
    if (this.released || this.status === undefined || !this.channel.closed) return;
    this.released = true;
    this.child.release?.();
  }
}

/** Starts a server with a runtime's spawn function and returns the transport to it. */
export function superviseChild(spawn: SpawnFunction, command: string, args: readonly string[], options: SpawnOptions = {}): StdioChild {
  return new ChildTransport(spawn, command, args, options);
}
