/**
 * The command line's view of the outside world: input as line batches, output with
 * back-pressure.
 *
 * Spec: `basic/transports` ("stdio": messages are delimited by newlines and contain no
 * embedded newline), which is also the JSON Lines format the CLI reads and writes.
 *
 * Theory of operation. Every verb gets a {@link CliIO} instead of `process`, so the
 * tests run the CLI in-process on strings. Input is split into lines *as bytes*: the
 * codec is handed each line as a `Uint8Array`, exactly as a transport would hand it
 * over, so UTF-8 and size checks are the codec's and not a side effect of how the CLI
 * happened to decode text. Lines come out in batches, one batch per input chunk, so a
 * verb pays one `await` per chunk rather than per line, and can write its output for a
 * batch in one `write`. A `\r` before the `\n` is dropped (CRLF files), and the last
 * line need not end in a newline.
 */
import { createReadStream } from "node:fs";

/** Exit codes shared by every verb. */
export const Exit = {
  /** Everything checked out. */
  Ok: 0,
  /** The verb ran, and found something wrong with its input (an invalid message…). */
  Invalid: 1,
  /** Bad command line, the input could not be read, or the output could not be written. */
  Usage: 2,
  /** A bug: the verb threw. The message goes to stderr. */
  Internal: 70,
  /**
   * The reader of standard output went away (EPIPE) before the verb was done, as in
   * `… | head -1`: 128 + SIGPIPE (13), what a shell reports for any filter stopped there.
   */
  ReaderGone: 141,
} as const;

/** One verb of the command line: `mcp-kernel <name> ...args`. */
export interface Verb {
  /** One line for the top-level usage listing. */
  summary: string;
  /** The verb's own usage text, printed for `<verb> --help` and after a usage error. */
  usage: string;
  /** Runs the verb on its arguments (the verb name removed); resolves to the exit code. */
  run(args: string[], io: CliIO): Promise<number>;
}

/** Where a verb writes: `process.stdout` and `process.stderr` fit, and so does a test's string sink. */
export interface CliOutput {
  /** Writes text (or bytes, for verbs that pass a stream through untouched); `false` asks the caller to wait for `drain` before writing more. */
  write(chunk: string | Uint8Array): boolean | void;
  /** Present on Node streams: lets {@link writeOut} wait for `drain`. */
  once?(event: "drain", listener: () => void): unknown;
  /**
   * Present on Node streams: a reader that went away (EPIPE) or a full device (ENOSPC) is an
   * `error` event, which must be listened to or it ends the process; `close` follows it.
   */
  on?(event: "error", listener: (error: Error) => void): unknown;
  on?(event: "close", listener: () => void): unknown;
}

/** Everything a verb may touch. */
export interface CliIO {
  /** Standard input: `process.stdin`, or any iterable of chunks in tests. */
  stdin: AsyncIterable<Uint8Array | string>;
  /** Standard output: the verb's results. */
  stdout: CliOutput;
  /** Standard error: usage and diagnostics. */
  stderr: CliOutput;
  /**
   * Registers `fn` to run once when the user asks the process to stop (SIGINT, SIGTERM,
   * SIGHUP), with the signal's name; with `every`, at each such signal (a proxy passing them
   * on), else a second one gets the default. Only long-running verbs (`serve`, `record`)
   * register; absent in most tests, which stop a verb through its own means. Registering
   * replaces the default (the process dies at once).
   */
  onStop?(fn: (signal: NodeJS.Signals) => void, every?: boolean): void;
}

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** A chunk as bytes; strings (from tests, or a stream with an encoding set) are encoded once. */
function bytesOf(chunk: Uint8Array | string): Uint8Array {
  return typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}

/** Drops one trailing `\r`, so CRLF input reads like LF input. */
function stripCr(line: Uint8Array): Uint8Array {
  const n = line.length;
  return n > 0 && line[n - 1] === CR ? line.subarray(0, n - 1) : line;
}

/**
 * A push-style line splitter: {@link LineSplitter.push} returns the lines a chunk
 * completes (a line split across chunks is joined), {@link LineSplitter.end} the last
 * line if it had no newline. `\r` before `\n` is dropped; blank lines are kept.
 */
export class LineSplitter {
  // Bytes of the line begun in an earlier chunk and not yet ended.
  private carry: Uint8Array | null = null;

  /** The complete lines of `chunk`, in order (possibly none). */
  push(chunk: Uint8Array | string): Uint8Array[] {
    const bytes = bytesOf(chunk);
    const batch: Uint8Array[] = [];
    let start = 0;
    let nl = bytes.indexOf(LF, 0);
    while (nl !== -1) {
      let line = bytes.subarray(start, nl);
      if (this.carry !== null) {
        line = concat(this.carry, line);
        this.carry = null;
      }
      batch.push(stripCr(line));
      start = nl + 1;
      nl = bytes.indexOf(LF, start);
    }
    if (start < bytes.length) {
      const rest = bytes.subarray(start);
      // Copy: the stream may reuse the chunk's buffer once we return to it.
      this.carry = this.carry === null ? rest.slice() : concat(this.carry, rest);
    }
    return batch;
  }

