// `mcp-kernel validate`, run in-process through main(argv, io).
// Spec: basic/index ("Messages"): requests carry an id and a method, notifications a method
// and no id, responses one of result/error; params are checked against the method's schema
// of the chosen version. Batches exist only in 2025-03-26 (removed in 2025-06-18).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { CliOutput } from "../../src/cli/main.js";

/** The spec's example messages, read from the source tree (cwd is the project root under npm test). */
const EXAMPLES = join(process.cwd(), "spec-tests", "fixtures", "examples");

function sink(): CliOutput & { text: string } {
  return { text: "", write(c: string) { this.text += c; } };
}

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const p of parts) yield p;
}

/** Runs `mcp-kernel <argv>` with `stdin` as the given chunks. */
async function cli(argv: string[], ...stdin: (string | Uint8Array)[]) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(argv, { stdin: chunks(...stdin), stdout, stderr });
  return { code, out: stdout.text, err: stderr.text, lines: stdout.text.split("\n").filter((l) => l !== "") };
}

const line = (value: unknown) => JSON.stringify(value);
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = (id: number | string, params: object = { _meta: META, name: "get_weather", arguments: { city: "Paris" } }) =>
  line({ jsonrpc: "2.0", id, method: "tools/call", params });
const textResult = (id: number | string) => line({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [{ type: "text", text: "sunny" }] } });

test("validate: the spec's example tools/call request (a pretty-printed file) is one valid request", async () => {
  const r = await cli(["validate", join(EXAMPLES, "CallToolRequest", "call-tool-request.json")]);
  assert.deepEqual(r.lines, ["ok request tools/call"]);
  assert.equal(r.code, 0);
});

test("validate: the spec's example notifications are valid notifications, read from stdin with -", async () => {
  for (const [file, method] of [
    ["ProgressNotification/progress-message.json", "notifications/progress"],
    ["LoggingMessageNotification/log-database-connection-failed.json", "notifications/message"],
    ["CancelledNotification/user-requested-cancellation.json", "notifications/cancelled"],
  ]) {
    const r = await cli(["validate", "-"], readFileSync(join(EXAMPLES, file), "utf8"));
    assert.deepEqual(r.lines, [`ok notification ${method}`], file);
    assert.equal(r.code, 0);
  }
});

test("validate: invalid params are reported with a JSON pointer under /params, exit 1", async () => {
  const r = await cli(["validate"], call(1, { _meta: META, name: 42 }) + "\n");
  assert.equal(r.code, 1);
  assert.equal(r.lines.length, 1);
  assert.match(r.lines[0], /^error \/params\/name \S/);
});

test("validate: several issues of one message: the first on the error line, the others indented below it", async () => {
  const r = await cli(["validate"], call(1, { name: 42 }) + "\n");
  assert.equal(r.code, 1);
  assert.match(r.lines[0], /^error \/params/);
  assert.ok(r.lines.length >= 2, r.out);
  for (const l of r.lines.slice(1)) assert.match(l, /^ {2}\/params/);
});

test("validate: text that is not JSON is a codec error at the whole message, printed as pointer -", async () => {
  const r = await cli(["validate"], "{}\n{not json\n");
  assert.equal(r.code, 1);
  assert.equal(r.lines.length, 2);
  assert.match(r.lines[0], /^error - \S/, "{} is JSON but not a JSON-RPC message");
  assert.match(r.lines[1], /^error - \S/);
});

test("validate: JSON Lines mixing good and bad lines: one verdict per non-blank line, in order; blank lines skipped", async () => {
  const input = [
    call(1),
    "",
    "   ",
    line({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } }),
    line({ jsonrpc: "2.0", method: "no/such/method" }),
    "[1,",
    textResult(1),
  ].join("\n");
  const r = await cli(["validate"], input);
  assert.deepEqual(r.lines.map((l) => l.split(" ").slice(0, 3).join(" ")), [
    "ok request tools/call",
    "ok notification notifications/progress",
    "error /method unknown",
    r.lines[3].split(" ").slice(0, 3).join(" "),
    "ok result tools/call",
  ]);
  assert.equal(r.lines[2], "error /method unknown method no/such/method in 2026-07-28");
  assert.match(r.lines[3], /^error - /);
  assert.equal(r.code, 1);
});

