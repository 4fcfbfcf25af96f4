/**
 * Draws: what the demo server takes from outside its input that shows in what it says, so
 * `record` can keep it and `replay` can give it back.
 *
 * Spec: none of its own (deterministic replay of stdio transcripts, `stdio-transcript.ts`).
 * Four kinds of draws: wall-clock readings (task `createdAt` / `lastUpdatedAt`, the expiry sealed
 * into a modern `requestState` and checked on its return), random bytes (task ids, the key
 * `requestState` is sealed with), the monotonic clock's readings (what the session's
 * timeouts and its log and progress rate windows count from: a burst of logs that crossed
 * the end of a one-second window drops other messages when read at other times), and the
 * order of the input, the timers and the cryptography: the chunks the server read its input in, its timers' firings and its
 * WebCrypto work finishing between them (the recorded times are the proxy's, a few ms off
 * the server's, and the proxy's chunks are not the server's: a timer and a line close
 * together could replay in the other order, and requests read in one chunk interleave
 * their work differently from requests read in two). Everything else follows from the
 * input, the timers and the cryptography, which replay drives on its own clock.
 *
 * Theory of operation. The server takes every draw from a {@link DrawSource} (the kernel
 * stays pure: these come in through `McpServerOptions`). `record` names a fresh file in the
 * environment variable {@link DRAWS_ENV}; `serve --stdio` run under it draws from the
 * system and appends each draw to that file as it is taken (synchronously: the process may
 * exit at any moment), and `record` adds the draws to the transcript once the server has
 * exited. A file, not a pipe: the variable may reach a process that was handed no such
 * pipe, and a file name cannot land on a descriptor that means something else there.
 * `replay` hands the recorded values back in the order they were drawn, one sequence per
 * kind: fed the same input, the server draws in the same order. Drawing more than the
 * recording holds is a divergence ({@link ReplayedDraws.problem}), and so is drawing less
 * ({@link ReplayedDraws.unused}, once the recording ends).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpServerOptions } from "../api/server.js";
import { taskIdFrom, TASK_ID_BYTES } from "../api/tasks.js";
import type { Clock } from "../driver/clock.js";
import { hmacRequestState, MIN_SECRET_BYTES, type RequestStateCodec } from "../driver/request-state.js";

/** The environment variable naming the file `serve --stdio` appends its draws to. */
export const DRAWS_ENV = "MCP_KERNEL_RECORD_DRAWS";

/**
 * One draw: a wall-clock reading (ms since the epoch), random bytes (base64), a reading of
 * the server's monotonic clock (`monotonic`: ms on its scale, as `Clock.now` gave it), a chunk of
 * input read (`inputs`: how many client inputs, lines and the end, taken so far), a
 * timer firing (`n`: which one, numbered by the order the server scheduled them, from 1;
 * absent in transcripts recorded before it was kept), or a piece of WebCrypto work
 * finishing (`n`: which one, numbered by the order the server started them, from 1). How
 * the input came in chunks, which timers fired among them and when the cryptography
 * (which runs off the event loop) finished depend on real time, so replay follows the record.
 */
export type Draw = { draw: "clock"; value: number } | { draw: "random"; value: string } | { draw: "monotonic"; value: number } | { draw: "read"; inputs: number } | { draw: "timer"; n?: number } | { draw: "settled"; n: number };

/** Where the server's draws come from. */
export interface DrawSource {
  clock(): number;
  random(length: number): Uint8Array;
}

/** Whether `v` is a {@link Draw} (extra fields, such as a transcript event's `t`, allowed). */
export function isDraw(v: unknown): v is Draw {
  const d = v as Record<string, unknown> | null;
  return (
    d !== null &&
    typeof d === "object" &&
    (((d.draw === "clock" || d.draw === "monotonic") && Number.isFinite(d.value)) ||
      (d.draw === "random" && typeof d.value === "string") ||
      (d.draw === "read" && Number.isSafeInteger(d.inputs) && (d.inputs as number) >= 0) ||
      (d.draw === "timer" && (d.n === undefined || ordinal(d.n))) ||
      (d.draw === "settled" && ordinal(d.n)))
  );
}

/** A number counted from 1. */
function ordinal(n: unknown): boolean {
  return Number.isSafeInteger(n) && (n as number) >= 1;
}

/**
 * The server's own order of its input and its timers, and its clock's readings, reported as
 * draws: `clock.now` reports each reading (`monotonic`); `took` is told
 * each chunk it reads (and `undefined` when its input ends) and reports `read` with the
 * client inputs taken so far (lines, counted as `record` logs them: one per newline, the
 * unterminated last one at the end; and the end); `clock`'s timers report `timer` as they
 * fire, with the number of the `schedule` call that set them (two timers due close
 * together may fire in either order on a busy server). Replay feeds the input in the same
 * chunks, numbers its server's `schedule` calls alike, and fires those timers between them.
 */
