// Deterministic replay (issue: transcripts recorded from the pair harness replay identically).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";
import { canonicalJson, recordingSession, replay, transcriptHeader, transcriptLine } from "../../src/session/transcript.js";
import { createSession, step } from "../../src/session/session.js";
import type { SessionOptions } from "../../src/session/types.js";

function transcriptOf(p: Pair, role: "client" | "server", options: SessionOptions): string {
  const s = createSession(structuredClone(options));
  const lines = [transcriptHeader(options)];
  for (const input of p.inputs[role]) lines.push(transcriptLine(input, step(s, structuredClone(input)).outputs));
  return lines.join("\n") + "\n";
}

function conversation(): { p: Pair; client: SessionOptions; server: SessionOptions } {
  const client: SessionOptions = { role: "client", info: { name: "c", version: "1" }, capabilities: { sampling: {} }, requestTimeoutMs: 500 };
  const server: SessionOptions = { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {}, logging: {} } };
  const p = new Pair(client, server);
  p.handlers.server = (req, pair) => {
    if (req.method === "tools/call" && (req.params as any).name === "slow") return;
    pair.feed("server", { type: "progress", now: pair.now, id: req.id, progress: 1 });
    pair.respond("server", req.id, { content: [{ type: "text", text: "ok" }] });
  };
  p.handlers.client = (req, pair) => pair.respond("client", req.id, { role: "assistant", content: { type: "text", text: "s" }, model: "m" });
  p.handshake();
  p.request("client", "tools/call", { name: "fast" }, { progress: true });
  p.request("client", "tools/call", { name: "slow" });
  p.request("server", "sampling/createMessage", { messages: [], maxTokens: 1 });
  p.run();
  p.advance(600);
  p.inject("server", "{garbage");
  return { p, client, server };
}

test("replay: transcripts of both sides of a complete conversation replay identically", () => {
  const { p, client, server } = conversation();
  for (const [role, opts] of [["client", client], ["server", server]] as const) {
    const text = transcriptOf(p, role, opts);
    const result = replay(text);
    assert.deepEqual(result, { ok: true, steps: p.inputs[role].length });
  }
});

test("replay: a changed output is reported as the first divergence with index, expected and actual", () => {
  const { p, client } = conversation();
  const lines = transcriptOf(p, "client", client).trim().split("\n");
  const target = lines.findIndex((l, i) => i > 0 && l.includes('"type":"response"'));
  lines[target] = lines[target].replace('"text":"ok"', '"text":"KO"');
  const result = replay(lines.join("\n"));
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.equal(result.index, target - 1);
    assert.match(JSON.stringify(result.expected), /KO/);
    assert.match(JSON.stringify(result.actual), /"ok"/);
  }
});

test("replay: a missing or bad header and a non-JSON line are reported, not thrown", () => {
  assert.equal(replay("").ok, false);
  assert.equal(replay("{nope").ok, false);
  assert.equal(replay('{"transcript":"other"}').ok, false);
  const header = transcriptHeader({ role: "server", info: { name: "s", version: "1" }, capabilities: {} });
  assert.equal(replay(header + "\n{bad").ok, false);
  assert.equal(replay(header + '\n{"input":1}').ok, false);
  assert.deepEqual(replay(header + "\n"), { ok: true, steps: 0 });
});

test("replay: recordingSession records as it runs; key order does not matter", () => {
  const rec = recordingSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
  rec.step({ type: "receive", now: 0, data: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  assert.deepEqual(replay(rec.text()), { ok: true, steps: 1 });
  assert.equal(canonicalJson({ b: 1, a: { d: 2, c: 3 } }), canonicalJson({ a: { c: 3, d: 2 }, b: 1 }));
});

test("STYLE (never throws across the boundary): step on a session made from options no application would pass (a restored header without a role) closes it with a close output, and replay reports transcripts it cannot run as malformed", () => {
  for (const options of [{}, { role: "bogus", info: { name: "x", version: "1" }, capabilities: {} }]) {
    const s = createSession(options as unknown as SessionOptions);
    for (const input of [{ type: "receive", now: 0, data: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }, { type: "tick", now: 0 }, { type: "closed", now: 0 }] as const) {
      assert.doesNotThrow(() => step(s, input), `${JSON.stringify(options)} ${input.type}`);
    }
    assert.equal(s.phase.name, "closed");
  }
  const header = transcriptHeader({ role: "server", info: { name: "s", version: "1" }, capabilities: {} });
  const odd = [
    JSON.stringify({ transcript: "mcp-kernel/1", options: {} }) + '\n{"input":{"type":"closed","now":0},"outputs":[]}\n',
    header + '\n{"input":null,"outputs":[]}\n',
    header + '\n{"input":{"type":"tick","now":0},"outputs":' + "[".repeat(20_000) + "]".repeat(20_000) + "}\n",
  ];
  for (const text of odd) {
    let r: ReturnType<typeof replay> | undefined;
    assert.doesNotThrow(() => (r = replay(text)), text.slice(0, 60));
    assert.equal(r!.ok, false, text.slice(0, 60));
  }
});

test("replay: a text that is no transcript is malformed, never a divergence — a header without an options object (index -1), a step line that is not JSON or not a step (index: that step's)", () => {
  const rec = recordingSession({ role: "server", info: { name: "s", version: "1" }, capabilities: {} });
  rec.step({ type: "tick", now: 0 });
  rec.step({ type: "tick", now: 1 });
  const [header, first] = rec.text().trim().split("\n");
  for (const options of [null, "x", [], 3]) {
    const r = replay(JSON.stringify({ transcript: "mcp-kernel/1", options }) + "\n" + first + "\n");
    assert.ok(!r.ok && r.malformed, JSON.stringify(options));
    assert.equal(!r.ok && r.index, -1, JSON.stringify(options));
    assert.match(!r.ok ? r.reason : "", /no options object/, JSON.stringify(options));
  }
  const notJson = replay([header, first, "{not json"].join("\n"));
  assert.deepEqual(notJson.ok === false && [notJson.malformed, notJson.index, notJson.reason], [true, 1, "line 3 is not JSON"]);
  const notStep = replay([header, "[1]", first].join("\n"));
  assert.deepEqual(notStep.ok === false && [notStep.malformed, notStep.index, notStep.reason], [true, 0, "line 2 is not a step"]);
});

test("replay: a header whose options no session could have been recorded with (role \"sever\", versions [\"x\"] or []) is a malformed transcript, not a divergence; known versions replay", () => {
  const rec = recordingSession({ role: "server", info: { name: "s", version: "1" }, capabilities: {}, versions: ["2025-11-25"] });
  rec.step({ type: "receive", now: 0, data: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}' });
  const text = rec.text();
  assert.deepEqual(replay(text), { ok: true, steps: 1 });
  for (const [from, to] of [['"role":"server"', '"role":"sever"'], ['"versions":["2025-11-25"]', '"versions":["x"]'], ['"versions":["2025-11-25"]', '"versions":[]']]) {
    const r = replay(text.replace(from, to));
    assert.equal(r.ok, false, to);
    assert.equal(!r.ok && r.malformed, true, to);
    assert.match(!r.ok ? r.reason : "", /header's options are not a session's/, to);
  }
});
