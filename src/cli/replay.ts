/**
 * `mcp-kernel replay FILE`: re-runs a transcript and reports the first divergence.
 *
 * Spec: none of its own. Two formats, told apart by the header: a kernel transcript
 * (`mcp-kernel/1`, `src/session/transcript.ts`: session inputs and outputs), and a stdio
 * transcript (`mcp-kernel/stdio-2`, or `stdio-1` from before, `stdio-transcript.ts`: what `record` wrote), which is
 * re-run through the kernel and the demo server's handlers. Exit 0 when every output
 * matches the recording, 1 with the first divergence (where, what was recorded, what was
 * produced) otherwise, 2 when the file cannot be read or is not a transcript (no header,
 * a header without options or with options no session has, a line that is not a step, a stdio time that is not finite or
 * goes back) or is a stdio transcript of another server (told by the `serverInfo` it
 * answered with; the command line does not tell: `npm start -- --stdio` runs the demo; when
 * no answer carried one, one whose command line is not `... serve --stdio` and that holds
 * no draws): nothing was compared.
 */
import { MetaKey, replay, type ReplayResult } from "../index.js";
import { DEMO_INFO } from "../demo/server.js";
import { Exit, joinLines, openInput, readLines, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { isDraw } from "./draws.js";
import { isStdioTranscript, parseStdioTranscript, replayStdio, type StdioEvent } from "./stdio-transcript.js";
import { thrownMessage } from "../jsonrpc/errors.js";

const USAGE = `usage: mcp-kernel replay FILE|-

Replays a transcript and exits 0 only when every output matches the recording;
otherwise prints the first divergence. Two formats (JSON Lines, told apart by the header):
  mcp-kernel/1        kernel steps: a header with the session options, then one
                      {input, outputs} line per step
  mcp-kernel/stdio-2  stdio traffic written by \`mcp-kernel record\` around
                      \`mcp-kernel serve --stdio\`, re-run against the demo server
                      (a transcript whose serverInfo names another server, or
                      with none, no draws and another command, is refused: exit 2)
`;

async function run(args: string[], io: CliIO): Promise<number> {
  if (args.length !== 1 || args[0] === "--help" || args[0] === "-h") {
    if (args[0] === "--help" || args[0] === "-h") await writeResult(io.stdout, USAGE);
    else await writeOut(io.stderr, USAGE);
    return args.length === 1 ? Exit.Ok : Exit.Usage;
  }
  let text: string;
  try {
    const lines: Uint8Array[] = [];
    for await (const batch of readLines(openInput(args[0], io))) lines.push(...batch);
    text = new TextDecoder().decode(joinLines(lines));
  } catch (e) {
    await writeOut(io.stderr, `mcp-kernel replay: cannot read ${args[0]}: ${thrownMessage(e)}\n`);
    return Exit.Usage;
  }
  const result = await replayText(text);
  if (result.ok) {
    await writeResult(io.stdout, `ok ${result.steps} steps replayed identically\n`);
    return Exit.Ok;
  }
  if (result.malformed === true) {
    // Nothing was replayed: the file is unreadable as a transcript, not a divergence.
    await writeOut(io.stderr, `mcp-kernel replay: cannot replay ${args[0]}: ${result.reason}\n  expected ${JSON.stringify(result.expected)}\n  found    ${JSON.stringify(result.actual)}\n`);
    return Exit.Usage;
  }
  const where = result.line === undefined ? "" : ` (line ${result.line})`;
  await writeResult(io.stdout, `divergence at step ${result.index}${where}: ${result.reason}\n  expected ${JSON.stringify(result.expected)}\n  actual   ${JSON.stringify(result.actual)}\n`);
  return Exit.Invalid;
}

/** Replays `text` in the format its header names. */
async function replayText(text: string): Promise<ReplayResult> {
  // Blank lines are skipped; an error still names the file's own line number.
  const all = text.split("\n");
  const lineNo: number[] = [];
  all.forEach((l, i) => void (l.trim() !== "" && lineNo.push(i + 1)));
  const lines = lineNo.map((n) => all[n - 1]);
  let format: unknown;
  try {
    format = (JSON.parse(lines[0] ?? "null") as { transcript?: unknown } | null)?.transcript;
  } catch {
    format = undefined;
  }
  if (!isStdioTranscript(format)) return replay(text);
  const parsed = parseStdioTranscript(lines, lineNo);
  if ("error" in parsed) return { ok: false, malformed: true, index: parsed.line - 1, expected: parsed.expected ?? "a stdio transcript event", actual: lines[parsed.line], reason: parsed.error };
  // Only the demo server can be rebuilt here: another server's transcript would "diverge" at its first answer.
  // Told by the serverInfo it answered with, not the command (`npm start -- --stdio` runs the demo too).
  // With no serverInfo recorded (no answer carried one: `cat`, a server that failed at once), the demo is
  // told by its command line or by the draws only it reports.
  const info = recordedServerInfo(parsed.events);
  const demo = info === undefined ? runsServeStdio(parsed.header.command) || parsed.events.some(isDraw) : info.name === DEMO_INFO.name && info.version === DEMO_INFO.version;
  if (!demo) {
    const expected = info === undefined ? { serverInfo: DEMO_INFO, orCommand: ["…", "serve", "--stdio"], orDraws: true } : { serverInfo: DEMO_INFO };
    const why = info === undefined ? "another server (no answer names it, and neither its command line nor draws are the demo's)" : "another server";
    return { ok: false, malformed: true, index: -1, expected, actual: { serverInfo: info, command: parsed.header.command }, reason: `replay re-runs stdio transcripts of mcp-kernel serve --stdio only (the demo server it can rebuild); this one recorded ${why}` };
  }
  return replayStdio(parsed.events, parsed.lines);
}

/** Whether a recorded command line runs `serve --stdio` (`mcp-kernel serve --stdio`, `node bin.js serve --stdio`). */
function runsServeStdio(command: unknown): boolean {
  return Array.isArray(command) && command.some((arg, i) => arg === "serve" && command[i + 1] === "--stdio");
}

/**
 * The `serverInfo` of the first recorded answer that carries one (the legacy `initialize`
 * result, or a modern result's `_meta`); undefined when none does.
 */
function recordedServerInfo(events: readonly StdioEvent[]): { name?: unknown; version?: unknown } | undefined {
  for (const e of events) {
    if (!("from" in e) || e.from !== "server" || !("line" in e)) continue;
    let result: { serverInfo?: unknown; _meta?: Record<string, unknown> } | undefined;
    try {
      result = (JSON.parse(e.line) as { result?: typeof result } | null)?.result;
    } catch {
      continue;
    }
    if (result === null || typeof result !== "object") continue;
    const info = result.serverInfo ?? result._meta?.[MetaKey.serverInfo];
    if (info !== null && typeof info === "object") return info;
  }
  return undefined;
}

/** The `replay` verb. */
export const replayVerb: Verb = { summary: "re-run a transcript (kernel steps, or stdio from record); exit 0 when it replays identically", usage: USAGE, run };
