/**
 * `npm run bench [-- --quick] [-- --filter TEXT]`: runs every bench file, prints the
 * table, writes `bench/results.json`.
 *
 * `--out FILE` writes the results elsewhere. Every `.js` file next to this one (the compiled `bench/*.ts`) other than the harness
 * and this runner is a bench file: importing it registers its rows. Rows whose name
 * contains a `--filter` text run, together with the baselines they name (a sweep row with
 * the points it reads). The process
 * re-spawns itself with `--expose-gc` once so the harness can collect between repeats.
 * Exit status 1 when a row with a target fails it or a row cannot be measured.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FULL, QUICK, evaluateSweeps, formatTable, registeredBenches, registeredMemoryBenches, registeredSweeps, runBenches, runMemoryBenches } from "./harness.js";
import type { BenchDef, MemoryBenchDef, SweepDef } from "./harness.js";

const here = dirname(fileURLToPath(import.meta.url));

if (typeof (globalThis as { gc?: unknown }).gc !== "function" && process.env.MCP_KERNEL_BENCH_CHILD === undefined) {
  const child = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, MCP_KERNEL_BENCH_CHILD: "1" },
  });
  process.exit(child.status ?? 1);
}

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const filters: string[] = [];
// npm runs scripts from the package root, so the default lands in the source tree's bench/.
let resultsPath = resolve("bench", "results.json");
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--filter" && i + 1 < args.length) filters.push(args[++i]);
  else if (args[i].startsWith("--filter=")) filters.push(args[i].slice("--filter=".length));
  else if (args[i] === "--out" && i + 1 < args.length) resultsPath = resolve(args[++i]);
  else if (args[i] !== "--quick") {
    process.stderr.write("usage: npm run bench -- [--quick] [--filter TEXT]... [--out FILE]\n");
    process.exit(2);
  }
}

const own = new Set(["harness.js", "run.js"]);
for (const file of readdirSync(here).sort()) {
  if (file.endsWith(".js") && !own.has(file)) await import(pathToFileURL(join(here, file)).href);
}

const all = registeredBenches();
let chosen: readonly BenchDef<any>[] = all;
const sweeps: readonly SweepDef[] = registeredSweeps().filter((d) => filters.length === 0 || filters.some((f) => d.name.includes(f)));
if (filters.length > 0) {
  const wanted = new Set(all.filter((d) => filters.some((f) => d.name.includes(f))).map((d) => d.name));
  for (const s of sweeps) for (const p of s.points) wanted.add(p);
  for (const d of all) if (wanted.has(d.name) && d.baseline !== undefined) wanted.add(d.baseline);
  chosen = all.filter((d) => wanted.has(d.name));
}
const memory: readonly MemoryBenchDef[] = registeredMemoryBenches().filter((d) => filters.length === 0 || filters.some((f) => d.name.includes(f)));

const opts = quick ? QUICK : FULL;
const t0 = performance.now();
process.stderr.write(`${chosen.length + memory.length + sweeps.length} rows, ${opts.repeats} repeats${quick ? " (quick)" : ""}, gc ${typeof (globalThis as { gc?: unknown }).gc === "function" ? "exposed" : "not exposed"}, node ${process.version}\n`);
const progress = (line: string) => process.stderr.write(`  ${line}\n`);
// Memory rows first: they build their own sessions between collections, before the timed
// rows have left garbage and optimized code around.
const memoryResults = await runMemoryBenches(memory, opts, progress);
const timedResults = chosen.length > 0 ? runBenches(chosen, opts, progress) : [];
const results = [...timedResults, ...memoryResults, ...evaluateSweeps(sweeps, timedResults)];
process.stdout.write(formatTable(results));
writeFileSync(resultsPath, JSON.stringify(results, null, 2) + "\n");
process.stdout.write(`wrote ${relative(process.cwd(), resultsPath)} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
process.exitCode = results.some((r) => r.pass === false || r.error !== undefined) ? 1 : 0;
