// Compiles the tree with tsc when a compiled file is missing or older than any source
// under src/, for the scripts that run the compiled tree straight from a clean clone
// (`npm start`, `npm run conformance`). Type errors are reported but do not stop a
// development run as long as the output exists.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Newest modification time of any file under `dir`. */
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

/**
 * Compiles into `outDir` (default: tsconfig's) unless `probe`, a file of the output, is newer
 * than every source. The compiler writes to stderr (stdout may be a protocol stream); `who`
 * names the caller in the warning. Exits the process when tsc produced nothing.
 */
export function compileIfStale(probe, { outDir, who }) {
  if (existsSync(probe) && statSync(probe).mtimeMs >= newest(join(root, "src"))) return;
  const args = [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.json"), ...(outDir === undefined ? [] : ["--outDir", outDir])];
  const tsc = spawnSync(process.execPath, args, { cwd: root, stdio: ["ignore", 2, "inherit"] });
  if (!existsSync(probe)) {
    process.stderr.write(`${who}: tsc produced no ${probe} (exit ${tsc.status})\n`);
    process.exit(tsc.status || 1);
  }
  if (tsc.status !== 0) process.stderr.write(`${who}: type errors above; running the compiled output anyway\n`);
}