export function inputOrder(clock: Clock, report: (draw: Draw) => void): { clock: Clock; took(chunk: Uint8Array | string | undefined): void } {
  let inputs = 0;
  let unterminated = false;
  const read = (): number => {
    const value = clock.now();
    report({ draw: "monotonic", value });
    return value;
  };
  return {
    clock: numberedTimers(reading(clock, read), { fired: (n) => report({ draw: "timer", n }) }),
    took(chunk) {
      const before = inputs;
      if (chunk === undefined) {
        inputs += unterminated ? 2 : 1;
        unterminated = false;
      } else {
        const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        for (const byte of bytes) if (byte === 0x0a) inputs++;
        if (bytes.length > 0) unterminated = bytes[bytes.length - 1] !== 0x0a;
      }
      if (inputs > before) report({ draw: "read", inputs });
    },
  };
}

/** `clock` with its readings taken from `now` (its timers are its own). */
export function reading(clock: Clock, now: () => number): Clock {
  return { now, schedule: (at, fn, hold) => clock.schedule(at, fn, hold), cancel: (handle) => clock.cancel(handle), rehold: (handle, hold) => clock.rehold?.(handle, hold) ?? false };
}

/**
 * `clock` with the server's `schedule` calls numbered from 1, in the order it makes them:
 * a `timer` draw names a timer so. `record` (through {@link inputOrder}) and replay
 * (stdio-transcript.ts) both count with this, so the numbers mean the same timers.
 * `scheduled` hears each call's number and handle; `fired`, a timer's number as it fires.
 */
export function numberedTimers(clock: Clock, on: { scheduled?(n: number, handle: unknown): void; fired?(n: number): void }): Clock {
  let count = 0;
  const numbered: Clock = {
    now: () => clock.now(),
    schedule: (at, fn, hold) => {
      const n = ++count;
      const handle = clock.schedule(
        at,
        () => {
          on.fired?.(n);
          fn();
        },
        hold,
      );
      on.scheduled?.(n, handle);
      return handle;
    },
    cancel: (handle) => clock.cancel(handle),
  };
  // A change of hold (the server starts or stops awaiting the client) is never a new timer
  // here, whatever `clock` can do: a replay's ManualClock has no hold to change, and a
  // rescheduled timer would take the next number on one side only. The system clock changes
  // a timer's hold in place, but for a wait past 24.8 days (kept as is here: its hold only
  // decides whether the process may exit, and stdin holds a stdio server's anyway).
  numbered.rehold = (handle, hold) => (clock.rehold?.(handle, hold), true);
  return numbered;
}

/**
 * The server options that take every draw from `source`, and `settled`: waits for the
 * `requestState` signing, verifying and digesting under way (WebCrypto works off the event
 * loop: replay waits for it before it decides the server is quiet), resolving to whether
 * there was any. A link of a chain (digest, then sign) starts only once the one before has
 * settled, after this wait: true tells the caller to look again.
 *
 * Each piece of that work is numbered by the order it starts. Recording, `order.finished`
 * hears each number as its work finishes, before the server goes on with the result (a
 * `settled` draw). Replaying a recording that holds them (`order.held`), the server gets
 * a result only once `release(n)` says the recording's work `n` had finished by then: a
 * request cancelled while its `requestState` was being checked, or another request's clock
 * readings taken before a new state's expiry, replay as they happened.
 */
export function drawnServer(
  source: DrawSource,
  order: { finished?(n: number): void; held?: boolean } = {},
): { options: McpServerOptions; settled(): Promise<boolean>; release(n: number): boolean; releaseAll(): void } {
  // The key is drawn on first use, as hmacRequestState draws its own: a session that seals nothing draws nothing.
  let codec: RequestStateCodec | undefined;
  const sealer = (): RequestStateCodec => (codec ??= hmacRequestState({ secret: source.random(MIN_SECRET_BYTES) }));
  const inFlight = new Set<Promise<unknown>>();
  const inFlightUntilSettled = (p: Promise<unknown>): void => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
  };
  let started = 0;
  let holding = order.held === true;
  const held = new Map<number, { release(): void; result: Promise<unknown> }>();
  const track = <T>(value: Promise<T> | T): Promise<T> => {
    const n = ++started;
    const done = Promise.resolve(value);
    // Registered before the caller's own await, so the draw is reported before the server goes on.
    if (order.finished !== undefined) void done.then(() => order.finished!(n), () => order.finished!(n));
    if (!holding) {
      inFlightUntilSettled(done);
      return done;
    }
    let release!: () => void;
    const result = new Promise<void>((resolve) => (release = resolve)).then(() => done);
    // A failure is the server's to see once released; held till then, it is not unhandled.
    done.catch(() => {});
    held.set(n, { release, result });
    return result;
  };
  const release = (n: number): boolean => {
    const work = held.get(n);
    if (work === undefined) return false;
    held.delete(n);
    work.release();
    inFlightUntilSettled(work.result);
    return true;
  };
  return {
    options: {
      wallClock: () => source.clock(),
      requestState: {
        sign: (state) => track(sealer().sign(state)),
        verify: (token) => track(sealer().verify(token)),
        digest: (text) => track(sealer().digest!(text)),
      },
      tasks: { generateTaskId: () => taskIdFrom(source.random(TASK_ID_BYTES)) },
    },
    // The work under way and released (held work is not waited for: its draw comes later).
    async settled() {
      if (inFlight.size === 0) return false;
      await Promise.allSettled(inFlight);
      return true;
    },
    release,
    // The recording has no more to say: what is held goes on, and what it starts is not held.
    releaseAll() {
      holding = false;
      for (const n of [...held.keys()].sort((a, b) => a - b)) release(n);
    },
  };
}

