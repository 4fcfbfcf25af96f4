/**
 * The `mcp-kernel` command line: a table of verbs and a dispatcher.
 *
 * Spec: none of its own; each verb names the spec pages it checks or drives.
 *
 * Theory of operation. {@link main} takes the arguments and a {@link CliIO} and resolves
 * to the exit code; it never calls `process.exit`, so the tests run it in-process and
 * count its coverage. `bin.ts` is the only file that touches `process` (the stdio
 * adapters of `--stdio` child processes aside). A verb is a row of {@link VERBS}: add one
 * by writing its module and adding its row; the top-level usage lists the table. A verb
 * imports the kernel through `../index.js` (the package root) and `../node.js`: the build
 * points those at the published `dist/index.js` and `dist/node.js`, so `dist/cli.js`
 * carries no second copy of the kernel (see `scripts/build.mjs`).
 */
import { Exit, OutputFailed, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { callVerb } from "./call.js";
import { recordVerb } from "./record.js";
import { replayVerb } from "./replay.js";
import { serveVerb } from "./serve.js";
import { validateVerb } from "./validate.js";
import { KERNEL_VERSION } from "./version.js";
import { PROTOCOL_VERSIONS } from "../model/versions.js";
import { thrownMessage } from "../jsonrpc/errors.js";

export { Exit } from "./io.js";
export type { CliIO, CliOutput, Verb } from "./io.js";

/**
 * `demo-client URL`: the client the conformance suite drives (it reads
 * `MCP_CONFORMANCE_SCENARIO`). Its module is loaded when the verb runs, so the other
 * verbs start without it.
 */
const demoClientVerb: Verb = {
  summary: "the conformance suite's client: acts out $MCP_CONFORMANCE_SCENARIO against URL",
  usage: "usage: mcp-kernel demo-client URL\n",
  async run(args, io) {
    let verb: Verb;
    try {
      verb = (await import("./demo-client.js")).demoClientVerb;
    } catch (e) {
      await writeOut(io.stderr, `mcp-kernel demo-client: not available in this build: ${thrownMessage(e)}\n`);
      return Exit.Internal;
    }
    return verb.run(args, io);
  },
};

/** Every verb, by name. */
export const VERBS: Readonly<Record<string, Verb>> = {
  serve: serveVerb,
  call: callVerb,
  record: recordVerb,
  replay: replayVerb,
  validate: validateVerb,
  "demo-client": demoClientVerb,
};

/** The top-level usage text, listing {@link VERBS}. */
export function usage(): string {
  const names = Object.keys(VERBS);
  const width = Math.max(...names.map((n) => n.length));
  let text = "usage: mcp-kernel <verb> [options]\n\nverbs:\n";
  for (const name of names) text += `  ${name.padEnd(width)}  ${VERBS[name].summary}\n`;
  return text + "\n`mcp-kernel <verb> --help` describes a verb; `mcp-kernel --version` prints the version.\n";
}

/** What `mcp-kernel --version` prints. */
function versionLine(): string {
  return `mcp-kernel ${KERNEL_VERSION} (protocol versions ${PROTOCOL_VERSIONS.join(", ")})\n`;
}

/**
 * The exit code of a command line whose output failed ({@link OutputFailed}). A reader that
 * went away (`… | head -1`) is no error: we stop quietly with 141, as every filter that
 * SIGPIPE ends does; not 0, which would claim the work done (`validate`: "every message is
 * valid") when most of it was never looked at, nor 1, which each verb gives a meaning of
 * its own. Any other failure (ENOSPC…) is said in one line on stderr, exit 2, as for input
 * that cannot be read.
 */
async function outputFailed(who: string, e: OutputFailed, io: CliIO): Promise<number> {
  if (e.readerGone) return Exit.ReaderGone;
  await writeOut(io.stderr, `${who}: cannot write output: ${e.message}\n`);
  return Exit.Usage;
}

/**
 * Runs the command line `argv` (without the node and script paths) and resolves to the
 * exit code: {@link Exit}. No verb, or an unknown one, prints the usage to stderr and
 * exits 2; `--help` prints it to stdout and exits 0, as `--version` does the version.
 * Output that cannot be written stops the verb: exit 141 when its reader went away, else 2
 * (see {@link outputFailed}). A verb that throws is a bug, reported on stderr with exit
 * code 70, never an unhandled rejection.
 */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  const asked = name === "--help" || name === "-h" || name === "help" ? usage() : name === "--version" || name === "-V" || name === "version" ? versionLine() : undefined;
  if (asked !== undefined) {
    try {
      await writeResult(io.stdout, asked);
    } catch (e) {
      return outputFailed("mcp-kernel", e as OutputFailed, io);
    }
    return Exit.Ok;
  }
  if (name === undefined || !Object.hasOwn(VERBS, name)) {
    const why = name === undefined ? "no verb given" : `unknown verb ${JSON.stringify(name)}`;
    await writeOut(io.stderr, `mcp-kernel: ${why}\n\n${usage()}`);
    return Exit.Usage;
  }
  try {
    return await VERBS[name].run(args, io);
  } catch (e) {
    if (e instanceof OutputFailed) return outputFailed(`mcp-kernel ${name}`, e, io);
    await writeOut(io.stderr, `mcp-kernel ${name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return Exit.Internal;
  }
}
