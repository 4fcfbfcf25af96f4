#!/usr/bin/env node
// `npm run test:runtimes`: the same transport scenarios on Node (the running one, and the
// 22, 24 and 26 release lines), Deno, Bun, in headless Chromium and in workerd (Cloudflare's
// Workers runtime, the `workerd` binary), one line per runtime: `runtime <name>: N passed, M failed`.
// Exits non-zero when any case fails or a runtime is missing.
//
// The scenarios live in spec-tests/runtimes/fixtures/ (cases.ts, shared by all). Steps:
//   1. esbuild bundles them into a fresh temporary folder: runtime-main.js,
//      stdio-server.js and stubborn-server.js for platform "neutral" (node:* left
//      external: Deno and Bun resolve those themselves), browser-main.js and
//      worker-main.js for the browser platform, browser-host.js and workerd-host.js
//      for Node;
//   2. Node (each line), Deno and Bun each run runtime-main.js, which prints `PLAN [...]` and one
//      `RESULT {...}` line per case (see that file);
//   3. Chromium opens index.html from browser-host.js's server (127.0.0.1, port 0), and
//      the page POSTs its results back to it;
//   4. workerd-host.js runs `workerd serve` (the binary of the `workerd` devDependency,
//      located here and passed in) on a config it writes next to worker-main.js, learns
//      the port from workerd's control pipe, fetches the worker's own case results from
//      it (among them our fetch client, inside that request, against an MCP server
//      workerd-host.js serves on 127.0.0.1), and runs our Node HTTP client against the
//      handler the worker serves at its real 127.0.0.1 URL.
// The runtimes run concurrently. Every step is bounded: a case by a timeout inside the
// runtime, each runtime process (and Chromium, and workerd) by RUNTIME_TIMEOUT_MS here, after which
// its process group (workerd: its process) is killed and the cases it did not report count as failed with a
// "timed out" message. spec-tests/runtimes/runtimes.test.ts runs the same functions
// under node:test, one test per runtime.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cachedNode } from "./fetch-node.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FIXTURES = join(root, "spec-tests", "runtimes", "fixtures");

/**
 * The runtimes, in report order. `node` is the Node running this script; node22, node24
 * and node26 are the release lines users run, pinned binaries that scripts/fetch-node.mjs
 * fetches from the npm registry (.ci/run calls it).
 */
export const RUNTIMES = ["node", "node22", "node24", "node26", "deno", "bun", "chromium", "workerd"];

/** The Node release lines run beside the running Node: runtime name to major version. */
const NODE_LINES = { node22: 22, node24: 24, node26: 26 };

