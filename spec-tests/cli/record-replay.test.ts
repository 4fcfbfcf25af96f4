// `record -- serve --stdio`, then `replay`: sessions whose answers depend on what the server
// drew (a task's random id and its times, the random key and the expiry sealed into a modern
// requestState) replay identically, because serve reports its draws and record keeps them.
// Spec: 2025-11-25 basic/utilities/tasks (task-augmented tools/call, tasks/result,
// tasks/get), draft basic/patterns/mrtr (input_required, requestState), basic/transports (stdio).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "../../src/cli/main.js";
import { drawnServer, inputOrder, replayedDraws, type Draw } from "../../src/cli/draws.js";
import { ManualClock } from "../../src/driver/clock.js";
import { BIN, cli } from "./spawn.js";

type Message = { id?: number; result?: any; error?: any };
type Request = (method: string, params?: object) => Promise<Message>;

/**
 * Runs a client session through `record -- serve --stdio` in a fresh folder (removed
 * afterwards): `drive` sends requests, each awaiting its response, as MCP clients do.
 * Then `check` gets the transcript, and writes variants of it with `write`. `nodeArgs`
 * go to the recorded server's `node` (given the folder, to write a preload into).
 */
async function recordSession(
  drive: (request: Request, notify: (method: string) => void, peer: { send(message: object): void; waitOut(re: RegExp): Promise<RegExpMatchArray> }) => Promise<void>,
  check: (transcript: string, write: (name: string, text: string) => string) => Promise<void>,
  nodeArgs: (dir: string) => string[] = () => [],
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-replay-"));
  try {
    const file = join(dir, "t.jsonl");
    const rec = cli(["record", "--out", file, "--", process.execPath, ...nodeArgs(dir), BIN, "serve", "--stdio"]);
    let id = 0;
    const send = (message: object) => rec.child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
    const request: Request = async (method, params) => {
      const n = ++id;
      send({ id: n, method, ...(params === undefined ? {} : { params }) });
      const [, line] = await rec.waitOut(new RegExp(`^(\\{"jsonrpc":"2\\.0","id":${n},"(?:result|error)".*)\\n`, "m"));
      return JSON.parse(line) as Message;
    };
    await drive(request, (method) => send({ method }), { send, waitOut: rec.waitOut });
    rec.child.stdin!.end();
    assert.equal(await rec.code, 0, rec.stderr());
    await check(readFileSync(file, "utf8"), (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `replay FILE`: its exit code and stdout. */
async function replay(file: string): Promise<{ code: number | null; out: string }> {
  const run = cli(["replay", file]);
  const code = await run.code;
  return { code, out: run.stdout() + run.stderr() };
}

/** `replay FILE` in this process (where a test can slow down what the server awaits): its exit code and output. */
async function replayHere(file: string): Promise<{ code: number; out: string }> {
  let out = "";
  const sink = { write: (c: string) => void (out += c) };
  const code = await main(["replay", file], { stdin: (async function* () {})(), stdout: sink, stderr: sink });
  return { code, out };
}

/**
 * Runs `fn` with WebCrypto's HMAC and digest taking a macrotask more on each side of the
 * real work, as they may on a loaded machine: the requestState codec's chains (digest, then
 * sign) then span several event-loop turns, deterministically.
 */
async function withSlowCrypto<T>(fn: () => Promise<T>): Promise<T> {
  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const names = ["digest", "sign", "verify", "importKey"];
  for (const name of names) {
    const real = subtle[name];
    subtle[name] = async (...args) => {
      await turn();
      const value = await real.apply(subtle, args);
      await turn();
      return value;
    };
  }
  try {
    return await fn();
  } finally {
    for (const name of names) delete subtle[name];
  }
}

/** The transcript's draw events. */
function drawsOf(transcript: string): { draw: string; value: unknown }[] {
  return transcript.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => "draw" in e);
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

// The timeout only turns a replay that runs away (a regression) into a failure instead of a hung suite.
test("record + replay: a task-augmented tools/call (2025-11-25: tasks/result, then tasks/get) replays identically, its random id and its times taken from the transcript's draws; a tampered draw, a missing one, none at all, or a far time that outlasts the readings diverge", { timeout: 120_000 }, async () => {
  let taskId = "";
  await recordSession(
    async (request, notify) => {
      await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
      notify("notifications/initialized");
      const created = await request("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: 60_000 } });
      taskId = created.result.task.taskId;
      assert.match(taskId, /^[0-9a-f]{32}$/);
      const result = await request("tasks/result", { taskId });
      assert.equal(result.result.content[0].text, "slow_compute: done after 0s");
      const got = await request("tasks/get", { taskId });
      assert.equal(got.result.status, "completed");
    },
    async (transcript, write) => {
      const same = await replay(write("t.jsonl", transcript));
      assert.equal(same.code, 0, same.out);
      assert.equal(same.out, "ok 5 steps replayed identically\n");
      const draws = drawsOf(transcript);
      assert.deepEqual(draws.filter((d) => d.draw === "random").map((d) => Buffer.from(d.value as string, "base64").toString("hex")), [taskId], "the task id's bytes");
      assert.ok(draws.some((d) => d.draw === "clock"), "the task's times");

      // Another id drawn: the replayed server answers with it, where the recording has the real one.
      const otherId = Buffer.alloc(16, 7).toString("base64");
      const tampered = await replay(write("tampered.jsonl", transcript.replace(/("draw":"random","value":)"[^"]*"/, `$1"${otherId}"`)));
      assert.equal(tampered.code, 1, tampered.out);
      assert.match(tampered.out, /^divergence at step 1 \(line \d+\): server line 2 differs/);
      assert.match(tampered.out, /actual .*07070707070707070707070707070707/);

      const lines = transcript.trimEnd().split("\n");
      const lastClock = lines.map((l) => l.includes('"draw":"clock"')).lastIndexOf(true);
      const short = await replay(write("short.jsonl", lines.filter((_, i) => i !== lastClock).join("\n") + "\n"));
      assert.equal(short.code, 1, short.out);
      assert.match(short.out, /: the server drew what the recording does not hold /);
      assert.match(short.out, /actual +"the server read the clock \d+ times; the recording holds \d+ readings"/);

      // The input closed (and all after it) at a far time: the recorded order of reads and timer firings, not the
      // times, says which timers fire, so nothing more does. Without that order (an older transcript), advancing
      // there, the task's expiry timer re-arms on the last recorded reading; replay stops at the first reading too
      // many and reports it instead of running on.
      const far = lines.map((l) => (/"end":true|"draw":|"exit":/.test(l) ? l.replace(/^\{"t":\d+/, '{"t":1000000000000000') : l));
      const farInOrder = await replay(write("far-ordered.jsonl", far.join("\n") + "\n"));
      assert.equal(farInOrder.code, 0, farInOrder.out);
      const runaway = await replay(write("far.jsonl", far.filter((l) => !/"draw":"(read|timer)"/.test(l)).join("\n") + "\n"));
      assert.equal(runaway.code, 1, runaway.out);
      assert.match(runaway.out, /^divergence at step \d+: the server drew what the recording does not hold \(before the client closed the input\)/);

      // A transcript without draws (as record wrote before it kept them) replays as it did: the server draws its own.
      const none = await replay(write("none.jsonl", lines.filter((l) => !l.includes('"draw":')).join("\n") + "\n"));
      assert.equal(none.code, 1, none.out);
      assert.match(none.out, /^divergence at step 1 \(line \d+\): server line 2 differs/);
    },
  );
});

test("record + replay: a recorded draw the replayed server never takes is a divergence, not 'replayed identically': a request removed with its answer (its clock readings left behind), or a draw added", { timeout: 120_000 }, async () => {
  await recordSession(
    async (request, notify) => {
      await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
      notify("notifications/initialized");
      await request("ping");
      await request("ping");
    },
    async (transcript, write) => {
      assert.deepEqual(await replayHere(write("t.jsonl", transcript)), { code: 0, out: "ok 4 steps replayed identically\n" });
      const lines = transcript.trimEnd().split("\n");
      const removed = lines.filter((l) => !l.includes('\\"id\\":3,')).join("\n") + "\n";
      assert.equal(removed.split("\n").length, lines.length - 1, "the last ping and its answer removed");
      const less = await replayHere(write("removed.jsonl", removed));
      assert.equal(less.code, 1, less.out);
      assert.match(less.out, /^divergence at step \d+: the server did not draw all the recording holds \(at the end of the recording\)\n.*\n  actual   "the server read the monotonic clock \d+ times; the recording holds \d+ readings"/);
      const exit = lines.findIndex((l) => l.includes('"exit":'));
      const added = [...lines.slice(0, exit), '{"t":0,"draw":"random","value":"AAAA"}'.replace('"t":0', `"t":${JSON.parse(lines[exit - 1]).t}`), ...lines.slice(exit)].join("\n") + "\n";
      const more = await replayHere(write("added.jsonl", added));
      assert.equal(more.code, 1, more.out);
      assert.match(more.out, /the server did not draw all the recording holds .*\n.*\n  actual   "the server drew random bytes 0 times; the recording holds 1 draws"/);
    },
  );
});

test("record + replay: a modern (2026-07-28) tools/call answered input_required, retried with inputResponses and the sealed requestState, replays identically; a tampered answer or clock reading diverges", async () => {
  await recordSession(
    async (request) => {
      const call = { name: "test_input_required_result_request_state", arguments: {}, _meta: MODERN_META };
      const first = await request("tools/call", call);
      assert.equal(first.result.resultType, "input_required");
      assert.equal(typeof first.result.requestState, "string");
      const retry = await request("tools/call", { ...call, inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState: first.result.requestState });
      assert.equal(retry.result.content[0].text, "state-ok: confirmed=true");
    },
    async (transcript, write) => {
      const same = await replay(write("t.jsonl", transcript));
      assert.equal(same.code, 0, same.out);
      assert.equal(same.out, "ok 2 steps replayed identically\n");
      const draws = drawsOf(transcript);
      assert.equal(draws.filter((d) => d.draw === "random").length, 1, "the key, drawn once");
      assert.equal(draws.filter((d) => d.draw === "clock").length, 2, "the expiry set, then checked");

      const answer = await replay(write("answer.jsonl", transcript.replace("state-ok: confirmed=true", "state-ok: confirmed=false")));
      assert.equal(answer.code, 1, answer.out);
      assert.match(answer.out, /^divergence at step 1 \(line \d+\): server line 2 differs/);

      // Another first reading: another expiry is sealed into the requestState the server answers with.
      const clock = await replay(write("clock.jsonl", transcript.replace(/("draw":"clock","value":)(\d+)/, (_, head: string, ms: string) => head + String(Number(ms) + 1))));
      assert.equal(clock.code, 1, clock.out);
      assert.match(clock.out, /^divergence at step 0 \(line \d+\): server line 1 differs/);

      // The recorded exit is compared too: serve --stdio exits 0 once its input ends, and only then.
      const exited = await replay(write("exit.jsonl", transcript.replace(/"exit":\{"code":0,/, '"exit":{"code":3,')));
      assert.equal(exited.code, 1, exited.out);
      assert.match(exited.out, /^divergence at step 2 \(line \d+\): the server's exit differs \(at the end of the recording\)\n  expected \{"exit":\{"code":3,"signal":null\}\}\n  actual   \{"exit":\{"code":0,"signal":null\}\}\n$/);
      const lines = transcript.trimEnd().split("\n");
      const open = await replay(write("open.jsonl", lines.filter((l) => !l.includes('"end":true')).join("\n") + "\n"));
      assert.equal(open.code, 1, open.out);
      assert.match(open.out, /^divergence at step 2 \(line \d+\): the server's exit differs .*\n.*\n  actual   "no exit: the server still serves, its input was never closed"/);
      // A transcript that records no exit (record was killed first) has none to compare.
      const noExit = await replay(write("no-exit.jsonl", lines.filter((l) => !l.includes('"exit":')).join("\n") + "\n"));
      assert.equal(noExit.code, 0, noExit.out);
    },
  );
});

test("record + replay: a modern (2026-07-28) test_elicitation answered input_required (an elicitation/create input request) and retried with the answer and requestState replays identically, however long WebCrypto takes to digest and then sign", async () => {
  await recordSession(
    async (request) => {
      const call = { name: "test_elicitation", arguments: { message: "who?" }, _meta: MODERN_META };
      const first = await request("tools/call", call);
      assert.equal(first.result.resultType, "input_required");
      const [key] = Object.keys(first.result.inputRequests);
      assert.equal(first.result.inputRequests[key].method, "elicitation/create");
      const answer = { action: "accept", content: { username: "ann", email: "a@x.example" } };
      const retry = await request("tools/call", { ...call, inputResponses: { [key]: answer }, requestState: first.result.requestState });
      assert.match(retry.result.content[0].text, /^User response: action=accept/);
    },
    async (transcript, write) => {
      const file = write("t.jsonl", transcript);
      // The server's digest-then-sign chain outlasts a turn of the event loop: replay waits for each link.
      const slow = await withSlowCrypto(() => replayHere(file));
      assert.equal(slow.code, 0, slow.out);
      assert.equal(slow.out, "ok 2 steps replayed identically\n");
      const same = await replay(file);
      assert.equal(same.code, 0, same.out);
      assert.equal(same.out, "ok 2 steps replayed identically\n");
    },
  );
});

test("record + replay: a 2025-11-25 session whose tool asked the client (elicitation/create), then a tool that waits on timers, replays identically: a server awaiting the client changes its timer's hold, which is no new timer on either side", async () => {
  await recordSession(
    async (request, notify, peer) => {
      const init = await request("initialize", { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } });
      assert.equal(init.result.protocolVersion, "2025-11-25");
      notify("notifications/initialized");
      const call = request("tools/call", { name: "test_elicitation", arguments: { message: "who?" } });
      const [, line] = await peer.waitOut(/^(\{"jsonrpc":"2\.0","id":\d+,"method":"elicitation\/create".*)\n/m);
      peer.send({ id: (JSON.parse(line) as { id: number }).id, result: { action: "accept", content: { username: "ann", email: "ann@example.com" } } });
      assert.match((await call).result.content[0].text, /ann@example\.com/);
      const logged = await request("tools/call", { name: "test_tool_with_logging", arguments: {} });
      assert.equal(logged.result.content[0].text, "Tool with logging executed successfully");
    },
    async (transcript, write) => {
      assert.ok(drawsOf(transcript).some((d) => d.draw === "timer"), "the logging tool's waits fired timers");
      const same = await replay(write("t.jsonl", transcript));
      assert.equal(same.code, 0, same.out);
      assert.equal(same.out, "ok 5 steps replayed identically\n");
    },
  );
});

test("record + replay: a modern retry cancelled while its requestState is being checked (WebCrypto, off the event loop, slowed here as on a loaded machine) replays as it happened: the recording says when each piece of cryptography finished among the input, and replay holds each result until then", async () => {
  const SLOW_CRYPTO = `const subtle = crypto.subtle;
for (const name of ["digest", "sign", "verify"]) {
  const real = subtle[name].bind(subtle);
  subtle[name] = async (...args) => { const value = await real(...args); if (name === "verify") await new Promise((r) => setTimeout(r, 1000)); return value; };
}
`;
  await recordSession(
    async (request, notify, peer) => {
      const call = { name: "test_elicitation", arguments: { message: "who?" }, _meta: MODERN_META };
      const first = await request("tools/call", call);
      assert.equal(first.result.resultType, "input_required");
      const [key] = Object.keys(first.result.inputRequests);
      // The retry; a list answered after it shows the server has read it, and its verify runs
      // on (a second): the cancellation comes in a later read, while it still runs.
      peer.send({ id: 90, method: "tools/call", params: { ...call, inputResponses: { [key]: { action: "accept", content: { username: "ann", email: "ann@example.com" } } }, requestState: first.result.requestState } });
      assert.ok(Array.isArray((await request("tools/list", { _meta: MODERN_META })).result.tools));
      peer.send({ method: "notifications/cancelled", params: { requestId: 90, reason: "the user gave up" } });
      assert.ok(Array.isArray((await request("tools/list", { _meta: MODERN_META })).result.tools));
    },
    async (transcript, write) => {
      assert.doesNotMatch(transcript, /\\?"id\\?":90,\\?"(result|error)/, "the cancelled retry was never answered");
      assert.ok(drawsOf(transcript).some((d) => d.draw === "settled"), "the cryptography's finishing is recorded");
      const same = await replay(write("t.jsonl", transcript));
      assert.equal(same.code, 0, same.out);
      assert.match(same.out, /^ok \d+ steps replayed identically\n$/);
      // Without the settled draws (as recorded before they were kept) the replayed verify finishes first, and the retry is answered.
      const unordered = transcript.split("\n").filter((l) => !l.includes('"draw":"settled"')).join("\n");
      const old = await replay(write("unordered.jsonl", unordered));
      assert.equal(old.code, 1, old.out);
      assert.match(old.out, /the server wrote a line the recording does not have/);
      // A finishing the replayed server has nothing under way for is a divergence.
      const unknown = await replay(write("unknown.jsonl", transcript.replace(/"draw":"settled","n":\d+/, '"draw":"settled","n":99')));
      assert.equal(unknown.code, 1, unknown.out);
      assert.match(unknown.out, /the recording finished cryptography the replayed server did not start/);
    },
    (dir) => {
      const preload = join(dir, "slow-crypto.mjs");
      writeFileSync(preload, SLOW_CRYPTO);
      return ["--import", pathToFileURL(preload).href];
    },
  );
});

test("record + replay: a burst of log messages over the rate limit (maxLogMessagesPerSecond, 100) replays with the messages the recorded server sent, because which ones a one-second window drops depends on the server's monotonic clock, whose readings the transcript keeps", { timeout: 120_000 }, async () => {
  // The recorded server's clock moves 10 ms at each reading, so no window holds more than
  // 100 of its messages, however fast the machine: none is dropped. Replayed on the proxy's
  // times, the whole burst would fall in one window, and all past the 100th be dropped.
  // Node's systemClock reads process.hrtime (clock.ts), other runtimes performance.now: both move.
  const FAST_CLOCK = `let t = performance.now();
performance.now = () => (t += 10);
const [s0, ns0] = process.hrtime();
let ms = s0 * 1e3 + ns0 / 1e6;
process.hrtime = () => {
  ms += 10;
  return [Math.floor(ms / 1e3), Math.round((ms % 1e3) * 1e6)];
};
`;
  const CALLS = 60;
  await recordSession(
    async (request, notify, peer) => {
      await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
      notify("notifications/initialized");
      await request("logging/setLevel", { level: "info" });
      for (let id = 100; id < 100 + CALLS; id++) peer.send({ id, method: "tools/call", params: { name: "test_tool_with_logging", arguments: {} } });
      for (let id = 100; id < 100 + CALLS; id++) await peer.waitOut(new RegExp(`"id":${id},"result"`));
    },
    async (transcript, write) => {
      const logs = transcript.split("\n").filter((l) => l.includes('"from":"server"') && l.includes("notifications/message")).length;
      assert.equal(logs, 3 * CALLS, "the recorded server dropped none");
      assert.ok(drawsOf(transcript).some((d) => d.draw === "monotonic"), "the clock's readings are recorded");
      const same = await replay(write("t.jsonl", transcript));
      assert.equal(same.code, 0, same.out);
      assert.match(same.out, /^ok \d+ steps replayed identically\n$/);
      // Without the readings (as recorded before they were kept), the replayed server reads the proxy's times and drops some.
      const unread = transcript.split("\n").filter((l) => !l.includes('"draw":"monotonic"')).join("\n");
      const old = await replay(write("unread.jsonl", unread));
      assert.equal(old.code, 1, old.out);
      assert.match(old.out, /^divergence at step \d+ \(line \d+\): server line \d+ (differs|was not produced)/);
    },
    (dir) => {
      const preload = join(dir, "fast-clock.mjs");
      writeFileSync(preload, FAST_CLOCK);
      return ["--import", pathToFileURL(preload).href];
    },
  );
});

test("serve --stdio's timer draws name which timer fired, by the order it was scheduled: timers fired out of due order are told apart", () => {
  const clock = new ManualClock();
  const reported: Draw[] = [];
  const order = inputOrder(clock, (d) => reported.push(d));
  const fired: string[] = [];
  const first = order.clock.schedule(10, () => fired.push("first"));
  const second = order.clock.schedule(20, () => fired.push("second"));
  const third = order.clock.schedule(30, () => fired.push("cancelled"));
  order.clock.cancel(third);
  // A busy process may run a later-due timer first; ManualClock.fire does so on demand.
  assert.equal(clock.fire(second), true);
  assert.equal(clock.fire(second), false, "fired once");
  assert.equal(clock.fire(third), false, "a cancelled timer does not fire");
  assert.equal(clock.fire(first), true);
  assert.deepEqual(fired, ["second", "first"]);
  assert.deepEqual(reported, [{ draw: "timer", n: 2 }, { draw: "timer", n: 1 }]);
  assert.equal(clock.now(), 20, "time moves to the latest due, never back");
});

test("replay's held cryptography: a result waits for its recorded finishing (release), and once the recording has no more to say (releaseAll) what is held goes on and later work is not held", async () => {
  const source = replayedDraws([{ draw: "random", value: Buffer.alloc(32, 7).toString("base64") }]);
  const drawn = drawnServer(source, { held: true });
  const codec = drawn.options.requestState as { digest(text: string): Promise<string> };
  let first: string | undefined;
  void codec.digest("a").then((d) => (first = d));
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(first, undefined, "held until its finishing is replayed");
  assert.equal(drawn.release(2), false, "no work 2 under way");
  assert.equal(drawn.release(1), true);
  await drawn.settled();
  assert.equal(typeof first, "string");
  let second: string | undefined;
  void codec.digest("b").then((d) => (second = d));
  drawn.releaseAll();
  await drawn.settled();
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(typeof second, "string", "released at the end");
  // Work started after the end is not held: nothing would release it.
  let third: string | undefined;
  void codec.digest("c").then((d) => (third = d));
  await drawn.settled();
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(typeof third, "string");
});
