#!/usr/bin/env node
// `npm run conformance`: the official conformance suite (@modelcontextprotocol/conformance,
// pinned in package.json) against our demo server and our demo client, offline, on 127.0.0.1.
//
//   1. compiles the tree into .build-conformance/ (or `--build <dir>`) when it is missing or older than src/;
//   2. starts `mcp-kernel serve --port 0` (both eras, HTTP) and reads its address;
//   3. server side: `conformance server --requirements R` for R = 2025-11-25 and 2026-07-28
//      (the 2026-07-28 set includes the tasks-* extension scenarios; any tasks-* scenario it
//      leaves out is run on its own), one after the other, since they share the server;
//   4. client side, meanwhile: `conformance client --scenario S --command "node … demo-client"`
//      for every client scenario but the auth extensions (client credentials aside), at each of the two versions it applies to
//      (extension scenarios once), a few at a time;
//   5. prints the suite's own summary lines, one line per scenario run, and
//      `conformance: N passed, M failed`.
//
// A scenario run fails when one of its checks is FAILURE (WARNING and SKIPPED do not fail
// it; the suite scores them the same way) or, client side, when the client exited non-zero
// (pseudo-check "client-exit"). conformance/expected-failures.json lists the runs expected to
// fail, each with the exact failing check ids and the reason. The exit code is non-zero only
// for a surprise: a check failing that is not listed, or a listed check that now passes (so
// the file stays honest: delete the entry when the kernel catches up).
//
// The suite's CLI needs Node >= 22; under an older node it runs on bun (a devDependency),
// or on the binary named by $CONFORMANCE_RUNTIME.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// `--build <dir>`: compile into (and run from) another directory, so concurrent runs of
// different trees do not share one output (it needs node_modules, so keep it under the repo).
const buildFlag = process.argv.indexOf("--build");
const outDir = buildFlag >= 0 && process.argv[buildFlag + 1] ? resolve(process.argv[buildFlag + 1]) : join(root, ".build-conformance");
const binJs = join(outDir, "src", "cli", "bin.js");
const suiteJs = join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const expectedPath = join(root, "conformance", "expected-failures.json");

/** The spec revisions whose requirement sets run. */
export const REVISIONS = ["2025-11-25", "2026-07-28"];
/** Bound on one suite process (a whole requirement set, or one client scenario). */
const SUITE_TIMEOUT_MS = 240_000;
/** Client scenarios run at once. */
const CLIENT_CONCURRENCY = 4;

/** The command that runs the suite's CLI: node itself when new enough, else bun. */
function suiteRuntime() {
  if (process.env.CONFORMANCE_RUNTIME) return process.env.CONFORMANCE_RUNTIME;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const bun = join(root, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");
  if (!existsSync(bun)) throw new Error("the conformance CLI needs Node >= 22 or bun (npm ci installs bun as a devDependency)");
  return bun;
}

/** Suite processes still running: each leads its own process group, so the bound can kill what it spawned. */
const running = new Set();
/** The demo server, so an interrupted run does not leave it listening. */
let serverChild;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }
    serverChild?.kill("SIGTERM");
    process.exit(130);
  });
}

