/**
 * The `mcp-kernel` command line: a table of verbs and a dispatcher.
 *
 * Spec: none of its own; each verb names the spec pages it checks or drives.
 *
 * Theory of operation. {@link main} takes the arguments and a {@link CliIO} and resolves
 * to the exit code; it never calls `process.exit`, so the tests run it in-process and
 * count its coverage. `bin.ts` is the only file that touches `process`. A verb is a row
 * of {@link VERBS}: add `serve`, `replay`, `record` or `call` by writing its module and
 * adding its row; the top-level usage lists the table. A verb imports the kernel only
 * through `../index.js` (the package root): the build points that at the published
 * `dist/index.js`, so `dist/cli.js` carries no second copy of the kernel, and fails on
 * any other import of a kernel module from here.
 */
import { Exit, writeOut } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { replayVerb } from "./replay.js";
import { validateVerb } from "./validate.js";

export { Exit } from "./io.js";
export type { CliIO, CliOutput, Verb } from "./io.js";

/** Every verb, by name. */
export const VERBS: Readonly<Record<string, Verb>> = {
  validate: validateVerb,
  replay: replayVerb,
};

/** The top-level usage text, listing {@link VERBS}. */
export function usage(): string {
  const names = Object.keys(VERBS);
  const width = Math.max(...names.map((n) => n.length));
  let text = "usage: mcp-kernel <verb> [options]\n\nverbs:\n";
  for (const name of names) text += `  ${name.padEnd(width)}  ${VERBS[name].summary}\n`;
  return text + "\n`mcp-kernel <verb> --help` describes a verb.\n";
}

/**
 * Runs the command line `argv` (without the node and script paths) and resolves to the
 * exit code: {@link Exit}. No verb, or an unknown one, prints the usage to stderr and
 * exits 2; `--help` prints it to stdout and exits 0. A verb that throws is a bug,
 * reported on stderr with exit code 70, never an unhandled rejection.
 */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    await writeOut(io.stdout, usage());
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
    await writeOut(io.stderr, `mcp-kernel ${name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return Exit.Internal;
  }
}
