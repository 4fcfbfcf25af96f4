// The command line's dispatcher and its I/O helpers.
// Spec: basic/transports ("stdio"): messages are delimited by newlines — the line reader
// the verbs share splits a byte stream into exactly those lines.
import { test } from "node:test";
import { EventEmitter } from "node:events";
import assert from "node:assert/strict";
import { Exit, main, usage, VERBS } from "../../src/cli/main.js";
import { KERNEL_VERSION } from "../../src/cli/version.js";
import { PROTOCOL_VERSIONS } from "../../src/model/versions.js";
import type { CliOutput, Verb } from "../../src/cli/main.js";
import { concat, isBlank, joinLines, OutputFailed, readLines, writeOut, writeResult } from "../../src/cli/io.js";

function sink(): CliOutput & { text: string } {
  return { text: "", write(c: string) { this.text += c; } };
}

async function* none(): AsyncGenerator<string> {}

async function cli(argv: string[]) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(argv, { stdin: none(), stdout, stderr });
  return { code, out: stdout.text, err: stderr.text };
}

test("main: --version, -V and version print the package's version (the one package.json holds) and the protocol versions, and exit 0", async () => {
  const { readFileSync } = await import("node:fs");
  const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
  assert.equal(KERNEL_VERSION, pkg.version);
  for (const flag of ["--version", "-V", "version"]) {
    const r = await cli([flag]);
    assert.equal(r.code, Exit.Ok);
    assert.equal(r.out, `mcp-kernel ${pkg.version} (protocol versions ${PROTOCOL_VERSIONS.join(", ")})\n`);
    assert.equal(r.err, "");
  }
});

test("main: --help, -h and help print the usage, listing every verb of the table, and exit 0", async () => {
  for (const flag of ["--help", "-h", "help"]) {
    const r = await cli([flag]);
    assert.equal(r.code, Exit.Ok);
    assert.equal(r.out, usage());
    assert.equal(r.err, "");
  }
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const name of Object.keys(VERBS)) assert.match(usage(), new RegExp(`^  ${escape(name)} +${escape(VERBS[name].summary)}$`, "m"));
  for (const name of ["serve", "call", "record", "replay", "validate", "demo-client"]) assert.ok(Object.hasOwn(VERBS, name), name);
});

test("main: no verb, or an unknown one, prints the usage to stderr and exits 2", async () => {
  const none = await cli([]);
  assert.equal(none.code, Exit.Usage);
  assert.match(none.err, /^mcp-kernel: no verb given\n\nusage: mcp-kernel <verb>/);
  // Names an Object prototype carries are not verbs either.
  for (const name of ["bogus", "constructor", "__proto__", "toString"]) {
    const r = await cli([name, "x"]);
    assert.equal(r.code, Exit.Usage, name);
    assert.ok(r.err.startsWith(`mcp-kernel: unknown verb ${JSON.stringify(name)}\n\nusage:`), r.err);
    assert.equal(r.out, "");
  }
});

test("main: the verb gets the remaining arguments; a verb that throws is reported on stderr with exit 70", async () => {
  const table = VERBS as Record<string, Verb>;
  let seen: string[] = [];
  table["test-ok"] = { summary: "t", usage: "u", run: async (args) => ((seen = args), 0) };
  table["test-throw"] = { summary: "t", usage: "u", run: async () => { throw new Error("boom"); } };
  table["test-throw-value"] = { summary: "t", usage: "u", run: async () => { throw "not an error"; } };
  table["test-throw-bare"] = {
    summary: "t",
    usage: "u",
    run: async () => {
      const e = new Error("no stack");
      e.stack = undefined;
      throw e;
    },
  };
  try {
    assert.equal((await cli(["test-ok", "a", "--b"])).code, 0);
    assert.deepEqual(seen, ["a", "--b"]);
    const thrown = await cli(["test-throw"]);
    assert.equal(thrown.code, Exit.Internal);
    assert.match(thrown.err, /^mcp-kernel test-throw: internal error: Error: boom/);
    const value = await cli(["test-throw-value"]);
    assert.equal(value.code, Exit.Internal);
    assert.equal(value.err, "mcp-kernel test-throw-value: internal error: not an error\n");
    assert.equal((await cli(["test-throw-bare"])).err, "mcp-kernel test-throw-bare: internal error: no stack\n");
  } finally {
    delete table["test-ok"];
    delete table["test-throw"];
    delete table["test-throw-value"];
    delete table["test-throw-bare"];
  }
});

async function* from(parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const p of parts) yield p;
}

async function collect(parts: (string | Uint8Array)[]): Promise<string[][]> {
  const batches: string[][] = [];
  const dec = new TextDecoder();
  for await (const batch of readLines(from(parts))) batches.push(batch.map((l) => dec.decode(l)));
  return batches;
}

