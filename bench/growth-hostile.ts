/**
 * Growth under a hostile peer's input shapes (issue 10, "Growth": cost per message must
 * stay flat), where an algorithmic-complexity audit found cost growing with the square of
 * the input:
 *
 * - SSE: a chunk of short lines that are not UTF-8 (`data:\xff`), as a malicious server
 *   can send on a stream our client reads for as long as it lives. Each line of such a
 *   chunk was checked against every bad range of the chunk, and each was decoded strictly
 *   with a caught throw. Points: 1k to 64k lines in one chunk (a 64 KiB chunk, undici's
 *   largest, holds up to 32k); per line must stay flat, and within 5× of the same chunk
 *   with valid lines.
 * - Tasks: W `tasks/result` waiters on one task, each aborted (a client that cancels the
 *   calls it parked). Each removal copied the waiter list and built a key for every
 *   waiter. Points: 256, 1024 and 4096 waiters; per waiter (parked, then aborted) must
 *   stay flat.
 *
 * - Resource templates: one `resources/read` of a URI of megabytes of escapes (`%41`, as a
 *   4 MiB message may carry), against 1 to 16 templates, as the server's lookup tries each in
 *   turn. The URI was upper-cased and decoded a character at a time for every template tried,
 *   matched or not (seconds of garbage collection each); it is now prepared once per read.
 *   Points: 1, 4 and 16 templates; per read must stay flat.
 *
 * All are judged by a sweep (largest ÷ smallest per-message cost at most 3×), measured in
 * the same run, never by a timed test.
 */
import { createSseDecoder, feedSse } from "../src/framing/sse.js";
import { createTaskTable, stepTasks } from "../src/tasks/table.js";
import type { TaskOwner } from "../src/tasks/types.js";
import { parseUriTemplate, uriMatcher, type UriTemplate } from "../src/api/uri-template.js";
import { defineBench, defineSweep } from "./harness.js";

const SSE_POINTS: readonly [string, number][] = [["1k", 1024], ["4k", 4096], ["16k", 16384], ["64k", 65536]];
const WAITER_POINTS: readonly [string, number][] = [["256", 256], ["1024", 1024], ["4096", 4096]];

/** `lines` lines of `data:` and one byte (0xff, never UTF-8; or `x`), each ended by LF. */
function dataLines(lines: number, byte: number): Uint8Array {
  const one = [0x64, 0x61, 0x74, 0x61, 0x3a, byte, 0x0a];
  const bytes = new Uint8Array(one.length * lines);
  for (let i = 0; i < lines; i++) bytes.set(one, i * one.length);
  return bytes;
}

/** Feeds `chunk` to `n` fresh decoders. */
function feedFresh(n: number, chunk: Uint8Array): number {
  let outputs = 0;
  for (let i = 0; i < n; i++) outputs += feedSse(createSseDecoder(), chunk).length;
  return outputs;
}

const sseRow = (label: string) => `growth/hostile SSE ${label} invalid lines in one chunk`;
for (const [label, lines] of SSE_POINTS) {
  // The same chunk with valid lines: an invalid line should cost the same order as a valid
  // one (a second decode of the chunk, a scan, text of two-byte characters: 2.6-4× here),
  // not a strict decode and a caught throw each (over 100× before).
  const valid = `growth/hostile SSE ${label} valid lines in one chunk`;
  defineBench<Uint8Array>({ name: valid, messagesPerOp: lines, setup: () => dataLines(lines, 0x78), run: feedFresh });
  defineBench<Uint8Array>({ name: sseRow(label), baseline: valid, target: 5, messagesPerOp: lines, setup: () => dataLines(lines, 0xff), run: feedFresh });
}
defineSweep({ name: "growth/hostile SSE invalid lines sweep (per line, 1k → 64k in one chunk)", points: SSE_POINTS.map(([l]) => sseRow(l)), metric: "perMessageUs", maxRatio: 3 });

const OWNER: TaskOwner = { session: "bench" };

/** One task with `waiters` parked `tasks/result` requests, then every one aborted, oldest first. */
function parkAndAbort(waiters: number): number {
  const table = createTaskTable();
  stepTasks(table, { type: "create", now: 0, id: 0, taskId: "t", owner: OWNER, method: "tools/call" });
  for (let id = 1; id <= waiters; id++) stepTasks(table, { type: "request", now: 0, id, owner: OWNER, method: "tasks/result", params: { taskId: "t" } });
  let outputs = 0;
  for (let id = 1; id <= waiters; id++) outputs += stepTasks(table, { type: "abandon", now: 0, owner: OWNER, id }).outputs.length;
  if (Object.keys(table.waiting).length !== 0) throw new Error("waiters left after abandoning them all");
  return outputs;
}

const waiterRow = (label: string) => `growth/hostile tasks ${label} waiters on one task, each aborted`;
for (const [label, waiters] of WAITER_POINTS) {
  defineBench({
    name: waiterRow(label),
    messagesPerOp: waiters,
    run(n) {
      let outputs = 0;
      for (let i = 0; i < n; i++) outputs += parkAndAbort(waiters);
      return outputs;
    },
  });
}
defineSweep({ name: "growth/hostile tasks waiters sweep (per waiter, 256 → 4096 on one task)", points: WAITER_POINTS.map(([l]) => waiterRow(l)), metric: "perMessageUs", maxRatio: 3 });

const TEMPLATE_POINTS: readonly [string, number][] = [["1", 1], ["4", 4], ["16", 16]];
/** A URI of 1 MiB of escapes, which only the last template (`x://{+a}`) matches. */
const ESCAPED_URI = "x://" + "%41".repeat((1 << 20) / 3);

/** `count` templates, the matching one last (the others' schemes differ, as a server's often do). */
function templates(count: number): UriTemplate[] {
  const sources = Array.from({ length: count - 1 }, (_, i) => `z${i}://{+a}`).concat("x://{+a}");
  return sources.map((t) => parseUriTemplate(t) as UriTemplate);
}

const templateRow = (label: string) => `growth/hostile resources/read of 1 MiB of escapes, ${label} templates`;
for (const [label, count] of TEMPLATE_POINTS) {
  defineBench<UriTemplate[]>({
    name: templateRow(label),
    messagesPerOp: 1,
    setup: () => templates(count),
    run(n, list) {
      let matched = 0;
      for (let i = 0; i < n; i++) {
        // As the server's lookup (`locate` in api/server/resources.ts): each template in turn.
        const match = uriMatcher(ESCAPED_URI);
        for (const t of list) if (match(t) !== null) { matched++; break; }
      }
      if (matched !== n) throw new Error("the last template did not match");
      return matched;
    },
  });
}
defineSweep({ name: "growth/hostile resources/read templates sweep (per read, 1 → 16 templates, 1 MiB of escapes)", points: TEMPLATE_POINTS.map(([l]) => templateRow(l)), metric: "perMessageUs", maxRatio: 3 });
