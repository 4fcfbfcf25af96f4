#!/usr/bin/env node
// `npm start [-- args]`: `mcp-kernel serve ...args` from the compiled tree, no bundle needed.
//
// Works from a clean clone after `npm ci`: compiles first when .build/ is missing or older
// than any source under src/ (tsc takes a few seconds). Ctrl-C or SIGTERM stops the
// server cleanly (exit 0).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const binJs = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), ".build", "src", "cli", "bin.js");
compileIfStale(binJs, { who: "mcp-kernel" });
// The executable itself, as `mcp-kernel serve ...args`.
process.argv.splice(2, 0, "serve");
await import(pathToFileURL(binJs).href);
