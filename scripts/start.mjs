#!/usr/bin/env node
// `npm start [-- args]`: `mcp-kernel serve ...args` from the compiled tree, no bundle needed.
//
// Works from a clean clone after `npm ci`: compiles first when .build/ is missing or older
// than any source under src/ (tsc takes a few seconds; type errors are reported but do
// not stop a development run as long as the output exists). Ctrl-C or SIGTERM stops the
// server cleanly (exit 0).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const mainJs = join(root, ".build", "src", "cli", "main.js");

/** Newest modification time of any file under `dir`. */
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

if (!existsSync(mainJs) || statSync(mainJs).mtimeMs < newest(join(root, "src"))) {
  const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.json")], {
    cwd: root,
    // stdout may be the protocol stream (`--stdio`): the compiler's output goes to stderr.
    stdio: ["ignore", 2, "inherit"],
  });
  if (!existsSync(mainJs)) process.exit(tsc.status || 1);
  if (tsc.status !== 0) process.stderr.write("mcp-kernel: type errors above; running the compiled output anyway\n");
}

const { main } = await import(pathToFileURL(mainJs).href);
process.exitCode = await main(["serve", ...process.argv.slice(2)], {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  onStop(fn) {
    process.once("SIGINT", fn);
    process.once("SIGTERM", fn);
  },
});
