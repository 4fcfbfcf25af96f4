// `mcp-kernel replay FILE` (deterministic replay): exit 0 when identical, non-zero with the divergence otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { recordingSession, replay } from "../../src/session/transcript.js";

async function* empty(): AsyncGenerator<string> {}

function sink() {
  let text = "";
  return { write: (c: string) => void (text += c), get text() { return text; } };
}

/** Replays `text`, written to a file of its own: the exit code and what was printed (stdout and stderr together). */
async function replayText(text: string): Promise<{ code: number; out: string }> {
  const file = join(mkdtempSync(join(tmpdir(), "replay-")), "transcript.jsonl");
  writeFileSync(file, text);
  const out = sink();
  const code = await main(["replay", file], { stdin: empty(), stdout: out, stderr: out });
  return { code, out: out.text };
}

test("cli replay: a recorded transcript replays identically (exit 0); a tampered one exits 1 with the divergence", async () => {
  const rec = recordingSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
  rec.step({ type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }) });
  rec.step({ type: "receive", now: 1, data: '{"jsonrpc":"2.0","id":2,"method":"ping"}' });
  const dir = mkdtempSync(join(tmpdir(), "replay-"));
  const good = join(dir, "good.jsonl");
  writeFileSync(good, rec.text());
  const out = sink();
  assert.equal(await main(["replay", good], { stdin: empty(), stdout: out, stderr: sink() }), 0);
  assert.match(out.text, /^ok 2 steps/);
  const bad = join(dir, "bad.jsonl");
  writeFileSync(bad, rec.text().replace('"serverInfo":{"name":"s"', '"serverInfo":{"name":"S"'));
  const out2 = sink();
  assert.equal(await main(["replay", bad], { stdin: empty(), stdout: out2, stderr: sink() }), 1);
  assert.match(out2.text, /divergence at step 0/);
  assert.equal(await main(["replay", join(dir, "missing.jsonl")], { stdin: empty(), stdout: sink(), stderr: sink() }), 2);
  assert.equal(await main(["replay"], { stdin: empty(), stdout: sink(), stderr: sink() }), 2);
  assert.equal(await main(["replay", "--help"], { stdin: empty(), stdout: sink(), stderr: sink() }), 0);
});

