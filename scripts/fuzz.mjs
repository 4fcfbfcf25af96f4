// Long fuzz runs: `npm run fuzz -- --iterations N --seed S [--target name] [--seeds K] [--build dir]`.
// Runs every target (or one) for N inputs from each of K consecutive seeds starting at S,
// over the compiled tree (`npm run fuzz` compiles first). Each failing input is written to
// spec-tests/fuzz/corpus/<target>-s<seed>-i<iteration>.json, which `npm test` replays from
// then on; the exit code is 1 when anything failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const iterations = Number(opt('iterations', 10000));
const seed = Number(opt('seed', Date.now() % 1_000_000));
const seeds = Number(opt('seeds', 1));
const only = opt('target', undefined);
const build = resolve(opt('build', '.build'));
if (!Number.isSafeInteger(iterations) || iterations <= 0 || !Number.isSafeInteger(seed) || !Number.isSafeInteger(seeds) || seeds <= 0) {
  console.error('usage: fuzz.mjs --iterations N --seed S [--seeds K] [--target name] [--build dir]');
  process.exit(2);
}

const { TARGETS, runTarget } = await import(pathToFileURL(join(build, 'spec-tests/fuzz/targets.js')).href);
const { CORPUS_DIR } = await import(pathToFileURL(join(build, 'spec-tests/fuzz/corpus.js')).href);
const targets = TARGETS.filter((t) => only === undefined || t.name === only);
if (targets.length === 0) {
  console.error(`fuzz: no target ${only}; targets: ${TARGETS.map((t) => t.name).join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const target of targets) {
  const started = performance.now();
  let ran = 0;
  for (let s = seed; s < seed + seeds; s++) {
    const failure = await runTarget(target, s, iterations);
    ran += failure === null ? iterations : failure.iteration + 1;
    if (failure !== null) {
      failed++;
      mkdirSync(CORPUS_DIR, { recursive: true });
      const file = join(CORPUS_DIR, `${target.name}-s${s}-i${failure.iteration}.json`);
      const note = `found by scripts/fuzz.mjs: ${failure.error.split('\n')[0]}`;
      writeFileSync(file, JSON.stringify({ target: target.name, seed: s, iteration: failure.iteration, note, input: failure.input }) + '\n');
      console.log(`FAIL ${target.name} seed ${s} iteration ${failure.iteration}: ${failure.error.split('\n')[0]}\n  -> ${file}`);
    }
  }
  const ms = performance.now() - started;
  console.log(`${target.name.padEnd(12)} ${String(ran).padStart(8)} inputs  ${(ms / 1000).toFixed(1).padStart(6)} s  ${Math.round((ran / ms) * 1000)} /s`);
}
console.log(failed === 0 ? `fuzz: no failures (seed ${seed}, ${seeds} seed(s), ${iterations} iterations each)` : `fuzz: ${failed} failure(s) written to ${CORPUS_DIR}`);
process.exit(failed === 0 ? 0 : 1);
