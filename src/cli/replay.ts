/**
 * `mcp-kernel replay FILE`: re-runs a kernel transcript and reports the first divergence.
 *
 * Spec: none of its own; the transcript format and the comparison are
 * `src/session/transcript.ts`. Exit 0 when every step's outputs match the recording, 1
 * with the first divergence (step index, what was recorded, what the kernel produced)
 * otherwise, 2 when the file cannot be read.
 */
import { replay } from "../index.js";
import { Exit, joinLines, openInput, readLines, writeOut } from "./io.js";
import type { CliIO, Verb } from "./io.js";

const USAGE = `usage: mcp-kernel replay FILE|-

Replays a transcript recorded from the kernel (JSON Lines: a header with the session
options, then one {input, outputs} line per step) and exits 0 only when every step
produces exactly the recorded outputs; otherwise prints the first divergence.
`;

async function run(args: string[], io: CliIO): Promise<number> {
  if (args.length !== 1 || args[0] === "--help" || args[0] === "-h") {
    await writeOut(args[0] === "--help" || args[0] === "-h" ? io.stdout : io.stderr, USAGE);
    return args.length === 1 ? Exit.Ok : Exit.Usage;
  }
  let text: string;
  try {
    const lines: Uint8Array[] = [];
    for await (const batch of readLines(openInput(args[0], io))) lines.push(...batch);
    text = new TextDecoder().decode(joinLines(lines));
  } catch (e) {
    await writeOut(io.stderr, `mcp-kernel replay: cannot read ${args[0]}: ${e instanceof Error ? e.message : String(e)}\n`);
    return Exit.Usage;
  }
  const result = replay(text);
  if (result.ok) {
    await writeOut(io.stdout, `ok ${result.steps} steps replayed identically\n`);
    return Exit.Ok;
  }
  await writeOut(io.stdout, `divergence at step ${result.index}: ${result.reason}\n  expected ${JSON.stringify(result.expected)}\n  actual   ${JSON.stringify(result.actual)}\n`);
  return Exit.Invalid;
}

/** The `replay` verb. */
export const replayVerb: Verb = { summary: "re-run a kernel transcript; exit 0 when it replays identically", usage: USAGE, run };
