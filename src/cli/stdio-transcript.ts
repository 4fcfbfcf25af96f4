/**
 * Stdio transcripts: what `record` writes and `replay` re-runs against the demo server.
 *
 * Spec: 2025-11-25 `basic/transports` ("stdio": one JSON-RPC message per line, each
 * way). A transcript is JSON Lines:
 *
 *     {"transcript":"mcp-kernel/stdio-2","command":["mcp-kernel","serve","--stdio"]}
 *     {"t":0,"from":"client","line":"{\"jsonrpc\":\"2.0\",\"id\":1,...}"}
 *     {"t":3,"from":"server","line":"{...}"}
 *     {"t":9,"from":"client","end":true}
 *     {"t":11,"draw":"clock","value":1767225600123}
 *     {"t":11,"draw":"random","value":"3q2+7w..."}
 *     {"t":11,"draw":"monotonic","value":1834.261}
 *     {"t":11,"draw":"read","inputs":1}
 *     {"t":11,"draw":"timer","n":2}
 *     {"t":11,"exit":{"code":0,"signal":null}}
 *
 * `t` is milliseconds since the recording started, never going back. A line is stored
 * without its line ending (`\n`, or `\r\n`: the `\r` is dropped too); one that is not
 * UTF-8 is stored as `bytes` (base64) instead of `line`, so otherwise the transcript holds
 * exactly what crossed the pipe. `end` marks the client closing the server's input; `exit`, the server's exit.
 * `draw` events, after the traffic, are what `serve --stdio` drew from the wall clock, its
 * monotonic clock and the random source, in the order it drew them, and how it read its input (`read`: the
 * client inputs, lines and the end, taken once it had read a chunk) and which of its timers
 * fired among those reads (`timer`, `n`: the timer set by its n-th `schedule` call) and
 * when its WebCrypto work finished (`settled`), in order (`draws.ts`); a transcript of
 * another server, or an older one, has none (or `timer` without `n`: recorded before it
 * was kept). `stdio-2` is what `record` writes since `monotonic` and `settled` draws were
 * added, so that a `replay` from before them names the format it cannot read instead of
 * refusing a draw; a `stdio-1` transcript replays as it always did.
 *
 * Replay (theory of operation). The demo server is rebuilt as `serve` builds it, on a
 * clock that moves only when the replay moves it, behind a real ndjson channel (so framing
 * faults replay too), letting the server run between inputs and between timers, so the
 * demo's pauses and the kernel's timeouts fire as they did. With `read` and `timer` draws,
 * the input is fed in the chunks the server read it in, each at the time of its last line,
 * and exactly the recorded timers fire between them, whenever due on the replay's clock
 * (the recorded times are the proxy's, a few ms off the server's: a timer due just before
 * a line may have fired after it, two timers due close together in either order, and
 * lines the proxy saw apart may have been read together, which changes how concurrent
 * requests interleave). Timer n is the one the replayed server set by its n-th `schedule`
 * call; a recorded timer it never set, or cancelled, is a divergence. A `timer` without
 * `n` (an older recording) fires whichever is due first, and is a divergence when none is
 * pending. Without them (an older transcript), client lines are fed at their recorded
 * times (lines of one time in one push), after every timer due by then. Each produced
 * line must equal its recorded counterpart byte for byte (the recording holds the very
 * bytes the server wrote, so a line with the same JSON value in other bytes, keys in
 * another order say, is a difference in what the server writes): the recorded response
 * with the same id for a response (answers to concurrent requests may come in either
 * order), the next recorded line for anything else. Before each client
 * line, every server line recorded before it must have been produced: the replayed
 * server may be earlier than the recorded one, never different. After the last event,
 * what was produced must be exactly what was recorded, and the recorded exit, when there is
 * one, the replayed server's (code 0 once its input has ended). The first difference is the
 * divergence reported. The recorded times are when the proxy saw the lines, so a client
 * that writes ahead of a slow-starting server records a schedule the server never saw;
 * a client that waits for each answer (as MCP clients do) replays exactly.
 * When the transcript has draws, the server takes its clock readings (the monotonic ones
 * too, where they were kept: the replay's own clock then only orders its timers) and random bytes
 * from them (task ids and times, the key and expiry of a modern `requestState`), and
 * waits for its `requestState` signing, which WebCrypto does off the event loop (each link
 * of a digest-then-sign chain, however long each takes); drawing
 * more than was recorded is a divergence, and so is leaving a recorded draw untaken by the end. Without draws it draws its own, so a recording
 * that depends on them diverges there.
 */