test("validate: lines split across chunks, CRLF endings and a last line without newline read like whole lines", async () => {
  const a = call(1);
  const b = textResult(1);
  const r = await cli(["validate"], a.slice(0, 10), new TextEncoder().encode(a.slice(10) + "\r\n" + b.slice(0, 5)), b.slice(5, 9), b.slice(9));
  assert.deepEqual(r.lines, ["ok request tools/call", "ok result tools/call"]);
  assert.equal(r.code, 0);
});

test("validate: a result whose request came earlier is checked against that method's result schema", async () => {
  const bad = line({ jsonrpc: "2.0", id: "a", result: { resultType: "complete", content: "not an array" } });
  const r = await cli(["validate"], [call("a"), bad].join("\n"));
  assert.equal(r.lines[0], "ok request tools/call");
  assert.match(r.lines[1], /^error \/result\/content /);
  assert.equal(r.code, 1);
});

test("validate (2025-11-25 basic/utilities/tasks, Creating Tasks: a normal request is answered with the actual operation result directly): a CreateTaskResult answering a tools/call that asked for no task is an error; one that asked for a task is fine", async () => {
  const created = (id: number) => line({ jsonrpc: "2.0", id, result: { task: { taskId: "t", status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60000 } } });
  const plain = line({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_weather", arguments: {} } });
  const asTask = line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_weather", arguments: {}, task: { ttl: 60000 } } });
  const r = await cli(["validate", "--version", "2025-11-25"], [plain, created(1), asTask, created(2)].join("\n"));
  assert.equal(r.lines[0], "ok request tools/call");
  assert.match(r.lines[1], /^error \/result/);
  assert.deepEqual(r.lines.slice(-2), ["ok request tools/call", "ok result tools/call"]);
  assert.equal(r.code, 1);
});

test("validate: a result that answers no request in the input cannot be classified: plain `ok result`", async () => {
  const r = await cli(["validate"], textResult(7));
  assert.deepEqual(r.lines, ["ok result"]);
  assert.equal(r.code, 0);
});

test("validate: ids are matched exactly (1 is not \"1\"), once, and an id two requests share is ambiguous", async () => {
  const r = await cli(["validate"], [call(1), textResult("1"), textResult(1), textResult(1), call(2), call(2), textResult(2)].join("\n"));
  assert.deepEqual(r.lines, [
    "ok request tools/call",
    "ok result",
    "ok result tools/call",
    "ok result",
    "ok request tools/call",
    "ok request tools/call",
    "ok result",
  ]);
});

test("validate: an error response names the method it answers when known", async () => {
  const err = (id: number | null) => line({ jsonrpc: "2.0", id, error: { code: -32602, message: "Unknown tool" } });
  const r = await cli(["validate"], [call(3), err(3), err(4), err(null)].join("\n"));
  assert.deepEqual(r.lines, ["ok request tools/call", "ok error tools/call", "ok error", "ok error"]);
  assert.equal(r.code, 0);
});

test("validate: basic/index — a notification MUST NOT carry an id, and a request needs one", async () => {
  const r = await cli(["validate"], [
    line({ jsonrpc: "2.0", id: 1, method: "notifications/progress", params: { progressToken: "t", progress: 1 } }),
    line({ jsonrpc: "2.0", method: "tools/call", params: { _meta: META, name: "x" } }),
  ].join("\n"));
  assert.equal(r.lines[0], "error /id notifications/progress is a notification: it must not have an id");
  assert.equal(r.lines[1], "error /id tools/call is a request: it needs an id");
  assert.equal(r.code, 1);
});

test("validate: basic/index — batches: accepted for 2025-03-26 (pointers index into the array), rejected by later versions", async () => {
  const ping = { jsonrpc: "2.0", id: 9, method: "ping" };
  const init = { jsonrpc: "2.0", method: "notifications/initialized" };
  const good = await cli(["validate", "--version", "2025-03-26"], line([init, ping]));
  assert.deepEqual(good.lines, ["ok batch 2: notification notifications/initialized, request ping"]);
  assert.equal(good.code, 0);
  const bad = await cli(["validate", "--version=2025-03-26"], line([init, { jsonrpc: "2.0", method: "no/such" }, { jsonrpc: "2.0", id: 1, method: "ping", params: 3 }]));
  assert.equal(bad.lines[0], "error /1/method unknown method no/such in 2025-03-26");
  assert.match(bad.lines[1], /^ {2}\/2 \S/);
  assert.equal(bad.code, 1);
  const later = await cli(["validate", "--version", "2025-06-18"], line([init, ping]));
  assert.match(later.lines[0], /^error - \S/);
  assert.equal(later.code, 1);
});

test("validate: --version 2024-11-05 is checked with 2025-03-26's schema", async () => {
  const r = await cli(["validate", "--version", "2024-11-05"], line({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {} } }));
  assert.deepEqual(r.lines, ["ok request tools/call"]);
});

test("validate: the version decides what is valid — 2026-07-28 requires _meta on tools/call, 2025-11-25 does not", async () => {
  const bare = call(1, { name: "x" });
  assert.equal((await cli(["validate", "--version", "2025-11-25"], bare)).code, 0);
  const modern = await cli(["validate"], bare);
  assert.equal(modern.code, 1);
  assert.match(modern.lines[0], /^error \/params/);
});

test("validate --type: the spec's CallToolResult examples are valid results", async () => {
  for (const file of ["result-with-unstructured-text.json", "result-with-structured-content.json", "invalid-tool-input-error.json"]) {
    const r = await cli(["validate", "--type", "CallToolResult", join(EXAMPLES, "CallToolResult", file)]);
    assert.deepEqual(r.lines, ["ok result CallToolResult"], file);
    assert.equal(r.code, 0);
  }
});

test("validate --type: JSON Lines of bare values, each checked as the type; the kind says params, result or value", async () => {
  const r = await cli(["validate", "--type", "CallToolResult"], [line({ content: [] }), line({ resultType: "complete", content: [{ type: "text" }] }), "{oops", "[]"].join("\n"));
  assert.equal(r.lines[0].startsWith("error "), true, "2026-07-28 CallToolResult needs resultType");
  assert.match(r.lines.find((l) => l.startsWith("error /content/0")) ?? "", /^error \/content\/0/);
  assert.ok(r.lines.some((l) => /^error - invalid JSON: /.test(l)));
  assert.equal(r.code, 1);
  const params = await cli(["validate", "--type", "CallToolRequestParams"], line({ _meta: META, name: "x" }));
  assert.deepEqual(params.lines, ["ok params CallToolRequestParams"]);
  const value = await cli(["validate", "--type", "TextContent"], line({ type: "text", text: "hi" }));
  assert.deepEqual(value.lines, ["ok value TextContent"]);
});

test("validate --type: bytes that are not UTF-8 are reported at the whole value", async () => {
  const r = await cli(["validate", "--type", "TextContent"], new Uint8Array([0x22, 0xff, 0x22, 0x0a]));
  assert.deepEqual(r.lines, ["error - invalid UTF-8"]);
  assert.equal(r.code, 1);
});

test("validate: a document whose first line is not JSON on its own, and whose whole is not JSON either, is read as JSON Lines", async () => {
  const r = await cli(["validate"], ["{broken", "", call(1)].join("\n"));
  assert.equal(r.lines.length, 2);
  assert.match(r.lines[0], /^error - /);
  assert.equal(r.lines[1], "ok request tools/call");
});

test("validate: empty input (nothing but blank lines) is an error", async () => {
  const r = await cli(["validate"], "\n  \n");
  assert.deepEqual(r.lines, ["error - empty input"]);
  assert.equal(r.code, 1);
});

test("validate: bad arguments exit 2 with the reason and the usage on stderr", async () => {
  for (const argv of [
    ["validate", "--version", "1999-01-01"],
    ["validate", "--type", "NoSuchType"],
    ["validate", "--bogus"],
    ["validate", "a.json", "b.json"],
    ["validate", "--version"],
  ]) {
    const r = await cli(argv, call(1));
    assert.equal(r.code, 2, argv.join(" "));
    assert.equal(r.out, "");
    assert.match(r.err, /^mcp-kernel validate: .+\n\nusage: mcp-kernel validate/, argv.join(" "));
  }
});

test("validate: an unreadable FILE exits 2 and says which file", async () => {
  const missing = join(mkdtempSync(join(tmpdir(), "validate-")), "missing.jsonl");
  const r = await cli(["validate", missing]);
  assert.equal(r.code, 2);
  assert.ok(r.err.includes(`cannot read ${missing}`), r.err);
});

test("validate: a JSON Lines FILE on disk is read like stdin", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "validate-")), "session.jsonl");
  writeFileSync(file, [call(1), textResult(1)].join("\n") + "\n");
  const r = await cli(["validate", "--version", "2026-07-28", file]);
  assert.deepEqual(r.lines, ["ok request tools/call", "ok result tools/call"]);
  assert.equal(r.code, 0);
});