/** Bound on one runtime's whole run (its process, or Chromium and its page). */
export const RUNTIME_TIMEOUT_MS = 45_000;

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Bundles the fixtures into a new temporary folder; `cleanup()` removes it. */
export async function prepare() {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-runtimes-"));
  const common = { absWorkingDir: root, bundle: true, format: "esm", target: "es2022", outdir: dir, logLevel: "error" };
  try {
    await Promise.all([
      build({ ...common, platform: "neutral", external: ["node:*"], entryPoints: [join(FIXTURES, "runtime-main.ts"), join(FIXTURES, "stdio-server.ts"), join(FIXTURES, "stubborn-server.ts")] }),
      build({ ...common, platform: "browser", entryPoints: [join(FIXTURES, "browser-main.ts")] }),
      // The worker: what `wrangler deploy` would bundle (workerd's conditions first).
      build({ ...common, platform: "browser", conditions: ["workerd", "worker", "browser"], entryPoints: [join(FIXTURES, "worker-main.ts")] }),
      build({ ...common, platform: "node", entryPoints: [join(FIXTURES, "browser-host.ts"), join(FIXTURES, "workerd-host.ts")] }),
    ]);
    copyFileSync(join(FIXTURES, "index.html"), join(dir, "index.html"));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(names) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    for (const name of names) if (dir !== "" && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The binary of `runtime`, or undefined: the devDependency's first, then PATH. For
 * workerd, the path the `workerd` package exports: the binary of its platform package
 * (`@cloudflare/workerd-linux-64`, ...), found without its postinstall having run.
 */
export function locate(runtime) {
  if (runtime === "node") return process.execPath;
  if (Object.hasOwn(NODE_LINES, runtime)) {
    const major = NODE_LINES[runtime];
    const env = process.env[`NODE${major}_BIN`];
    if (env !== undefined && executable(env)) return env;
    const cached = cachedNode(major);
    return executable(cached) ? cached : onPath([runtime]);
  }
  if (runtime === "workerd") {
    let binary;
    try {
      binary = createRequire(join(root, "package.json"))("workerd").default;
    } catch {
      // Not installed, or no binary for this platform.
    }
    return typeof binary === "string" && executable(binary) ? binary : onPath(["workerd"]);
  }
  if (runtime === "chromium") {
    const env = process.env.CHROMIUM_BIN;
    if (env !== undefined && executable(env)) return env;
    if (executable("/usr/bin/chromium")) return "/usr/bin/chromium";
    return onPath(["chromium", "chromium-browser", "google-chrome"]);
  }
  const local = join(root, "node_modules", ".bin", runtime);
  return executable(local) ? local : onPath([runtime]);
}

const WHERE = {
  node22: "$NODE22_BIN, .cache/node/22/node (node scripts/fetch-node.mjs) or PATH",
  node24: "$NODE24_BIN, .cache/node/24/node (node scripts/fetch-node.mjs) or PATH",
  node26: "$NODE26_BIN, .cache/node/26/node (node scripts/fetch-node.mjs) or PATH",
  deno: "node_modules/.bin/deno (devDependency `deno`; run npm ci) or PATH",
  bun: "node_modules/.bin/bun (devDependency `bun`; run npm ci) or PATH",
  chromium: "$CHROMIUM_BIN, /usr/bin/chromium or PATH (Debian: apt-get install chromium)",
  workerd: "node_modules/workerd (devDependency `workerd`; its binary is in the optional dependency @cloudflare/workerd-<platform>; run npm ci) or PATH",
};

/** Ends a process group we started (`detached: true` made the child its leader). */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Resolves when `child` has exited (at once if it already has). */
function exitOf(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
}

/** A timer as a promise, with a way to stop it. */
function timeout(ms) {
  let timer;
  const promise = new Promise((r) => (timer = setTimeout(() => r("timeout"), ms)));
  return { promise, clear: () => clearTimeout(timer) };
}

/** `promise`, or "timeout" after `ms`; the timer is cleared either way (a pending one would hold this process open). */
async function bounded(promise, ms) {
  const timer = timeout(ms);
  try {
    return await Promise.race([promise, timer.promise]);
  } finally {
    timer.clear();
  }
}

/** The last `n` lines of a log, for a failure message. */
function tail(text, n = 15) {
  const lines = text.trimEnd().split("\n");
  return lines.slice(-n).join("\n");
}

/** Counts a runtime's results against its plan; every planned case not reported fails with `why`. */
function tally(runtime, plan, results, why) {
  const failures = results.filter((r) => !r.ok).map((r) => ({ name: r.name, error: r.error ?? "failed" }));
  const reported = new Set(results.map((r) => r.name));
  for (const name of plan ?? []) if (!reported.has(name)) failures.push({ name, error: why });
  if (plan === undefined) failures.push({ name: "start", error: why });
  return { runtime, passed: results.filter((r) => r.ok).length, failed: failures.length, failures };
}

/** Node, Deno or Bun running runtime-main.js. */
async function runProcess(runtime, command, dir, timeoutMs) {
  const script = join(dir, "runtime-main.js");
  const args = runtime === "deno" ? ["run", "-A", "--no-config", script] : [script];
  const env = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  // c8 (npm test) sets NODE_V8_COVERAGE: the bundles are not src/, so their coverage is noise.
  delete env.NODE_V8_COVERAGE;
  const child = spawn(command, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (t) => (stdout += t));
  child.stderr.setEncoding("utf8").on("data", (t) => (stderr += t));
  const spawnFailed = new Promise((r) => child.once("error", (e) => r({ error: e })));
  const timer = timeout(timeoutMs);
  const outcome = await Promise.race([exitOf(child), spawnFailed, timer.promise]);
  timer.clear();
  // On a timeout, the runtime; otherwise whatever a failed case left behind (a stdio server child).
  killGroup(child, "SIGKILL");
  await bounded(exitOf(child), 2000);
  let plan;
  const results = [];
  for (const line of stdout.split("\n")) {
    if (line.startsWith("PLAN ")) plan = JSON.parse(line.slice(5));
    else if (line.startsWith("RESULT ")) results.push(JSON.parse(line.slice(7)));
  }
  const why =
    outcome === "timeout"
      ? `timed out after ${timeoutMs} ms (process killed)`
      : outcome.error !== undefined
        ? `could not start ${command}: ${outcome.error.message}`
        : `not reported: the process exited with ${outcome.signal ?? `code ${outcome.code}`}`;
  const result = tally(runtime, plan, results, `${why}${stderr ? `\n${tail(stderr)}` : ""}`);
  if (outcome !== "timeout" && outcome.error === undefined && outcome.code !== 0 && result.failed === 0) {
    result.failures.push({ name: "exit", error: `every case passed but the process exited with ${outcome.signal ?? `code ${outcome.code}`}` });
    result.failed++;
  }
  return result;
}

/** Chromium opening the page; the page posts its results to the host. */
async function runChromium(command, dir, timeoutMs) {
  const { startBrowserHost } = await import(pathToFileURL(join(dir, "browser-host.js")).href);
  const host = await startBrowserHost(dir);
  const profile = mkdtempSync(join(tmpdir(), "mcp-kernel-chromium-"));
  const child = spawn(command, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, host.pageUrl], { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t) => (stderr += t));
  const timer = timeout(timeoutMs);
  try {
    const outcome = await Promise.race([
      host.results,
      exitOf(child).then((s) => ({ exited: s })),
      new Promise((r) => child.once("error", (e) => r({ error: e }))),
      timer.promise,
    ]);
    const plan = ["browser page"];
    if (Array.isArray(outcome)) return tally("chromium", outcome.map((r) => r.name), outcome, "");
    const why =
      outcome === "timeout"
        ? `timed out after ${timeoutMs} ms waiting for the page's results`
        : outcome.error !== undefined
          ? `could not start ${command}: ${outcome.error.message}`
          : `chromium exited with ${outcome.exited.signal ?? `code ${outcome.exited.code}`} before the page reported`;
    return tally("chromium", plan, [], `${why}${stderr ? `\n${tail(stderr)}` : ""}`);
  } finally {
    timer.clear();
    killGroup(child, "SIGTERM");
    if ((await bounded(exitOf(child), 3000)) === "timeout") {
      killGroup(child, "SIGKILL");
      await bounded(exitOf(child), 2000);
    }
    await bounded(host.close(), 2000);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/** `workerd serve` (`command`: the binary): the worker runs the shared cases and our fetch client against a Node server, and serves the HTTP handler to our Node client. */
async function runWorkerd(command, dir, timeoutMs) {
  const plan = ["workerd"];
  const timer = timeout(timeoutMs);
  const abort = new AbortController();
  let host;
  try {
    const { startWorkerdHost } = await import(pathToFileURL(join(dir, "workerd-host.js")).href);
    const starting = startWorkerdHost(command, dir, { signal: abort.signal });
    const started = await Promise.race([starting, timer.promise]);
    if (started === "timeout") {
      // The abort kills workerd; startWorkerdHost then rejects with its output.
      abort.abort();
      const why = await starting.then(
        (h) => h.close().then(() => ""),
        (e) => (e instanceof Error ? e.message : String(e)),
      );
      return tally("workerd", plan, [], `timed out after ${timeoutMs} ms starting workerd${why ? `\n${tail(why)}` : ""}`);
    }
    host = started;
    const outcome = await Promise.race([host.run(), timer.promise]);
    const log = host.log() ? `\nworkerd output:\n${tail(host.log())}` : "";
    if (outcome === "timeout") return tally("workerd", host.plan, [], `timed out after ${timeoutMs} ms${log}`);
    const result = tally("workerd", host.plan, outcome, "not reported");
    if (result.failed > 0 && log) for (const f of result.failures) f.error += log;
    return result;
  } catch (e) {
    return tally("workerd", plan, [], `could not run workerd: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  } finally {
    timer.clear();
    if (host !== undefined) await bounded(host.close(), 5000);
  }
}

/**
 * Runs the scenarios on `runtime` from the bundles in `prepared.dir`. Resolves to
 * `{ runtime, passed, failed, failures: [{ name, error }] }`, plus `missing` (a sentence
 * saying what was looked for) when the runtime's binary is not found. `command` replaces
 * the binary {@link locate} finds (null: as if none were found).
 */
export async function runRuntime(runtime, prepared, { timeoutMs = RUNTIME_TIMEOUT_MS, command = locate(runtime) } = {}) {
  if (command === undefined || command === null) {
    const missing = `${runtime} not found: looked in ${WHERE[runtime]}`;
    return { runtime, passed: 0, failed: 1, failures: [{ name: "binary", error: missing }], missing };
  }
  if (runtime === "chromium") return runChromium(command, prepared.dir, timeoutMs);
  if (runtime === "workerd") return runWorkerd(command, prepared.dir, timeoutMs);
  return runProcess(runtime, command, prepared.dir, timeoutMs);
}

/** The report line of one runtime. */
export function summaryLine(result) {
  return `runtime ${result.runtime}: ${result.passed} passed, ${result.failed} failed`;
}

async function main() {
  const prepared = await prepare();
  try {
    const results = await Promise.all(RUNTIMES.map((r) => runRuntime(r, prepared)));
    for (const r of results) for (const f of r.failures) console.error(`FAIL ${r.runtime}: ${f.name}\n  ${f.error.replace(/\n/g, "\n  ")}`);
    for (const r of results) console.log(summaryLine(r));
    if (results.some((r) => r.failed > 0)) process.exitCode = 1;
  } finally {
    prepared.cleanup();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`test:runtimes: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  });
}