import { ManualClock, StreamChannel, type ReplayResult } from "../index.js";
import { cliDemoServer } from "./demo.js";
import { drawnServer, isDraw, numberedTimers, reading, replayedDraws, type Draw } from "./draws.js";
import { concat, LineSplitter } from "./io.js";

const NEWLINE = new Uint8Array([0x0a]);

/** The first line of a stdio transcript. */
export interface StdioTranscriptHeader {
  transcript: typeof STDIO_TRANSCRIPT | "mcp-kernel/stdio-1";
  /** The recorded server's command line. */
  command: string[];
}

/** One line that crossed the pipe, or the client closing its side, or the server exiting. */
export type StdioEvent =
  | { t: number; from: "client" | "server"; line: string }
  | { t: number; from: "client" | "server"; bytes: string }
  | { t: number; from: "client"; end: true }
  | ({ t: number } & Draw)
  | { t: number; exit: { code: number | null; signal: string | null } };

/** The transcript format's name, in the header `record` writes. */
export const STDIO_TRANSCRIPT = "mcp-kernel/stdio-2";

/** Whether a header's `transcript` names a stdio transcript: `record`'s format, or the one before it. */
export function isStdioTranscript(format: unknown): format is StdioTranscriptHeader["transcript"] {
  return format === STDIO_TRANSCRIPT || format === "mcp-kernel/stdio-1";
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The event for one line of bytes (without its newline). */
export function lineEvent(t: number, from: "client" | "server", bytes: Uint8Array): StdioEvent & ({ line: string } | { bytes: string }) {
  try {
    return { t, from, line: strictUtf8.decode(bytes) };
  } catch {
    return { t, from, bytes: Buffer.from(bytes).toString("base64") };
  }
}

/** The bytes of a line event. */
function bytesOf(event: { line: string } | { bytes: string }): Uint8Array {
  return "line" in event ? new TextEncoder().encode(event.line) : new Uint8Array(Buffer.from(event.bytes, "base64"));
}

/** Text for comparison and display: the line, or its base64 when it is not UTF-8. */
function shown(event: { line: string } | { bytes: string }): string {
  return "line" in event ? event.line : `(not UTF-8, base64) ${event.bytes}`;
}

/** Whether `e` is a line the server wrote. */
function isServerLine(e: StdioEvent): e is StdioEvent & ({ line: string } | { bytes: string }) {
  return "from" in e && e.from === "server" && ("line" in e || "bytes" in e);
}

/** `response:<id>` for a JSON-RPC response line, else undefined. */
function responseKey(text: string): string | undefined {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (m === null || typeof m !== "object" || Array.isArray(m)) return undefined;
  const r = m as Record<string, unknown>;
  if ("method" in r || !("id" in r) || r.id === null || !("result" in r || "error" in r)) return undefined;
  return `response:${JSON.stringify(r.id)}`;
}

/**
 * Lets every pending promise and microtask run, and what `busy` waits for (work off the
 * event loop, true when there was some): until two macrotask turns with no new output and
 * nothing to wait for. A turn that waited is not quiet: what the awaited work resumes (the
 * next link of a chain) may be off the event loop again.
 */
async function settleWhile(progress: () => number, busy?: () => Promise<boolean>): Promise<void> {
  let quiet = 0;
  for (let turns = 0; quiet < 2 && turns < 10_000; turns++) {
    const before = progress();
    const waited = (await busy?.()) === true;
    await new Promise<void>((resolve) => setImmediate(resolve));
    quiet = progress() === before && !waited ? quiet + 1 : 0;
  }
}

/**
 * Parses a stdio transcript's text into its header and events; an error names the bad line
 * by its number in the file, `lineNo[i]` for `lines[i]` (blank lines, skipped by the caller,
 * count there), and what was expected there when it is more than an event. Times must be finite, not
 * negative and never go back, as `record` writes them: replay advances its clock to each.
 * No client event follows the client's end.
 */
export function parseStdioTranscript(lines: readonly string[], lineNo: readonly number[] = lines.map((_, i) => i + 1)): { header: StdioTranscriptHeader; events: StdioEvent[]; lines: number[] } | { error: string; line: number; expected?: string } {
  const header = JSON.parse(lines[0]) as StdioTranscriptHeader;
  const events: StdioEvent[] = [];
  const eventLines: number[] = [];
  let time = 0;
  let ended = false;
  for (let i = 1; i < lines.length; i++) {
    let e: unknown;
    try {
      e = JSON.parse(lines[i]);
    } catch {
      return { error: `line ${lineNo[i]} is not JSON`, line: i };
    }
    const ev = e as Record<string, unknown>;
    const ok =
      ev !== null &&
      typeof ev === "object" &&
      typeof ev.t === "number" &&
      (((ev.from === "client" || ev.from === "server") && (typeof ev.line === "string" || typeof ev.bytes === "string")) ||
        (ev.from === "client" && ev.end === true) ||
        isDraw(ev) ||
        (typeof ev.exit === "object" && ev.exit !== null));
    if (!ok) return { error: `line ${lineNo[i]} is not a stdio transcript event`, line: i };
    // Nothing reaches a server after its input closed: record cannot have logged it.
    const { from, end } = e as { from?: unknown; end?: unknown };
    if (ended && from === "client") return { error: `line ${lineNo[i]} is client input after the client closed the input`, line: i };
    ended ||= end === true;
    // 1e999 parses as Infinity; a time far ahead is caught only where it makes time go back.
    const t = (e as { t: number }).t;
    if (!Number.isFinite(t) || t < time) return { error: `line ${lineNo[i]} has a time t that is not a finite number of ms at or after the line before's`, line: i, expected: `t from ${time} on` };
    time = t;
    events.push(e as StdioEvent);
    eventLines.push(lineNo[i]);
  }
  return { header, events, lines: eventLines };
}

/**
 * Re-runs `events` against the demo server; see the module comment. Never throws.
 * `lines[k]` is the number in the file of `events[k]`: a divergence at a recorded event
 * names it (`line`), where "server line 3" would not say where to look.
 */
export async function replayStdio(events: readonly StdioEvent[], lines?: readonly number[]): Promise<ReplayResult> {
  const lineOf = new Map<StdioEvent, number>();
  if (lines !== undefined) events.forEach((e, k) => lineOf.set(e, lines[k]));
  /** `result` with the file line of `event`, when known. */
  const located = (result: Extract<ReplayResult, { ok: false }>, event: StdioEvent | undefined): ReplayResult => {
    const line = event === undefined ? undefined : lineOf.get(event);
    return line === undefined ? result : { ...result, line };
  };
  const clock = new ManualClock();
  const recorded = events.filter((e): e is StdioEvent & Draw => isDraw(e));
  const draws = recorded.length === 0 ? undefined : replayedDraws(recorded);
  // The server's timers by the order it scheduled them: a recorded `timer` draw names one so
  // (draws.ts). Its readings are the recorded ones where they were kept: the replay's clock
  // stands at the proxy's times, which are not the server's.
  const timers: unknown[] = [];
  const serverClock = numberedTimers(draws?.readsClock === true ? reading(clock, draws.monotonic) : clock, { scheduled: (_n, handle) => timers.push(handle) });
  // A recording that says when its WebCrypto work finished has each result held until then.
  const drawn = draws === undefined ? undefined : drawnServer(draws, { held: recorded.some((d) => d.draw === "settled") });
  const server = cliDemoServer(drawn === undefined ? { clock: serverClock } : { clock: serverClock, server: drawn.options });
  const produced: string[] = [];
  const splitter = new LineSplitter();
  const sink = {
    write(chunk: string): boolean {
      // Shown as a recorded line is (its base64 when it is not UTF-8), so the bytes themselves are compared.
      for (const line of splitter.push(chunk)) produced.push(shown(lineEvent(0, "server", line)));
      return true;
    },
    waitDrain: (fn: () => void) => queueMicrotask(fn),
    end: () => {},
  };
  const channel = new StreamChannel(sink, { framing: "ndjson" });
  server.connect(channel);
  const settle = () => settleWhile(() => produced.length, drawn?.settled);
  // The clock stops there: past the recorded readings the server sees time stand still, and a
  // timer it re-arms (a task's expiry) would fire again and again on the way to a far time.
  const drewTooMuch = () => draws?.problem() !== undefined;
  // The server's own order of its input chunks, timer firings and cryptography finishing, when recorded (draws.ts).
  const order = recorded.filter((d): d is StdioEvent & Extract<Draw, { draw: "read" | "timer" | "settled" }> => d.draw === "read" || d.draw === "timer" || d.draw === "settled");

  // Every server line of the recording, in order.
  const expected = events.filter(isServerLine);
  // How many server lines were recorded before each event; where the client's inputs (lines, the end) are.
  const serverBefore: number[] = [];
  const inputsAt: number[] = [];
  events.forEach((e, i) => {
    serverBefore.push(i === 0 ? 0 : serverBefore[i - 1] + (isServerLine(events[i - 1]) ? 1 : 0));
    if ("from" in e && e.from === "client") inputsAt.push(i);
  });
  let clientLines = 0;
  // Matching: a response is paired with the recorded response of the same id (when two
  // requests are in flight their answers may come in either order); every other line
  // (notifications, the server's own requests) with the next recorded one, in order.
  const responseAt = new Map<string, number>();
  const ordered: number[] = [];
  expected.forEach((e, i) => {
    const key = responseKey(shown(e));
    if (key !== undefined && !responseAt.has(key)) responseAt.set(key, i);
    else ordered.push(i);
  });
  const matched = new Set<number>();
  let consumed = 0;
  let nextOrdered = 0;
  /** Matches the lines produced since the last check; then the first `atLeast` recorded lines must all be matched. */
  const check = (atLeast: number, at: string): ReplayResult | undefined => {
    // What the server said after a draw the recording could not give is not worth comparing.
    const problem = draws?.problem();
    if (problem !== undefined) return { ok: false, index: matched.size, expected: `the ${recorded.length} draws recorded`, actual: problem, reason: `the server drew what the recording does not hold (${at})` };
    for (; consumed < produced.length; consumed++) {
      const line = produced[consumed];
      const key = responseKey(line);
      let index = key === undefined ? undefined : responseAt.get(key);
      if (index === undefined || matched.has(index)) index = ordered[nextOrdered++];
      if (index === undefined) return { ok: false, index: expected.length, expected: "nothing more", actual: line, reason: `the server wrote a line the recording does not have (${at})` };
      matched.add(index);
      if (line !== shown(expected[index])) {
        return located({ ok: false, index, expected: shown(expected[index]), actual: line, reason: `server line ${index + 1} differs (${at})` }, expected[index]);
      }
    }
    for (let i = 0; i < atLeast; i++) {
      if (!matched.has(i)) return located({ ok: false, index: i, expected: shown(expected[i]), actual: "nothing", reason: `server line ${i + 1} was not produced (${at})` }, expected[i]);
    }
    return undefined;
  };

  /** Feeds the client inputs `from` to `to` (indexes into inputsAt) in one push, as one chunk; the end closes the input. */
  const feed = (from: number, to: number): void => {
    const batch: Uint8Array[] = [];
    let ended = false;
    for (const i of inputsAt.slice(from, to)) {
      const e = events[i];
      if ("end" in e) ended = true;
      else if ("from" in e) batch.push(bytesOf(e as { line: string } | { bytes: string }), NEWLINE);
    }
    clientLines += batch.length / 2;
    if (batch.length > 0) channel.push(batch.reduce(concat));
    if (ended) {
      channel.endInput();
      channel.closeWith("the peer closed the stream");
    }
  };
  const before = (input: number) => ("end" in events[inputsAt[input]] ? "before the client closed the input" : `before client line ${clientLines + 1}`);

  /**
   * Older transcripts: each input at its recorded time, after every timer due by then; lines
   * of one time with no server line between came in one chunk (record times each chunk
   * once), so they are fed together.
   */
  const feedByTime = async (): Promise<ReplayResult | undefined> => {
    for (let input = 0; input < inputsAt.length; ) {
      const event = events[inputsAt[input]];
      await clock.runUntil(event.t, settle, drewTooMuch);
      await settle();
      const divergence = check(serverBefore[inputsAt[input]], before(input));
      if (divergence !== undefined) return divergence;
      let to = input + 1;
      if (!("end" in event)) {
        while (to < inputsAt.length && inputsAt[to] === inputsAt[to - 1] + 1 && events[inputsAt[to]].t === event.t && !("end" in events[inputsAt[to]])) to++;
      }
      feed(input, to);
      input = to;
    }
    return undefined;
  };

  /**
   * A recording of `serve --stdio`: its inputs in the chunks it read them in, its timers
   * where they fired among them (whenever due on the replay's clock) and its WebCrypto work
   * where it finished (each result held until then), as it reported them.
   */
  const feedInRecordedOrder = async (): Promise<ReplayResult | undefined> => {
    let taken = 0;
    /** The divergence of a timer or a finishing the replayed server has no counterpart of; what it said so far may show why, and a differing line comes first. */
    const unmatched = (draw: StdioEvent, expected: string, actual: string, what: string): ReplayResult => {
      const at = taken < inputsAt.length ? before(taken) : "after the client's last input";
      return check(0, at) ?? located({ ok: false, index: matched.size, expected, actual, reason: `${what} (${at})` }, draw);
    };
    // Inputs the server never reported reading (it exited first) are fed last, together.
    for (const op of [...order, { draw: "read" as const, inputs: inputsAt.length }]) {
      if (drewTooMuch()) break;
      if (op.draw === "settled") {
        if (!drawn!.release(op.n)) return unmatched(op, `WebCrypto work ${op.n} finishing`, `the replayed server has no WebCrypto work ${op.n} under way`, "the recording finished cryptography the replayed server did not start");
        await settle();
        continue;
      }
      if (op.draw === "timer") {
        const { n } = op;
        if (n === undefined ? clock.fireEarliest() : n <= timers.length && clock.fire(timers[n - 1])) {
          await settle();
          continue;
        }
        const actual =
          n === undefined
            ? "no timer pending"
            : n > timers.length
              ? `the replayed server scheduled ${timers.length} timers`
              : `timer ${n} is not pending (the replayed server cancelled it, or the recording fired it before)`;
        return unmatched(op, n === undefined ? "a timer firing" : `timer ${n} firing`, actual, "the recording fired a timer the replayed server does not have pending");
      }
      const to = Math.min(op.inputs, inputsAt.length);
      if (to <= taken) continue;
      // The server read them after the last was written: every server line recorded before that one came first.
      const last = inputsAt[to - 1];
      clock.jumpTo(events[last].t);
      await settle();
      const divergence = check(serverBefore[last], before(taken));
      if (divergence !== undefined) return divergence;
      feed(taken, to);
      taken = to;
      await settle();
    }
    return undefined;
  };

  try {
    const fed = await (order.length > 0 ? feedInRecordedOrder() : feedByTime());
    if (fed !== undefined) return fed;
    // Work the recorded server never saw finish (it exited first) finishes now.
    drawn?.releaseAll();
    const last = events.length === 0 ? 0 : events[events.length - 1].t;
    if (order.length > 0) clock.jumpTo(last);
    else await clock.runUntil(last, settle, drewTooMuch);
    await settle();
    const at = "at the end of the recording";
    const divergence = check(expected.length, at);
    if (divergence !== undefined) return divergence;
    // `serve --stdio` exits 0 once its input has ended (the channel closed), and only then.
    const exited = events.filter((e): e is Extract<StdioEvent, { exit: unknown }> => "exit" in e).at(-1);
    const exit = exited?.exit;
    if (exit !== undefined && !(channel.closed && exit.code === 0 && exit.signal === null)) {
      const actual = channel.closed ? { exit: { code: 0, signal: null } } : "no exit: the server still serves, its input was never closed";
      return located({ ok: false, index: expected.length, expected: { exit }, actual, reason: `the server's exit differs (${at})` }, exited);
    }
    // A recorded draw the replayed server never took is input it did not take as the recorded one did:
    // the recording was edited (a draw added) or the server changed what it draws.
    const unused = draws?.unused();
    if (unused !== undefined) return { ok: false, index: expected.length, expected: `the ${recorded.length} draws recorded, each taken`, actual: unused, reason: `the server did not draw all the recording holds (${at})` };
    return { ok: true, steps: clientLines };
  } finally {
    server.close();
    channel.close();
  }
}