test("validate --help prints the usage, with the output convention, on stdout and exits 0", async () => {
  const r = await cli(["validate", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.out, /^usage: mcp-kernel validate \[--version V\] \[--type T\] \[--max-bytes N\] \[FILE\|-\]/);
  assert.match(r.out, /- is the whole line/);
  assert.equal(r.err, "");
});

test("validate: output waits for `drain` when stdout asks for it, and nothing is lost", async () => {
  let text = "";
  let waits = 0;
  const stdout: CliOutput = {
    write(c: string) {
      text += c;
      return false;
    },
    once(_event: "drain", listener: () => void) {
      waits++;
      queueMicrotask(listener);
    },
  };
  const code = await main(["validate"], { stdin: chunks(call(1) + "\n", call(2) + "\n"), stdout, stderr: sink() });
  assert.equal(code, 0);
  assert.equal(text, "ok request tools/call\nok request tools/call\n");
  assert.equal(waits, 2);
});

test("validate without --version follows a recorded session's own version (initialize, its result, a modern request's _meta); --version pins one", async () => {
  const legacy = [
    line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } }),
    line({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }),
    line({ jsonrpc: "2.0", method: "notifications/initialized" }),
    line({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    // A 2025-06-18 result: no execution field, no icons; valid there.
    line({ jsonrpc: "2.0", id: 2, result: { tools: [{ name: "t", inputSchema: { type: "object" } }] } }),
  ].join("\n") + "\n";
  const followed = await cli(["validate"], legacy);
  assert.equal(followed.code, 0, followed.out);
  assert.deepEqual(followed.lines, ["ok request initialize", "ok result initialize", "ok notification notifications/initialized", "ok request tools/list", "ok result tools/list"]);
  const pinned = await cli(["validate", "--version", "2026-07-28"], legacy);
  assert.equal(pinned.code, 1);
  assert.match(pinned.lines[0], /^error \/method unknown method initialize in 2026-07-28/);
  // A modern request names its version: checked under it.
  const modern = await cli(["validate"], line({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: META } }) + "\n");
  assert.deepEqual(modern.lines, ["ok request tools/list"]);
});

