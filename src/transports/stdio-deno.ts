/**
 * stdio on Deno.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio"); see `stdio.ts` for the entry point.
 *
 * Theory of operation. Deno's standard streams and child pipes are Web Streams
 * (`Deno.stdin.readable`, `Deno.stdout.writable`, `Deno.Command(...).spawn()` with piped
 * stdio), so this file is glue between them and the Web Streams pieces in
 * `web-streams.ts`: the server is a {@link webStreamsTransport} over stdin/stdout, the
 * client reads the child's stdout with {@link readChildPipes} and writes its stdin with a
 * {@link WriterSink}. Deno's `env` option is merged into the parent's environment, so
 * `clearEnv` is set when an environment is given: here, as on Node, `env` is the whole
 * environment. No Deno type package is needed: the few members used are declared below.
 */
import type { Transport } from "../api/transport.js";
import type { ChannelOptions } from "./channel.js";
import type { ChildEvents, SpawnedChild, SpawnOptions } from "./child.js";
import { errorText } from "./error-text.js";
import { readChildPipes, webStreamsTransport, WriterSink } from "./web-streams.js";

type DenoStdio = "piped" | "inherit" | "null";

/** The members of a `Deno.ChildProcess` used here. */
interface DenoChildProcess {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ success: boolean; code: number; signal: string | null }>;
  kill(signal?: string): void;
}

/** The members of the `Deno` namespace used here. */
interface DenoNamespace {
  Command: new (
    command: string,
    options: { args?: string[]; cwd?: string; env?: Record<string, string>; clearEnv?: boolean; stdin?: DenoStdio; stdout?: DenoStdio; stderr?: DenoStdio },
  ) => { spawn(): DenoChildProcess };
  stdin: { readable: ReadableStream<Uint8Array> };
  stdout: { writable: WritableStream<Uint8Array> };
}

function deno(): DenoNamespace {
  return (globalThis as unknown as { Deno: DenoNamespace }).Deno;
}

/** The server side of stdio over `Deno.stdin` / `Deno.stdout`. */
export function denoServerTransport(options: Omit<ChannelOptions, "framing"> = {}): Transport {
  const d = deno();
  return webStreamsTransport(d.stdin.readable, d.stdout.writable as WritableStream<Uint8Array | string>, { ...options, framing: "ndjson", encoding: "bytes" });
}

/** Spawns a server with `Deno.Command`; see `child.ts` for the lifecycle. Throws if the command cannot be started. */
export function denoSpawn(command: string, args: readonly string[], options: SpawnOptions, events: ChildEvents): SpawnedChild {
  const mode = options.stderr ?? "inherit";
  const child = new (deno().Command)(command, {
    args: [...args],
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "piped",
    stdout: "piped",
    stderr: mode === "inherit" ? "inherit" : mode === "ignore" ? "null" : "piped",
  }).spawn();
  const pipes = readChildPipes(child.stdout, () => child.stderr, mode, events);
  child.status.then(
    (s) => events.exit({ code: s.signal === null ? s.code : null, signal: s.signal }),
    (e) => events.exit({ code: null, signal: null, error: errorText(e) }),
  );
  return {
    pid: child.pid,
    // A failed write: the child no longer reads its stdin (gone, or closed it); see child.ts.
    stdin: new WriterSink(child.stdin.getWriter() as WritableStreamDefaultWriter<Uint8Array | string>, true, () => events.stdinFailed?.()),
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
