// Runs every compiled spec test with node:test. The files are listed explicitly
// because `node --test <dir>` means "run this directory as a file" on Node 22+
// while Node 20 has no glob support: an explicit list works on every version.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = process.argv[2] ?? '.build/spec-tests';
const only = process.argv.slice(3); // optional path fragments to filter on

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const files = collect(root, []).filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
if (files.length === 0) {
  console.error(`test: no *.test.js under ${root}${only.length ? ` matching ${only.join(', ')}` : ''}`);
  process.exit(1);
}
const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(run.status ?? 1);
