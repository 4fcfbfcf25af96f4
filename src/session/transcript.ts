/**
 * Transcripts and deterministic replay.
 *
 * Theory of operation. Because the kernel is a pure function of its inputs (each carrying
 * `now`), the inputs of a run are the run. A transcript is JSON Lines: a header naming the
 * format and the session options, then one line per step holding the input and the
 * outputs it produced. `replay` builds a fresh session from the header, feeds every input
 * again and compares each step's outputs with the recorded ones; the first difference is
 * reported with its step index, what was recorded and what the kernel produced now. A
 * transcript therefore doubles as a regression test, a bug report and a fixture.
 *
 * Comparison is by canonical JSON (keys sorted), so a transcript that went through another
 * tool that reordered keys still replays.
 */
import { thrownMessage } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import { isProtocolVersion } from "../model/versions.js";
import { createSession, inputType, step } from "./session.js";
import type { SessionInput, SessionOptions, SessionOutput, SessionState } from "./types.js";

/** The first line of a transcript. */
export interface TranscriptHeader {
  transcript: "mcp-kernel/1";
  options: SessionOptions;
}

/** One recorded step. */
export interface TranscriptStep {
  input: SessionInput;
  outputs: SessionOutput[];
}

/**
 * Outcome of a replay. A failure is either a divergence (the kernel produced other outputs
 * at step `index`) or, with `malformed`, a text that is no transcript at all (no header, a
 * line that is not a step): nothing was compared there, so tools report it as unreadable
 * input rather than as a divergence. `line`, where there is one, is the number in the file
 * (from 1, blank lines counted) of the recorded line the divergence is at: a step index
 * does not say where to look in the file.
 */
export type ReplayResult =
  | { ok: true; steps: number }
  | { ok: false; index: number; expected: unknown; actual: unknown; reason: string; malformed?: true; line?: number };

/** The header line for a session with `options`. */
export function transcriptHeader(options: SessionOptions): string {
  const header: TranscriptHeader = { transcript: "mcp-kernel/1", options };
  return JSON.stringify(header);
}

/** One step as a transcript line. */
export function transcriptLine(input: SessionInput, outputs: SessionOutput[]): string {
  return JSON.stringify({ input, outputs });
}

/**
 * A session that records itself: `step` runs the kernel and appends a line; `text()` is the
 * transcript so far.
 *
 * The kernel is fed the input as the transcript holds it (its JSON text, parsed back), so a
 * replay sees exactly what the live run saw: a `now` of NaN, written as `null`, is refused
 * alike on both runs, and a member the text drops (`undefined`) is missing from both. An
 * input with no JSON text (a BigInt, a cycle) is refused like any malformed input, with an
 * `input-refused` diagnostic, before the kernel sees it: it changes nothing and is not
 * recorded, and nothing throws.
 */
export function recordingSession(options: SessionOptions): { state: ReturnType<typeof createSession>; step(input: SessionInput): SessionOutput[]; text(): string } {
  const { state, header } = recordedSession(options);
  const lines = [header];
  const write = (line: string): void => void lines.push(line);
  return {
    state,
    step(input) {
      const held = transcriptInput(input);
      return held.ok ? recordedStep(state, held.input, write) : [held.refusal];
    },
    text: () => lines.join("\n") + "\n",
  };
}

/**
 * A session to record, made from `options` as its transcript's header holds them (their
 * JSON text, parsed back), as replay makes it, and that header line. Options with no JSON
 * form (a BigInt, a getter that throws) threw out of here; now the header holds none
 * (replay reports it malformed) and the session reads what it can of them, as
 * createSession does. (Shared by {@link recordingSession} and the driver's `record` hook.)
 */
export function recordedSession(options: SessionOptions): { state: SessionState; header: string } {
  const held = jsonCopy(options);
  return { header: transcriptHeader(held as SessionOptions), state: createSession(held ?? options) };
}

/**
 * `input` as a transcript holds it (its JSON text, parsed back), which is what a recorder
 * feeds the kernel; or, for an input with no JSON text (a BigInt, a cycle, a getter that
 * throws), the `input-refused` diagnostic it is refused with.
 */
export function transcriptInput(input: SessionInput): { ok: true; input: SessionInput } | { ok: false; refusal: Extract<SessionOutput, { type: "diagnostic" }> } {
  try {
    return { ok: true, input: JSON.parse(JSON.stringify(input) ?? "null") as SessionInput };
  } catch (e) {
    return { ok: false, refusal: { type: "diagnostic", code: "input-refused", message: `the input has no JSON form, so no transcript can hold it: ${thrownMessage(e)}`, detail: { type: inputType(input) } } };
  }
}