// README Validation: an initialize request (the version it asks for), its result (the one
// the server chose). 2025-11-25 basic/lifecycle: a server that does not support the
// requested version MUST answer with another it supports; the session then runs under that.
test("validate without --version: an initialize asking for a version the kernel does not know is checked as a legacy request and its result's version is followed", async () => {
  const session = (asked: string, chosen: string, ...rest: string[]) =>
    [
      line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: "c", version: "1" } } }),
      line({ jsonrpc: "2.0", id: 1, result: { protocolVersion: chosen, capabilities: {}, serverInfo: { name: "s", version: "1" } } }),
      line({ jsonrpc: "2.0", method: "notifications/initialized" }),
      ...rest,
    ].join("\n") + "\n";
  const unknown = await cli(["validate"], session("2099-01-01", "2025-11-25", line({ jsonrpc: "2.0", id: 2, method: "tools/list" })));
  assert.equal(unknown.code, 0, unknown.out);
  assert.deepEqual(unknown.lines, ["ok request initialize", "ok result initialize", "ok notification notifications/initialized", "ok request tools/list"]);
  // Answered 2025-03-26: the session is checked under it, where a batch is allowed.
  const batch = line([{ jsonrpc: "2.0", id: 2, method: "tools/list" }, { jsonrpc: "2.0", id: 3, method: "ping" }]);
  const older = await cli(["validate"], session("2024-10-07", "2025-03-26", batch));
  assert.equal(older.code, 0, older.out);
  assert.deepEqual(older.lines, ["ok request initialize", "ok result initialize", "ok notification notifications/initialized", "ok batch 2: request tools/list, request ping"]);
  // The result is checked as an InitializeResult (of the version it names).
  const bad = await cli(["validate"], session("2099-01-01", "2025-11-25").replace('"serverInfo":{"name":"s","version":"1"}', '"serverInfo":{"name":"s"}'));
  assert.equal(bad.code, 1);
  assert.match(bad.lines[1], /^error \/result\/serverInfo /);
});

