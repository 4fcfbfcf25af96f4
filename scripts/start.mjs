#!/usr/bin/env node
// `npm start [-- args]`: `mcp-kernel serve ...args` from the compiled tree, no bundle needed.
//
// Works from a clean clone after `npm ci`: compiles first when .build/ is missing or older
// than any source under src/ (tsc takes a few seconds). Over HTTP, Ctrl-C or SIGTERM stops
// the server cleanly (exit 0); with `--stdio` it exits 0 when its input ends, and a signal
// ends it as the signal's default does (a shell reports 130 for Ctrl-C, 143 for SIGTERM).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

// npm runs the script through `sh -c`, and a shell that does not exec its last command
// (dash, Debian's sh) dies of a SIGTERM sent to npm without passing it on: the server would
// outlive `npm start`, still holding its port. Orphaned, our parent changes (to init or a
// subreaper), so when npm launched us we watch for that and stop as that SIGTERM would have
// stopped us: the same signal, so `serve` shuts down through its one path. Unref'd, the
// watch never keeps the process alive. Our parent is read before the compile, which may
// take seconds. (Windows does not reparent: there it never fires.) Only when this script is
// npm's own `start` (npm passes its variables on to everything a script launches: a server
// another script put in the background, whose shell then exits, is left alone), and it
// says why it stops.
if (process.env.npm_lifecycle_event === "start" && process.env.npm_lifecycle_script?.includes("scripts/start.mjs") === true) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    // Once: a second SIGTERM would kill a server still closing its sessions.
    clearInterval(watch);
    process.stderr.write("mcp-kernel: npm start went away (its shell did not pass the signal on); stopping\n");
    process.kill(process.pid, "SIGTERM");
  }, 500).unref();
}

const binJs = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), ".build", "src", "cli", "bin.js");
compileIfStale(binJs, { who: "mcp-kernel" });
// The executable itself, as `mcp-kernel serve ...args`.
process.argv.splice(2, 0, "serve");
await import(pathToFileURL(binJs).href);