/**
 * Steps `state` with `held` (an input as {@link transcriptInput} gives it) and hands the
 * step's transcript line to `write` before returning its outputs, so a step fed while
 * these outputs are handled is written after this one, in the order the kernel ran them.
 */
export function recordedStep(state: SessionState, held: SessionInput, write: (line: string) => void): SessionOutput[] {
  // Not an object: step refuses it and nothing changed; a transcript line holds only object inputs.
  if (held === null || typeof held !== "object") return step(state, held).outputs;
  const { outputs } = step(state, held);
  write(transcriptLine(held, outputs));
  return outputs;
}

/** Re-runs a transcript through a fresh kernel and reports the first divergence. Never throws. */
export function replay(text: string): ReplayResult {
  try {
    return replayLines(text);
  } catch (e) {
    // Options no session can be made from, outputs nested past the stack: no transcript this kernel can replay.
    return { ok: false, malformed: true, index: -1, expected: "a transcript this kernel can replay", actual: thrownMessage(e), reason: `the transcript could not be replayed: ${thrownMessage(e)}` };
  }
}

function replayLines(text: string): ReplayResult {
  // Blank lines are skipped, but an error names the file's own line number (`lineNo[i]`), not the i-th non-blank one.
  const all = text.split("\n");
  const lineNo: number[] = [];
  all.forEach((l, i) => void (l.trim() !== "" && lineNo.push(i + 1)));
  const lines = lineNo.map((n) => all[n - 1]);
  let header: TranscriptHeader;
  try {
    header = JSON.parse(lines[0] ?? "null") as TranscriptHeader;
  } catch {
    return { ok: false, malformed: true, index: -1, expected: "a transcript header", actual: lines[0] ?? "", reason: "the first line is not JSON" };
  }
  if (header === null || typeof header !== "object" || header.transcript !== "mcp-kernel/1") {
    return { ok: false, malformed: true, index: -1, expected: { transcript: "mcp-kernel/1" }, actual: header, reason: "the first line is not an mcp-kernel/1 transcript header" };
  }
  if (typeof header.options !== "object" || header.options === null || Array.isArray(header.options)) {
    return { ok: false, malformed: true, index: -1, expected: { transcript: "mcp-kernel/1", options: "the session options (an object)" }, actual: header, reason: "the transcript header has no options object" };
  }
  const problem = optionsProblem(header.options);
  if (problem !== undefined) return { ok: false, malformed: true, index: -1, expected: { options: problem.expected }, actual: header.options, reason: `the transcript header's options are not a session's: ${problem.reason}` };
  const state = createSession(header.options);
  for (let i = 1; i < lines.length; i++) {
    let recorded: TranscriptStep;
    try {
      recorded = JSON.parse(lines[i]) as TranscriptStep;
    } catch {
      return { ok: false, malformed: true, index: i - 1, expected: "a JSON step", actual: lines[i], reason: `line ${lineNo[i]} is not JSON` };
    }
    if (recorded === null || typeof recorded !== "object" || typeof recorded.input !== "object" || recorded.input === null || !Array.isArray(recorded.outputs)) {
      return { ok: false, malformed: true, index: i - 1, expected: "{input, outputs}", actual: recorded, reason: `line ${lineNo[i]} is not a step` };
    }
    const { outputs } = step(state, recorded.input);
    const want = canonicalJson(recorded.outputs);
    const got = canonicalJson(outputs);
    if (want !== got) return { ok: false, index: i - 1, expected: recorded.outputs, actual: outputs, reason: `step ${i - 1} (${recorded.input.type}) produced different outputs`, line: lineNo[i] };
  }
  return { ok: true, steps: lines.length - 1 };
}

/**
 * What makes `options` options no session could have been recorded with (the kernel takes
 * them as typed, so a replay of, say, role "sever" would fail inside the first step and
 * look like a divergence): an edited or corrupted header, reported as malformed instead.
 */
function optionsProblem(options: SessionOptions): { expected: unknown; reason: string } | undefined {
  if ((options.role as unknown) !== "client" && (options.role as unknown) !== "server") return { expected: { role: "client or server" }, reason: `role ${JSON.stringify(options.role)}` };
  const versions = options.versions;
  if (versions !== undefined && !(Array.isArray(versions) && versions.length > 0 && versions.every((v) => isProtocolVersion(v)))) {
    return { expected: { versions: "a non-empty array of known protocol versions" }, reason: `versions ${JSON.stringify(versions)}` };
  }
  return undefined;
}

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) Object.defineProperty(sorted, k, { value: (v as Record<string, unknown>)[k], enumerable: true, writable: true, configurable: true });
    return sorted;
  });
}