  /** The unterminated last line, if any. */
  end(): Uint8Array[] {
    const last = this.carry;
    this.carry = null;
    return last === null ? [] : [stripCr(last)];
  }
}

/**
 * Splits a stream of chunks into lines, yielding the complete lines of each chunk as one
 * batch (possibly empty). A line split across chunks is joined; the final line is
 * yielded even without a trailing newline. Blank lines are kept: skipping them is the
 * verb's decision.
 */
export async function* readLines(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array[]> {
  const splitter = new LineSplitter();
  for await (const chunk of source) yield splitter.push(chunk);
  const last = splitter.end();
  if (last.length > 0) yield last;
}

/** `a` followed by `b`, in a new buffer. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Joins lines with `\n` (the inverse of {@link readLines} for one document). */
export function joinLines(lines: readonly Uint8Array[]): Uint8Array {
  let size = lines.length === 0 ? 0 : lines.length - 1;
  for (const line of lines) size += line.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) out[at++] = LF;
    out.set(lines[i], at);
    at += lines[i].length;
  }
  return out;
}

/** True when a line holds only JSON whitespace (space, tab, CR, LF), i.e. is skipped. */
export function isBlank(line: Uint8Array): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c !== 0x20 && c !== 0x09 && c !== CR && c !== LF) return false;
  }
  return true;
}

/** The chunks of `path`, or of standard input when `path` is `-`. Errors (ENOENT…) surface while iterating. */
export function openInput(path: string, io: CliIO): AsyncIterable<Uint8Array | string> {
  return path === "-" ? io.stdin : createReadStream(path);
}

/** What became of an output: whether it failed or closed, with the first error it reported. */
interface Fate {
  over: boolean;
  error?: Error;
  /** Settles when the output fails or closes: no `drain` will come after that. */
  ended: Promise<void>;
}

const fates = new WeakMap<CliOutput, Fate>();

/**
 * The fate of `out`, watched from the first write on (a stream without `on`, a test's sink,
 * cannot fail). Listening at all is what keeps a failed write from being an unhandled
 * `error` event that ends the process with a stack trace; a verb that owns its output
 * (`record`, `serve --stdio`) adds its own listener, which this one leaves alone.
 */
function fateOf(out: CliOutput): Fate | undefined {
  if (out.on === undefined) return undefined;
  let fate = fates.get(out);
  if (fate === undefined) {
    let end!: () => void;
    const f: Fate = { over: false, ended: new Promise<void>((resolve) => (end = resolve)) };
    out.on("error", (error) => {
      f.error ??= error;
      f.over = true;
      end();
    });
    out.on("close", () => {
      f.over = true;
      end();
    });
    fates.set(out, (fate = f));
  }
  return fate;
}

/**
 * Writes `text`, then waits for `drain` when the stream asks for it, so a long run does not
 * buffer all its output; or until the stream fails or closes, or `gone` settles (the reader
 * went away: no drain will come). Never throws: once the stream has failed, it writes
 * nothing. What a verb prints as its result goes through {@link writeResult}, which stops it.
 */
export async function writeOut(out: CliOutput, text: string | Uint8Array, gone?: Promise<void>): Promise<void> {
  const fate = fateOf(out);
  if (text.length === 0 || fate?.over === true) return;
  if (out.write(text) === false && out.once !== undefined) {
    const drained = new Promise<void>((resolve) => out.once!("drain", resolve));
    const ends = [drained];
    if (fate !== undefined) ends.push(fate.ended);
    if (gone !== undefined) ends.push(gone);
    await Promise.race(ends);
  }
}

/** A verb's output failed: thrown by {@link writeResult}, turned into the exit code by `main`. */
export class OutputFailed extends Error {
  constructor(
    /** The stream's error; undefined when it was closed without one. */
    readonly error: Error | undefined,
  ) {
    super(error?.message ?? "the output was closed");
  }

  /** The reader went away (EPIPE, or the stream was closed): nothing to report, only to stop. */
  get readerGone(): boolean {
    return this.error === undefined || (this.error as { code?: unknown }).code === "EPIPE";
  }
}

/**
 * Writes what a verb prints on standard output (its result, or the usage it was asked
 * for) as {@link writeOut} does, and rejects with {@link OutputFailed} once `out` has
 * failed, so the verb stops there instead of working on for a reader that is gone (a
 * failure is seen at the write it fails, or at the next one).
 */
export async function writeResult(out: CliOutput, text: string | Uint8Array): Promise<void> {
  await writeOut(out, text);
  const fate = fates.get(out);
  if (fate?.over === true) throw new OutputFailed(fate.error);
}
