// `mcp-kernel validate` (foundation): `ok <kind> <method>` or `error <pointer> <reason>` per line; exit 0 only when all are valid.
import { test } from "node:test";
import assert from "node:assert/strict";
import { main } from "../../src/cli/main.js";

async function* lines(text: string): AsyncGenerator<string> {
  yield text;
}

function sink() {
  let text = "";
  return { write: (c: string) => void (text += c), get text() { return text; } };
}

async function run(args: string[], input: string) {
  const out = sink();
  const err = sink();
  const code = await main(args, { stdin: lines(input), stdout: out, stderr: err });
  return { code, out: out.text, err: err.text };
}

test("cli validate: a JSON Lines stream mixing valid and invalid messages", async () => {
  const input = [
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}',
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}',
    "{not json",
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  ].join("\n");
  const r = await run(["validate", "--version", "2025-11-25", "-"], input);
  assert.equal(r.code, 1);
  const out = r.out.trim().split("\n").filter((l) => !l.startsWith("  "));
  assert.equal(out[0], "ok request tools/call");
  assert.match(out[1], /^ok result tools\/call/);
  assert.match(out[2], /^error \/params\/name /);
  assert.match(out[3], /^error - /);
  assert.equal(out[4], "ok notification notifications/initialized");
});

test("cli validate: all valid exits 0; --type checks a bare type; batches only for 2025-03-26; bad arguments exit 2", async () => {
  assert.equal((await run(["validate", "--version", "2025-11-25"], '{"jsonrpc":"2.0","id":1,"method":"ping"}\n')).code, 0);
  const typed = await run(["validate", "--version", "2026-07-28", "--type", "CallToolResult"], '{"resultType":"complete","content":[]}\n');
  assert.equal(typed.code, 0);
  assert.equal((await run(["validate", "--version", "2026-07-28", "--type", "CallToolResult"], '{"content":5}\n')).code, 1);
  const batch = '[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n';
  assert.equal((await run(["validate", "--version", "2025-03-26"], batch)).code, 0);
  assert.equal((await run(["validate", "--version", "2025-06-18"], batch)).code, 1);
  assert.equal((await run(["validate", "--version", "1999-01-01"], "")).code, 2);
  assert.equal((await run(["nope"], "")).code, 2);
  assert.equal((await run(["--help"], "")).code, 0);
  assert.equal((await run(["validate", "--help"], "")).code, 0);
});