test("readLines (stdio framing): one batch per chunk; a line split across chunks is joined; CR before LF dropped", async () => {
  assert.deepEqual(await collect(["a\nb", "c\r\n", "", "d", "e\nf"]), [["a"], ["bc"], [], [], ["de"], ["f"]]);
  assert.deepEqual(await collect(["x\r\n\r\n\n"]), [["x", "", ""]]);
  assert.deepEqual(await collect([]), []);
  assert.deepEqual(await collect(["no newline at all"]), [[], ["no newline at all"]]);
});

test("readLines: a carried line does not alias the chunk it came from (streams reuse buffers)", async () => {
  const buf = new TextEncoder().encode("abc");
  const parts: Uint8Array[] = [buf];
  const lines: string[] = [];
  const dec = new TextDecoder();
  async function* reuse(): AsyncGenerator<Uint8Array> {
    yield parts[0];
    buf.set(new TextEncoder().encode("\nzz"));
    yield buf;
  }
  for await (const batch of readLines(reuse())) for (const l of batch) lines.push(dec.decode(l));
  assert.deepEqual(lines, ["abc", "zz"]);
});

test("joinLines, concat and isBlank", () => {
  const enc = new TextEncoder();
  assert.deepEqual(joinLines([]), new Uint8Array(0));
  assert.equal(new TextDecoder().decode(joinLines([enc.encode("a"), enc.encode(""), enc.encode("bc")])), "a\n\nbc");
  assert.deepEqual(concat(enc.encode("ab"), enc.encode("c")), enc.encode("abc"));
  assert.equal(isBlank(enc.encode(" \t\r\n")), true);
  assert.equal(isBlank(new Uint8Array(0)), true);
  assert.equal(isBlank(enc.encode("  x")), false);
});

test("writeOut: writes nothing for empty text; waits for drain only when write returns false and the stream can say when", async () => {
  const calls: (string | Uint8Array)[] = [];
  await writeOut({ write: (c) => void calls.push(c) }, "");
  assert.equal(calls.length, 0);
  await writeOut({ write: (c) => (calls.push(c), false) }, "no once");
  let drained = 0;
  await writeOut({ write: (c) => (calls.push(c), false), once: (_e, fn) => { drained++; fn(); } }, "once");
  await writeOut({ write: (c) => (calls.push(c), true), once: () => assert.fail("must not wait") }, "true");
  assert.deepEqual(calls, ["no once", "once", "true"]);
  assert.equal(drained, 1);
});

/** An output whose writes fail as a Node stream's do: `write` says false, then `error` (when given) and `close` come on the next tick. */
function failing(error?: Error): CliOutput & { writes: number } {
  const stream = Object.assign(new EventEmitter(), {
    writes: 0,
    write() {
      stream.writes++;
      process.nextTick(() => {
        if (error !== undefined) stream.emit("error", error);
        stream.emit("close");
      });
      return false;
    },
  });
  return stream;
}

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

test("writeOut settles when its stream fails or closes (no drain comes) and writes nothing more; writeResult then rejects with OutputFailed", async () => {
  const out = failing(errno("ENOSPC", "ENOSPC: no space left on device, write"));
  await writeOut(out, "first");
  await writeOut(out, "second");
  assert.equal(out.writes, 1);
  await assert.rejects(writeResult(out, "third"), (e: unknown) => e instanceof OutputFailed && !e.readerGone && e.message === "ENOSPC: no space left on device, write");
  const closed = failing();
  await assert.rejects(writeResult(closed, "x"), (e: unknown) => e instanceof OutputFailed && e.readerGone);
});

test("main: output that cannot be written stops the verb: its reader gone (EPIPE, or closed), quietly with 141; another error (ENOSPC), exit 2 with one line on stderr", async () => {
  for (const stdout of [failing(errno("EPIPE", "write EPIPE")), failing()]) {
    const stderr = sink();
    assert.equal(await main(["--help"], { stdin: none(), stdout, stderr }), Exit.ReaderGone);
    assert.equal(stderr.text, "");
  }
  const full = () => failing(errno("ENOSPC", "ENOSPC: no space left on device, write"));
  for (const [argv, who] of [[["--help"], "mcp-kernel"], [["validate", "--help"], "mcp-kernel validate"], [["replay", "--help"], "mcp-kernel replay"]] as const) {
    const stderr = sink();
    assert.equal(await main(argv, { stdin: none(), stdout: full(), stderr }), Exit.Usage, who);
    assert.equal(stderr.text, `${who}: cannot write output: ENOSPC: no space left on device, write\n`);
  }
});
