/**
 * `mcp-kernel record [--out FILE] -- CMD [ARGS...]`: a stdio proxy that writes a transcript.
 *
 * Spec: 2025-11-25 `basic/transports` ("stdio"). The proxy sits where the server would:
 * a client launches `mcp-kernel record -- CMD ...` instead of `CMD ...`. It runs CMD with
 * its standard input and output on pipes, copies this process's stdin to CMD's stdin and
 * CMD's stdout to this process's stdout byte for byte (CMD's stderr is inherited), and
 * logs every line each way with its time in the format of `stdio-transcript.ts`, which
 * `replay` reads, then what the server drew from the clock and the random source when it
 * is `mcp-kernel serve --stdio` (`draws.ts`). When our stdin ends, CMD's stdin is closed;
 * when CMD exits, the transcript is completed and the proxy exits with CMD's exit code
 * (128 + signal number when it was killed, as a shell reports it; 2 when CMD exited 0 but
 * the transcript could not be written completely, which is said on stderr). SIGINT, SIGTERM and
 * SIGHUP sent to the proxy are passed on to CMD, each once, whose exit then ends the proxy:
 * CMD runs in its own process group, so a terminal's Ctrl-C reaches it only through us.
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { constants } from "node:os";
import { Exit, LineSplitter, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { DRAWS_ENV, drawFile } from "./draws.js";
import { lineEvent, STDIO_TRANSCRIPT, type StdioEvent, type StdioTranscriptHeader } from "./stdio-transcript.js";

/** Where the transcript goes without `--out`. */
export const DEFAULT_TRANSCRIPT = "transcript.jsonl";

const USAGE = `usage: mcp-kernel record [--out FILE] -- CMD [ARGS...]

Runs the stdio server CMD, passes this process's stdin and stdout through to it byte for
byte, and writes every line of the traffic, each way, to FILE (default ${DEFAULT_TRANSCRIPT}).
\`mcp-kernel replay FILE\` re-runs a transcript recorded from \`mcp-kernel serve --stdio\`,
which reports its clock readings and random bytes to FILE too, so that tasks and
requestState replay identically.

Exits with CMD's exit code (128 + N when signal N killed it); when FILE could not be
written completely (a full disk, a file size limit), says so on stderr and exits 2 if
CMD exited 0.
`;

type RecordArgs = { out: string; command: string; args: string[] } | { help: true } | { error: string };

/** Parses the verb's arguments. */
export function parseRecordArgs(args: readonly string[]): RecordArgs {
  let out = DEFAULT_TRANSCRIPT;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      if (i + 1 >= args.length) return { error: "no command after --" };
      return { out, command: args[i + 1], args: args.slice(i + 2) };
    }
    if (a === "--help" || a === "-h") return { help: true };
    if (a === "--out" || a.startsWith("--out=")) {
      const value = a === "--out" ? args[++i] : a.slice("--out=".length);
      if (value === undefined || value === "") return { error: "--out needs a file name" };
      out = value;
    } else return { error: `unknown argument ${JSON.stringify(a)} (the command goes after --)` };
  }
  return { error: "no command: put it after --" };
}