/** Runs the suite with `args`; resolves to { code, stdout, stderr } (code null: killed at the bound). */
function runSuite(args) {
  return new Promise((resolvePromise) => {
    const child = spawn(suiteRuntime(), [suiteJs, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.add(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, SUITE_TIMEOUT_MS);
    child.on("close", (code) => {
      running.delete(child.pid);
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Starts the demo server; resolves to { url, stop }. */
function startServer() {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [binJs, "serve", "--port", "0"], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    serverChild = child;
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      const m = /listening on (\S+)/.exec(err);
      if (m) resolvePromise({ url: m[1], stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGTERM")))) });
    });
    child.once("exit", (code) => reject(new Error(`the demo server exited (${code}) before listening:\n${err}`)));
  });
}

/** `conformance list`: scenario names with their version tags, by side. */
async function listScenarios() {
  const { stdout } = await runSuite(["list"]);
  const sides = { server: [], client: [] };
  let side;
  for (const line of stdout.split("\n")) {
    if (line.startsWith("Server scenarios")) side = "server";
    else if (line.startsWith("Client scenarios")) side = "client";
    else if (line.startsWith("Authorization server")) side = undefined;
    const m = /^\s+-\s+(\S+)\s+\[([^\]]*)\]/.exec(line);
    if (m && side) sides[side].push({ name: m[1], tags: m[2].split(",").map((s) => s.trim()) });
  }
  return sides;
}

/** checks.json of every scenario under `dir` (one folder per scenario run), by scenario name. */
function readChecks(dir, prefix) {
  const out = new Map();
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    const file = join(dir, entry, "checks.json");
    if (!existsSync(file)) {
      // Scenarios named `group/name` (auth/*) are saved one folder down.
      if (statSync(join(dir, entry)).isDirectory()) for (const [name, checks] of readChecks(join(dir, entry), "")) out.set(`${entry}/${name}`, checks);
      continue;
    }
    const name = entry.replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "").slice(prefix.length);
    out.set(name, JSON.parse(readFileSync(file, "utf8")));
  }
  return out;
}

/** The suite's own summary block (from "=== SUMMARY ===" on). */
function summaryLines(stdout) {
  const i = stdout.indexOf("=== SUMMARY ===");
  return i < 0 ? [] : stdout.slice(i).split("\n").filter((l) => l.trim() !== "");
}

/** One scenario run's outcome: its failing check ids and the first failure's message. */
function outcome(side, version, scenario, checks, clientExit) {
  const failing = [];
  let firstError;
  for (const c of checks) {
    if (c.status !== "FAILURE") continue;
    if (!failing.includes(c.id)) failing.push(c.id);
    firstError ??= `${c.id}: ${c.errorMessage ?? c.description ?? ""}`;
  }
  // A run that reported no checks at all proves nothing: count it as failed.
  if (checks.length === 0) {
    failing.push("no-checks");
    firstError ??= "no-checks: the suite recorded no checks for this scenario";
  }
  if (clientExit !== undefined && clientExit !== 0) {
    failing.push("client-exit");
    firstError ??= `client-exit: the client (or the suite) exited with ${clientExit === null ? "a timeout" : clientExit}`;
  }
  return { side, version, scenario, checks: checks.length, failing, firstError };
}

async function serverSide(url, scenarios, work) {
  const results = [];
  for (const revision of REVISIONS) {
    const dir = join(work, `server-${revision}`);
    const run = await runSuite(["server", "--url", url, "--requirements", revision, "-o", dir]);
    for (const l of summaryLines(run.stdout)) console.log(`suite server ${revision}: ${l}`);
    const checks = readChecks(dir, "server-");
    if (checks.size === 0) results.push(outcome("server", revision, "(requirements run)", [], run.code ?? null));
    for (const [name, c] of checks) results.push(outcome("server", revision, name, c));
  }
  // tasks-* scenarios the 2026-07-28 set did not run.
  const ran = new Set(results.map((r) => r.scenario));
  for (const s of scenarios.server.filter((s) => s.name.startsWith("tasks-") && !ran.has(s.name))) {
    const dir = join(work, `server-extension-${s.name}`);
    await runSuite(["server", "--url", url, "--scenario", s.name, "-o", dir]);
    results.push(outcome("server", "extension", s.name, readChecks(dir, "server-").get(s.name) ?? []));
  }
  return results;
}

async function clientSide(scenarios, work) {
  const jobs = [];
  for (const s of scenarios.client) {
    // Authorization: the core scenarios run, and of the auth extensions the client
    // credentials one (SEP-1046); DPoP, enterprise-managed and workload identity are not implemented.
    if (s.name.startsWith("auth/") && s.tags.includes("extension") && !s.name.startsWith("auth/client-credentials-")) continue;
    const versions = REVISIONS.filter((r) => s.tags.includes(r));
    // The 2025-03-26 authorization fallbacks have no later revision to run them under.
    if (s.name.startsWith("auth/") && versions.length === 0 && s.tags.includes("2025-03-26")) versions.push("2025-03-26");
    if (versions.length === 0 && s.tags.includes("extension")) jobs.push({ name: s.name, version: "extension" });
    for (const v of versions) jobs.push({ name: s.name, version: v });
  }
  const command = `${process.execPath} ${binJs} demo-client`;
  const results = [];
  let next = 0;
  async function worker() {
    while (next < jobs.length) {
      const job = jobs[next++];
      const dir = join(work, `client-${job.version}-${job.name}`);
      const args = ["client", "--command", command, "--scenario", job.name, "-o", dir];
      if (job.version !== "extension") args.push("--spec-version", job.version);
      const run = await runSuite(args);
      results.push(outcome("client", job.version, job.name, readChecks(dir, "").get(job.name) ?? [], run.code));
    }
  }
  await Promise.all(Array.from({ length: CLIENT_CONCURRENCY }, worker));
  return results;
}

/** conformance/expected-failures.json: { failures: [{ side, version, scenario, checks: [...], reason }] }. */
function loadExpected() {
  const file = JSON.parse(readFileSync(expectedPath, "utf8"));
  const map = new Map();
  for (const e of file.failures) {
    if (typeof e.reason !== "string" || e.reason.trim() === "") throw new Error(`${expectedPath}: ${e.side} ${e.version} ${e.scenario} has no reason`);
    map.set(`${e.side} ${e.version} ${e.scenario}`, e);
  }
  return map;
}

/** Compares one run with its expected-failure entry: a verdict and a line. */
function judge(r, expected) {
  const key = `${r.side} ${r.version} ${r.scenario}`;
  const e = expected.get(key);
  expected.delete(key);
  const listed = new Set(e?.checks ?? []);
  const surprises = r.failing.filter((id) => !listed.has(id));
  const fixed = [...listed].filter((id) => !r.failing.includes(id));
  const counts = `(${r.checks} checks)`;
  if (surprises.length > 0) return { ok: false, passed: false, line: `FAIL  ${key} ${counts}: unexpected failing checks ${surprises.join(", ")}; ${r.firstError}` };
  if (fixed.length > 0) return { ok: false, passed: r.failing.length === 0, line: `XPASS ${key} ${counts}: expected to fail but now pass: ${fixed.join(", ")}; update conformance/expected-failures.json` };
  if (r.failing.length > 0) return { ok: true, passed: false, line: `XFAIL ${key} ${counts}: ${r.failing.join(", ")} (expected: ${e.reason})` };
  return { ok: true, passed: true, line: `PASS  ${key} ${counts}` };
}

async function main() {
  compileIfStale(binJs, { outDir, who: "conformance" });
  const expected = loadExpected();
  const scenarios = await listScenarios();
  if (scenarios.server.length === 0) throw new Error("`conformance list` listed no scenarios (is node_modules/@modelcontextprotocol/conformance installed?)");
  const work = mkdtempSync(join(tmpdir(), "mcp-kernel-conformance-"));
  const server = await startServer();
  let results;
  try {
    results = (await Promise.all([serverSide(server.url, scenarios, work), clientSide(scenarios, work)])).flat();
  } finally {
    await server.stop();
  }
  const order = (r) => `${r.side === "server" ? 0 : 1} ${r.version} ${r.scenario}`;
  results.sort((a, b) => order(a).localeCompare(order(b)));
  let passed = 0;
  let failed = 0;
  let surprises = 0;
  const tally = new Map();
  for (const r of results) {
    const v = judge(r, expected);
    console.log(v.line);
    if (v.passed) passed++;
    else failed++;
    if (!v.ok) surprises++;
    const t = tally.get(`${r.side} ${r.version}`) ?? { passed: 0, failed: 0 };
    if (v.passed) t.passed++;
    else t.failed++;
    tally.set(`${r.side} ${r.version}`, t);
  }
  for (const key of expected.keys()) {
    console.log(`STALE ${key}: listed in conformance/expected-failures.json but did not run`);
    surprises++;
  }
  for (const [k, t] of tally) console.log(`conformance ${k}: ${t.passed} passed, ${t.failed} failed`);
  if (surprises > 0) console.log(`conformance: ${surprises} unexpected result(s), see FAIL / XPASS / STALE above; the suite's output is kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  console.log(`conformance: ${passed} passed, ${failed} failed`);
  return surprises === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    console.error(`conformance: ${e instanceof Error ? e.stack : e}`);
    process.exitCode = 2;
  },
);