test("validate --max-bytes N: a message over the kernel's 4 MiB limit is an error by default and checked under a higher limit; a bad N is a usage error", async () => {
  const big = line({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "e", arguments: { text: "x".repeat(5 * 1024 * 1024) } } }) + "\n";
  const limited = await cli(["validate", "--version", "2025-11-25"], big);
  assert.deepEqual([limited.code, limited.lines], [1, ["error - message exceeds maxBytes (4194304)"]]);
  const raised = await cli(["validate", "--version", "2025-11-25", "--max-bytes", String(8 * 1024 * 1024)], big);
  assert.deepEqual([raised.code, raised.lines], [0, ["ok request tools/call"]]);
  const lowered = await cli(["validate", "--version", "2025-11-25", "--max-bytes", "10"], line({ jsonrpc: "2.0", id: 1, method: "ping" }) + "\n");
  assert.deepEqual([lowered.code, lowered.lines], [1, ["error - message exceeds maxBytes (10)"]]);
  // With --type too: a bare value is one message (found by review: the limit was not applied).
  const typed = await cli(["validate", "--version", "2025-11-25", "--type", "CallToolResult", "--max-bytes", "10"], line({ content: [{ type: "text", text: "hello" }] }) + "\n");
  assert.deepEqual([typed.code, typed.lines], [1, ["error - message exceeds maxBytes (10)"]]);
  for (const bad of ["0", "-1", "1e3", "x"]) {
    const r = await cli(["validate", `--max-bytes=${bad}`], "{}\n");
    assert.equal(r.code, 2, bad);
    assert.match(r.err, /--max-bytes needs a positive whole number of bytes/, bad);
  }
});

test("validate: a transcript (record's mcp-kernel/stdio-2 or the stdio-1 before it, the library's mcp-kernel/1) is checked as the session it holds: each message, in order, not the transcript's own lines", async () => {
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
  const initResult = { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } };
  const badCall = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } };
  const stdio = [
    line({ transcript: "mcp-kernel/stdio-1", command: ["mcp-kernel", "serve", "--stdio"] }),
    line({ t: 0, from: "client", line: line(init) }),
    line({ t: 1, from: "server", line: line(initResult) }),
    line({ t: 2, from: "client", line: line(badCall) }),
    line({ t: 3, from: "client", end: true }),
    line({ t: 3, draw: "clock", value: 5 }),
    line({ t: 4, exit: { code: 0, signal: null } }),
  ].join("\n");
  for (const format of ["mcp-kernel/stdio-2", "mcp-kernel/stdio-1"]) {
    const r = await cli(["validate", "-"], stdio.replace("mcp-kernel/stdio-1", format) + "\n");
    assert.equal(r.code, 1, format);
    assert.deepEqual(r.lines, ["ok request initialize", "ok result initialize", 'error /params missing required property "name"'], format);
  }

  const kernel = [
    line({ transcript: "mcp-kernel/1", options: { role: "server", info: { name: "s", version: "1" } } }),
    line({ input: { type: "receive", now: 1, data: line(init) }, outputs: [{ type: "send", message: initResult }, { type: "wake", at: 5 }] }),
    line({ input: { type: "tick", now: 2 }, outputs: [] }),
  ].join("\n");
  const k = await cli(["validate", "-"], kernel + "\n");
  assert.equal(k.code, 0, k.out);
  assert.deepEqual(k.lines, ["ok request initialize", "ok result initialize"]);
  // A received message given already parsed (`value`, as SessionInput allows) is checked too.
  const parsed = kernel + "\n" + line({ input: { type: "receive", now: 3, value: badCall }, outputs: [] });
  const p = await cli(["validate", "-"], parsed + "\n");
  assert.equal(p.code, 1, p.out);
  assert.deepEqual(p.lines, ["ok request initialize", "ok result initialize", 'error /params missing required property "name"']);
  // A client's renewed session (HTTP 404) brings the server's new InitializeResult as an input: checked as one.
  const renewedOk = kernel + "\n" + line({ input: { type: "renewed", now: 4, result: initResult.result }, outputs: [] });
  assert.deepEqual((await cli(["validate", "-"], renewedOk + "\n")).lines, ["ok request initialize", "ok result initialize", "ok result initialize (renewed session)"]);
  const renewedBad = kernel + "\n" + line({ input: { type: "renewed", now: 4, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: 7 } } }, outputs: [] });
  const rb = await cli(["validate", "-"], renewedBad + "\n");
  assert.equal(rb.code, 1, rb.out);
  assert.match(rb.lines[2], /^error \/serverInfo/);
});