test("cli replay: a file that is no transcript (no header, a header without options, a line that is not a step, a broken stdio transcript) or a transcript of another server exits 2 on stderr, not as a divergence", async () => {
  const dir = mkdtempSync(join(tmpdir(), "replay-"));
  const cases: [string, string, RegExp][] = [
    ["not-json", "{oops\n", /the first line is not JSON/],
    ["foreign", '{"transcript":"other/1","options":{}}\n', /not an mcp-kernel\/1 transcript header/],
    ["no-options", '{"transcript":"mcp-kernel/1"}\n', /header has no options object/],
    ["array-options", '{"transcript":"mcp-kernel/1","options":[]}\n', /header has no options object/],
    ["bad-step", '{"transcript":"mcp-kernel/1","options":{"role":"server","info":{"name":"s","version":"1"}}}\n{"input":1}\n', /line 2 is not a step/],
    ["bad-step-json", '{"transcript":"mcp-kernel/1","options":{"role":"server","info":{"name":"s","version":"1"}}}\n{nope\n', /line 2 is not JSON/],
    ["stdio-broken", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n[1,2,3]\n', /line 2 is not a stdio transcript event/],
    ["stdio-bad-draw", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":0,"draw":"clock","value":"soon"}\n', /line 2 is not a stdio transcript event/],
    ["stdio-bad-reading", '{"transcript":"mcp-kernel/stdio-2","command":["mcp-kernel","serve","--stdio"]}\n{"t":0,"draw":"monotonic","value":null}\n', /line 2 is not a stdio transcript event/],
    // Times are finite, not negative, never going back (1e999 parses as Infinity): replay advances its clock to each.
    ["stdio-time-back", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":5,"from":"client","line":"{}"}\n{"t":4,"from":"server","line":"{}"}\n', /line 3 has a time t that is not a finite number of ms at or after the line before's/],
    ["stdio-time-negative", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":-5,"from":"client","line":"{}"}\n', /line 2 has a time t that is not a finite/],
    ["stdio-after-end", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":0,"from":"client","end":true}\n{"t":1,"from":"client","line":"{}"}\n', /line 3 is client input after the client closed the input/],
    ["stdio-time-infinite", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":1e999,"from":"client","end":true}\n', /line 2 has a time t that is not a finite/],
    // Only the demo server can be rebuilt: another server's transcript (told by its serverInfo, whatever its command line) is refused, not reported as a divergence.
    ["other-server", '{"transcript":"mcp-kernel/stdio-1","command":["node","sdk-server.mjs","serve","--stdio"]}\n{"t":0,"from":"client","line":"{}"}\n{"t":1,"from":"server","line":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":{\\"protocolVersion\\":\\"2025-11-25\\",\\"capabilities\\":{},\\"serverInfo\\":{\\"name\\":\\"sdk\\",\\"version\\":\\"1\\"}}}"}\n', /serve --stdio only/],
    // No answer carried a serverInfo (`record -- cat` echoes the client): told by the command line, or the draws only the demo reports.
    ["other-server-no-info", '{"transcript":"mcp-kernel/stdio-1","command":["cat"]}\n{"t":0,"from":"client","line":"{}"}\n{"t":1,"from":"server","line":"{}"}\n', /serve --stdio only.*no answer names it/],
    ["stdio-bad-timer", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":0,"draw":"timer","n":0}\n', /line 2 is not a stdio transcript event/],
    ["other-server-modern", '{"transcript":"mcp-kernel/stdio-1","command":["mcp-kernel","serve","--stdio"]}\n{"t":0,"from":"client","line":"{}"}\n{"t":1,"from":"server","line":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":{\\"_meta\\":{\\"io.modelcontextprotocol/serverInfo\\":{\\"name\\":\\"sdk\\",\\"version\\":\\"1\\"}}}}"}\n', /serve --stdio only/],
  ];
  for (const [name, text, reason] of cases) {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(file, text);
    const out = sink();
    const err = sink();
    assert.equal(await main(["replay", file], { stdin: empty(), stdout: out, stderr: err }), 2, name);
    assert.equal(out.text, "", name);
    assert.match(err.text, /cannot replay /, name);
    assert.match(err.text, reason, name);
    // What was expected and what was found differ, so the message says what is missing.
    const [expected, found] = err.text.split("\n").slice(1, 3).map((l) => l.replace(/^\s+(expected|found)\s+/, ""));
    assert.notEqual(expected, found, name);
  }
});

test("cli replay: a bad line is named by its line number in the file, blank lines counted, in both formats (the library's replay() too)", async () => {
  const kernel = '{"transcript":"mcp-kernel/1","options":{"role":"server","info":{"name":"s","version":"1"}}}\n';
  const stdio = '{"transcript":"mcp-kernel/stdio-2","command":["mcp-kernel","serve","--stdio"]}\n';
  const cases: [string, RegExp][] = [
    [kernel + "\n\ngarbage\n", /line 4 is not JSON/],
    [kernel + "\n \n\n{\"input\":1}\n", /line 5 is not a step/],
    [stdio + "\n\ngarbage\n", /line 4 is not JSON/],
    [stdio + '{"t":5,"from":"client","line":"{}"}\n\n{"t":4,"from":"server","line":"{}"}\n', /line 4 has a time t that is not a finite number/],
    ["\n" + stdio + '\n{"t":0,"from":"client","end":true}\n\n{"t":1,"from":"client","line":"{}"}\n', /line 6 is client input after the client closed the input/],
  ];
  for (const [text, reason] of cases) {
    const { code, out } = await replayText(text);
    assert.equal(code, 2, out);
    assert.match(out, reason);
  }
  const lib = replay(kernel + "\n\ngarbage\n");
  assert.ok(!lib.ok && /line 4 is not JSON/.test(lib.reason), JSON.stringify(lib));
});

test("cli replay (stdio): a timer and a client line a few ms apart replay in the order serve --stdio reported (its read and timer draws), not the proxy's times; either order replays, and the draws decide", async () => {
  // A real recording (slow_compute's 1 s timer due at 1375 on the proxy's clock; the next call's
  // line logged at 1376 yet read by the server before that timer fired), with the order it reported.
  const fixture = readFileSync(join(process.cwd(), "spec-tests", "fixtures", "replay", "line-before-timer.jsonl"), "utf8");
  const lines = fixture.trim().split("\n");
  const isLine = (l: string, fragment: string) => l.includes('"from":') && l.includes(fragment);
  const token1 = lines.filter((l) => isLine(l, '\\"progressToken\\":1,\\"progress\\"') || isLine(l, '\\"id\\":1,\\"result'));
  const call2 = lines.findIndex((l) => isLine(l, '\\"id\\":2,\\"method'));
  const draw = (d: object) => JSON.stringify({ t: 1490, ...d });
  // The other order: the timer fired (its lines came) before the server read the line.
  const timerFirst = (draws: object[]) =>
    [...lines.slice(0, call2), ...token1.map((l) => l.replace(/"t":\d+/, '"t":1376')), ...lines.filter((l) => !token1.includes(l) && !l.includes('"draw"') && !l.includes('"exit"')).slice(call2), ...draws.map(draw), lines.at(-1)].join("\n") + "\n";
  const reads = (n: number) => Array.from({ length: n }, (_, i) => ({ draw: "read", inputs: i + 1 }));
  assert.deepEqual(await replayText(fixture), { code: 0, out: "ok 4 steps replayed identically\n" });
  const timerDraws = [...reads(3), { draw: "timer" }, { draw: "read", inputs: 4 }, { draw: "timer" }, { draw: "timer" }, { draw: "read", inputs: 5 }];
  assert.deepEqual(await replayText(timerFirst(timerDraws)), { code: 0, out: "ok 4 steps replayed identically\n" });
  // The draws of the first order with the lines of the second: the timer has not fired where its lines were recorded.
  const lineDraws = [...reads(4), { draw: "timer" }, { draw: "timer" }, { draw: "timer" }, { draw: "read", inputs: 5 }];
  const mixed = await replayText(timerFirst(lineDraws));
  assert.equal(mixed.code, 1, mixed.out);
  assert.match(mixed.out, /was not produced/);
});

test("cli replay (stdio): a timer draw names the timer by the order the server scheduled it, so two due close together replay in the order they fired; one the replayed server never set, or no longer has, is a divergence", async () => {
  // A real recording: slow_compute's second 1 s step (timer 2) fell due just before
  // test_tool_with_progress's two 50 ms steps (timers 3 and 4), yet the busy server fired it after them.
  const fixture = readFileSync(join(process.cwd(), "spec-tests", "fixtures", "replay", "timers-out-of-order.jsonl"), "utf8");
  assert.deepEqual(await replayText(fixture), { code: 0, out: "ok 4 steps replayed identically\n" });
  // Without the numbers (an older recording) the earliest due fires: slow's last step first, not as recorded.
  const unnumbered = await replayText(fixture.replace(/,"n":\d+/g, ""));
  assert.equal(unnumbered.code, 1, unnumbered.out);
  assert.match(unnumbered.out, /"progressToken\\":\\"slow\\",\\"progress\\":2/);
  // A timer the replayed server never scheduled, and one it no longer has pending (fired already).
  const never = await replayText(fixture.replace('"draw":"timer","n":2', '"draw":"timer","n":9'));
  assert.equal(never.code, 1, never.out);
  assert.match(never.out, /the recording fired a timer the replayed server does not have pending \(before the client closed the input\)\n {2}expected "timer 9 firing"\n {2}actual {3}"the replayed server scheduled 4 timers"/);
  const twice = await replayText(fixture.replace('"draw":"timer","n":2', '"draw":"timer","n":1'));
  assert.equal(twice.code, 1, twice.out);
  assert.match(twice.out, /actual {3}"timer 1 is not pending/);
});

test("cli replay (stdio): an older recording's timer draw (no number) fires the earliest due; one when the replayed server has none pending is a divergence, not skipped", async () => {
  const fixture = readFileSync(join(process.cwd(), "spec-tests", "fixtures", "replay", "line-before-timer.jsonl"), "utf8");
  const early = await replayText(fixture.replace('{"t":1490,"draw":"read","inputs":1}', '{"t":1490,"draw":"timer"}\n{"t":1490,"draw":"read","inputs":1}'));
  assert.equal(early.code, 1, early.out);
  assert.match(early.out, /the recording fired a timer the replayed server does not have pending \(before client line 1\)\n {2}expected "a timer firing"\n {2}actual {3}"no timer pending"/);
});

test("cli replay (stdio): with no serverInfo recorded, a command line running serve --stdio, or draws, say it is the demo: replayed, not refused", async () => {
  // A line that is not JSON: the demo answers with a parse error, which names no server.
  const traffic = '{"t":0,"from":"client","line":"nope"}\n{"t":1,"from":"server","line":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":null,\\"error\\":{\\"code\\":-32700,\\"message\\":\\"Parse error\\"}}"}\n';
  for (const [name, command, draws] of [
    ["by-command", ["node", "bin.js", "serve", "--stdio"], ""],
    ["by-draws", ["npm", "start", "--", "--stdio"], '{"t":1,"draw":"read","inputs":1}\n'],
  ] as const) {
    const { code, out } = await replayText(JSON.stringify({ transcript: "mcp-kernel/stdio-1", command }) + "\n" + traffic + draws);
    assert.notEqual(code, 2, `${name}: ${out}`);
    assert.doesNotMatch(out, /cannot replay/, name);
  }
});

test("cli replay (stdio): a server line is compared byte for byte: the same JSON value in other bytes (keys reordered, a space, 1.0 for 1, an escaped character) is a divergence, not 'replayed identically'", async () => {
  // The transcript holds the very bytes serve --stdio wrote: a line in other bytes is a change in what it writes.
  const header = '{"transcript":"mcp-kernel/stdio-2","command":["mcp-kernel","serve","--stdio"]}\n';
  const ping = '{"t":0,"from":"client","line":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"ping\\"}"}\n';
  const transcript = (answer: string) => header + ping + JSON.stringify({ t: 1, from: "server", line: answer }) + "\n" + '{"t":2,"from":"client","end":true}\n{"t":3,"exit":{"code":0,"signal":null}}\n';
  assert.deepEqual(await replayText(transcript('{"jsonrpc":"2.0","id":1,"result":{}}')), { code: 0, out: "ok 1 steps replayed identically\n" });
  for (const answer of ['{"id":1,"jsonrpc":"2.0","result":{}}', '{"jsonrpc":"2.0", "id":1,"result":{}}', '{"jsonrpc":"2.0","id":1.0,"result":{}}', '{"jsonrpc":"\\u0032.0","id":1,"result":{}}']) {
    const { code, out } = await replayText(transcript(answer));
    assert.equal(code, 1, `${answer}: ${out}`);
    assert.match(out, /server line 1 differs/, answer);
  }
});

test("cli replay: a divergence names the line of the file it is at (blank lines counted), in both formats, not only a step index or the n-th server line", async () => {
  // Kernel steps: step 1 is on line 4 of the file (a blank line before it); the library's replay() says so too.
  const rec = recordingSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
  rec.step({ type: "receive", now: 0, data: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  rec.step({ type: "receive", now: 1, data: '{"jsonrpc":"2.0","id":2,"method":"ping"}' });
  const [header, step0, step1] = rec.text().trim().split("\n");
  const kernel = [header, step0, "", step1.replace('"id":2,"result"', '"id":3,"result"')].join("\n") + "\n";
  const lib = replay(kernel);
  assert.ok(!lib.ok && lib.index === 1 && lib.line === 4, JSON.stringify(lib));
  assert.match((await replayText(kernel)).out, /^divergence at step 1 \(line 4\): /);
  // Stdio: the recorded server line that differs, one that was not produced, the recorded exit.
  const stdio = (...events: string[]) => '{"transcript":"mcp-kernel/stdio-2","command":["mcp-kernel","serve","--stdio"]}\n' + events.join("\n") + "\n";
  const ping = (id: number, t: number) => JSON.stringify({ t, from: "client", line: `{"jsonrpc":"2.0","id":${id},"method":"ping"}` });
  const pong = (id: number, t: number, text = `{"jsonrpc":"2.0","id":${id},"result":{}}`) => JSON.stringify({ t, from: "server", line: text });
  const end = '{"t":9,"from":"client","end":true}';
  const cases: [string, RegExp][] = [
    [stdio(ping(1, 0), pong(1, 1), "", ping(2, 2), pong(2, 3, '{"jsonrpc":"2.0","id":2,"result":{"x":1}}'), end), /^divergence at step 1 \(line 6\): server line 2 differs/],
    [stdio(ping(1, 0), pong(1, 1), pong(1, 2, '{"jsonrpc":"2.0","method":"notifications/message"}'), end), /^divergence at step 1 \(line 4\): server line 2 was not produced/],
    [stdio(ping(1, 0), pong(1, 1), end, "", '{"t":10,"exit":{"code":1,"signal":null}}'), /^divergence at step 1 \(line 6\): the server's exit differs/],
  ];
  for (const [text, want] of cases) {
    const { code, out } = await replayText(text);
    assert.equal(code, 1, out);
    assert.match(out, want);
  }
  // A recorded timer the replayed server never set: the line of that timer draw.
  const fixture = readFileSync(join(process.cwd(), "spec-tests", "fixtures", "replay", "timers-out-of-order.jsonl"), "utf8");
  const timerLine = fixture.split("\n").findIndex((l) => l.includes('"draw":"timer","n":2')) + 1;
  const never = await replayText(fixture.replace('"draw":"timer","n":2', '"draw":"timer","n":9'));
  assert.equal(never.code, 1, never.out);
  assert.match(never.out, new RegExp(`^divergence at step \\d+ \\(line ${timerLine}\\): the recording fired a timer`));
});
