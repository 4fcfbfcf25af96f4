// `npm run build`: the package's exports resolve to built files that export what the
// sources export, the kernel bundles run without Node built-ins, and the bin works.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The project root: the nearest folder above the working directory holding mcp-kernel's package.json. */
function projectRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "mcp-kernel") return dir;
    if (dirname(dir) === dir) throw new Error("run the tests from inside the mcp-kernel checkout");
  }
}

const root = projectRoot();
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
/** The compiled sources this test was compiled with (…/spec-tests/cli/ → …/src/). */
const compiledSrc = fileURLToPath(new URL("../../src/", import.meta.url));

type Conditions = { types: string; import: string };
const subpaths = Object.entries(pkg.exports as Record<string, Conditions | string>).filter(
  (e): e is [string, Conditions] => typeof e[1] !== "string",
);

const out = mkdtempSync(join(tmpdir(), "mcp-kernel-dist-"));
/** A path of the exports map (`./dist/...`) inside the temporary outdir. */
const built = (path: string) => join(out, path.replace(/^\.\/dist\//, ""));
after(() => rmSync(out, { recursive: true, force: true }));

test("build: every export of package.json is built, bundle and declaration, and the bundle exports what the source does", async () => {
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--outdir", out, "--quiet"], { cwd: root, stdio: "pipe" });

  assert.deepEqual(subpaths.map(([s]) => s), [".", "./codec", "./schema", "./model"]);
  const loaded: Record<string, Record<string, unknown>> = {};
  for (const [subpath, { types, import: js }] of subpaths) {
    assert.ok(existsSync(built(types)), `${subpath}: ${types} was emitted`);
    const bundle = (await import(pathToFileURL(built(js)).href)) as Record<string, unknown>;
    // The entry's source, as tsc compiled it: the declaration path mirrors src/.
    const sourceJs = join(compiledSrc, types.replace(/^\.\/dist\/types\//, "").replace(/\.d\.ts$/, ".js"));
    const source = (await import(pathToFileURL(sourceJs).href)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(bundle).sort(), Object.keys(source).sort(), `${subpath} exports the same names as its source`);
    loaded[subpath] = bundle;
  }

  // A few names per layer, so an empty entry cannot pass by matching an empty source.
  for (const name of ["decode", "encode", "ErrorCode", "rpcError"]) assert.equal(typeof loaded["./codec"][name], typeof loaded["."][name], name);
  for (const name of ["validate", "validatorFor", "typeNames"]) assert.equal(typeof loaded["./schema"][name], "function", name);
  for (const name of ["methodSpec", "isProtocolVersion", "PROTOCOL_VERSIONS"]) assert.ok(name in loaded["./model"], name);
  // Code splitting: the root and a subpath share one copy of each module.
  assert.equal(loaded["."].decode, loaded["./codec"].decode);
  assert.equal(loaded["."].methodSpec, loaded["./model"].methodSpec);
  // The bundles work, not just load.
  const decode = loaded["./codec"].decode as (text: string) => { kind: string };
  assert.equal(decode('{"jsonrpc":"2.0","id":1,"method":"ping"}').kind, "request");
  assert.equal((loaded["./model"].isProtocolVersion as (v: string) => boolean)("2026-07-28"), true);
});

test("build: the kernel bundles are platform-neutral (no node: imports), so they run in Deno, Bun and browsers", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".js") && path !== join(out, "cli.js")) files.push(path);
    }
  };
  walk(out);
  assert.ok(files.length >= subpaths.length);
  for (const file of files) assert.doesNotMatch(readFileSync(file, "utf8"), /\bfrom\s*["']node:|\bimport\(\s*["']node:|\brequire\(/, file);
});

test("build: the bin is an executable #! script that imports the sibling root bundle and validates a spec example", () => {
  const bin = built(pkg.bin["mcp-kernel"].replace(/^(\.\/)?/, "./"));
  const text = readFileSync(bin, "utf8");
  assert.ok(text.startsWith("#!/usr/bin/env node\n"));
  assert.ok(text.includes('from"./index.js"'), "the CLI imports the kernel from ./index.js instead of carrying a copy");
  assert.equal(statSync(bin).mode & 0o111, 0o111);
  const example = join(root, "spec-tests", "fixtures", "examples", "CallToolRequest", "call-tool-request.json");
  assert.equal(execFileSync(process.execPath, [bin, "validate", example], { encoding: "utf8" }), "ok request tools/call\n");
});

test("package.json: ships dist, README and LICENSE, built by npm pack; no install-time build (npm ci must not build)", () => {
  assert.deepEqual(pkg.files, ["dist", "README.md", "LICENSE"]);
  assert.equal(pkg.type, "module");
  for (const hook of ["prepare", "preinstall", "install", "postinstall"]) assert.equal(pkg.scripts[hook], undefined, hook);
  assert.equal(pkg.scripts.prepack, "node scripts/build.mjs");
  assert.equal(pkg.main, pkg.exports["."].import);
  assert.equal(pkg.types, pkg.exports["."].types);
  assert.equal(pkg.bin["mcp-kernel"], "dist/cli.js");
});