/** The exit code a shell reports for `status`. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const n = signal === null ? undefined : (constants.signals as Record<string, number>)[signal];
  return n === undefined ? 1 : 128 + n;
}

async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseRecordArgs(argv);
  if ("help" in parsed) {
    await writeResult(io.stdout, USAGE);
    return Exit.Ok;
  }
  if ("error" in parsed) {
    await writeOut(io.stderr, `mcp-kernel record: ${parsed.error}\n\n${USAGE}`);
    return Exit.Usage;
  }
  const file = createWriteStream(parsed.out);
  // The file's first error, kept by one listener for the stream's whole life (a listener for
  // the opening only would swallow later ones): at opening it is a usage error; later (a full
  // disk, a file size limit) it cuts the transcript short, which is said once CMD has exited.
  const failed: { error?: Error } = {};
  file.on("error", (e) => (failed.error ??= e));
  const opened = await new Promise<boolean>((resolve) => {
    file.once("open", () => resolve(true));
    file.once("close", () => resolve(false));
  });
  if (!opened) {
    await writeOut(io.stderr, `mcp-kernel record: cannot write ${parsed.out}: ${failed.error?.message}\n`);
    return Exit.Usage;
  }
  const start = performance.now();
  const t = () => Math.round(performance.now() - start);
  const log = (event: StdioEvent | StdioTranscriptHeader) => void file.write(JSON.stringify(event) + "\n");
  log({ transcript: STDIO_TRANSCRIPT, command: [parsed.command, ...parsed.args] });

  // `serve --stdio` reports what it draws (clock readings, random bytes) to this file; other servers ignore the variable.
  const draws = drawFile();
  const env = draws.path === undefined ? process.env : { ...process.env, [DRAWS_ENV]: draws.path };
  // In its own process group (POSIX): a terminal's Ctrl-C, sent to the foreground group, reaches
  // us only, and we pass it on, so CMD gets each signal once, not twice (a second SIGINT may
  // mean "force quit" to it). Killed hard, we leave CMD outside the terminal's reach: its
  // input closes with us (a stdio server then exits), else `kill PID` ends it.
  const child = spawn(parsed.command, parsed.args, { stdio: ["pipe", "pipe", "inherit"], windowsHide: true, env, detached: process.platform !== "win32" });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  // EPIPE once the child is gone: its exit is what we report.
  child.stdin.on("error", () => {});
  // Asked to stop, we pass the signal on (each one: a second Ctrl-C too) rather than die and
  // orphan the server: its exit (by that signal, or however it handles it) completes the
  // transcript and ends us, as always.
  io.onStop?.((signal) => child.kill(signal), true);

  // Ends the server's input once: when ours ends, or when our client is gone (it stopped reading: EPIPE on our
  // stdout), so the server exits as a stdio server should when its stdin closes, and we with its exit code.
  let clientGone = false;
  let leave!: () => void;
  const left = new Promise<void>((resolve) => (leave = resolve));
  // Our stdin in lines, as it is forwarded. Its unfinished last line is already CMD's, however
  // the input ends (our stdin's end, our client gone, CMD's exit): it is logged as a final line
  // without its newline is logged, so the transcript holds every byte that crossed.
  const fromClient = new LineSplitter();
  const logUnfinished = (): void => {
    for (const line of fromClient.end()) log(lineEvent(t(), "client", line));
  };
  const endClientInput = (): void => {
    if (child.stdin.writableEnded) return;
    logUnfinished();
    log({ t: t(), from: "client", end: true });
    child.stdin.end();
  };
  io.stdout.on?.("error", () => {
    clientGone = true;
    leave();
    endClientInput();
  });

  const fromServer = new LineSplitter();
  const stdoutDone = (async () => {
    for await (const chunk of child.stdout as AsyncIterable<Uint8Array>) {
      // Still recorded when the client is gone: the transcript shows what the server said.
      if (!clientGone) await writeOut(io.stdout, chunk, left);
      for (const line of fromServer.push(chunk)) log(lineEvent(t(), "server", line));
    }
    for (const line of fromServer.end()) log(lineEvent(t(), "server", line));
  })();

  const input = io.stdin[Symbol.asyncIterator]();
  let serverGone = false;
  const stdinDone = (async () => {
    for (;;) {
      // A read that fails (our stdin destroyed once the server is gone, or broken) ends the input.
      const next = await input.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done === true || serverGone || child.stdin.writableEnded) break;
      // One time per chunk: replay feeds lines of equal time in one push, as they came.
      const now = t();
      for (const line of fromClient.push(next.value)) log(lineEvent(now, "client", line));
      if (!child.stdin.write(next.value)) await new Promise((resolve) => child.stdin.once("drain", resolve));
    }
    if (serverGone) return;
    endClientInput();
  })();

  const status = await exited;
  serverGone = true;
  // CMD exited with our client's input still open: what it was sent of an unfinished line is logged all the same.
  logUnfinished();
  // Stop reading our stdin: nothing more can be delivered, and it must not keep us alive. An iterator's
  // return() waits for the read in progress (our client may write nothing more, yet not close), so a
  // stream is destroyed too.
  void input.return?.();
  (io.stdin as { destroy?: () => void }).destroy?.();
  if (status.error !== undefined) {
    draws.take();
    file.end();
    await writeOut(io.stderr, `mcp-kernel record: cannot run ${parsed.command}: ${status.error.message}\n`);
    return Exit.Usage;
  }
  await stdoutDone;
  // After the traffic: replay takes the draws in their order, whenever they were drawn.
  const end = t();
  for (const draw of draws.take()) log({ t: end, ...draw });
  log({ t: t(), exit: { code: status.code, signal: status.signal } });
  await new Promise<void>((resolve) =>
    file.end((e?: Error | null) => {
      failed.error ??= e ?? undefined;
      resolve();
    }),
  );
  void stdinDone;
  const code = exitCodeOf(status.code, status.signal);
  if (failed.error === undefined) return code;
  // A transcript cut short must not pass for a whole one (replay would fail at its cut, or
  // replay only a part). CMD's failure keeps its exit code; after CMD's success, ours says the
  // transcript's failure.
  await writeOut(io.stderr, `mcp-kernel record: transcript ${parsed.out} incomplete: ${failed.error.message}\n`);
  return code === 0 ? Exit.Usage : code;
}

/** The `record` verb. */
export const recordVerb: Verb = { summary: "run a stdio server CMD as a proxy and write a transcript of the traffic", usage: USAGE, run };
