// `mcp-kernel replay FILE` (deterministic replay): exit 0 when identical, non-zero with the divergence otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { recordingSession } from "../../src/session/transcript.js";

async function* empty(): AsyncGenerator<string> {}

function sink() {
  let text = "";
  return { write: (c: string) => void (text += c), get text() { return text; } };
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