/** Draws from the system (`Date.now()`, `crypto.getRandomValues`), each passed to `report` as it is taken. */
export function systemDraws(report: (draw: Draw) => void): DrawSource {
  return {
    clock() {
      const value = Date.now();
      report({ draw: "clock", value });
      return value;
    },
    random(length) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      report({ draw: "random", value: Buffer.from(bytes).toString("base64") });
      return bytes;
    },
  };
}

/** Appends draws to `file`, one JSON line each; throws at once when the file cannot be written. */
export function drawLog(file: string): (draw: Draw) => void {
  appendFileSync(file, "");
  return (draw) => {
    try {
      appendFileSync(file, JSON.stringify(draw) + "\n");
    } catch {
      // The server goes on: the transcript lacks the draw, and its replay reports the divergence.
    }
  };
}

/**
 * A fresh file for a recorded server's draws: `take` reads what was appended and removes
 * the file. No path when no temporary folder can be made: the traffic is recorded all the
 * same, without draws.
 */
export function drawFile(): { path?: string; take(): Draw[] } {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "mcp-kernel-draws-"));
  } catch {
    return { take: () => [] };
  }
  const path = join(dir, "draws.jsonl");
  return {
    path,
    take() {
      let text = "";
      try {
        text = readFileSync(path, "utf8");
      } catch {
        // No file: the server drew nothing, or is not one that reports its draws.
      }
      rmSync(dir, { recursive: true, force: true });
      const draws: Draw[] = [];
      for (const line of text.split("\n")) {
        let d: unknown;
        try {
          d = JSON.parse(line);
        } catch {
          continue; // the empty line after the last, or one cut short by a killed server
        }
        if (isDraw(d)) draws.push(ownFields(d));
      }
      return draws;
    },
  };
}

/** `d` with its own fields only (a transcript event's `t` and anything else dropped). */
function ownFields(d: Draw): Draw {
  switch (d.draw) {
    case "read":
      return { draw: "read", inputs: d.inputs };
    case "timer":
      return d.n === undefined ? { draw: "timer" } : { draw: "timer", n: d.n };
    case "settled":
      return { draw: "settled", n: d.n };
    default:
      return { draw: d.draw, value: d.value } as Draw;
  }
}

/** A {@link DrawSource} that gives back recorded draws, and what went wrong doing so. */
export interface ReplayedDraws extends DrawSource {
  /** The next recorded reading of the monotonic clock (the last one again past the end, a {@link problem}). */
  monotonic(): number;
  /** Whether the recording holds the monotonic clock's readings (older ones do not). */
  readonly readsClock: boolean;
  /** The first draw the recording could not give (undefined while every one matched). */
  problem(): string | undefined;
  /** What the recording holds that the server never drew (undefined when it drew every one). */
  unused(): string | undefined;
}

/** Gives back `draws` in order, each kind on its own; a draw past the end, or of another length, is a {@link ReplayedDraws.problem}. */
export function replayedDraws(draws: readonly Draw[]): ReplayedDraws {
  // Read, timer and settled draws are not handed back: replay follows them itself (stdio-transcript.ts).
  let problem: string | undefined;
  const left: (() => string | undefined)[] = [];
  const readingsOf = (kind: "clock" | "monotonic", what: string): (() => number) => {
    const values = draws.flatMap((d) => (d.draw === kind ? [d.value] : []));
    let taken = 0;
    const readsSaid = (n: number): string => `the server read the ${what} ${n} times; the recording holds ${values.length} readings`;
    left.push(() => (taken < values.length ? readsSaid(taken) : undefined));
    return () => {
      if (taken < values.length) return values[taken++];
      problem ??= readsSaid(++taken);
      return values.at(-1) ?? 0;
    };
  };
  const random = draws.flatMap((d) => (d.draw === "random" ? [d.value] : []));
  let randoms = 0;
  const drawsSaid = (n: number): string => `the server drew random bytes ${n} times; the recording holds ${random.length} draws`;
  left.push(() => (randoms < random.length ? drawsSaid(randoms) : undefined));
  return {
    clock: readingsOf("clock", "clock"),
    monotonic: readingsOf("monotonic", "monotonic clock"),
    readsClock: draws.some((d) => d.draw === "monotonic"),
    random(length) {
      const recorded = randoms < random.length ? new Uint8Array(Buffer.from(random[randoms], "base64")) : undefined;
      randoms++;
      if (recorded?.length === length) return recorded;
      problem ??=
        recorded === undefined
          ? drawsSaid(randoms)
          : `the server drew ${length} random bytes; the recording's draw ${randoms} has ${recorded.length}`;
      // Zeros: the replay goes on to report the problem, with what the server then says.
      return new Uint8Array(length);
    },
    problem: () => problem,
    unused: () => left.map((f) => f()).find((u) => u !== undefined),
  };
}
